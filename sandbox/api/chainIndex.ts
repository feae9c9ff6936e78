import {
  type Address,
  type Block,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hexToBigInt,
  type PublicClient,
  parseAbi,
  type RpcTransactionReceipt,
  type Transaction,
} from 'viem'
import type { SandboxDb } from './db.ts'

/**
 * The Data API's index of the sandbox chain: what really happened on it, derived from blocks, their
 * transactions and receipts (native value and `Transfer` logs of ERC-20 and ERC-721 contracts) and the call
 * traces of successful contract calls (native value a contract pays inside a transaction, the "internal
 * transactions" real indexers show), kept in the sandbox database and brought up to date on demand, before
 * each read. One sync runs at a time; callers that arrive meanwhile wait for it and then catch up from where
 * it stopped.
 */

/** keccak256('Transfer(address,address,uint256)'): the same topic for ERC-20 and ERC-721. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** Blocks fetched side by side in one step of a sync. */
const SYNC_CHUNK = 25
const ZERO = '0x0000000000000000000000000000000000000000'
/**
 * Positions of the transfer rows (the table's key is chain, transaction and position): a log's index for token
 * transfers, -1 for the transaction's own native value, -2 for the transfer a failed call meant, and
 * INTERNAL_POSITION + i for the i-th internal native transfer in trace order (below the others, so a
 * transaction's rows read internal transfers first, in the order they happened).
 */
export const INTERNAL_POSITION = -1_000_000

/** Metadata of a token contract the index has seen (known tokens are given, others read from the chain). */
export interface IndexedContract {
  address: string
  kind: 'erc20' | 'erc721'
  name: string
  symbol: string
  decimals: number | null
}

export interface KnownToken {
  address: string
  name: string
  symbol: string
  decimals: number
}

export interface ChainIndexOptions {
  db: SandboxDb
  /** Reads from the chain (anvil directly). */
  client: PublicClient
  /** CAIP-2, e.g. `eip155:31337`. */
  chainId: string
  /** ERC-20s whose metadata is known up front (others are read from the chain when first seen). */
  tokens: readonly KnownToken[]
  /**
   * Told when a transaction's call trace could not be read; the transaction is indexed without internal
   * transfers. Default: a warning on the console.
   */
  onTraceError?: (hash: string, error: unknown) => void
}

/** A transaction row as history reads it. */
export interface IndexedTransaction {
  hash: string
  blockNumber: number
  txIndex: number
  minedAt: string
  from: string
  to: string | null
  contractAddress: string | null
  nonce: number
  selector: string | null
  status: 'confirmed' | 'failed'
}

/** One movement of value inside a transaction. Addresses lower-case; amounts in base units. */
export interface IndexedTransfer {
  txHash: string
  position: number
  kind: 'native' | 'erc20' | 'erc721'
  contract: string | null
  from: string
  to: string
  amount: bigint
  tokenId: bigint | null
}

const transferAbi = parseAbi(['function transfer(address to, uint256 value)'])
const erc721MetadataAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function tokenURI(uint256 tokenId) view returns (string)',
])

const lower = (address: string) => address.toLowerCase()
const topicAddress = (topic: Hex) => lower(`0x${topic.slice(-40)}`)

/** One entry of a Parity-style `trace_transaction` answer (the fields the index reads). */
export interface CallTrace {
  type: string
  action: {
    callType?: string
    from?: string
    to?: string
    value?: string
  }
  result?: { address?: string } | null
  error?: string
  traceAddress: number[]
}

/** A native transfer a contract made inside a transaction. Addresses lower-case. */
export interface InternalTransfer {
  from: string
  to: string
  value: bigint
}

/**
 * The native value moved by nested calls and creates of a transaction, in trace order, from its
 * `trace_transaction` answer. The top-level call is left out (its value is the transaction's own), and so is
 * any call that reverted or sits under one that did (its value never moved). Delegate and static calls move
 * nothing.
 *
 * @example
 * internalTransfers(await client.request({ method: 'trace_transaction', params: [hash] }))
 * // [{ from: '0x5eb3…' (router), to: '0x90f7…' (user), value: 33221478393147488n }]
 */
