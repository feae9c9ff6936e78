import { randomBytes } from 'node:crypto'
import { getAddress } from 'viem'
import type { SandboxDb } from '../api/db.ts'
import type { OnrampProviderId, PaymentCurrencyId, PaymentMethodId, PurchaseCurrencyId } from './pricing.ts'

/**
 * Onramp orders (issue 19), in table `onramp_orders` (migration 5): the Data API's URL generator makes one
 * (`pending`), the partner page delivers it (`delivering` while its transfer is on the way, or while a payment
 * made with "Complete later" waits to be settled; then `confirmed` with the transaction's hash) or fails it
 * (`failed`). The Data API lists the submitted ones by provider and address (`delivering` reads as pending).
 */

/**
 * An address as the orders keep it: on eip155 lower-case hex (checksummed when read), on Solana base58 as it is
 * (base58 is case-sensitive).
 */
export function storedAddress(chainId: string, address: string): string {
  return chainId.startsWith('eip155:') ? address.toLowerCase() : address
}

/** An address as an order shows it: checksummed on eip155, base58 as stored on Solana. */
const shownAddress = (chainId: string, address: string): string =>
  chainId.startsWith('eip155:') ? getAddress(address) : address

/** Order ids: 16 random bytes as lower-case hex. */
export const ORDER_ID = /^[0-9a-f]{32}$/

export type OrderStatus = 'pending' | 'delivering' | 'confirmed' | 'failed'

export interface OnrampOrder {
  id: string
  provider: OnrampProviderId
  partnerUserId: string
  /** The destination wallet: checksummed on eip155, base58 on Solana. */
  address: string
  /** CAIP-2 of the chain the purchase is delivered on. */
  chainId: string
  /** The provider's network name (`walletstate-sandbox`). */
  network: string
  purchaseCurrency: PurchaseCurrencyId
  /** The token delivered (an ERC-20, or an SPL mint on Solana); `null` for the native currency. */
  tokenAddress: string | null
  /** Decimals of the asset on the chain. */
  decimals: number
  paymentCurrency: PaymentCurrencyId
  paymentMethod: PaymentMethodId
  /** Fiat decimal strings with two decimals. */
  paymentTotal: string
  paymentSubtotal: string
  fee: string
  /** The purchase, a decimal string of the asset. */
  purchaseAmount: string
  /** The purchase in base units (what the partner transfers). */
  purchaseBase: bigint
  /** The account the partner delivers from (on the order's chain). */
  partnerAddress: string
  status: OrderStatus
  /** The delivery transaction, once sent. */
  txHash: string | null
  /** Why the order failed, when it did. */
  failure: string | null
  /** ISO 8601 */
  createdAt: string
  openedAt: string | null
  completedAt: string | null
  /** Creation order, for paging. */
  seq: number
}

export type NewOrder = Omit<
  OnrampOrder,
  'id' | 'status' | 'txHash' | 'failure' | 'createdAt' | 'openedAt' | 'completedAt' | 'seq'
>

interface OrderRow {
  seq: string
  id: string
  provider: string
  partner_user_id: string
  address: string
  chain_id: string
  network: string
  purchase_currency: string
  token_address: string | null
  decimals: number
  payment_currency: string
  payment_method: string
  payment_total: string
  payment_subtotal: string
  fee: string
  purchase_amount: string
  purchase_base: string
  partner_address: string
  status: string
  tx_hash: string | null
  failure: string | null
  created_at: Date
  opened_at: Date | null
  completed_at: Date | null
}

const COLUMNS = `seq::text AS seq, id, provider, partner_user_id, address, chain_id, network, purchase_currency,
  token_address, decimals, payment_currency, payment_method, payment_total::text AS payment_total,
  payment_subtotal::text AS payment_subtotal, fee::text AS fee, purchase_amount,
  purchase_base::text AS purchase_base, partner_address, status, tx_hash, failure, created_at, opened_at,
  completed_at`

function toOrder(row: OrderRow): OnrampOrder {
  return {
    id: row.id,
    provider: row.provider as OnrampProviderId,
    partnerUserId: row.partner_user_id,
    address: shownAddress(row.chain_id, row.address),
    chainId: row.chain_id,
    network: row.network,
    purchaseCurrency: row.purchase_currency as PurchaseCurrencyId,
    tokenAddress: row.token_address ? shownAddress(row.chain_id, row.token_address) : null,
    decimals: row.decimals,
    paymentCurrency: row.payment_currency as PaymentCurrencyId,
    paymentMethod: row.payment_method as PaymentMethodId,
    paymentTotal: row.payment_total,
    paymentSubtotal: row.payment_subtotal,
    fee: row.fee,
    purchaseAmount: row.purchase_amount,
    purchaseBase: BigInt(row.purchase_base),
    partnerAddress: shownAddress(row.chain_id, row.partner_address),
    status: row.status as OrderStatus,
    txHash: row.tx_hash,
    failure: row.failure,
    createdAt: row.created_at.toISOString(),
    openedAt: row.opened_at?.toISOString() ?? null,
    completedAt: row.completed_at?.toISOString() ?? null,
    seq: Number(row.seq),
  }
}

