import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { DataApiClient, TokenBalance } from '../../api/dataApi'
import { dataApiClientFor } from '../../api/queries'
import { TRANSFER_DECIMALS } from '../../constants'
import {
  type BalancesStatus,
  selectBalances,
  selectBalancesStatus,
  selectCanFetchBalances,
} from '../../machines/account'
import { caipChainId, networkOfChain } from '../../utils/caip'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useAccountActor, useKitAccount, useKitConfig } from '../hooks'

/*
 * Pieces the Account view's details, Receive and the send views share. All of them load on demand, and so
 * does this file: nothing here is in the first-load bundle.
 */

/**
 * Styles of the account and send views. They ride with these views' code rather than in the kit's stylesheet,
 * which is in the first-load bundle; scoped to the kit's root like the rest.
 */
const ACCOUNT_CSS = `
[data-walletstate] .ws-stack { display: grid; gap: 12px; }
[data-walletstate] .ws-full { width: 100%; }
[data-walletstate] .ws-lead { font-size: 16px; font-weight: 600; margin: 0; }
[data-walletstate] .ws-profile { display: flex; align-items: center; gap: 8px; justify-content: center; }
[data-walletstate] .ws-avatar { width: 40px; height: 40px; border-radius: 50%; background: var(--ws-surface-hover); object-fit: cover; }
[data-walletstate] .ws-token-icon { width: 32px; height: 32px; border-radius: 50%; flex: none; background: var(--ws-surface-hover); }
[data-walletstate] .ws-total { font-size: 28px; font-weight: 600; margin: 0; font-variant-numeric: tabular-nums; }
[data-walletstate] .ws-features { display: grid; grid-template-columns: repeat(auto-fit, minmax(64px, 1fr)); gap: 8px; width: 100%; }
[data-walletstate] .ws-tabs { display: flex; gap: 4px; padding: 4px; border: 1px solid var(--ws-border); border-radius: 12px; width: 100%; }
[data-walletstate] .ws-tab {
  flex: 1; padding: 8px; border-radius: 8px; border: none; background: transparent; color: var(--ws-muted);
  font: inherit; font-size: 14px; cursor: pointer;
}
[data-walletstate] .ws-tab[aria-selected="true"] { background: var(--ws-surface-hover); color: var(--ws-foreground); font-weight: 600; }
[data-walletstate] .ws-panel { width: 100%; text-align: start; }
[data-walletstate] .ws-line { display: flex; align-items: center; gap: 12px; padding: 10px 12px; border-radius: 12px; background: var(--ws-surface); }
[data-walletstate] .ws-grow { flex: 1; min-width: 0; display: grid; gap: 2px; }
[data-walletstate] .ws-end { text-align: end; display: grid; gap: 2px; font-variant-numeric: tabular-nums; }
[data-walletstate] .ws-ellipsis { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
[data-walletstate] .ws-small { font-size: 12px; margin: 0; }
[data-walletstate] .ws-in { color: var(--ws-success); }
[data-walletstate] .ws-nfts { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; grid-template-columns: repeat(2, 1fr); }
[data-walletstate] .ws-nft { display: grid; gap: 4px; padding: 8px; border-radius: 12px; background: var(--ws-surface); }
[data-walletstate] .ws-nft img { width: 100%; aspect-ratio: 1; border-radius: 8px; object-fit: cover; background: var(--ws-surface-hover); }
[data-walletstate] .ws-field { display: grid; gap: 6px; }
[data-walletstate] .ws-summary { display: grid; gap: 8px; padding: 12px; border-radius: 12px; background: var(--ws-surface); }
[data-walletstate] .ws-summary div { display: flex; justify-content: space-between; gap: 12px; }
[data-walletstate] .ws-summary dt { color: var(--ws-muted); }
[data-walletstate] .ws-summary dd { margin: 0; text-align: end; word-break: break-all; }
[data-walletstate] .ws-mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; word-break: break-all; }
`

/** Renders the account and send views' styles; each of those views puts it in its root. */
export { formatQuantity } from '../../utils/format'

export function AccountStyle() {
  return <style>{ACCOUNT_CSS}</style>
}

/**
 * A transfer amount as the SPEC shows it (§9: transfers display 3 decimals).
 *
 * @example
 * formatTransferAmount('1.5') // '1.500'
 */
export function formatTransferAmount(numeric: string, locale = 'en-US'): string {
  const value = Number(numeric)
  if (!Number.isFinite(value)) return numeric
  return value.toLocaleString(locale, {
    minimumFractionDigits: TRANSFER_DECIMALS,
    maximumFractionDigits: TRANSFER_DECIMALS,
  })
}

/** US dollars with cents, written as `locale` writes them ('$1,234.50', '1.234,50 $'). */
export function formatUsd(value: number, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(
    Number.isFinite(value) ? value : 0,
  )
}

/** A date and time as `locale` writes them (the activity's times). */
export function formatDateTime(date: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}

/** The connected account's network as the kit's config has it, and whether it is a testnet. */
export function useActiveNetwork() {
  const config = useKitConfig()
  const { chainId } = useKitAccount()
  return chainId === undefined ? undefined : networkOfChain(config.networks, chainId)
}

/**
 * The kit's Data API client, its network checks cached in the kit's QueryClient (the one the views' queries and
 * the machines' actors share).
 */
export function useDataApi(): DataApiClient {
  return dataApiClientFor(useKitConfig(), useQueryClient())
}

export type { BalancesStatus }

export interface UseAccountBalancesReturnType {
  balances: readonly TokenBalance[]
  status: BalancesStatus
  /** False while the machine refuses a new request (SPEC §4: blocked 30 s after a failure). */
  canRetry: boolean
  retry: () => void
}

/**
 * The connected account's token balances from the account machine: loads the machine if needed and asks it for
 * the balances of the account and network shown. Whether that becomes a request is the machine's call (the
 * 30 s block after a failure) and then the QueryClient's (its 30 s cache).
 */
export function useAccountBalances(): UseAccountBalancesReturnType {
  const kit = useKitActor()
  const account = useAccountActor()
  const { address, chainId } = useKitAccount()
  const caip = chainId === undefined ? undefined : caipChainId(chainId)
  const balances = useSelector(account, selectBalances)
  const status = useSelector(account, selectBalancesStatus)
  const canRetry = useSelector(
    account,
    (s) => !!address && !!caip && selectCanFetchBalances(s, { address, chainId: caip }),
  )
  const retry = useCallback(() => {
    if (address && caip) kit.send({ type: 'account.fetchBalances', address, chainId: caip })
  }, [kit, address, caip])
  return { balances, status, canRetry, retry }
}
