import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { type KeyboardEvent, useId, useRef } from 'react'
import { formatUnits } from 'viem'
import { useBalance } from 'wagmi'
import type { HistoryItem, HistoryTransfer, NftItem, TokenBalance } from '../../api/dataApi'
import { historyQuery, identityQuery, namesQuery, nftsQuery } from '../../api/queries'
import type { WalletFeature } from '../../config'
import { NATIVE_BALANCE_CACHE_MS } from '../../constants'
import {
  type AccountTab,
  type PendingTransaction,
  selectCurrentTab,
  selectPendingTransactions,
  selectPortfolioValue,
} from '../../machines/account'
import { selectCapabilityOffered } from '../../machines/kit'
import { caipChainId } from '../../utils/caip'
import { truncateAddress } from '../../utils/format'
import type { ViewName } from '../../views'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useAccountActor, useKitAccount, useKitConfig, useSendActor } from '../hooks'
import { errorText, type MessageKey, useI18n, useT } from '../i18nViews'
import {
  AccountStyle,
  formatDateTime,
  formatQuantity,
  formatTransferAmount,
  formatUsd,
  useAccountBalances,
  useActiveNetwork,
  useDataApi,
} from './accountShared'
import { useRefreshAfterSend } from './sendShared'
import { TokenIcon, useTokenImage } from './TokenIcon'

/*
 * The Account view's details (SPEC §2, §3): profile name and image, the portfolio's value, the wallet features,
 * and the tabs Tokens, NFTs and Activity. This file, the account machine and the Data API client load when the
 * Account view first shows; the view itself (in the first-load bundle) stays small.
 */

const FEATURES: Record<WalletFeature, { label: MessageKey; view: ViewName }> = {
  onramp: { label: 'feature.onramp', view: 'OnRampProviders' },
  swaps: { label: 'feature.swaps', view: 'Swap' },
  receive: { label: 'feature.receive', view: 'WalletReceive' },
  send: { label: 'feature.send', view: 'WalletSend' },
}

const SOLANA_FEATURES: ReadonlySet<WalletFeature> = new Set<WalletFeature>([
  'receive',
  'send',
  'swaps',
  'onramp',
])

const TAB_LABELS: Record<AccountTab, MessageKey> = {
  tokens: 'tab.tokens',
  nfts: 'tab.nfts',
  activity: 'tab.activity',
}

/**
 * The account's name and image (SPEC §3 profileName, profileImage): reverse look-up first, then identity. An
 * eip155 account without a name is offered "Choose a name" (issue 20, `features.names`), which asks the kit for
 * RegisterAccountName (the kit loads the names flow for the view shown, as for Buy and Swap).
 */
export function AccountProfile() {
  const kit = useKitActor()
  const { address, chainId, namespace } = useKitAccount()
  const api = useDataApi()
  const caip = caipChainId(chainId ?? 0)
  // Names are eip155's (SPEC §1).
  const enabled = !!address && chainId !== undefined && namespace === 'eip155'
  const parameters = { address: address ?? '', chainId: caip, sender: address ?? '' }
  const names = useQuery({ ...namesQuery(api, parameters), enabled })
  const identity = useQuery({ ...identityQuery(api, parameters), enabled })
  const namesOn = useKitConfig().features.names
  const t = useT()
  const primary = names.data?.[0]
  const name = primary?.name ?? identity.data?.name ?? undefined
  const image = primary?.attributes.avatar ?? identity.data?.avatar ?? undefined
  // Only once the look-ups answered: a name still loading, or names that could not be read, are not "none".
  const nameless = namesOn && enabled && !name && names.isSuccess && !identity.isPending
  // SPEC §8 'Error fetching names for address': said where the name would be, with a retry.
  const namesFailed = enabled && !name && names.isError
  if (!name && !image && !nameless && !namesFailed) return null
  return (
    <div className="ws-profile">
      <AccountStyle />
      {image ? <img className="ws-avatar" src={image} alt="" data-testid="account-profile-image" /> : null}
      {name ? (
        <span className="ws-lead" data-testid="account-profile-name">
          {name}
        </span>
      ) : null}
      {namesFailed ? <Failed error={names.error} onRetry={() => void names.refetch()} /> : null}
      {nameless ? (
        <button
          type="button"
          className="ws-secondary ws-fit"
          onClick={() => kit.send({ type: 'router.push', view: 'RegisterAccountName' })}
        >
          {t('names.choose')}
        </button>
      ) : null}
    </div>
  )
}

