import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import type { SocialProvider } from '../../config'
import type { FrameActorRef } from '../../machines/frame'
import { selectCapability } from '../../machines/kit'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { EMAIL_FIELD, isViewFocus } from '../controls'
import { useFrameActor } from '../hooks'
import { errorText, localizeText, useT } from '../i18n'
import { SocialIcon } from './SocialIcon'
import { SOCIAL_NAMES } from './socialNames'

/*
 * The Connect view's embedded-wallet logins: the e-mail form and the social buttons. Part of the main bundle,
 * so it reads the login frame through types and snapshot methods only (the frame's code loads on demand).
 */

type FrameSnapshot = ReturnType<FrameActorRef['getSnapshot']>

/** Asked for but not running yet (its code is loading) counts as loading. */
function frameStatus(s: FrameSnapshot | undefined): 'loading' | 'ready' | 'failed' {
  if (!s) return 'loading'
  if (s.hasTag('failed')) return 'failed'
  return s.hasTag('loading') ? 'loading' : 'ready'
}

/** Whether the kit has been asked for the login frame yet (it loads on the visitor's intent). */
function useFrameRequested(): boolean {
  return useSelector(useKitActor(), (s) => selectCapability(s, 'embedded') !== 'idle')
}

/**
 * Event handlers that ask the kit for the login frame when the visitor turns to a login: the pointer enters
 * it or presses on it, text is typed or pasted in it, and (`focus`) the visitor focuses a control in it. A
 * view focuses its first control itself when it opens (`focusForView`): that focus is not the visitor's, so
 * Connect opening on a social button (e-mail off) does not load the frame. The e-mail form does not count
 * focus at all (Connect opens on its field).
 */
function useLoadOnIntent({ focus }: { focus: boolean }) {
  const kit = useKitActor()
  const requested = useFrameRequested()
  if (requested) return {}
  const load = () => {
    if (selectCapability(kit.getSnapshot(), 'embedded') === 'idle') kit.send({ type: 'embedded.load' })
  }
  return {
    onPointerEnter: load,
    onPointerDown: load,
    // A key that types (not Escape closing the dialog, nor Tab passing through).
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key.length === 1 && !event.ctrlKey && !event.metaKey) load()
    },
    onChange: load,
    onPaste: load,
    ...(focus ? { onFocus: () => isViewFocus() || load() } : {}),
  }
}

/** Whether a login may start now: the frame is ready and no login or check is under way. */
const canLogIn = (s: FrameSnapshot | undefined) => s?.can({ type: 'frame.connectEmail', email: '' }) ?? false

/**
 * What the frame says about the logins: loading, a step under way, the frame's failure with "Try again", or
 * the last login error. One place, so a visitor hears each once.
 */
export function FrameNotice({ id }: { id: string }) {
  const kit = useKitActor()
  const frame = useFrameActor()
  const requested = useFrameRequested()
  const status = useSelector(frame, frameStatus)
  const busy = useSelector(frame, (s) => s?.hasTag('busy') ?? false)
  const sending = useSelector(frame, (s) => s?.hasTag('sendingCode') ?? false)
  const error = useSelector(frame, (s) => s?.context.error)
  const popupBlocked = useSelector(frame, (s) => s?.context.error?.name === 'AuthInitError')
  const t = useT()
  if (status === 'failed') {
    return (
      <div className="ws-notice">
        <p className="ws-error-text" role="alert" id={id}>
          {localizeText(t, error ? errorText(t, error) : 'Unable to load email login dependency')}
        </p>
        <button type="button" className="ws-secondary" onClick={() => kit.send({ type: 'frame.retry' })}>
          {t('common.tryAgain')}
        </button>
      </div>
    )
  }
  if (!requested) return null
  if (status === 'loading' || busy) {
    return (
      <p className="ws-muted ws-status" role="status">
        <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
        {status === 'loading'
          ? t('common.loading')
          : sending
            ? t('frame.sendingCode')
            : t('common.pleaseWait')}
      </p>
    )
  }
  return error ? (
    <p className="ws-error-text" role="alert" id={id}>
      {errorText(t, error)}
      {popupBlocked ? <span className="ws-muted"> {t('frame.popupBlocked')}</span> : null}
    </p>
  ) : null
}

/**
 * SPEC §1 e-mail login: the address goes to the frame, which answers with the next step (a code, a device check).
 * `blockedBy`: the id of why no login may start yet (the legal checkbox unticked); "Continue" is then
 * unavailable and described by it (the kit refuses the login all the same).
 */
