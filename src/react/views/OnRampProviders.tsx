import { type FormEvent, useEffect, useId } from 'react'
import {
  type OnrampActorRef,
  type OnrampPaymentMethod,
  selectOnrampAsset,
  selectOnrampLimits,
  selectOnrampProviders,
  selectOnrampStatus,
} from '../../machines/onramp'
import { useSelector } from '../actor'
import {
  formatFiat,
  OnrampFlowLoading,
  OnrampStyle,
  PAYMENT_METHOD_LABELS,
  useOnrampFlow,
} from '../components/onrampShared'
import { PickRowStyle } from '../components/pickRow'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { errorText, useI18n } from '../i18nViews'

/**
 * Issue 19 OnRampProviders, what Account's "Buy" opens: the fiat amount (a textbox named "Amount") and its
 * currency, the token bought and its network, the payment method, and one button per provider (named by the
 * provider) with its quote. An amount outside the payment method's limits is refused here, with the limits shown;
 * choosing a quoted provider opens its partner page (the kit then shows OnRampPurchase). The values live in the
 * onramp machine, so they survive the pickers and a failed purchase.
 */
export default function OnRampProviders() {
  const { onramp, failed, retry } = useOnrampFlow()
  if (!onramp) return <OnrampFlowLoading failed={failed} retry={retry} />
  return <BuyForm onramp={onramp} />
}

