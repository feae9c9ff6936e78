import { useEffect, useState } from 'react'
import { SmartAccountUnsupportedError } from '../../errors/frame'
import type { AccountType } from '../../machines/frame'
import { smartAccountEnabled } from '../../machines/frame/networks'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { errorText, type MessageKey, rich, useT } from '../i18nViews'
import { FrameViewsStyle, Progress } from './frameViews'
import { SOCIAL_NAMES } from './socialNames'

const TYPE_LABELS: Record<AccountType, MessageKey> = {
  smartAccount: 'embedded.smartAccount',
  eoa: 'embedded.eoa',
}
const SWITCH_LABELS: Record<AccountType, MessageKey> = {
  smartAccount: 'embedded.switchToSmartAccount',
  eoa: 'embedded.switchToEoa',
}

/**
 * The Account view's part for an embedded wallet (loaded only for one): how the visitor logged in, "Update
 * email" for an e-mail login, and the account type (SPEC §4: smart account or EOA) with a switch to the other
 * one through the frame; on a network without smart accounts, SPEC §8's 'This application might not support
 * Smart Accounts' instead of the switch to one.
 */
export default function EmbeddedAccount() {
  const kit = useKitActor()
  const frame = useFrameActor()
  const email = useSelector(frame, (s) => s?.context.user?.email ?? s?.context.email)
  const social = useSelector(frame, (s) => s?.context.social)
  const userName = useSelector(frame, (s) => s?.context.user?.userName)
  const accountType = useSelector(frame, (s) => s?.context.accountType)
  const error = useSelector(frame, (s) => s?.context.error)
  // A Solana user's chain is `solana:…` (its only account the EOA).
  const onEvm = useSelector(
    frame,
    (s) => s?.context.user !== undefined && !String(s.context.user.chainId).startsWith('solana:'),
  )
  const smartAccountHere = useSelector(frame, (s) => (s ? smartAccountEnabled(s.context) : false))
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
  const shown = chosen ?? accountType
  const other: AccountType | undefined = onEvm ? (shown === 'eoa' ? 'smartAccount' : 'eoa') : undefined
  // SPEC §8 on a network without smart accounts, in place of the switch to one.
  const unsupportedShown = other === 'smartAccount' && !smartAccountHere
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
      {shown ? (
        <p className="ws-muted" data-testid="account-type">
          {rich(t('embedded.accountTypeIs'), { type: strong(t(TYPE_LABELS[shown])) })}
        </p>
      ) : null}
      {/* SPEC §4: Solana's only account is its EOA; on eip155 the other type is offered where the network has it. */}
      {other === undefined ? null : unsupportedShown ? (
        <p className="ws-muted" data-testid="smart-account-unsupported">
          {errorText(t, new SmartAccountUnsupportedError())}
        </p>
      ) : (
        <button
          type="button"
          className="ws-secondary"
          disabled={!canSwitch}
          onClick={() => {
            setChosen(other)
            kit.send({ type: 'frame.setAccountType', accountType: other })
          }}
        >
          {t(SWITCH_LABELS[other])}
        </button>
      )}
      {switching ? <Progress>{t('embedded.switching')}</Progress> : null}
      {error && !switching && !(unsupportedShown && error.name === 'SmartAccountUnsupportedError') ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
    </section>
  )
}
