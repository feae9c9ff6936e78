import { type FormEvent, useEffect, useId, useState } from 'react'
import { SWAP_SLIPPAGE_MAX } from '../../constants'
import {
  type SwapActorRef,
  type SwapSnapshot,
  type SwapToken,
  selectIsPreviewing,
  selectSwapProblem,
  selectSwapStatus,
  selectToAmount,
  validateSwap,
} from '../../machines/swap'
import { useSelector } from '../actor'
import { AccountStyle, formatQuantity, useAccountBalances } from '../components/accountShared'
import {
  SwapFlowLoading,
  SwapStyle,
  SwapTokensState,
  swapBalanceOf,
  TokenLogo,
  useSwapFlow,
} from '../components/swapShared'
import { useTokenImage } from '../components/TokenIcon'
import { useKitActor } from '../context'
import { errorText, localizeText, useI18n, useT } from '../i18nViews'

/**
 * Issue 16 Swap: the swap form. The token paid and its amount (with Max), the token received and the quoted
 * amount, a button to switch the two, the slippage tolerance; the review button carries the form's first
 * problem until it can be reviewed. The values live in the swap machine, so they survive a look at the preview
 * and a failed swap. The machine's review succeeding opens SwapPreview (a kit rule).
 */
export default function Swap() {
  const { swap, failed, retry } = useSwapFlow()
  // The balances (for Max and the checks) are the account's: the kit hands them to the swap machine.
  useAccountBalances()
  if (!swap) return <SwapFlowLoading failed={failed} retry={retry} />
  return <SwapForm swap={swap} />
}

function SwapForm({ swap }: { swap: SwapActorRef }) {
  const kit = useKitActor()
  const status = useSelector(swap, selectSwapStatus)
  const from = useSelector(swap, (s) => s.context.from)
  const to = useSelector(swap, (s) => s.context.to)
  const amount = useSelector(swap, (s) => s.context.amount)
  const balances = useSelector(swap, (s) => s.context.balances)
  const toAmount = useSelector(swap, selectToAmount)
  const error = useSelector(swap, (s) => s.context.error)
  const problem = useSelector(swap, (s) => formProblem(s)?.shortMessage)
  const amountProblem = useSelector(swap, (s) => AMOUNT_PROBLEMS.has(formProblem(s)?.name ?? ''))
  const payId = useId()
  const receiveId = useId()
  const receiveNoteId = useId()
  const { t, locale } = useI18n()

  // Shown again (back from the preview, or reopened after a swap): the form is what is edited now.
  useEffect(() => {
    const snapshot = swap.getSnapshot()
    const shown = selectSwapStatus(snapshot)
    if (selectIsPreviewing(snapshot) || shown === 'retryable' || shown === 'done')
      kit.send({ type: 'swap.back' })
  }, [kit, swap])

  if (status === 'approving' || status === 'swapping' || status === 'unconfirmed') {
    return (
      <div className="ws-stack">
        <AccountStyle />
        <p className="ws-muted">{t('swap.inFlight')}</p>
        <button
          type="button"
          className="ws-primary"
          onClick={() => kit.send({ type: 'router.push', view: 'SwapPreview' })}
        >
          {t('swap.view')}
        </button>
      </div>
    )
  }
  if (status === 'loading' || status === 'tokensFailed')
    return <SwapTokensState status={status} error={error} onRetry={() => kit.send({ type: 'swap.retry' })} />

  const locked = !(
    status === 'editing' ||
    status === 'quoting' ||
    status === 'quoted' ||
    status === 'quoteFailed'
  )
  const fromBalance = from ? swapBalanceOf(balances, from) : undefined
  const toBalance = to ? swapBalanceOf(balances, to) : undefined
  const pick = (side: 'from' | 'to') =>
    kit.send({ type: 'router.push', view: 'SwapSelectToken', data: { side } })
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (status !== 'quoted' || problem !== undefined) return
    // The review passing opens SwapPreview (the kit's rule, on the swap's `swap.previewing`).
    kit.send({ type: 'swap.review' })
  }
  return (
    <form className="ws-stack" onSubmit={onSubmit} noValidate>
      <AccountStyle />
      <SwapStyle />
      <div className="ws-swap-box">
        <div className="ws-swap-meta">
          <label className="ws-label" htmlFor={payId}>
            {t('swap.pay')}
          </label>
          <TokenButton token={from} side="from" disabled={locked} onClick={() => pick('from')} />
        </div>
        <input
          id={payId}
          className="ws-input"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          placeholder="0"
          value={amount}
          disabled={locked}
          aria-invalid={amountProblem ? true : undefined}
          onChange={(event) => kit.send({ type: 'swap.setAmount', amount: event.target.value })}
        />
        <div className="ws-swap-meta ws-muted ws-small">
          <span>
            {from && fromBalance !== undefined
              ? t('common.balance', { amount: `${formatQuantity(fromBalance, 4, locale)} ${from.symbol}` })
              : ''}
          </span>
          <button
            type="button"
            className="ws-secondary ws-swap-mini"
            disabled={locked || !from || fromBalance === undefined}
            onClick={() => kit.send({ type: 'swap.max' })}
          >
            {t('common.max')}
          </button>
        </div>
      </div>
      <button
        type="button"
        className="ws-swap-flip"
        aria-label={t('swap.flip')}
        disabled={locked || (!from && !to)}
        onClick={() => kit.send({ type: 'swap.flip' })}
      >
        <span aria-hidden="true">⇅</span>
      </button>
      <div className="ws-swap-box">
        <div className="ws-swap-meta">
          <label className="ws-label" htmlFor={receiveId}>
            {t('swap.receive')}
          </label>
          <TokenButton token={to} side="to" disabled={locked} onClick={() => pick('to')} />
        </div>
        <input
          id={receiveId}
          className="ws-input"
          readOnly
          placeholder="0"
          value={toAmount === undefined ? '' : formatQuantity(toAmount, 6, locale)}
          aria-describedby={receiveNoteId}
        />
        <div className="ws-swap-meta ws-muted ws-small">
          <span id={receiveNoteId} aria-live="polite">
            {status === 'quoting' ? t('swap.fetchingQuote') : ''}
          </span>
          <span>
            {to && toBalance !== undefined
              ? t('common.balance', { amount: `${formatQuantity(toBalance, 4, locale)} ${to.symbol}` })
              : ''}
          </span>
        </div>
      </div>
      <Slippage swap={swap} disabled={locked} />
      {/* A review refused says the same as the button's label: said once. */}
      {error && !locked && error.message !== problem ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
      {/* No quote: asking again is the way on, in the review's place. */}
      {status === 'quoteFailed' ? (
        <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'swap.retry' })}>
          {t('common.tryAgain')}
        </button>
      ) : (
        <button
          type="submit"
          className="ws-primary"
          disabled={locked || status !== 'quoted' || problem !== undefined}
        >
          {problem ? localizeText(t, problem) : t('swap.review')}
        </button>
      )}
    </form>
  )
}

