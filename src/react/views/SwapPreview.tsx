import { useEffect, useMemo, useState } from 'react'
import { SWAP_QUOTE_REFRESH_MS } from '../../constants'
import {
  isNative,
  type SwapActorRef,
  type SwapStatus,
  selectSwapAction,
  selectSwapProblem,
  selectSwapProgress,
  selectSwapStatus,
  swapSimulatedChanges,
} from '../../machines/swap'
import { localeDecimal } from '../../utils/format'
import { useSelector } from '../actor'
import { AccountStyle, formatUsd, useActiveNetwork } from '../components/accountShared'
import { BalanceChanges } from '../components/BalanceChanges'
import { ButtonPair } from '../components/ButtonPair'
import {
  formatBaseUnits,
  formatPercent,
  minimumReceived,
  SwapFlowLoading,
  SwapStyle,
  useSwapFlow,
} from '../components/swapShared'
import { useKitActor } from '../context'
import { useModalActor } from '../hooks'
import { errorText, localizeText, useI18n, useT } from '../i18nViews'

/** A price impact above this (in percent) is shown as a warning. Ours. */
const HIGH_PRICE_IMPACT = 5

/**
 * Issue 16 SwapPreview: what is paid and received, the price impact, the provider's and the network's fee, the
 * slippage tolerance and the least received, and how old the quote is (the machine asks for it again while this
 * view is open). The action is Approve while the allowance is short, then Swap, offered once the transactions are
 * built and checked (a build that does not match is refused here, and no wallet is asked); the progress of each
 * step is shown, with Cancel while the step can still be stopped (never once the wallet holds the swap). A failure says what happened and offers to try again
 * or edit the form. Leaving this view (Back, close) returns the machine to the form, its values kept; a
 * success is the kit's to show (a toast, back to Account).
 */
export default function SwapPreview() {
  const { swap, failed, retry } = useSwapFlow()
  useBackOnLeave(swap)
  if (!swap) return <SwapFlowLoading failed={failed} retry={retry} />
  return <Preview swap={swap} />
}

/**
 * Leaving the preview (Back, the modal closed) takes the machine back to the form, values kept; a transaction
 * under way is not stopped by it (the machine ignores `swap.back` then). A remount of the same view (React's
 * StrictMode) is not a leave: the modal still shows SwapPreview.
 */
function useBackOnLeave(swap: SwapActorRef | undefined) {
  const kit = useKitActor()
  const modal = useModalActor()
  useEffect(() => {
    if (!swap) return
    return () => {
      const snapshot = modal.getSnapshot()
      const stillShown = snapshot.matches('open') && snapshot.context.history.at(-1) === 'SwapPreview'
      if (!stillShown) kit.send({ type: 'swap.back' })
    }
  }, [swap, kit, modal])
}

const IN_FLIGHT: readonly SwapStatus[] = ['approving', 'swapping']

