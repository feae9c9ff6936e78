import { formatUnits, getAddress } from 'viem'
import { type ChainIndex, type IndexedContract, type IndexedTransfer, nftKey } from './chainIndex.ts'

/**
 * Transfer history and NFT holdings in the provider's answer shapes (SPEC §3 "Transfer-history item"), built
 * from the chain index. Pages are keyset-paged: a cursor names where the previous page ended, so a page is
 * the same whatever was mined since.
 */

/** Items per history page. */
export const HISTORY_PAGE_SIZE = 10
/** Items per NFT page. */
export const NFT_PAGE_SIZE = 20

const ZERO = '0x0000000000000000000000000000000000000000'
const APPROVE_SELECTORS = new Set(['0x095ea7b3', '0xa22cb465'])

export type OperationType =
  | 'send'
  | 'receive'
  | 'mint'
  | 'burn'
  | 'trade'
  | 'approve'
  | 'deploy'
  | 'execute'
  /** An onramp purchase delivered to the account (the partner's transfer). */
  | 'buy'
export type TransferDirection = 'in' | 'out' | 'self'

export interface HistoryTransfer {
  fungible_info?: { name: string; symbol: string; icon?: { url: string } }
  nft_info?: {
    name: string
    content: { preview: { url: string; content_type: string }; detail: { url: string; content_type: string } }
    flags: { is_spam: boolean }
  }
  direction: TransferDirection
  /** Decimal, in whole units ('1.5' of a token, '1' of an NFT). */
  quantity: { numeric: string }
  /** USD, quantity times price; fungible transfers only. */
  value?: number
  price?: number
}

export interface HistoryItem {
  /** The transaction hash. */
  id: string
  metadata: {
    operationType: OperationType
    hash: string
    /** ISO 8601 */
    minedAt: string
    /** The transaction's sender and recipient (a contract for token calls; the new contract for deploys). */
    sentFrom: string
    sentTo: string
    status: 'confirmed' | 'failed'
    nonce: number
    /** CAIP-2 */
    chain: string
  }
  transfers: HistoryTransfer[]
}

export interface NftItem {
  /** CAIP-2 */
  chainId: string
  contract: string
  tokenId: string
  name: string
  description?: string
  collection: { name: string; symbol: string }
  preview: { url: string; content_type: string }
  flags: { is_spam: boolean }
}

export interface Page<T> {
  data: T[]
  /** Pass as `cursor` for the next page; `null` on the last one. */
  next: string | null
}

export interface Presenter {
  /** CAIP-2 of the indexed chain. */
  chainId: string
  /** Icon URL of a symbol the API serves one for. */
  iconUrl(symbol: string): string | undefined
  priceOf(symbol: string): number
  /** Where the API serves an item's image. */
  nftImageUrl(contract: string, tokenId: bigint): string
  native: { name: string; symbol: string; decimals: number }
  /**
   * Which of `hashes` (lower-case) delivered an onramp purchase to `account`: those read as a `buy` instead of a
   * `receive`. Absent: none do.
   */
  buys?(account: string, hashes: string[]): Promise<Set<string>>
}

/** An opaque cursor: base64url of the position the page ended at. */
export function encodeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url')
}