/** The problems that are the amount's (the field is marked invalid). */
const AMOUNT_PROBLEMS: ReadonlySet<string> = new Set([
  'InvalidSwapAmountError',
  'SwapInsufficientBalanceError',
  'SwapInsufficientGasError',
])

/**
 * What stands between the form and its review: the machine's problem once quoted; before that, an amount typed
 * that cannot be quoted (not a number, no pair), said at once rather than leaving the button silently off.
 */
function formProblem(snapshot: SwapSnapshot) {
  const quoted = selectSwapProblem(snapshot)
  if (quoted) return quoted
  return selectSwapStatus(snapshot) === 'editing' && snapshot.context.amount.trim() !== ''
    ? validateSwap(snapshot.context)
    : undefined
}

/** A token picker: its accessible name starts with "Select token" (issue 16's contract), then the token chosen. */
function TokenButton({
  token,
  side,
  disabled,
  onClick,
}: {
  token: SwapToken | undefined
  side: 'from' | 'to'
  disabled: boolean
  onClick: () => void
}) {
  const t = useT()
  const tokenImage = useTokenImage()
  const name = side === 'from' ? t('swap.selectPay') : t('swap.selectReceive')
  return (
    <button
      type="button"
      className="ws-item ws-swap-token"
      aria-label={token ? `${name}: ${token.symbol}` : name}
      disabled={disabled}
      onClick={onClick}
    >
      {token ? (
        <>
          <TokenLogo token={token} fallback={tokenImage(token.symbol)} />
          <span>{token.symbol}</span>
        </>
      ) : (
        <span>{t('common.selectToken')}</span>
      )}
      <span aria-hidden="true" className="ws-flip">
        ›
      </span>
    </button>
  )
}

/** The slippage tolerance, in percent: what is typed is kept; the machine takes it when it is valid. */
function Slippage({ swap, disabled }: { swap: SwapActorRef; disabled: boolean }) {
  const kit = useKitActor()
  const slippage = useSelector(swap, (s) => s.context.slippage)
  const [text, setText] = useState(String(slippage))
  const id = useId()
  const hintId = useId()
  const value = Number(text.trim().replace(',', '.'))
  const valid = text.trim() !== '' && Number.isFinite(value) && value > 0 && value <= SWAP_SLIPPAGE_MAX
  const t = useT()
  return (
    <div className="ws-stack">
      <div className="ws-swap-slippage">
        <label className="ws-muted" htmlFor={id}>
          {t('swap.slippageLabel')}
        </label>
        <input
          id={id}
          className="ws-input"
          inputMode="decimal"
          autoComplete="off"
          value={text}
          disabled={disabled}
          aria-invalid={valid ? undefined : true}
          aria-describedby={valid ? undefined : hintId}
          onChange={(event) => {
            const next = event.target.value
            setText(next)
            const parsed = Number(next.trim().replace(',', '.'))
            if (next.trim() !== '' && Number.isFinite(parsed) && parsed > 0 && parsed <= SWAP_SLIPPAGE_MAX)
              kit.send({ type: 'swap.setSlippage', slippage: parsed })
          }}
          onBlur={() => {
            if (!valid) setText(String(slippage))
          }}
        />
      </div>
      {valid ? null : (
        <p className="ws-error-text ws-small" id={hintId}>
          {t('swap.slippageHint', { max: SWAP_SLIPPAGE_MAX, current: slippage })}
        </p>
      )}
    </div>
  )
}
