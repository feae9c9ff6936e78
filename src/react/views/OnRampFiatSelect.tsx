import type { OnrampActorRef } from '../../machines/onramp'
import { useSelector } from '../actor'
import { currencyName, OnrampFlowLoading, OnrampStyle, useOnrampFlow } from '../components/onrampShared'
import { TokenIcon, useCurrencyImage } from '../components/TokenIcon'
import { useKitActor } from '../context'
import { useI18n } from '../i18nViews'

/**
 * Issue 19 OnRampFiatSelect: the currencies the partners take payment in (the options' paymentCurrencies), each
 * with its name in the language shown. Choosing one sets it and goes back to the form.
 */
export default function OnRampFiatSelect() {
  const { onramp, failed, retry } = useOnrampFlow()
  if (!onramp) return <OnrampFlowLoading failed={failed} retry={retry} />
  return <FiatPicker onramp={onramp} />
}

function FiatPicker({ onramp }: { onramp: OnrampActorRef }) {
  const kit = useKitActor()
  const currencies = useSelector(onramp, (s) =>
    (s.context.options?.paymentCurrencies ?? []).map((c) => c.id).join(','),
  )
  const selected = useSelector(onramp, (s) => s.context.paymentCurrency)
  const { t, locale } = useI18n()
  const currencyImage = useCurrencyImage()
  const ids = currencies ? currencies.split(',') : []
  return (
    <div className="ws-stack">
      <OnrampStyle />
      {ids.length === 0 ? <p className="ws-muted">{t('onramp.noCurrencies')}</p> : null}
      <ul className="ws-list" aria-label={t('onramp.currencies')}>
        {ids.map((id) => (
          <li key={id}>
            <button
              type="button"
              className="ws-line"
              aria-pressed={id === selected}
              onClick={() => {
                kit.send({ type: 'onramp.setPaymentCurrency', id })
                kit.send({ type: 'router.back' })
              }}
            >
              <TokenIcon fallback={currencyImage(id)} />
              <span>{id}</span>
              <span className="ws-muted ws-end">{currencyName(id, locale)}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
