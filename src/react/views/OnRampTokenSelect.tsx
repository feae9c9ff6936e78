import { networkChainId, type OnrampActorRef, type OnrampChainId } from '../../machines/onramp'
import { useSelector } from '../actor'
import { OnrampFlowLoading, OnrampStyle, useOnrampFlow } from '../components/onrampShared'
import { useKitActor } from '../context'
import { useI18n } from '../i18nViews'

/**
 * Issue 19 OnRampTokenSelect: what can be bought (the options' purchaseCurrencies), one entry per token and
 * network it is delivered on. Choosing one sets both and goes back to the form.
 */
export default function OnRampTokenSelect() {
  const { onramp, failed, retry } = useOnrampFlow()
  if (!onramp) return <OnrampFlowLoading failed={failed} retry={retry} />
  return <TokenPicker onramp={onramp} />
}

interface Entry {
  id: string
  symbol: string
  name: string
  chainId: OnrampChainId
  network: string
}

function sameEntries(a: Entry[], b: Entry[]): boolean {
  return a.length === b.length && a.every((e, i) => e.id === b[i]!.id && e.chainId === b[i]!.chainId)
}

function TokenPicker({ onramp }: { onramp: OnrampActorRef }) {
  const kit = useKitActor()
  const entries = useSelector(
    onramp,
    (s) =>
      (s.context.options?.purchaseCurrencies ?? []).flatMap((currency) =>
        currency.networks.map(
          (network): Entry => ({
            id: currency.id,
            symbol: currency.symbol,
            name: currency.name,
            chainId: networkChainId(network),
            network: network.display_name,
          }),
        ),
      ),
    sameEntries,
  )
  const selected = useSelector(onramp, (s) => `${s.context.purchaseCurrency}@${s.context.chainId}`)
  const { t } = useI18n()
  return (
    <div className="ws-stack">
      <OnrampStyle />
      {entries.length === 0 ? <p className="ws-muted">{t('onramp.noTokens')}</p> : null}
      <ul className="ws-list" aria-label={t('onramp.tokens')}>
        {entries.map((entry) => (
          <li key={`${entry.id}@${entry.chainId}`}>
            <button
              type="button"
              className="ws-line"
              aria-pressed={`${entry.id}@${entry.chainId}` === selected}
              onClick={() => {
                kit.send({ type: 'onramp.setPurchaseCurrency', id: entry.id })
                kit.send({ type: 'onramp.setNetwork', chainId: entry.chainId })
                kit.send({ type: 'router.back' })
              }}
            >
              <span>
                {entry.symbol} <span className="ws-muted">{entry.name}</span>
              </span>
              <span className="ws-muted ws-end">{entry.network}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