export function internalTransfers(traces: readonly CallTrace[]): InternalTransfer[] {
  const failed = traces.filter((t) => t.error !== undefined && t.error !== null).map((t) => t.traceAddress)
  const under = (address: number[], ancestor: number[]) =>
    ancestor.length <= address.length && ancestor.every((step, i) => address[i] === step)
  const out: InternalTransfer[] = []
  for (const trace of traces) {
    if (trace.traceAddress.length === 0) continue
    const { action } = trace
    const value = action.value ? hexToBigInt(action.value as Hex) : 0n
    if (value <= 0n || !action.from) continue
    let to: string | undefined
    if (trace.type === 'call' && action.callType === 'call') to = action.to
    else if (trace.type === 'create') to = trace.result?.address
    if (!to) continue
    if (failed.some((ancestor) => under(trace.traceAddress, ancestor))) continue
    out.push({ from: lower(action.from), to: lower(to), value })
  }
  return out
}

export class ChainIndex {
  readonly chainId: string
  readonly #db: SandboxDb
  readonly #client: PublicClient
  readonly #tokens: Map<string, KnownToken>
  readonly #onTraceError: (hash: string, error: unknown) => void
  /** The end of the chain of syncs: they run one at a time, in call order. */
  #tail: Promise<void> = Promise.resolve()
  /** A sync queued behind the running one and not started yet: later callers share it. */
  #queued: Promise<void> | undefined

  constructor(options: ChainIndexOptions) {
    this.chainId = options.chainId
    this.#db = options.db
    this.#client = options.client
    this.#tokens = new Map(options.tokens.map((t) => [lower(t.address), t]))
    this.#onTraceError =
      options.onTraceError ??
      ((hash, error) =>
        console.warn(`chain index: no call trace for ${hash}, indexed without internal transfers:`, error))
  }

