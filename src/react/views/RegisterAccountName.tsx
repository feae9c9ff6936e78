import { type FormEvent, useId, useRef } from 'react'
import { NAME_SUFFIX } from '../../constants'
import {
  type NameStatus,
  type NamesActorRef,
  selectFullName,
  selectNameRule,
  selectNameStatus,
} from '../../machines/names'
import { useSelector } from '../actor'
import { NamesFlowLoading, NamesStyle, useNamesFlow } from '../components/namesShared'
import { useKitActor } from '../context'
import type { Translate } from '../i18n'
import { localizeText, useT } from '../i18nViews'

/**
 * Issue 20 RegisterAccountName, what Account's "Choose a name" opens: a textbox named "Name" with the suffix
 * beside it, the SPEC §5 rule while what is typed breaks it (no request is made then), whether the name is free
 * (announced as it changes), other free names as buttons when it is taken, and Register, which asks the wallet to
 * sign. A failed registration comes back here with its error and the name typed kept. The values live in the
 * names machine; this view shows them and sends the visitor's events through the kit.
 */
export default function RegisterAccountName() {
  const { names, failed, retry } = useNamesFlow()
  if (!names) return <NamesFlowLoading failed={failed} retry={retry} />
  return <NameForm names={names} />
}

function NameForm({ names }: { names: NamesActorRef }) {
  const kit = useKitActor()
  const status = useSelector(names, selectNameStatus)
  const value = useSelector(names, (s) => s.context.value)
  const rule = useSelector(names, selectNameRule)
  const fullName = useSelector(names, selectFullName)
  const error = useSelector(names, (s) => s.context.error)
  const canRegister = useSelector(names, (s) => s.can({ type: 'names.register' }))
  const suggestions = useSelector(names, (s) =>
    s.context.suggestions
      .filter((suggestion) => !suggestion.registered && suggestion.name !== selectFullName(s))
      .map((suggestion) => suggestion.name)
      .join('\n'),
  )
  const input = useRef<HTMLInputElement>(null)
  const inputId = useId()
  const suffixId = useId()
  const ruleId = useId()
  const statusId = useId()
  const t = useT()

  const signing = status === 'signing'
  const submitting = status === 'submitting'
  const registering = signing || submitting
  const invalid = status === 'invalid'
  const shownSuggestions = status === 'taken' && suggestions ? suggestions.split('\n') : []
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (canRegister) kit.send({ type: 'names.register' })
  }
  const statusText = statusLine(status, fullName, t)
  // A suggestion or Try again goes away once pressed: the textbox takes the focus, where Enter registers.
  const sendAndRefocus = (event: { type: 'names.pick'; name: string } | { type: 'names.retry' }) => {
    kit.send(event)
    input.current?.focus()
  }
  return (
    <form className="ws-names" onSubmit={onSubmit} noValidate data-status={status}>
      <NamesStyle />
      <label className="ws-label" htmlFor={inputId}>
        {t('names.label')}
      </label>
      {/* A name is Latin letters, digits and hyphens: it and its suffix read left to right in every language. */}
      <div className="ws-name-field" dir="ltr">
        <input
          ref={input}
          id={inputId}
          className="ws-input"
          autoComplete="off"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          placeholder={t('names.placeholder')}
          value={value}
          readOnly={registering}
          aria-invalid={invalid || undefined}
          aria-describedby={[suffixId, invalid ? ruleId : undefined, statusId].filter(Boolean).join(' ')}
          onChange={(event) => kit.send({ type: 'names.type', value: event.target.value })}
        />
        <span id={suffixId} className="ws-name-suffix">
          {NAME_SUFFIX}
        </span>
      </div>
      {invalid ? (
        <p id={ruleId} className="ws-error-text ws-name-rule" data-testid="name-rule">
          {rule ? localizeText(t, rule) : null}
        </p>
      ) : null}
      <p
        id={statusId}
        className="ws-muted ws-name-status"
        role="status"
        aria-live="polite"
        data-status={statusText ? status : undefined}
      >
        {statusText}
      </p>
      {shownSuggestions.length > 0 ? (
        <section className="ws-names" aria-labelledby={`${statusId}-suggestions`}>
          <h3 id={`${statusId}-suggestions`} className="ws-label">
            {t('names.suggestions')}
          </h3>
          <ul className="ws-name-suggestions">
            {shownSuggestions.map((name) => (
              <li key={name}>
                <button
                  type="button"
                  className="ws-name-suggestion"
                  onClick={() => sendAndRefocus({ type: 'names.pick', name })}
                >
                  {name}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {error ? (
        <p className="ws-error-text" role="alert">
          {localizeText(t, error)}
        </p>
      ) : null}
      {status === 'suggestionsFailed' ? (
        <button
          type="button"
          className="ws-secondary"
          onClick={() => sendAndRefocus({ type: 'names.retry' })}
        >
          {t('common.tryAgain')}
        </button>
      ) : null}
      <button
        type="submit"
        className="ws-primary"
        // While the wallet signs and the API registers it stays focusable (a keyboard keeps its place), inert.
        disabled={!canRegister && !registering}
        aria-disabled={registering || undefined}
        aria-busy={submitting || undefined}
      >
        {signing ? (
          t('names.confirmInWallet')
        ) : submitting ? (
          <span className="ws-fit">
            <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
            {t('names.registering')}
          </span>
        ) : (
          t('names.register')
        )}
      </button>
    </form>
  )
}

/** The line under the textbox, announced as it changes: checking, free, taken (nothing while typing). */
function statusLine(status: NameStatus, fullName: string | undefined, t: Translate): string {
  if (status === 'checking' || status === 'debouncing') return t('names.checking')
  if (!fullName) return ''
  if (status === 'available') return t('names.available', { name: fullName })
  if (status === 'taken') return t('names.taken', { name: fullName })
  return ''
}
