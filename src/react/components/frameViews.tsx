import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import type { FrameErrorInfo } from '../../errors/frame'
import { type FrameActorRef, selectCooldownSeconds } from '../../machines/frame'
import { useSelector } from '../actor'
import { FOCUSABLE, focusForView } from '../controls'
import { errorText, useT } from '../i18nViews'

/*
 * Pieces the embedded wallet's views share (all of them load on demand, and so does this file).
 */

export type FrameSnapshot = ReturnType<FrameActorRef['getSnapshot']>

/**
 * The embedded wallet views' own styles. They ride with these views' code rather than in the kit's stylesheet,
 * which is in the first-load bundle (DESIGN.md's budget); scoped to the kit's root like the rest.
 */
const FRAME_VIEWS_CSS = `
[data-walletstate] .ws-stack { display: grid; gap: 12px; }
[data-walletstate] .ws-code { font-size: 20px; letter-spacing: 0.3em; text-align: center; font-variant-numeric: tabular-nums; }
[data-walletstate] .ws-badge-icon { width: 64px; height: 64px; border-radius: 16px; font-size: 28px; }
[data-walletstate] .ws-social-badge { width: 40px; height: 40px; }
[data-walletstate] .ws-lead { font-size: 16px; font-weight: 600; margin: 0; }
[data-walletstate] .ws-strong { color: var(--ws-foreground); font-weight: 600; word-break: break-all; }
[data-walletstate] .ws-small { font-size: 12px; margin: 0; }
[data-walletstate] .ws-full { width: 100%; }
[data-walletstate] .ws-row-center { justify-content: center; align-items: center; }
[data-walletstate] .ws-frame-slot {
  position: relative; width: 100%; height: min(520px, calc(100vh - 200px)); min-height: 320px;
  border-radius: 12px; border: 1px solid var(--ws-border); background: var(--ws-surface);
  display: grid; place-items: center; outline: none;
}
[data-walletstate] .ws-view[data-view="ApproveTransaction"] { animation: none; }
[data-walletstate] .ws-fieldset { border: none; margin: 0; padding: 0; min-width: 0; display: grid; gap: 8px; }
[data-walletstate] .ws-segmented { display: flex; gap: 4px; padding: 4px; border: 1px solid var(--ws-border); border-radius: 12px; }
[data-walletstate] .ws-segment { flex: 1; position: relative; }
[data-walletstate] .ws-segment input { position: absolute; opacity: 0; inset: 0; margin: 0; cursor: pointer; }
[data-walletstate] .ws-segment span { display: block; padding: 8px; border-radius: 8px; text-align: center; font-size: 14px; }
[data-walletstate] .ws-segment input:checked + span { background: var(--ws-accent); color: var(--ws-accent-contrast); font-weight: 600; }
[data-walletstate] .ws-segment input:focus-visible + span { outline: 2px solid var(--ws-accent); outline-offset: 2px; }
[data-walletstate] .ws-fieldset:disabled .ws-segmented { opacity: 0.7; }
`

/** Renders the embedded wallet views' styles; each of those views puts it in its root. */
export function FrameViewsStyle() {
  return <style>{FRAME_VIEWS_CSS}</style>
}

/**
 * Focus moves into a view when it appears, and again when `part` (what the view shows) changes: to its first
 * field or control, else to the element itself (which then needs `tabIndex={-1}`). The modal focuses a lazy
 * view's placeholder before the view's code has arrived, so each view does it once it is there.
 */
export function useFocusOnMount<T extends HTMLElement>(part?: string | boolean) {
  const ref = useRef<T>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the part shown changes
  useEffect(() => {
    const root = ref.current
    if (!root) return
    focusForView((root.matches(FOCUSABLE) ? root : root.querySelector<HTMLElement>(FOCUSABLE)) ?? root)
  }, [part])
  return ref
}

/** Whole seconds left of the e-mail login cooldown (SPEC §5), refreshed every second while it runs. */
export function useCooldownSeconds(frame: FrameActorRef | undefined): number {
  const until = useSelector(frame, (s) => s?.context.cooldownUntil)
  const [, tick] = useState(0)
  useEffect(() => {
    if (until === undefined) return
    const timer = setInterval(() => tick((n) => n + 1), 1_000)
    return () => clearInterval(timer)
  }, [until])
  if (!frame || until === undefined) return 0
  return selectCooldownSeconds(
    { context: { ...frame.getSnapshot().context, cooldownUntil: until } },
    // The frame's own clock (its input's `now`), which the cooldown is kept on.
    frame.getSnapshot().context.now(),
  )
}

/** A progress line: announced politely, with a spinner for sighted visitors. */
export function Progress({ children }: { children: ReactNode }) {
  return (
    <p className="ws-muted ws-status" role="status">
      <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
      {children}
    </p>
  )
}

export interface CodeFormProps {
  /** The frame's last error (a wrong code, the cooldown), shown under the field. */
  error: FrameErrorInfo | undefined
  /** Whether the frame takes a code now. */
  canSubmit: boolean
  /** What is under way, if anything (checking the code, sending a new one). */
  progress: string | undefined
  onSubmit: (code: string) => void
}

/**
 * A one-time code form: a field named "Code", "Continue", the error in an alert. A wrong code stays typed and
 * selected, so the visitor can retype it at once.
 */
export function CodeForm({ error, canSubmit, progress, onSubmit }: CodeFormProps) {
  const [code, setCode] = useState('')
  const input = useRef<HTMLInputElement>(null)
  const id = useId()
  const errorId = useId()
  // Only the answer to a code typed here takes the focus back (not, say, a refused "Resend code").
  const submitted = useRef(false)
  const t = useT()
  useEffect(() => {
    if (!error || !submitted.current) return
    submitted.current = false
    input.current?.focus()
    input.current?.select()
  }, [error])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!canSubmit) return
    submitted.current = true
    onSubmit(code.replace(/\s+/g, ''))
  }
  return (
    <form className="ws-form" noValidate onSubmit={submit} aria-busy={progress !== undefined}>
      <label htmlFor={id} className="ws-label">
        {t('otp.label')}
      </label>
      <input
        ref={input}
        id={id}
        className="ws-input ws-code"
        type="text"
        name="one-time-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <p className="ws-error-text" role="alert" id={errorId}>
          {errorText(t, error)}
        </p>
      ) : null}
      {progress ? <Progress>{progress}</Progress> : null}
      <button type="submit" className="ws-primary" disabled={!canSubmit}>
        {t('common.continue')}
      </button>
    </form>
  )
}