function Preview({ swap }: { swap: SwapActorRef }) {
  const kit = useKitActor()
  const network = useActiveNetwork()
  const status = useSelector(swap, selectSwapStatus)
  const action = useSelector(swap, selectSwapAction)
  const from = useSelector(swap, (s) => s.context.from)
  const to = useSelector(swap, (s) => s.context.to)
  const amount = useSelector(swap, (s) => s.context.amount)
  const quote = useSelector(swap, (s) => s.context.quote)
  const slippage = useSelector(swap, (s) => s.context.slippage)
  const tokens = useSelector(swap, (s) => s.context.tokens)
  const error = useSelector(swap, (s) => s.context.error)
  const hash = useSelector(swap, (s) => s.context.hash)
  const progress = useSelector(swap, selectSwapProgress)
  // See before you sign: the simulated changes, only when the node could simulate (never a guessed line).
  const simulation = useSelector(swap, (s) => s.context.simulation)
  const simulating = useSelector(swap, (s) => s.matches({ preview: 'simulating' }))
  const changes = useMemo(() => swapSimulatedChanges(simulation), [simulation])
  // USDT-style: a smaller allowance is set to zero before the amount's.
  const zeroFirst = useSelector(swap, (s) => {
    const allowance = s.context.allowance
    return selectSwapAction(s) === 'Approve' && allowance !== undefined && BigInt(allowance) > 0n
  })
  const cancellable = useSelector(
    swap,
    (s) => IN_FLIGHT.includes(selectSwapStatus(s)) && s.can({ type: 'swap.cancel' }),
  )
  const problem = useSelector(swap, (s) => selectSwapProblem(s)?.shortMessage)
  const age = useQuoteAge(quote)
  const { t, locale } = useI18n()

  const edit = () => {
    kit.send({ type: 'swap.back' })
    kit.send({ type: 'router.back' })
  }

  if (status === 'done') return <p className="ws-muted">{t('swap.done')}</p>
  if (!from || !to || !quote || status === 'editing' || status === 'loading' || status === 'tokensFailed') {
    // The form is not ready for a review (a fresh quote on its way is shown below).
    if (status !== 'quoting' && status !== 'quoteFailed') {
      return (
        <div className="ws-stack">
          <p className="ws-muted">{t('preview.nothing')}</p>
          <button type="button" className="ws-primary" onClick={edit}>
            {t('preview.backToForm')}
          </button>
        </div>
      )
    }
  }

  const native = tokens.find(isNative)
  const nativeSymbol = native?.symbol || network?.nativeCurrency.symbol || 'ETH'
  const nativeDecimals = native?.decimals ?? network?.nativeCurrency.decimals ?? 18
  const usd = !network?.testnet
  const impact = quote?.priceImpact
  // The amounts as numbers (the USD values are worked out from them), then as the locale writes them.
  const fromAmount = quote && from ? formatBaseUnits(quote.fromAmount, from.decimals) : amount.trim()
  const toAmount = quote && to ? formatBaseUnits(quote.toAmount, to.decimals) : undefined
  const shownAmount = (decimal: string | undefined) =>
    decimal === undefined ? undefined : localeDecimal(decimal, locale)
  const value = (shown: string | undefined, price: number | undefined) =>
    usd && price && shown !== undefined && Number.isFinite(Number(shown)) ? (
      <span className="ws-muted ws-small"> ({formatUsd(Number(shown) * price, locale)})</span>
    ) : null
  const failedNow =
    status === 'retryable' ||
    status === 'refused' ||
    status === 'disagrees' ||
    status === 'unconfirmed' ||
    status === 'unavailable' ||
    status === 'quoteFailed'

  return (
    <div className="ws-stack" data-stage={status}>
      <AccountStyle />
      <SwapStyle />
      <dl className="ws-summary" aria-label={t('swap.summary')}>
        <div>
          <dt>{t('swap.pay')}</dt>
          <dd data-testid="swap-pay">
            {shownAmount(fromAmount)} {from?.symbol}
            {value(fromAmount, from?.price)}
          </dd>
        </div>
        <div>
          <dt>{t('swap.receive')}</dt>
          <dd data-testid="swap-receive">
            {shownAmount(toAmount) ?? '—'} {to?.symbol}
            {value(toAmount, to?.price)}
          </dd>
        </div>
        {quote && from && to ? (
          <>
            <div>
              <dt>{t('swap.impact')}</dt>
              <dd
                data-testid="swap-impact"
                className={impact !== undefined && impact > HIGH_PRICE_IMPACT ? 'ws-swap-warn' : undefined}
              >
                {impact === undefined ? '—' : formatPercent(impact, locale)}
              </dd>
            </div>
            <div>
              <dt>{t('swap.providerFee')}</dt>
              <dd data-testid="swap-fee">
                {quote.fee === undefined
                  ? '—'
                  : `${formatBaseUnits(quote.fee, from.decimals, 6, locale)} ${from.symbol}`}
              </dd>
            </div>
            <div>
              <dt>{t('send.networkFee')}</dt>
              <dd data-testid="swap-gas">
                {/* A Solana swap's fee is exact (its signatures); an eip155 swap's is a gas limit's worth. */}
                {quote.maker
                  ? `${formatBaseUnits(quote.gasFee, nativeDecimals, 9, locale)} ${nativeSymbol}`
                  : t('swap.upTo', {
                      amount: `${formatBaseUnits(quote.gasFee, nativeDecimals, 8, locale)} ${nativeSymbol}`,
                    })}
              </dd>
            </div>
            <div>
              <dt>{t('swap.maxSlippage')}</dt>
              <dd data-testid="swap-slippage">{formatPercent(slippage, locale)}</dd>
            </div>
            <div>
              <dt>{t('swap.minimum')}</dt>
              <dd data-testid="swap-minimum">
                {formatBaseUnits(minimumReceived(quote.toAmount, slippage), to.decimals, 6, locale)}{' '}
                {to.symbol}
              </dd>
            </div>
          </>
        ) : null}
        <BalanceChanges changes={changes} simulating={simulating} />
      </dl>
      <QuoteAge status={status} age={age} />
      {progress ? (
        <div className="ws-stack">
          <p className="ws-status ws-muted" role="status">
            <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
            {localizeText(t, progress)}
          </p>
          {hash && (status === 'approving' || status === 'swapping' || status === 'unconfirmed') ? (
            <p className="ws-mono ws-muted ws-small" data-testid="swap-hash">
              {hash}
            </p>
          ) : null}
        </div>
      ) : null}
      {zeroFirst ? <p className="ws-muted ws-small">{t('swap.zeroFirst')}</p> : null}
      {error && failedNow ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
      {problem !== undefined ? (
        <p className="ws-error-text" role="alert">
          {localizeText(t, problem)}
        </p>
      ) : null}

      {status === 'ready' ||
      status === 'checking' ||
      status === 'refreshing' ||
      IN_FLIGHT.includes(status) ? (
        <div className="ws-row">
          {IN_FLIGHT.includes(status) ? (
            cancellable ? (
              <button
                type="button"
                className="ws-secondary"
                onClick={() => kit.send({ type: 'swap.cancel' })}
              >
                {t('common.cancel')}
              </button>
            ) : null
          ) : (
            <button type="button" className="ws-secondary" onClick={edit}>
              {t('common.cancel')}
            </button>
          )}
          <button
            type="button"
            className="ws-primary"
            style={{ flex: 1 }}
            disabled={status !== 'ready'}
            aria-busy={IN_FLIGHT.includes(status) ? true : undefined}
            onClick={() => kit.send({ type: 'swap.confirm' })}
          >
            {status === 'checking' ? t('swap.checking') : localizeText(t, action)}
          </button>
        </div>
      ) : null}
      {status === 'quoted' && problem === undefined ? (
        <ButtonPair
          secondary={{ label: t('common.edit'), onClick: edit }}
          primary={{ label: t('swap.review'), onClick: () => kit.send({ type: 'swap.review' }) }}
        />
      ) : null}
      {status === 'quoted' && problem !== undefined ? (
        <button type="button" className="ws-secondary" onClick={edit}>
          {t('common.edit')}
        </button>
      ) : null}
      {status === 'retryable' ||
      status === 'refused' ||
      status === 'disagrees' ||
      status === 'unavailable' ||
      status === 'quoteFailed' ? (
        <ButtonPair
          secondary={{ label: t('common.edit'), onClick: edit }}
          primary={{ label: t('common.tryAgain'), onClick: () => kit.send({ type: 'swap.retry' }) }}
        />
      ) : null}
      {status === 'unconfirmed' ? (
        <ButtonPair
          secondary={{ label: t('common.edit'), onClick: edit }}
          primary={{ label: t('common.checkAgain'), onClick: () => kit.send({ type: 'swap.retry' }) }}
        />
      ) : null}
    </div>
  )
}

/** Seconds since the quote shown arrived, counted every second while this view is open. */
function useQuoteAge(quote: unknown): number {
  const [since, setSince] = useState(() => Date.now())
  const [now, setNow] = useState(() => Date.now())
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new quote object is a new quote
  useEffect(() => {
    const at = Date.now()
    setSince(at)
    setNow(at)
  }, [quote])
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  return Math.max(0, Math.floor((now - since) / 1000))
}

function QuoteAge({ status, age }: { status: SwapStatus; age: number }) {
  const t = useT()
  if (status === 'refreshing') {
    return (
      <p className="ws-muted ws-small" data-testid="swap-quote-age" aria-live="polite">
        {t('swap.updatingQuote')}
      </p>
    )
  }
  if (status !== 'ready' && status !== 'checking') return null
  return (
    <p className="ws-muted ws-small" data-testid="swap-quote-age">
      {t('swap.quoteAge', { age, every: SWAP_QUOTE_REFRESH_MS / 1000 })}
    </p>
  )
}