/** The position inside a cursor, or `undefined` when it is not one this API made. */
export function decodeCursor(cursor: string): Record<string, unknown> | undefined {
  if (cursor.length > 400 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

const round = (n: number) => Math.round(n * 1e8) / 1e8

function directionOf(transfer: IndexedTransfer, account: string): TransferDirection {
  if (transfer.from === account && transfer.to === account) return 'self'
  return transfer.from === account ? 'out' : 'in'
}

/**
 * What a transaction was to the account, from the transfers it was party to. Native value a contract paid it
 * inside the transaction (an internal transfer, e.g. the ETH of a USDC → ETH swap) counts as incoming, so a
 * swap reads as a trade whichever side is native.
 */
function operationOf(
  tx: { from: string; contractAddress: string | null; selector: string | null },
  mine: IndexedTransfer[],
  account: string,
): OperationType {
  if (tx.contractAddress && tx.from === account && mine.length === 0) return 'deploy'
  if (mine.length > 0) {
    const incoming = mine.filter((t) => t.to === account && t.from !== account)
    const outgoing = mine.filter((t) => t.from === account && t.to !== account)
    if (incoming.length > 0 && outgoing.length > 0) return 'trade'
    if (incoming.length > 0) return incoming.every((t) => t.from === ZERO) ? 'mint' : 'receive'
    if (outgoing.length > 0) return outgoing.every((t) => t.to === ZERO) ? 'burn' : 'send'
    return 'send'
  }
  if (tx.selector && APPROVE_SELECTORS.has(tx.selector)) return 'approve'
  return 'execute'
}

/**
 * One page of an account's history, newest first.
 *
 * @example
 * const page = await historyPage(index, presenter, '0xf39f...', undefined)
 * // { data: [{ id, metadata: { operationType: 'receive', ... }, transfers: [...] }], next: 'eyJ...' }
 */
export async function historyPage(
  index: ChainIndex,
  presenter: Presenter,
  account: string,
  cursor: { block: number; index: number } | undefined,
  pageSize = HISTORY_PAGE_SIZE,
): Promise<Page<HistoryItem>> {
  const who = account.toLowerCase()
  const { items, transfers } = await index.transactions(who, pageSize + 1, cursor)
  const page = items.slice(0, pageSize)
  const contracts = await index.contracts()
  const byTx = new Map<string, IndexedTransfer[]>()
  for (const transfer of transfers) {
    if (transfer.from !== who && transfer.to !== who) continue
    byTx.set(transfer.txHash, [...(byTx.get(transfer.txHash) ?? []), transfer])
  }
  const nfts = [...byTx.values()].flat().filter((t) => t.kind === 'erc721' && t.tokenId !== null)
  const spam = await index.spam(
    nfts.map((t) => ({
      contract: t.contract!,
      symbol: contracts.get(t.contract!)?.symbol ?? '',
      tokenId: t.tokenId!,
    })),
  )
  const buys = presenter.buys
    ? await presenter.buys(
        who,
        page.map((tx) => tx.hash.toLowerCase()),
      )
    : new Set<string>()
  const data: HistoryItem[] = []
  for (const tx of page) {
    const mine = byTx.get(tx.hash) ?? []
    const shown: HistoryTransfer[] = []
    for (const transfer of mine) {
      const direction = directionOf(transfer, who)
      if (transfer.kind === 'erc721') {
        const contract = contracts.get(transfer.contract!)
        shown.push(
          await nftTransfer(
            index,
            presenter,
            transfer,
            contract,
            direction,
            spam.has(nftKey(transfer.contract!, transfer.tokenId!)),
          ),
        )
        continue
      }
      const token =
        transfer.kind === 'native' ? presenter.native : (contracts.get(transfer.contract ?? '') ?? undefined)
      if (!token || token.decimals === null) continue
      const numeric = formatUnits(transfer.amount, token.decimals)
      const price = presenter.priceOf(token.symbol)
      const icon = presenter.iconUrl(token.symbol)
      shown.push({
        fungible_info: { name: token.name, symbol: token.symbol, ...(icon ? { icon: { url: icon } } : {}) },
        direction,
        quantity: { numeric },
        value: round(Number(numeric) * price),
        price,
      })
    }
    const sentTo = tx.to ?? tx.contractAddress ?? ZERO
    data.push({
      id: tx.hash,
      metadata: {
        operationType: buys.has(tx.hash.toLowerCase()) ? 'buy' : operationOf(tx, mine, who),
        hash: tx.hash,
        minedAt: tx.minedAt,
        sentFrom: getAddress(tx.from),
        sentTo: getAddress(sentTo),
        status: tx.status,
        nonce: tx.nonce,
        chain: presenter.chainId,
      },
      transfers: shown,
    })
  }
  const last = page[page.length - 1]
  const next = items.length > pageSize && last ? encodeCursor({ b: last.blockNumber, i: last.txIndex }) : null
  return { data, next }
}

async function nftTransfer(
  index: ChainIndex,
  presenter: Presenter,
  transfer: IndexedTransfer,
  contract: IndexedContract | undefined,
  direction: TransferDirection,
  isSpam: boolean,
): Promise<HistoryTransfer> {
  const tokenId = transfer.tokenId!
  const metadata = await index.nftMetadata(transfer.contract!, tokenId)
  const url = presenter.nftImageUrl(transfer.contract!, tokenId)
  const image = { url, content_type: 'image/svg+xml' }
  return {
    nft_info: {
      name: metadata?.name ?? `${contract?.name ?? 'NFT'} #${tokenId}`,
      content: { preview: image, detail: image },
      flags: { is_spam: isSpam },
    },
    direction,
    quantity: { numeric: '1' },
  }
}

/**
 * One page of the NFTs an account holds, spam included and flagged (the kit hides them).
 *
 * @example
 * const page = await nftPage(index, presenter, '0xf39f...', undefined)
 */
export async function nftPage(
  index: ChainIndex,
  presenter: Presenter,
  account: string,
  cursor: { contract: string; tokenId: bigint } | undefined,
  pageSize = NFT_PAGE_SIZE,
): Promise<Page<NftItem>> {
  const held = await index.nfts(account, pageSize + 1, cursor)
  const page = held.slice(0, pageSize)
  const contracts = await index.contracts()
  const spam = await index.spam(
    page.map((item) => ({ ...item, symbol: contracts.get(item.contract)?.symbol ?? '' })),
  )
  const data: NftItem[] = []
  for (const item of page) {
    const contract = contracts.get(item.contract)
    const metadata = await index.nftMetadata(item.contract, item.tokenId)
    data.push({
      chainId: presenter.chainId,
      contract: getAddress(item.contract),
      tokenId: item.tokenId.toString(),
      name: metadata?.name ?? `${contract?.name ?? 'NFT'} #${item.tokenId}`,
      ...(metadata?.description ? { description: metadata.description } : {}),
      collection: { name: contract?.name ?? 'Unknown collection', symbol: contract?.symbol ?? '' },
      preview: { url: presenter.nftImageUrl(item.contract, item.tokenId), content_type: 'image/svg+xml' },
      flags: { is_spam: spam.has(nftKey(item.contract, item.tokenId)) },
    })
  }
  const last = page[page.length - 1]
  const next =
    held.length > pageSize && last ? encodeCursor({ c: last.contract, t: last.tokenId.toString() }) : null
  return { data, next }
}