/**
 * The native balance, read from the chain (wagmi, through the kit's RPC transport). On a network the app does
 * not list there is nothing to read: 0.00 (SPEC §9).
 */
export function AccountBalance() {
  const { namespace } = useKitAccount()
  if (namespace === 'bip122') return <NoBalance />
  return namespace === 'solana' ? <SolanaBalance /> : <EvmBalance />
}

/** Bitcoin (bip122): no balance service, so none is claimed (SPEC §1: balances on eip155 and Solana). */
function NoBalance() {
  const t = useT()
  return (
    <p className="ws-balance" data-testid="account-balance">
      {t('account.balanceUnavailable')}
    </p>
  )
}

/** SOL, from the account's balances (the Data API reads them from the chain; SOL is the entry without a mint). */
function SolanaBalance() {
  const { balances, status } = useAccountBalances()
  const { t, locale } = useI18n()
  const sol = balances.find((b) => b.address === undefined)
  const shown = sol
    ? `${formatQuantity(sol.quantity.numeric, 4, locale)} ${sol.symbol}`
    : status === 'loading' || status === 'idle'
      ? t('account.loadingBalance')
      : t('account.balanceUnavailable')
  return (
    <p className="ws-balance" data-testid="account-balance" aria-live="polite">
      {shown}
    </p>
  )
}

function EvmBalance() {
  const { address, chainId } = useKitAccount()
  const network = useActiveNetwork()
  const balance = useBalance({
    address: address as `0x${string}` | undefined,
    chainId: typeof chainId === 'number' ? chainId : undefined,
    // SPEC §9 native balance cache: Account opened again within 30 s shows it without asking the chain; a send
    // refreshes it at once (`useRefreshAfterSend` invalidates wagmi's balance queries).
    query: {
      enabled: !!address && !!network && typeof chainId === 'number',
      staleTime: NATIVE_BALANCE_CACHE_MS,
    },
  })
  const { t, locale } = useI18n()
  const shown = !network
    ? (0).toLocaleString(locale, { minimumFractionDigits: 2 })
    : balance.data
      ? `${formatQuantity(formatUnits(balance.data.value, balance.data.decimals), 4, locale)} ${balance.data.symbol}`
      : balance.isLoading
        ? t('account.loadingBalance')
        : t('account.balanceUnavailable')
  return (
    <p className="ws-balance" data-testid="account-balance" aria-live="polite">
      {shown}
    </p>
  )
}

export default function AccountDetails() {
  const kit = useKitActor()
  const config = useKitConfig()
  // A send that lands while this view shows (the visitor left its preview) refreshes what is shown here too.
  useRefreshAfterSend(useSendActor())
  const { namespace, chainId } = useKitAccount()
  // Buy where its capability is offered (its namespaces; not in the SPEC's restricted time zones: the kit's rule).
  const buyOffered = useSelector(kit, (s) => selectCapabilityOffered(s, 'onramp'))
  // Swap on eip155 only where the host names the chain's router (`swapRouters`, validated with the config): the
  // build check refuses every build elsewhere, so the flow would end in a refusal. On Solana the convert API's
  // maker fills it (its transaction checked before the wallet is asked).
  const swapCapabilityOffered = useSelector(kit, (s) => selectCapabilityOffered(s, 'swap'))
  const swapOffered =
    namespace === 'solana' ? swapCapabilityOffered : config.swapRouters[`eip155:${chainId}`] !== undefined
  const shown = config.features.walletFeaturesOrder.filter(
    (feature) =>
      config.features[feature] &&
      (namespace === 'eip155' ||
        (namespace === 'solana' && SOLANA_FEATURES.has(feature)) ||
        // Bitcoin (bip122): its address to receive on; nothing is sent or bought through the kit there.
        (namespace === 'bip122' && feature === 'receive')) &&
      (feature !== 'onramp' || buyOffered) &&
      (feature !== 'swaps' || swapOffered),
  )
  const t = useT()
  return (
    <div className="ws-stack ws-full">
      <AccountStyle />
      <PortfolioValue />
      {shown.length > 0 ? (
        <nav className="ws-features" aria-label={t('account.features')}>
          {shown.map((feature) => (
            <button
              key={feature}
              type="button"
              className="ws-secondary"
              onClick={() => kit.send({ type: 'router.push', view: FEATURES[feature].view })}
            >
              {t(FEATURES[feature].label)}
            </button>
          ))}
        </nav>
      ) : null}
      <AccountTabs />
    </div>
  )
}

