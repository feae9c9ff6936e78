import { useSelector } from '@xstate/react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { SocialProvider } from '../../config'
import type { FrameActorRef } from '../../machines/frame'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { SOCIAL_NAMES } from './socialNames'

/*
 * The Connect view's embedded-wallet logins: the e-mail form and the social buttons. Part of the main bundle,
 * so it reads the login frame through types and snapshot methods only (the frame's code loads on demand).
 */

type FrameSnapshot = ReturnType<FrameActorRef['getSnapshot']>

/** Not loaded yet (the kit loads the frame when the modal opens) counts as loading. */
function frameStatus(s: FrameSnapshot | undefined): 'loading' | 'ready' | 'failed' {
  if (!s) return 'loading'
  if (s.hasTag('failed')) return 'failed'
  return s.hasTag('loading') ? 'loading' : 'ready'
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
  const status = useSelector(frame, frameStatus)
  const busy = useSelector(frame, (s) => s?.hasTag('busy') ?? false)
  const sending = useSelector(frame, (s) => s?.hasTag('sendingCode') ?? false)
  const error = useSelector(frame, (s) => s?.context.error?.message)
  const popupBlocked = useSelector(frame, (s) => s?.context.error?.name === 'AuthInitError')
  if (status === 'failed') {
    return (
      <div className="ws-notice">
        <p className="ws-error-text" role="alert" id={id}>
          {error ?? 'Unable to load email login dependency'}
        </p>
        <button type="button" className="ws-secondary" onClick={() => kit.send({ type: 'frame.retry' })}>
          Try again
        </button>
      </div>
    )
  }
  if (status === 'loading' || busy) {
    return (
      <p className="ws-muted ws-status" role="status">
        <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
        {status === 'loading' ? 'Loading…' : sending ? 'Sending the code…' : 'Please wait…'}
      </p>
    )
  }
  return error ? (
    <p className="ws-error-text" role="alert" id={id}>
      {error}
      {popupBlocked ? (
        <span className="ws-muted"> The pop-up may be blocked: allow pop-ups for this site.</span>
      ) : null}
    </p>
  ) : null
}

/** SPEC §1 e-mail login: the address goes to the frame, which answers with the next step (a code, a device check). */
export function EmailLogin({ noticeId }: { noticeId: string | undefined }) {
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
    <form className="ws-form" noValidate onSubmit={submit} aria-busy={busy}>
      <label htmlFor={id} className="ws-label">
        Email
      </label>
      <div className="ws-row">
        <input
          ref={input}
          id={id}
          className="ws-input"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={error?.name === 'InvalidEmailError' ? true : undefined}
          aria-describedby={error ? noticeId : undefined}
        />
        <button ref={submitButton} type="submit" className="ws-primary ws-fit" disabled={!canSubmit}>
          {busy ? <span className="ws-spinner ws-spinner-small" aria-hidden="true" /> : null}
          Continue
        </button>
      </div>
    </form>
  )
}

/** SPEC §1 social logins, in the host's order; Farcaster signs in by QR code, the others in a popup. */
export function SocialLogins({ providers }: { providers: readonly SocialProvider[] }) {
  const kit = useKitActor()
  const canStart = useSelector(useFrameActor(), canLogIn)
  return (
    <ul className="ws-socials" aria-label="Log in with">
      {providers.map((provider) => (
        <li key={provider}>
          <button
            type="button"
            className="ws-item ws-social"
            disabled={!canStart}
            onClick={() =>
              // Sent in the click itself: the popup must open inside the visitor's gesture or it is blocked.
              kit.send(
                provider === 'farcaster'
                  ? { type: 'frame.connectFarcaster' }
                  : { type: 'frame.connectSocial', provider },
              )
            }
          >
            <span className="ws-wallet-fallback ws-social-glyph" aria-hidden="true">
              {SOCIAL_NAMES[provider][0]}
            </span>
            <span>{SOCIAL_NAMES[provider]}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}
