import { type FormEvent, useEffect, useId } from 'react'
import {
  isSolanaToken,
  type SendActorRef,
  selectFormError,
  selectInFlight,
  selectIsPreviewing,
  selectSendStatus,
  validateSend,
} from '../../machines/send'
import { useSelector } from '../actor'
import { AccountStyle, formatQuantity, useAccountBalances } from '../components/accountShared'
import { PickRowStyle } from '../components/pickRow'
import { SendFlowLoading, useSendFlow } from '../components/sendShared'
import { TokenIcon, useTokenImage } from '../components/TokenIcon'
import { useKitActor } from '../context'
import { errorText, localizeText, useI18n } from '../i18nViews'

/**
 * SPEC §2, §4, §5 WalletSend: the send form. The token (chosen in WalletSendSelectToken), the amount (with Max)
 * and the receiver (an address or a name); the preview button carries the machine's validation text until the
 * form is valid. The form's values live in the send machine, so they survive a failed send or a look at the
 * preview.
 */
export default function WalletSend() {
  const { send, failed, retry } = useSendFlow()
  // The token picker needs the account's balances; the kit hands them to the send machine.
  useAccountBalances()
  if (!send) return <SendFlowLoading failed={failed} retry={retry} />
  return <SendForm send={send} />
}

function SendForm({ send }: { send: SendActorRef }) {
  const kit = useKitActor()
  const token = useSelector(send, (s) => s.context.token)
  const tokenImage = useTokenImage()
  const amount = useSelector(send, (s) => s.context.sendTokenAmount ?? '')
  const receiver = useSelector(send, (s) => s.context.receiverAddress ?? '')
  const error = useSelector(send, selectFormError)
  const problem = useSelector(send, (s) => validateSend(s.context)?.shortMessage)
  const editing = useSelector(send, (s) => selectSendStatus(s) === 'editing')
  const resolving = useSelector(send, (s) => selectSendStatus(s) === 'resolving')
  const checkingToken = useSelector(send, (s) => selectSendStatus(s) === 'checkingToken')
  const inFlight = useSelector(send, selectInFlight)
  const amountId = useId()
  const receiverId = useId()
  const balanceId = useId()
  const { t, locale } = useI18n()

  // Shown again (back from the preview, or reopened after a send): the form is what is edited now.
  useEffect(() => {
    const snapshot = send.getSnapshot()
    if (selectIsPreviewing(snapshot) || selectSendStatus(snapshot) === 'retryable')
      kit.send({ type: 'send.edit' })
    else if (selectSendStatus(snapshot) === 'done') kit.send({ type: 'send.reset' })
  }, [kit, send])

  if (inFlight) {
    return (
      <div className="ws-stack">
        <AccountStyle />
        <p className="ws-muted" role="status">
          {t('send.inFlight')}
        </p>
        <button
          type="button"
          className="ws-primary"
          onClick={() => kit.send({ type: 'router.push', view: 'WalletSendPreview' })}
        >
          {t('send.viewTransaction')}
        </button>
      </div>
    )
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    kit.send({ type: 'send.preview' })
  }
  const locked = !editing
  return (
    <form className="ws-stack" onSubmit={onSubmit} noValidate>
      <AccountStyle />
      <PickRowStyle />
      <div className="ws-field">
        <span className="ws-label">{t('send.token')}</span>
        {/* The picker shows the token's symbol, all of its visible name; the balance beside it describes it. */}
        <div className="ws-item ws-pick-row">
          {token ? <TokenIcon src={token.iconUrl} fallback={tokenImage(token.symbol)} /> : null}
          <span className="ws-grow">
            <button
              type="button"
              className="ws-pick"
              aria-label={token ? t('send.tokenChosen', { symbol: token.symbol }) : t('common.selectToken')}
              aria-describedby={token ? balanceId : undefined}
              disabled={locked}
              onClick={() => kit.send({ type: 'router.push', view: 'WalletSendSelectToken' })}
            >
              {token ? token.symbol : t('common.selectToken')}
            </button>
            {token ? (
              <span className="ws-muted ws-small" id={balanceId}>
                {t('common.balance', {
                  amount: `${formatQuantity(token.quantity.numeric, 4, locale)} ${token.symbol}`,
                })}
              </span>
            ) : null}
          </span>
          <span aria-hidden="true" className="ws-flip">
            ›
          </span>
        </div>
      </div>
      <div className="ws-field">
        <label className="ws-label" htmlFor={amountId}>
          {t('send.amount')}
        </label>
        <div className="ws-row">
          <input
            id={amountId}
            className="ws-input"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            value={amount}
            disabled={locked}
            onChange={(event) => kit.send({ type: 'send.setAmount', amount: event.target.value })}
          />
          <button
            type="button"
            className="ws-secondary ws-fit"
            disabled={locked || !token}
            onClick={() => kit.send({ type: 'send.setMax' })}
          >
            {t('common.max')}
          </button>
        </div>
      </div>
      <div className="ws-field">
        <label className="ws-label" htmlFor={receiverId}>
          {t('send.receiver')}
        </label>
        <input
          id={receiverId}
          className="ws-input"
          autoComplete="off"
          spellCheck={false}
          // No names on Solana (SPEC §1: names are eip155's): only a public key is taken there.
          placeholder={token && isSolanaToken(token) ? t('send.solanaAddress') : t('send.addressOrName')}
          value={receiver}
          disabled={locked}
          aria-invalid={
            error?.name === 'ResolveNameError' || error?.name === 'NameOnSolanaError' ? true : undefined
          }
          onChange={(event) => kit.send({ type: 'send.setReceiver', receiverAddress: event.target.value })}
        />
      </div>
      {error ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
      <button type="submit" className="ws-primary" disabled={locked || problem !== undefined}>
        {resolving
          ? t('send.resolving')
          : checkingToken
            ? t('send.checkingToken')
            : problem
              ? localizeText(t, problem)
              : t('send.preview')}
      </button>
    </form>
  )
}