/**
 * The portfolio's value in USD. SPEC §9: 0.00 on testnets (their tokens have no market value, whatever an API
 * quotes) and on networks the Data API does not serve.
 */
function PortfolioValue() {
  const network = useActiveNetwork()
  const account = useAccountActor()
  const total = useSelector(account, selectPortfolioValue)
  const value = !network || network.testnet ? 0 : total
  const { locale } = useI18n()
  return (
    <p className="ws-total" data-testid="account-total">
      {formatUsd(value, locale)}
    </p>
  )
}

function AccountTabs() {
  const kit = useKitActor()
  const config = useKitConfig()
  const account = useAccountActor()
  const { namespace } = useKitAccount()
  const current = useSelector(account, (s) => (s ? selectCurrentTab(s) : 'tokens'))
  // NFTs and Activity are eip155's (SPEC §1: activity on eip155 only).
  const tabs: AccountTab[] =
    namespace === 'solana'
      ? ['tokens']
      : config.features.history
        ? ['tokens', 'nfts', 'activity']
        : ['tokens', 'nfts']
  const selected = tabs.includes(current) ? current : 'tokens'
  const id = useId()
  const listRef = useRef<HTMLDivElement>(null)
  const select = (tab: AccountTab) => kit.send({ type: 'account.selectTab', tab })
  const { t, dir } = useI18n()
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // The arrow keys follow the tabs as laid out: right to left in Arabic.
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight'
    const back = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft'
    const step = event.key === forward ? 1 : event.key === back ? -1 : 0
    if (step === 0) return
    event.preventDefault()
    const next = tabs[(tabs.indexOf(selected) + step + tabs.length) % tabs.length]!
    select(next)
    listRef.current?.querySelector<HTMLElement>(`[data-tab="${next}"]`)?.focus()
  }
  return (
    <div className="ws-stack ws-full">
      <div
        className="ws-tabs"
        role="tablist"
        aria-label={t('account.tabs')}
        ref={listRef}
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            className="ws-tab"
            id={`${id}-${tab}`}
            data-tab={tab}
            aria-selected={tab === selected}
            aria-controls={`${id}-panel`}
            tabIndex={tab === selected ? 0 : -1}
            onClick={() => select(tab)}
          >
            {t(TAB_LABELS[tab])}
          </button>
        ))}
      </div>
      <div className="ws-panel" role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${selected}`}>
        {selected === 'tokens' ? <TokensTab /> : selected === 'nfts' ? <NftsTab /> : <ActivityTab />}
      </div>
    </div>
  )
}

function TokensTab() {
  const network = useActiveNetwork()
  const { balances, status, canRetry, retry } = useAccountBalances()
  const t = useT()
  if (status === 'loading' && balances.length === 0) return <Status label={t('tokens.loading')} />
  if (status === 'unsupported') {
    return <p className="ws-muted">{t('tokens.unsupported')}</p>
  }
  if ((status === 'blocked' || status === 'idle') && balances.length === 0) {
    return (
      <div className="ws-stack">
        <p className="ws-muted">{t('tokens.unavailable')}</p>
        <button type="button" className="ws-secondary" disabled={!canRetry} onClick={retry}>
          {t('common.tryAgain')}
        </button>
      </div>
    )
  }
  if (balances.length === 0) return <p className="ws-muted">{t('tokens.none')}</p>
  return (
    <ul className="ws-list" aria-label={t('tab.tokens')}>
      {balances.map((balance) => (
        <TokenRow
          key={`${balance.chainId}:${balance.address ?? 'native'}`}
          balance={balance}
          usd={!network?.testnet}
        />
      ))}
    </ul>
  )
}

function TokenRow({ balance, usd }: { balance: TokenBalance; usd: boolean }) {
  const { locale } = useI18n()
  const tokenImage = useTokenImage()
  const quantity = formatQuantity(balance.quantity.numeric, 4, locale)
  return (
    <li className="ws-line" data-testid="token-balance" data-symbol={balance.symbol}>
      <TokenIcon src={balance.iconUrl} fallback={tokenImage(balance.symbol)} />
      <span className="ws-grow">
        <span className="ws-ellipsis">{balance.name}</span>
        {usd ? <span className="ws-muted ws-small">{formatUsd(balance.value, locale)}</span> : null}
      </span>
      <span className="ws-end" data-testid="token-quantity">
        {quantity} {balance.symbol}
      </span>
    </li>
  )
}

function useDataApiAccount() {
  const { address, chainId } = useKitAccount()
  return {
    api: useDataApi(),
    parameters: { account: address ?? '', chainId: caipChainId(chainId ?? 0) },
    enabled: !!address && chainId !== undefined,
  }
}

function NftsTab() {
  const { api, parameters, enabled } = useDataApiAccount()
  const query = useInfiniteQuery({ ...nftsQuery(api, parameters), enabled })
  // Items the API flags as spam are never shown.
  const items: NftItem[] = (query.data?.pages ?? [])
    .flatMap((page) => page.data)
    .filter((nft) => !nft.flags.is_spam)
  const t = useT()
  if (query.isPending) return <Status label={t('nfts.loading')} />
  if (query.isError && items.length === 0)
    return <Failed error={query.error} onRetry={() => query.refetch()} />
  return (
    <div className="ws-stack">
      {items.length === 0 ? (
        <p className="ws-muted">{t('nfts.none')}</p>
      ) : (
        <ul className="ws-nfts" aria-label={t('tab.nfts')}>
          {items.map((nft) => (
            <li key={`${nft.contract}:${nft.tokenId}`} className="ws-nft" data-testid="nft">
              {nft.preview ? <img src={nft.preview.url} alt="" /> : null}
              <span className="ws-ellipsis">{nft.name}</span>
              <span className="ws-muted ws-small ws-ellipsis">{nft.collection.name}</span>
            </li>
          ))}
        </ul>
      )}
      <LoadMore query={query} />
    </div>
  )
}

const OPERATIONS: Record<string, MessageKey> = {
  send: 'activity.op.send',
  receive: 'activity.op.receive',
  mint: 'activity.op.mint',
  burn: 'activity.op.burn',
  trade: 'activity.op.trade',
  approve: 'activity.op.approve',
  deploy: 'activity.op.deploy',
  execute: 'activity.op.execute',
}

const STATUSES: Record<HistoryItem['metadata']['status'], MessageKey> = {
  confirmed: 'activity.status.confirmed',
  failed: 'activity.status.failed',
  pending: 'activity.status.pending',
}

/** SPEC §3: spam NFTs are hidden, and so is an item that moved nothing else. */
function visibleTransfers(item: HistoryItem): HistoryTransfer[] | undefined {
  const transfers = item.transfers.filter((transfer) => !transfer.nft_info?.flags.is_spam)
  return transfers.length === 0 && item.transfers.length > 0 ? undefined : transfers
}

/**
 * At most this many reverse look-ups (issue 20: Activity counterparties' names) per page of Activity: each
 * distinct counterparty is one request until the QueryClient's 5 min cache has it (SPEC §9).
 */
export const ACTIVITY_NAME_LOOKUPS_PER_PAGE = 8

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * The other side of an item, where the history tells it: the sender of what came in; for what went out, the
 * receiver of a plain transfer of the native currency (for a token or a contract call the transaction's `to` is
 * the contract, not who received).
 */
export function counterpartyOf(
  item: HistoryItem,
  transfers: HistoryTransfer[],
  account: string,
  nativeSymbol: string | undefined,
): { address: string; direction: 'from' | 'to' } | undefined {
  const { sentFrom, sentTo } = item.metadata
  const mine = (address: string) => address.toLowerCase() === account.toLowerCase()
  if (EVM_ADDRESS.test(sentFrom) && !mine(sentFrom)) return { address: sentFrom, direction: 'from' }
  const nativeOnly =
    transfers.length > 0 &&
    transfers.every(
      (transfer) => transfer.direction === 'out' && transfer.fungible_info?.symbol === nativeSymbol,
    )
  if (nativeOnly && EVM_ADDRESS.test(sentTo) && !mine(sentTo)) return { address: sentTo, direction: 'to' }
  return undefined
}

/** The counterparties whose names are looked up: the first few distinct ones of each page. */
function namesToLookUp(
  pages: { data: HistoryItem[] }[],
  counterparty: (item: HistoryItem) => string | undefined,
) {
  const chosen = new Set<string>()
  for (const page of pages) {
    let count = 0
    for (const item of page.data) {
      if (count === ACTIVITY_NAME_LOOKUPS_PER_PAGE) break
      const address = counterparty(item)?.toLowerCase()
      if (!address || chosen.has(address)) continue
      chosen.add(address)
      count++
    }
  }
  return chosen
}

function ActivityTab() {
  const { api, parameters, enabled } = useDataApiAccount()
  const network = useActiveNetwork()
  const query = useInfiniteQuery({ ...historyQuery(api, parameters), enabled })
  const nativeSymbol = network?.nativeCurrency.symbol
  const pages = query.data?.pages ?? []
  const items = pages
    .flatMap((page) => page.data)
    .flatMap((item) => {
      const transfers = visibleTransfers(item)
      if (!transfers) return []
      return [
        { item, transfers, counterparty: counterpartyOf(item, transfers, parameters.account, nativeSymbol) },
      ]
    })
  const shown = new Map(items.map(({ item, counterparty }) => [item.id, counterparty?.address]))
  const lookUps = namesToLookUp(pages, (item) => shown.get(item.id))
  // SPEC §9 pending transactions: what the kit sent and the Data API does not list yet, newest first.
  const { address } = useKitAccount()
  const sent = useSelector(
    useAccountActor(),
    (s) => selectPendingTransactions(s, address, network?.caipNetworkId),
    samePending,
  )
  const listed = new Set(items.map(({ item }) => item.metadata.hash.toLowerCase()))
  const pending = sent.filter((p) => !listed.has(p.hash.toLowerCase()))
  const t = useT()
  const pendingList =
    pending.length > 0 ? (
      <ul className="ws-list" aria-label={t('activity.status.pending')}>
        {pending.map((p) => (
          <li key={p.hash} className="ws-line" data-testid="activity-pending" data-hash={p.hash}>
            <span className="ws-grow">{truncateAddress(p.hash)}</span>
            <span className="ws-muted ws-small">{t('activity.status.pending')}</span>
          </li>
        ))}
      </ul>
    ) : null
  if (query.isPending)
    return (
      <>
        {pendingList}
        <Status label={t('activity.loading')} />
      </>
    )
  if (query.isError && items.length === 0)
    return (
      <>
        {pendingList}
        <Failed error={query.error} onRetry={() => query.refetch()} />
      </>
    )
  return (
    <div className="ws-stack">
      {pendingList}
      {items.length === 0 ? (
        pending.length === 0 ? (
          <p className="ws-muted">{t('activity.none')}</p>
        ) : null
      ) : (
        <ul className="ws-list" aria-label={t('tab.activity')}>
          {items.map(({ item, transfers, counterparty }) => (
            <ActivityRow
              key={item.id}
              item={item}
              transfers={transfers}
              counterparty={counterparty}
              lookUpName={!!counterparty && lookUps.has(counterparty.address.toLowerCase())}
            />
          ))}
        </ul>
      )}
      <LoadMore query={query} />
    </div>
  )
}

/** The same pending transactions (the selector builds a new list on every snapshot). */
const samePending = (a: readonly PendingTransaction[], b: readonly PendingTransaction[]) =>
  a.length === b.length && a.every((p, i) => p.hash === b[i]!.hash)

function ActivityRow({
  item,
  transfers,
  counterparty,
  lookUpName,
}: {
  item: HistoryItem
  transfers: HistoryTransfer[]
  counterparty: { address: string; direction: 'from' | 'to' } | undefined
  lookUpName: boolean
}) {
  const { operationType, status, minedAt, hash } = item.metadata
  const { t, locale } = useI18n()
  const operation = OPERATIONS[operationType]
  const label = operation ? t(operation) : operationType.replace(/^./, (c) => c.toUpperCase())
  const when = new Date(minedAt)
  const statusKey = STATUSES[status]
  return (
    <li className="ws-line" data-testid="activity-item" data-hash={hash} data-operation={operationType}>
      <span className="ws-grow">
        <span>{label}</span>
        {counterparty ? (
          <Counterparty
            address={counterparty.address}
            direction={counterparty.direction}
            lookUp={lookUpName}
          />
        ) : null}
        <span className="ws-muted ws-small">
          <span data-testid="activity-status">{statusKey ? t(statusKey) : status}</span> ·{' '}
          <time dateTime={minedAt}>{formatDateTime(when, locale)}</time>
        </span>
      </span>
      <span className="ws-end">
        {transfers.map((transfer, index) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: a transfer has no id of its own; the list is fixed
            key={index}
            className={transfer.direction === 'in' ? 'ws-in' : undefined}
            data-testid="activity-transfer"
          >
            {transferText(transfer, locale)}
          </span>
        ))}
      </span>
    </li>
  )
}

/**
 * Who an item came from or went to: the truncated address, with its name beside it once the reverse look-up
 * (cached 5 min, SPEC §9) knows one.
 */
function Counterparty({
  address,
  direction,
  lookUp,
}: {
  address: string
  direction: 'from' | 'to'
  lookUp: boolean
}) {
  const api = useDataApi()
  const { address: account, chainId } = useKitAccount()
  const names = useQuery({
    ...namesQuery(api, { address, chainId: caipChainId(chainId ?? 0), sender: account ?? '' }),
    enabled: lookUp && chainId !== undefined,
  })
  const t = useT()
  const name = names.data?.[0]?.name
  const short = truncateAddress(address)
  return (
    <span
      className="ws-muted ws-small ws-ellipsis"
      title={address}
      data-testid="activity-counterparty"
      data-name={name}
    >
      {t(direction === 'to' ? 'activity.to' : 'activity.from', { who: name ? `${name} (${short})` : short })}
    </span>
  )
}

function transferText(transfer: HistoryTransfer, locale: string): string {
  const sign = transfer.direction === 'in' ? '+' : transfer.direction === 'out' ? '-' : ''
  if (transfer.fungible_info) {
    return `${sign}${formatTransferAmount(transfer.quantity.numeric, locale)} ${transfer.fungible_info.symbol}`
  }
  return `${sign}${transfer.nft_info?.name ?? 'NFT'}`
}

function LoadMore({
  query,
}: {
  query: {
    hasNextPage: boolean
    isFetchingNextPage: boolean
    isFetchNextPageError: boolean
    error: Error | null
    fetchNextPage: () => unknown
  }
}) {
  // A later page that failed: its text (SPEC §8, e.g. 'Failed to fetch transactions') under the pages shown,
  // and a retry of that page.
  const t = useT()
  if (query.isFetchNextPageError && query.error)
    return <Failed error={query.error} onRetry={() => void query.fetchNextPage()} />
  if (!query.hasNextPage) return null
  return (
    <button
      type="button"
      className="ws-secondary"
      disabled={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
    >
      {query.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
    </button>
  )
}

function Status({ label }: { label: string }) {
  return (
    <p className="ws-status ws-muted" role="status">
      <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
      {label}
    </p>
  )
}

function Failed({ error, onRetry }: { error: Error; onRetry: () => void }) {
  // The Data API client's errors carry the SPEC's text as their short message.
  const message =
    'shortMessage' in error && typeof error.shortMessage === 'string' ? error.shortMessage : error.message
  const t = useT()
  return (
    <div className="ws-stack">
      <p className="ws-error-text" role="alert">
        {errorText(t, { name: error.name, message })}
      </p>
      <button type="button" className="ws-secondary" onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </div>
  )
}
