import type { BalanceChange } from '../../chains/eip155/simulate'
import { formatBalanceChange } from '../../utils/simulation'
import type { Translate } from '../i18n'
import { useI18n } from '../i18nViews'

/**
 * "See before you sign": the account's balance changes found by simulating the transaction(s) before
 * the wallet is asked, as signed amounts with their symbols ("−5 USDC", "+0.0331 ETH"). A row of a preview's
 * summary list (`<dl>`): the caller renders it only when the node could simulate (never a guessed line), and
 * `simulating` while the simulation runs. Screen readers hear the heading, then one item per token.
 *
 * @example
 * <dl className="ws-summary"><BalanceChanges changes={[{ token, symbol: 'USDC', decimals: 6, delta: -5_000_000n }]} /></dl>
 */
export function BalanceChanges(props: {
  changes: readonly BalanceChange[] | undefined
  simulating?: boolean
}) {
  const { t, locale } = useI18n()
  return <BalanceChangesList {...props} t={t} locale={locale} />
}

/** BalanceChanges with its look-up and locale given (no kit around it). */
export function BalanceChangesList({
  changes,
  simulating = false,
  t,
  locale,
}: {
  changes: readonly BalanceChange[] | undefined
  simulating?: boolean
  t: Translate
  locale?: string
}) {
  if (!changes && !simulating) return null
  return (
    <div data-testid="balance-changes">
      <dt id="ws-balance-changes">{t('simulation.balanceChanges')}</dt>
      <dd aria-busy={simulating || undefined}>
        {simulating || !changes ? (
          <span className="ws-muted">{t('simulation.simulating')}</span>
        ) : changes.length === 0 ? (
          <span>{t('simulation.noChanges')}</span>
        ) : (
          <ul className="ws-balance-changes" aria-labelledby="ws-balance-changes">
            {changes.map((change) => (
              <li
                key={change.token}
                data-testid="balance-change"
                data-direction={change.delta < 0n ? 'out' : 'in'}
                data-delta={change.delta.toString()}
                title={change.token}
              >
                {formatBalanceChange(change, 6, locale)}
              </li>
            ))}
          </ul>
        )}
      </dd>
    </div>
  )
}