function BuyForm({ onramp }: { onramp: OnrampActorRef }) {
  const kit = useKitActor()
  const status = useSelector(onramp, selectOnrampStatus)
  const amount = useSelector(onramp, (s) => s.context.amount)
  const paymentCurrency = useSelector(onramp, (s) => s.context.paymentCurrency)
  const paymentMethod = useSelector(onramp, (s) => s.context.paymentMethod)
  const estimates = useSelector(onramp, (s) => s.context.estimates)
  const amountError = useSelector(onramp, (s) => s.context.amountError)
  const error = useSelector(onramp, (s) => s.context.error)
  const limits = useSelector(onramp, selectOnrampLimits)
  const asset = useSelector(
    onramp,
    selectOnrampAsset,
    (a, b) => a.currency === b.currency && a.network === b.network,
  )
  const providers = useSelector(onramp, selectOnrampProviders, sameProviders)
  const methods = useSelector(onramp, (s) => {
    const currency = s.context.options?.paymentCurrencies.find((c) => c.id === s.context.paymentCurrency)
    return (currency?.payment_method_limits.map((l) => l.id) ?? ['card']).join(',')
  })
  const amountId = useId()
  const hintId = useId()
  const problemId = useId()
  const youBuyId = useId()
  const tokenPickId = useId()
  const { t, locale } = useI18n()

  // Shown again after a purchase ended (done, failed) or was left: the form is what is edited now.
  useEffect(() => {
    const shown = selectOnrampStatus(onramp.getSnapshot())
    if (shown === 'failed' || shown === 'done' || shown === 'unconfirmed') kit.send({ type: 'onramp.retry' })
    else if (shown === 'opening' || shown === 'waiting' || shown === 'processing')
      kit.send({ type: 'router.push', view: 'OnRampPurchase' })
  }, [kit, onramp])

  if (status === 'loading') return <ViewLoading label={t('onramp.loadingOptions')} />
  const quoting = status === 'quoting'
  const canChoose = status === 'quoted' && !amountError
  const onSubmit = (event: FormEvent) => event.preventDefault()
  return (
    <form className="ws-stack" onSubmit={onSubmit} noValidate aria-busy={quoting || undefined}>
      <OnrampStyle />
      <PickRowStyle />
      {estimates ? (
        <p className="ws-muted ws-onramp-note" role="note">
          {t('onramp.estimates')}
        </p>
      ) : null}
      <div className="ws-onramp-box">
        <div className="ws-onramp-row">
          <label className="ws-label" htmlFor={amountId}>
            {t('onramp.amount')}
          </label>
          <button
            type="button"
            className="ws-onramp-pick"
            aria-label={t('onramp.pickCurrency', { currency: paymentCurrency })}
            onClick={() => kit.send({ type: 'router.push', view: 'OnRampFiatSelect' })}
          >
            {paymentCurrency}
          </button>
        </div>
        <input
          id={amountId}
          className="ws-input"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          placeholder="0.00"
          value={amount}
          aria-invalid={amountError ? true : undefined}
          aria-describedby={amountError ? `${problemId} ${hintId}` : hintId}
          onChange={(event) => kit.send({ type: 'onramp.setAmount', amount: event.target.value })}
        />
        <p id={hintId} className="ws-muted ws-onramp-note">
          {t('onramp.limits', {
            min: formatFiat(limits.min, limits.currency, locale),
            max: formatFiat(limits.max, limits.currency, locale),
          })}
        </p>
        {amountError ? (
          <p id={problemId} className="ws-error-text" role="alert">
            {t('onramp.amountRange', {
              min: formatFiat(amountError.min, amountError.currency, locale),
              max: formatFiat(amountError.max, amountError.currency, locale),
            })}
          </p>
        ) : null}
      </div>
      <div className="ws-onramp-row">
        <span className="ws-label" id={youBuyId}>
          {t('onramp.youBuy')}
        </span>
        {/* Named by its label and what it shows ("You buy USDC · Sandbox"), as a select would be. */}
        <button
          type="button"
          id={tokenPickId}
          className="ws-onramp-pick"
          aria-labelledby={`${youBuyId} ${tokenPickId}`}
          onClick={() => kit.send({ type: 'router.push', view: 'OnRampTokenSelect' })}
        >
          {asset.currency
            ? `${asset.currency.symbol} · ${asset.network?.display_name ?? ''}`
            : t('onramp.chooseToken')}
        </button>
      </div>
      <fieldset className="ws-onramp-methods">
        <legend className="ws-label">{t('onramp.paymentMethod')}</legend>
        {methods.split(',').map((id) => (
          <label key={id}>
            <input
              type="radio"
              name="ws-onramp-method"
              value={id}
              checked={paymentMethod === id}
              onChange={() => kit.send({ type: 'onramp.setPaymentMethod', id: id as OnrampPaymentMethod })}
            />
            {t(PAYMENT_METHOD_LABELS[id as OnrampPaymentMethod] ?? 'onramp.method.card')}
          </label>
        ))}
      </fieldset>
      <section className="ws-stack" aria-label={t('onramp.providers')}>
        <h3 className="ws-label">{t('onramp.providers')}</h3>
        {quoting ? (
          <p className="ws-muted" role="status">
            {t('onramp.quoting')}
          </p>
        ) : null}
        <ul className="ws-list">
          {providers.map((provider) => {
            const quoteId = `${hintId}-${provider.id}`
            const quote = provider.quote
            return (
              <li key={provider.id} className="ws-onramp-provider ws-pick-row">
                {/* Named by the provider, all it shows; its quote, beside it, describes it. */}
                <button
                  type="button"
                  className="ws-pick"
                  aria-describedby={quoteId}
                  disabled={!canChoose || !quote}
                  // The Buy flow opens the partner window while this click is handled (pop-up blockers allow
                  // a window opened in the click only): the send reaches it synchronously.
                  onClick={() => kit.send({ type: 'onramp.choose', provider: provider.id })}
                >
                  {provider.name}
                </button>
                <span className="ws-end">
                  {quote ? `${quote.purchaseAmount.amount} ${quote.purchaseAmount.currency}` : ''}
                </span>
                <span id={quoteId} className="ws-muted">
                  {quote
                    ? t(provider.estimate ? 'onramp.quoteEstimate' : 'onramp.quote', {
                        amount: `${quote.purchaseAmount.amount} ${quote.purchaseAmount.currency}`,
                        fee: formatFiat(quote.fee.amount, quote.fee.currency, locale),
                        total: formatFiat(quote.paymentTotal.amount, quote.paymentTotal.currency, locale),
                      })
                    : t('onramp.feeRange', { fee: provider.feePercent.toLocaleString(locale) })}
                </span>
              </li>
            )
          })}
        </ul>
      </section>
      {error && status !== 'failed' ? (
        <p className="ws-error-text" role="alert">
          {errorText(t, error)}
        </p>
      ) : null}
    </form>
  )
}

type ProviderRow = ReturnType<typeof selectOnrampProviders>[number]

function sameProviders(a: ProviderRow[], b: ProviderRow[]): boolean {
  return (
    a.length === b.length &&
    a.every((row, i) => row.id === b[i]!.id && row.quote === b[i]!.quote && row.estimate === b[i]!.estimate)
  )
}
