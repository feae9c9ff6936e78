import { useEffect, useId, useState } from 'react'
import type { AccountType } from '../../machines/frame'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { errorText, type MessageKey, rich, useT } from '../i18nViews'
import { FrameViewsStyle, Progress } from './frameViews'
import { SOCIAL_NAMES } from './socialNames'

const ACCOUNT_TYPES: { value: AccountType; label: MessageKey }[] = [
  { value: 'smartAccount', label: 'embedded.smartAccount' },
  { value: 'eoa', label: 'embedded.eoa' },
]

/**
 * The Account view's part for an embedded wallet (loaded only for one): how the visitor logged in, "Update
 * email" for an e-mail login, and the account type (SPEC §4: smart account or EOA), switched through the frame.
 */
export default function EmbeddedAccount() {
  const kit = useKitActor()
  const frame = useFrameActor()
  const email = useSelector(frame, (s) => s?.context.user?.email ?? s?.context.email)
  const social = useSelector(frame, (s) => s?.context.social)
  const userName = useSelector(frame, (s) => s?.context.user?.userName)
  const accountType = useSelector(frame, (s) => s?.context.accountType)
  const error = useSelector(frame, (s) => s?.context.error)
  const canSwitch = useSelector(
    frame,
    (s) => s?.can({ type: 'frame.setAccountType', accountType: 'eoa' }) ?? false,
  )
  const canUpdate = useSelector(frame, (s) => s?.can({ type: 'frame.updateEmail', email: '' }) ?? false)
  const switching = useSelector(frame, (s) => s?.hasTag('refreshingAccount') ?? false)
  // The choice shows at once; the frame's answer (the refreshed user) settles it, or puts the old one back.
  const [chosen, setChosen] = useState<AccountType>()
  useEffect(() => {
    if (!switching) setChosen(undefined)
  }, [switching])
  const name = useId()
  const shown = chosen ?? accountType
  const socialName = social ? SOCIAL_NAMES[social] : undefined
  const t = useT()
  const strong = (text: string) => <strong className="ws-strong">{text}</strong>
  return (
    <section className="ws-stack ws-full" aria-label={t('embedded.label')}>
      <FrameViewsStyle />
      <p className="ws-muted" data-testid="account-login">
        {email && !socialName
          ? rich(t('embedded.loggedInAs'), { email: strong(email) })
          : rich(t(userName ? 'embedded.loggedInWithAs' : 'embedded.loggedInWith'), {
              provider: strong(socialName ?? t('embedded.socialAccount')),
              user: userName,
            })}
      </p>
      {email && !socialName ? (
        <button
          type="button"
          className="ws-secondary"
          disabled={!canUpdate}
          onClick={() => kit.send({ type: 'router.push', view: 'UpdateEmailWallet' })}
        >
          {t('embedded.updateEmail')}
        </button>
      ) : null}
      <fieldset className="ws-fieldset" disabled={!canSwitch}>
        <legend className="ws-label">{t('embedded.accountType')}</legend>
        <div className="ws-segmented">
          {ACCOUNT_TYPES.map((type) => (
            <label key={type.value} className="ws-segment">
              <input
                type="radio"
                name={name}
                value={type.value}
                checked={shown === type.value}
                onChange={() => {
                  if (type.value === accountType) return
                  setChosen(type.value)
                  kit.send({ type: 'frame.setAccountType', accountType: type.value })
                }}
              />
              <span>{t(type.label)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {switching ? <Progress>{t('embedded.switching')}</Progress> : null}
      {error && !switching ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
    </section>
  )
}