/** Stores a new `pending` order under a fresh id. */
export async function createOrder(db: SandboxDb, order: NewOrder): Promise<OnrampOrder> {
  const id = randomBytes(16).toString('hex')
  const { rows } = await db.pg.query<OrderRow>(
    `INSERT INTO onramp_orders (id, provider, partner_user_id, address, chain_id, network, purchase_currency,
       token_address, decimals, payment_currency, payment_method, payment_total, payment_subtotal, fee,
       purchase_amount, purchase_base, partner_address)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric, $13::numeric, $14::numeric, $15,
       $16::numeric, $17)
     RETURNING ${COLUMNS}`,
    [
      id,
      order.provider,
      order.partnerUserId,
      storedAddress(order.chainId, order.address),
      order.chainId,
      order.network,
      order.purchaseCurrency,
      order.tokenAddress === null ? null : storedAddress(order.chainId, order.tokenAddress),
      order.decimals,
      order.paymentCurrency,
      order.paymentMethod,
      order.paymentTotal,
      order.paymentSubtotal,
      order.fee,
      order.purchaseAmount,
      order.purchaseBase.toString(),
      storedAddress(order.chainId, order.partnerAddress),
    ],
  )
  return toOrder(rows[0]!)
}

/** One order, or `undefined` (also for an id of the wrong shape). */
export async function getOrder(db: SandboxDb, id: string): Promise<OnrampOrder | undefined> {
  if (!ORDER_ID.test(id)) return undefined
  const { rows } = await db.pg.query<OrderRow>(`SELECT ${COLUMNS} FROM onramp_orders WHERE id = $1`, [id])
  return rows[0] ? toOrder(rows[0]) : undefined
}

/** Notes the first time the partner page was opened for an order. */
export async function markOpened(db: SandboxDb, id: string): Promise<void> {
  await db.pg.query('UPDATE onramp_orders SET opened_at = now() WHERE id = $1 AND opened_at IS NULL', [id])
}

/**
 * Moves a `pending` order to `from` → `to` atomically: only one caller wins a race (a second "Complete purchase"
 * finds the order no longer pending). Answers the updated order, or `undefined` when it was not in `from`.
 */
async function transition(
  db: SandboxDb,
  id: string,
  from: OrderStatus,
  to: OrderStatus,
  set: { txHash?: string; failure?: string; completed?: boolean } = {},
): Promise<OnrampOrder | undefined> {
  const { rows } = await db.pg.query<OrderRow>(
    `UPDATE onramp_orders
        SET status = $3,
            tx_hash = COALESCE($4, tx_hash),
            failure = COALESCE($5, failure),
            completed_at = CASE WHEN $6::boolean THEN now() ELSE completed_at END
      WHERE id = $1 AND status = $2
      RETURNING ${COLUMNS}`,
    [
      id,
      from,
      to,
      // A 0x hash lower-case; a Solana signature (base58) as it is.
      set.txHash === undefined ? null : set.txHash.startsWith('0x') ? set.txHash.toLowerCase() : set.txHash,
      set.failure ?? null,
      set.completed ?? false,
    ],
  )
  return rows[0] ? toOrder(rows[0]) : undefined
}

/** Claims a pending order for delivery (`delivering`); `undefined` when it is not pending. */
export const claimForDelivery = (db: SandboxDb, id: string) => transition(db, id, 'pending', 'delivering')

/** Puts a claimed order back to `pending` (nothing was sent). */
export const releaseClaim = (db: SandboxDb, id: string) => transition(db, id, 'delivering', 'pending')

/** Records the sent delivery's hash while it is mined. */
export const recordDeliveryHash = (db: SandboxDb, id: string, txHash: string) =>
  transition(db, id, 'delivering', 'delivering', { txHash })

/** A delivered order: `confirmed` with the transaction's hash. */
export const confirmDelivery = (db: SandboxDb, id: string, txHash: string) =>
  transition(db, id, 'delivering', 'confirmed', { txHash, completed: true })

/** A failed order: from `pending` (the buyer failed it) or `delivering` (the transfer failed). */
export const failOrder = (db: SandboxDb, id: string, from: 'pending' | 'delivering', failure: string) =>
  transition(db, id, from, 'failed', { failure, completed: true })

/**
 * One provider's orders for an address, newest first, `limit` at most, after the order `beforeSeq` (a page's
 * cursor) when given. Only orders the buyer submitted (paid: `delivering`, `confirmed`, or `failed`): a checkout
 * the generator opened and the buyer left (`pending`, never paid) is no order of theirs yet, as a real provider's
 * transaction list shows only purchases that were started.
 */
export async function listOrders(
  db: SandboxDb,
  query: { provider: OnrampProviderId; address: string; chainId?: string; beforeSeq?: number; limit: number },
): Promise<OnrampOrder[]> {
  const { rows } = await db.pg.query<OrderRow>(
    `SELECT ${COLUMNS} FROM onramp_orders
      WHERE provider = $1 AND address = $2 AND ($3::text IS NULL OR chain_id = $3)
        AND ($4::bigint IS NULL OR seq < $4) AND status <> 'pending'
      ORDER BY seq DESC
      LIMIT $5`,
    [
      query.provider,
      // A 0x address is kept lower-case; base58 as it is.
      query.address.startsWith('0x') ? query.address.toLowerCase() : query.address,
      query.chainId ?? null,
      query.beforeSeq ?? null,
      query.limit,
    ],
  )
  return rows.map(toOrder)
}

/** Which of `hashes` delivered a confirmed order to `address` (lower-case hashes). */
export async function deliveriesTo(db: SandboxDb, address: string, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set()
  const { rows } = await db.pg.query<{ tx_hash: string }>(
    `SELECT tx_hash FROM onramp_orders
      WHERE status = 'confirmed' AND address = $1 AND tx_hash = ANY($2::text[])`,
    [address.toLowerCase(), hashes.map((h) => h.toLowerCase())],
  )
  return new Set(rows.map((row) => row.tx_hash))
}