export function EmailLogin({
  noticeId,
  blockedBy,
}: {
  noticeId: string | undefined
  blockedBy?: string | undefined
}) {
  const kit = useKitActor()
  const frame = useFrameActor()
  const canSubmit = useSelector(frame, canLogIn)
  const busy = useSelector(frame, (s) => s?.hasTag('busy') ?? false)
  const error = useSelector(frame, (s) => s?.context.error)
  // The e-mail of the last attempt (the frame keeps it), so coming back from the code view keeps it typed.
  const [email, setEmail] = useState(() => frame?.getSnapshot().context.email ?? '')
  const input = useRef<HTMLInputElement>(null)
  const submitButton = useRef<HTMLButtonElement>(null)
  const id = useId()
  const intent = useLoadOnIntent({ focus: false })
  const t = useT()

  // After a refused address the field takes focus again, unless the visitor has moved on (e.g. to a social
  // button, whose own error this may be).
  useEffect(() => {
    const active = document.activeElement
    if (error && (!active || active === document.body || active === submitButton.current))
      input.current?.focus()
  }, [error])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (canSubmit) kit.send({ type: 'frame.connectEmail', email })
  }
  return (
    <form className="ws-form" noValidate onSubmit={submit} aria-busy={busy} {...intent}>
      <label htmlFor={id} className="ws-label">
        {t('email.label')}
      </label>
      <div className="ws-row">
        <input
          ref={input}
          id={id}
          className="ws-input"
          {...EMAIL_FIELD}
          placeholder={t('email.placeholder')}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={error?.name === 'InvalidEmailError' ? true : undefined}
          aria-describedby={error ? noticeId : undefined}
        />
        <button
          ref={submitButton}
          type="submit"
          className="ws-primary ws-fit"
          disabled={!canSubmit}
          aria-disabled={blockedBy ? true : undefined}
          aria-describedby={blockedBy}
        >
          {busy ? <span className="ws-spinner ws-spinner-small" aria-hidden="true" /> : null}
          {t('common.continue')}
        </button>
      </div>
    </form>
  )
}

/**
 * SPEC §1 social logins, in the host's order; Farcaster signs in by QR code, the others in a popup. `blockedBy`:
 * as EmailLogin's (a click then starts nothing).
 */
export function SocialLogins({
  providers,
  blockedBy,
}: {
  providers: readonly SocialProvider[]
  blockedBy?: string | undefined
}) {
  const kit = useKitActor()
  const frame = useFrameActor()
  const canStart = useSelector(frame, canLogIn)
  const requested = useFrameRequested()
  const failed = useSelector(frame, (s) => s?.hasTag('failed') ?? false)
  // Ready: loaded and not failed (a login may be under way: a click then is not kept for later).
  const ready = useSelector(frame, (s) => !!s && !s.hasTag('loading') && !s.hasTag('failed'))
  const intent = useLoadOnIntent({ focus: true })
  const t = useT()
  // A button clicked while the frame still loads (it loads on intent, moments before): that login starts
  // once the frame is ready, still within the browser's user activation of the click (Chromium allows a popup
  // for 5 s after it); a popup blocked all the same gets the frame's popup error, and a new click.
  const [pending, setPending] = useState<SocialProvider>()
  const start = (provider: SocialProvider) =>
    kit.send(
      provider === 'farcaster'
        ? { type: 'frame.connectFarcaster' }
        : { type: 'frame.connectSocial', provider },
    )
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the frame becomes ready or stops loading
  useEffect(() => {
    if (!pending) return
    if (canStart) start(pending)
    if (canStart || failed) setPending(undefined)
  }, [pending, canStart, failed])
  return (
    <ul className="ws-socials" aria-label={t('social.logInWith')} {...intent}>
      {providers.map((provider) => (
        <li key={provider}>
          {/* Before the frame is asked for, a button looks ready (a click asks for it and starts once it is).
              Unavailable (the frame loading, or a login under way) is aria-disabled, not disabled: a button
              focused while the frame loads keeps its focus. */}
          <button
            type="button"
            className="ws-item ws-social"
            aria-disabled={!blockedBy && (canStart || !requested) ? undefined : true}
            aria-describedby={blockedBy}
            aria-busy={pending === provider || undefined}
            onClick={() => {
              // Not agreed to the terms yet: nothing starts (and nothing waits to start).
              if (blockedBy) return
              // Sent in the click itself when it can: the popup must open inside the visitor's gesture.
              if (canStart) start(provider)
              else if (!ready) {
                setPending(provider)
                if (!requested) kit.send({ type: 'embedded.load' })
              }
            }}
          >
            <SocialIcon provider={provider} className="ws-social-glyph" />
            <span>{SOCIAL_NAMES[provider]}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}