  /**
   * Brings the index up to the chain's latest block. Syncs run one at a time; a call joins the sync that is
   * queued and not started yet, or queues one, so it always sees every block mined before it was made.
   */
  sync(): Promise<void> {
    if (this.#queued) return this.#queued
    const next = this.#tail
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined
        return this.#syncOnce()
      })
    this.#queued = next
    this.#tail = next
    return next
  }

  async #syncOnce(): Promise<void> {
    const pg = this.#db.pg
    const latest = await this.#client.getBlockNumber({ cacheTime: 0 })
    const { rows } = await pg.query<{ last_block: string; last_hash: string }>(
      'SELECT last_block::text AS last_block, last_hash FROM chain_index_state WHERE chain_id = $1',
      [this.chainId],
    )
    let from = 0n
    const state = rows[0]
    if (state) {
      const last = BigInt(state.last_block)
      const still =
        last <= latest
          ? await this.#client.getBlock({ blockNumber: last }).then(
              (block) => block.hash === state.last_hash,
              () => false,
            )
          : false
      if (still) from = last + 1n
      else await this.#reset()
    }
    for (let start = from; start <= latest; start += BigInt(SYNC_CHUNK)) {
      const end = start + BigInt(SYNC_CHUNK) - 1n < latest ? start + BigInt(SYNC_CHUNK) - 1n : latest
      const numbers: bigint[] = []
      for (let n = start; n <= end; n++) numbers.push(n)
      const blocks = await Promise.all(numbers.map((n) => this.#fetchBlock(n)))
      await this.#store(blocks)
    }
  }

  async #reset(): Promise<void> {
    await this.#db.pg.transaction(async (tx) => {
      for (const table of [
        'chain_index_state',
        'chain_transactions',
        'chain_transfers',
        'chain_contracts',
        'nft_items',
      ]) {
        await tx.query(`DELETE FROM ${table} WHERE chain_id = $1`, [this.chainId])
      }
    })
  }

  async #fetchBlock(blockNumber: bigint) {
    const [block, receipts] = await Promise.all([
      this.#client.getBlock({ blockNumber, includeTransactions: true }),
      this.#client.request({
        method: 'eth_getBlockReceipts',
        params: [`0x${blockNumber.toString(16)}`],
      }) as Promise<RpcTransactionReceipt[] | null>,
    ])
    const byHash = new Map((receipts ?? []).map((r) => [r.transactionHash, r]))
    // Traces only where a contract can have paid someone: successful calls with input (not plain sends).
    const traced = (block.transactions as Transaction[]).filter(
      (tx) => tx.to && tx.input && tx.input !== '0x' && byHash.get(tx.hash)?.status === '0x1',
    )
    const internal = new Map(
      await Promise.all(traced.map(async (tx) => [tx.hash, await this.#internalTransfers(tx.hash)] as const)),
    )
    return { block, receipts: receipts ?? [], internal }
  }

  /** A transaction's internal native transfers; none (and the error told) when its trace cannot be read. */
  async #internalTransfers(hash: Hex): Promise<InternalTransfer[]> {
    try {
      const traces = await this.#client.request<{ Parameters: [Hex]; ReturnType: CallTrace[] | null }>({
        method: 'trace_transaction',
        params: [hash],
      })
      return internalTransfers(traces ?? [])
    } catch (error) {
      this.#onTraceError(hash, error)
      return []
    }
  }

  /** Classifies and describes a contract the first time one of its Transfer logs is seen. */
  async #contract(address: string, topics: number, seen: Map<string, IndexedContract | null>) {
    if (seen.has(address)) return seen.get(address) ?? null
    const { rows } = await this.#db.pg.query<IndexedContract>(
      'SELECT address, kind, name, symbol, decimals FROM chain_contracts WHERE chain_id = $1 AND address = $2',
      [this.chainId, address],
    )
    let contract: IndexedContract | null = rows[0] ?? null
    if (!contract) {
      const known = this.#tokens.get(address)
      if (known && topics === 3) {
        contract = {
          address,
          kind: 'erc20',
          name: known.name,
          symbol: known.symbol,
          decimals: known.decimals,
        }
      } else {
        contract = await this.#readContract(address as Address, topics === 4 ? 'erc721' : 'erc20')
      }
    }
    seen.set(address, contract)
    return contract
  }

  async #readContract(address: Address, kind: 'erc20' | 'erc721'): Promise<IndexedContract | null> {
    const settle = <T>(promise: Promise<T>) => promise.catch(() => undefined)
    const [name, symbol, decimals] =
      kind === 'erc20'
        ? await Promise.all([
            settle(this.#client.readContract({ address, abi: erc20Abi, functionName: 'name' })),
            settle(this.#client.readContract({ address, abi: erc20Abi, functionName: 'symbol' })),
            settle(this.#client.readContract({ address, abi: erc20Abi, functionName: 'decimals' })),
          ])
        : await Promise.all([
            settle(this.#client.readContract({ address, abi: erc721MetadataAbi, functionName: 'name' })),
            settle(this.#client.readContract({ address, abi: erc721MetadataAbi, functionName: 'symbol' })),
            undefined,
          ])
    // A contract that logs Transfer but is no token (an "ERC-20" without decimals) stays out of the index.
    if (kind === 'erc20' && decimals === undefined) return null
    return {
      address: lower(address),
      kind,
      name: (name ?? 'Unknown token').slice(0, 100),
      symbol: (symbol ?? '???').slice(0, 20),
      decimals: kind === 'erc20' ? Number(decimals) : null,
    }
  }

  async #store(
    fetched: Array<{
      block: Block<bigint, true>
      receipts: RpcTransactionReceipt[]
      internal: Map<string, InternalTransfer[]>
    }>,
  ) {
    const seen = new Map<string, IndexedContract | null>()
    const txRows: unknown[][] = []
    const transferRows: unknown[][] = []
    const owners: Array<[contract: string, tokenId: bigint, owner: string]> = []
    for (const { block, receipts, internal } of fetched) {
      const byHash = new Map(receipts.map((r) => [r.transactionHash, r]))
      const minedAt = new Date(Number(block.timestamp) * 1000).toISOString()
      for (const tx of block.transactions as Transaction[]) {
        const receipt = byHash.get(tx.hash)
        if (!receipt) continue
        const failed = receipt.status !== '0x1'
        const from = lower(tx.from)
        const contractAddress = receipt.contractAddress ? lower(receipt.contractAddress) : null
        const selector = tx.input && tx.input.length >= 10 ? tx.input.slice(0, 10).toLowerCase() : null
        txRows.push([
          tx.hash,
          String(block.number),
          tx.transactionIndex ?? 0,
          minedAt,
          from,
          tx.to ? lower(tx.to) : null,
          contractAddress,
          tx.nonce,
          selector,
          failed ? 'failed' : 'confirmed',
        ])
        if (tx.value > 0n) {
          const to = tx.to ? lower(tx.to) : contractAddress
          if (to) transferRows.push([tx.hash, -1, 'native', null, from, to, tx.value.toString(), null])
        }
        if (failed) {
          // A reverted ERC-20 transfer logged nothing; history still shows what was meant, marked failed.
          const meant = tx.to ? await this.#meantTransfer(lower(tx.to), tx.input, seen) : undefined
          if (meant)
            transferRows.push([tx.hash, -2, 'erc20', lower(tx.to!), from, meant.to, meant.amount, null])
          continue
        }
        for (const [i, moved] of (internal.get(tx.hash) ?? []).entries()) {
          transferRows.push([
            tx.hash,
            INTERNAL_POSITION + i,
            'native',
            null,
            moved.from,
            moved.to,
            moved.value.toString(),
            null,
          ])
        }
        for (const log of receipt.logs) {
          if (log.topics[0] !== TRANSFER_TOPIC) continue
          const topics = log.topics.length
          if (topics !== 3 && topics !== 4) continue
          const address = lower(log.address)
          const contract = await this.#contract(address, topics, seen)
          if (!contract) continue
          const logFrom = topicAddress(log.topics[1]!)
          const logTo = topicAddress(log.topics[2]!)
          const position = Number(hexToBigInt(log.logIndex))
          if (contract.kind === 'erc721' && topics === 4) {
            const tokenId = hexToBigInt(log.topics[3]!)
            transferRows.push([tx.hash, position, 'erc721', address, logFrom, logTo, '1', tokenId.toString()])
            owners.push([address, tokenId, logTo])
          } else if (contract.kind === 'erc20' && topics === 3) {
            const amount = log.data === '0x' ? 0n : hexToBigInt(log.data)
            transferRows.push([tx.hash, position, 'erc20', address, logFrom, logTo, amount.toString(), null])
          }
        }
      }
    }
    const last = fetched[fetched.length - 1]?.block
    await this.#db.pg.transaction(async (pg) => {
      for (const contract of seen.values()) {
        if (!contract) continue
        await pg.query(
          `INSERT INTO chain_contracts (chain_id, address, kind, name, symbol, decimals)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (chain_id, address) DO NOTHING`,
          [this.chainId, contract.address, contract.kind, contract.name, contract.symbol, contract.decimals],
        )
      }
      for (const row of txRows) {
        await pg.query(
          `INSERT INTO chain_transactions (chain_id, hash, block_number, tx_index, mined_at, from_address,
             to_address, contract_address, nonce, selector, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (chain_id, hash) DO NOTHING`,
          [this.chainId, ...row],
        )
      }
      for (const row of transferRows) {
        await pg.query(
          `INSERT INTO chain_transfers (chain_id, tx_hash, position, kind, contract, from_address, to_address,
             amount, token_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (chain_id, tx_hash, position) DO NOTHING`,
          [this.chainId, ...row],
        )
      }
      // In chain order, so the last transfer of an item decides its owner; a burn removes it.
      for (const [contract, tokenId, owner] of owners) {
        if (owner === ZERO) {
          await pg.query('DELETE FROM nft_items WHERE chain_id = $1 AND contract = $2 AND token_id = $3', [
            this.chainId,
            contract,
            tokenId.toString(),
          ])
          continue
        }
        await pg.query(
          `INSERT INTO nft_items (chain_id, contract, token_id, owner) VALUES ($1, $2, $3, $4)
           ON CONFLICT (chain_id, contract, token_id) DO UPDATE SET owner = EXCLUDED.owner`,
          [this.chainId, contract, tokenId.toString(), owner],
        )
      }
      if (last) {
        await pg.query(
          `INSERT INTO chain_index_state (chain_id, last_block, last_hash) VALUES ($1, $2, $3)
           ON CONFLICT (chain_id) DO UPDATE SET last_block = EXCLUDED.last_block, last_hash = EXCLUDED.last_hash`,
          [this.chainId, String(last.number), last.hash],
        )
      }
    })
  }

  async #meantTransfer(
    to: string,
    input: Hex,
    seen: Map<string, IndexedContract | null>,
  ): Promise<{ to: string; amount: string } | undefined> {
    if (!input.toLowerCase().startsWith('0xa9059cbb')) return undefined
    const contract = await this.#contract(to, 3, seen)
    if (contract?.kind !== 'erc20') return undefined
    try {
      const { args } = decodeFunctionData({ abi: transferAbi, data: input })
      return { to: lower(args[0]), amount: args[1].toString() }
    } catch {
      return undefined
    }
  }

  /** Metadata of every contract the index has seen, by lower-case address. */
  async contracts(): Promise<Map<string, IndexedContract>> {
    const { rows } = await this.#db.pg.query<IndexedContract>(
      'SELECT address, kind, name, symbol, decimals FROM chain_contracts WHERE chain_id = $1',
      [this.chainId],
    )
    return new Map(rows.map((row) => [row.address, row]))
  }

  /**
   * One page of an account's transactions, newest first: those it sent or received, and those that moved
   * value to or from it. `before` is the position (block, index) the previous page ended at.
   */
  async transactions(
    account: string,
    limit: number,
    before?: { block: number; index: number },
  ): Promise<{ items: IndexedTransaction[]; transfers: IndexedTransfer[] }> {
    const who = lower(account)
    const { rows } = await this.#db.pg.query<{
      hash: string
      block_number: number
      tx_index: number
      mined_at: Date
      from_address: string
      to_address: string | null
      contract_address: string | null
      nonce: number
      selector: string | null
      status: 'confirmed' | 'failed'
    }>(
      `SELECT hash, block_number::int AS block_number, tx_index, mined_at, from_address, to_address,
              contract_address, nonce, selector, status
         FROM chain_transactions t
        WHERE t.chain_id = $1
          AND (t.from_address = $2 OR t.to_address = $2 OR EXISTS (
                SELECT 1 FROM chain_transfers x
                 WHERE x.chain_id = t.chain_id AND x.tx_hash = t.hash
                   AND (x.from_address = $2 OR x.to_address = $2)))
          AND ($3::bigint IS NULL OR (t.block_number, t.tx_index) < ($3::bigint, $4::int))
        ORDER BY t.block_number DESC, t.tx_index DESC
        LIMIT $5`,
      [this.chainId, who, before?.block ?? null, before?.index ?? null, limit],
    )
    const items = rows.map(
      (row): IndexedTransaction => ({
        hash: row.hash,
        blockNumber: row.block_number,
        txIndex: row.tx_index,
        minedAt: row.mined_at.toISOString(),
        from: row.from_address,
        to: row.to_address,
        contractAddress: row.contract_address,
        nonce: row.nonce,
        selector: row.selector,
        status: row.status,
      }),
    )
    if (items.length === 0) return { items, transfers: [] }
    const transfers = await this.#db.pg.query<{
      tx_hash: string
      position: number
      kind: IndexedTransfer['kind']
      contract: string | null
      from_address: string
      to_address: string
      amount: string
      token_id: string | null
    }>(
      `SELECT tx_hash, position, kind, contract, from_address, to_address, amount::text AS amount,
              token_id::text AS token_id
         FROM chain_transfers
        WHERE chain_id = $1 AND tx_hash = ANY($2::text[])
        ORDER BY tx_hash, position`,
      [this.chainId, items.map((item) => item.hash)],
    )
    return {
      items,
      transfers: transfers.rows.map((row) => ({
        txHash: row.tx_hash,
        position: row.position,
        kind: row.kind,
        contract: row.contract,
        from: row.from_address,
        to: row.to_address,
        amount: BigInt(row.amount),
        tokenId: row.token_id === null ? null : BigInt(row.token_id),
      })),
    }
  }

  /** One page of the NFTs an account holds, by contract and token id; `after` is where the last page ended. */
  async nfts(
    account: string,
    limit: number,
    after?: { contract: string; tokenId: bigint },
  ): Promise<Array<{ contract: string; tokenId: bigint }>> {
    // Ordered by the numeric column, not the text the row is answered as ('10' sorts before '6').
    const { rows } = await this.#db.pg.query<{ contract: string; token_id: string }>(
      `SELECT n.contract, n.token_id::text AS token_id FROM nft_items n
        WHERE n.chain_id = $1 AND n.owner = $2
          AND ($3::text IS NULL OR (n.contract, n.token_id) > ($3::text, $4::numeric))
        ORDER BY n.contract, n.token_id
        LIMIT $5`,
      [this.chainId, lower(account), after?.contract ?? null, after?.tokenId.toString() ?? null, limit],
    )
    return rows.map((row) => ({ contract: row.contract, tokenId: BigInt(row.token_id) }))
  }

  /** Whether an item is on the spam list (by its contract, or by its collection's symbol). */
  async spam(items: Array<{ contract: string; symbol: string; tokenId: bigint }>): Promise<Set<string>> {
    if (items.length === 0) return new Set()
    const { rows } = await this.#db.pg.query<{
      contract: string | null
      collection_symbol: string | null
      token_id: string
    }>('SELECT contract, collection_symbol, token_id::text AS token_id FROM nft_spam')
    const flagged = new Set<string>()
    for (const item of items) {
      const hit = rows.some(
        (row) =>
          row.token_id === item.tokenId.toString() &&
          (row.contract === null || row.contract === item.contract) &&
          (row.collection_symbol === null || row.collection_symbol === item.symbol),
      )
      if (hit) flagged.add(nftKey(item.contract, item.tokenId))
    }
    return flagged
  }

  /**
   * An item's name and image from its `tokenURI` (a data: URI of JSON, as the sandbox collection answers),
   * read from the chain once and kept. `undefined` when the item does not exist or has no usable metadata.
   */
  async nftMetadata(
    contract: string,
    tokenId: bigint,
  ): Promise<{ name?: string; image?: string; description?: string } | undefined> {
    const { rows } = await this.#db.pg.query<{ metadata: { name?: string; image?: string } | null }>(
      'SELECT metadata FROM nft_items WHERE chain_id = $1 AND contract = $2 AND token_id = $3',
      [this.chainId, lower(contract), tokenId.toString()],
    )
    const row = rows[0]
    if (!row) return undefined
    if (row.metadata) return row.metadata
    let metadata: { name?: string; image?: string; description?: string } = {}
    try {
      const uri = await this.#client.readContract({
        address: getAddress(contract),
        abi: erc721MetadataAbi,
        functionName: 'tokenURI',
        args: [tokenId],
      })
      metadata = parseTokenUri(uri)
    } catch {
      // No tokenURI (or it reverted): the item is still listed, with the collection's name.
    }
    await this.#db.pg.query(
      'UPDATE nft_items SET metadata = $4 WHERE chain_id = $1 AND contract = $2 AND token_id = $3',
      [this.chainId, lower(contract), tokenId.toString(), JSON.stringify(metadata)],
    )
    return metadata
  }
}

export const nftKey = (contract: string, tokenId: bigint) => `${lower(contract)}/${tokenId}`

/** Reads `data:application/json;base64,...` or plain `data:application/json,...` token URIs; others give `{}`. */
export function parseTokenUri(uri: string): { name?: string; image?: string; description?: string } {
  const match = /^data:application\/json(;base64)?,(.*)$/s.exec(uri)
  if (!match) return {}
  try {
    const text = match[1]
      ? Buffer.from(match[2] ?? '', 'base64').toString('utf8')
      : decodeURIComponent(match[2] ?? '')
    const json: unknown = JSON.parse(text)
    if (!json || typeof json !== 'object') return {}
    const pick = (key: string) => {
      const value = (json as Record<string, unknown>)[key]
      return typeof value === 'string' ? value : undefined
    }
    const out: { name?: string; image?: string; description?: string } = {}
    const name = pick('name')
    const image = pick('image')
    const description = pick('description')
    if (name) out.name = name.slice(0, 200)
    if (image) out.image = image
    if (description) out.description = description.slice(0, 1000)
    return out
  } catch {
    return {}
  }
}
