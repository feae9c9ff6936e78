import { useMemo } from 'react'
import {
  feeInUsd,
  type SendActorRef,
  type SendStatus,
  selectSendStatus,
  simulatedChanges,
} from '../../machines/send'
import { localeDecimal, truncateAddress } from '../../utils/format'
import { useSelector } from '../actor'
import { AccountStyle, formatQuantity, formatUsd, useActiveNetwork } from '../components/accountShared'
import { BalanceChanges } from '../components/BalanceChanges'
import { ButtonPair } from '../components/ButtonPair'
import { SendFlowLoading, useRefreshAfterSend, useSendFlow } from '../components/sendShared'
import { useKitActor } from '../context'
import { errorText, useI18n, useT } from '../i18nViews'

/**
 * SPEC §2, §4 WalletSendPreview: what is about to be sent, to whom, and the network fee; Send asks the wallet.
 * Then the progress (the wallet's prompt, the receipt), and a failure with its message and the way on: try again,
 * or back to the form with its values kept. A success leaves this view (the kit routes: ERC-20 to Account,
 * native back).
 */
export default function WalletSendPreview() {
  const { send, failed, retry } = useSendFlow()
  useRefreshAfterSend(send)
  if (!send) return <SendFlowLoading failed={failed} retry={retry} />
  return <SendPreview send={send} />
}

/**
 * What is about to be sent and its progress (the send flow's preview). Pay shows the same, with its own labels:
 * `confirmLabel` on the button that asks the wallet, `editLabel` on the way back after a failure.
 */
export function SendPreview({
  send,
  confirmLabel,
  editLabel,
}: {
  send: SendActorRef
  confirmLabel?: string
  editLabel?: string
}) {
  const kit = useKitActor()
  const network = useActiveNetwork()
  const stage = useSelector(send, selectSendStatus)
  const token = useSelector(send, (s) => s.context.token)
  const amount = useSelector(send, (s) => s.context.sendTokenAmount)
  const to = useSelector(send, (s) => s.context.resolvedAddress)
  const profileName = useSelector(send, (s) => s.context.receiverProfileName)
  const fee = useSelector(send, (s) => s.context.fee)
  const feeUsd = useSelector(send, (s) => feeInUsd(s.context))
  const error = useSelector(send, (s) => s.context.error)
  const hash = useSelector(send, (s) => s.context.hash)
  // See before you sign: the simulated changes, only when the node could simulate (never a guessed line).
  const simulation = useSelector(send, (s) => s.context.simulation)
  const changes = useMemo(() => simulatedChanges(simulation), [simulation])
  // Past the wallet's time limit, "Send again" only once the chain was looked at (the machine says when).
  const canSendAgain = useSelector(
    send,
    (s) => selectSendStatus(s) === 'overdue' && s.can({ type: 'send.retry' }),
  )
  const usd = !network?.testnet
  const { t, locale } = useI18n()

  if (stage === 'done') {
    return (
      <p className="ws-muted" role="status">
        {t('send.sent')}
      </p>
    )
  }
  if (stage === 'editing' || stage === 'resolving' || stage === 'checkingToken' || !token || !amount || !to) {
    return (
      <div className="ws-stack">
        <p className="ws-muted">{t('preview.nothing')}</p>
        <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'router.back' })}>
          {t('preview.backToForm')}
        </button>
      </div>
    )
  }
  const value = usd && token.price ? Number(amount) * token.price : undefined
  const back = () => kit.send({ type: 'router.back' })
  return (
    <div className="ws-stack" data-stage={stage}>
      <AccountStyle />
      <dl className="ws-summary" aria-label={t('send.summary')}>
        <div>
          <dt>{t('send.amount')}</dt>
          <dd data-testid="send-amount">
            {localeDecimal(amount.trim(), locale)} {token.symbol}
            {value !== undefined ? (
              <span className="ws-muted ws-small"> ({formatUsd(value, locale)})</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>{t('send.to')}</dt>
          <dd data-testid="send-receiver" title={to}>
            {profileName ? `${profileName} (${truncateAddress(to)})` : truncateAddress(to)}
          </dd>
        </div>
        {network ? (
          <div>
            <dt>{t('send.network')}</dt>
            <dd>{network.name}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('send.networkFee')}</dt>
          <dd data-testid="send-fee">
            {fee
              ? `${formatQuantity(fee.formatted, 8, locale)} ${fee.symbol}${usd && feeUsd !== undefined ? ` (${formatUsd(feeUsd, locale)})` : ''}`
              : stage === 'estimating'
                ? t('send.estimating')
                : '—'}
            {fee?.rent ? <span className="ws-muted ws-small"> {t('send.rent')}</span> : null}
          </dd>
        </div>
        <BalanceChanges changes={changes} simulating={stage === 'simulating'} />
      </dl>
      <Progress stage={stage} hash={hash} looking={stage === 'overdue' && !canSendAgain} />
      {error &&
      (stage === 'unavailable' ||
        stage === 'retryable' ||
        stage === 'unconfirmed' ||
        stage === 'disagrees' ||
        stage === 'overdue') ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
      {stage === 'ready' || stage === 'estimating' || stage === 'simulating' ? (
        <div className="ws-row">
          <button type="button" className="ws-secondary" onClick={back}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="ws-primary"
            style={{ flex: 1 }}
            disabled={stage !== 'ready'}
            onClick={() => kit.send({ type: 'send.confirm' })}
          >
            {confirmLabel ?? t('send.send')}
          </button>
        </div>
      ) : null}
      {stage === 'sending' || stage === 'confirming' ? (
        <button type="button" className="ws-primary" disabled>
          {stage === 'sending' ? t('send.sending') : t('send.confirming')}
        </button>
      ) : null}
      {stage === 'unavailable' || stage === 'retryable' || stage === 'disagrees' ? (
        <ButtonPair
          secondary={{ label: editLabel ?? t('common.edit'), onClick: back }}
          primary={{ label: t('common.tryAgain'), onClick: () => kit.send({ type: 'send.retry' }) }}
        />
      ) : null}
      {canSendAgain ? (
        <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'send.retry' })}>
          {t('send.sendAgain')}
        </button>
      ) : null}
      {stage === 'unconfirmed' ? (
        <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'send.retry' })}>
          {t('common.checkAgain')}
        </button>
      ) : null}
    </div>
  )
}

function Progress({
  stage,
  hash,
  looking,
}: {
  stage: SendStatus
  hash: string | undefined
  /** Past the wallet's time limit, while the chain is asked whether the transaction went out. */
  looking: boolean
}) {
  const t = useT()
  const label =
    stage === 'sending'
      ? t('send.approve')
      : stage === 'confirming'
        ? t('send.waitConfirm')
        : looking
          ? t('send.overdueChecking')
          : undefined
  if (!label) return null
  return (
    <div className="ws-stack">
      <p className="ws-status ws-muted" role="status">
        <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
        {label}
      </p>
      {hash ? (
        <p className="ws-mono ws-muted ws-small" data-testid="send-hash">
          {hash}
        </p>
      ) : null}
    </div>
  )
}
