/** The transaction machine's types (src/machines/transaction.ts): its input, output, notices and slots' shapes. */
import type { Address, Hex } from 'viem'

/**
 * What differs between the flows that send a transaction, as data: the chart is the same.
 * - `holdsNonce`: one request, one nonce (send's payments). The account's nonce is read before the first wallet
 *   request and every request asks for it; past the time limit the chain is asked whether a transaction took it
 *   (`overdue`) before a request is sent again, with the same nonce.
 * - `deadlineMs`: the request is left open in the wallet past the time limit (the swap: never asked twice), and
 *   awaited until this long after the time limit, when what it holds can no longer pay.
 * - `confirmedByWallet`: the wallet's answer is the end (Solana's slot signs, sends and confirms): no receipt.
 * With neither a nonce nor a deadline, the time limit fails the transaction.
 */
export interface TransactionRules {
  holdsNonce: boolean
  deadlineMs?: number | undefined
  confirmedByWallet?: boolean | undefined
}

/** What the `ask` slot is given: the parent's checked request, with the held nonce when one is. */
export type TransactionRequest = object & { nonce?: number | undefined }

export interface TransactionInput {
  /**
   * The chain the transaction goes to: its eip155 reference, where receipts and nonces are read; for a transaction
   * its wallet confirms (`confirmedByWallet`: nothing is read from the chain), another namespace's CAIP-2 id.
   */
  chainId: number | `${string}:${string}`
  /** The checked request, passed to the `ask` slot as is (the held nonce added). */
  request: TransactionRequest
  rules: TransactionRules
  /** What a transaction that took the held nonce must match to be this one (`checkNonce`, `watchNonce`). */
  payment?: unknown
  /** A transaction already sent: only its receipt is looked for (again), never a second one asked for. */
  hash?: string | undefined
}

/** What `readNonce` answers: the account's next nonce (pending counted) and the block it was read at. */
export interface NonceReading {
  from: Address
  nonce: number
  /** Decimal string: transactions of this request are mined in this block or later. */
  fromBlock: string
}

/** The nonce held from the first wallet request until a transaction of it is known. */
export interface HeldNonce extends NonceReading {
  /** A request with this nonce was left to the wallet at the time limit: it may still be signed and sent. */
  abandoned: boolean
}

/** What `checkNonce` and `watchNonce` look at: the held nonce and the payment that should take it. */
export interface NonceCheck<TPayment = unknown> extends NonceReading {
  chainId: number
  request: TPayment
}

/**
 * What the chain says of a held nonce: no transaction of the account has it yet (`open`), this payment's took
 * it (`mined`, with its hash), or another transaction of the account did (`taken`).
 */
export type NonceStatus = { status: 'open' } | { status: 'mined'; hash: Hex } | { status: 'taken' }

export interface ReceiptRequest {
  hash: Hex
  chainId: number
  /** How long the slot may wait (SPEC §9: 25 s); the machine also stops waiting then. */
  timeoutMs: number
}

export interface TransactionReceipt {
  status: 'success' | 'reverted'
  /** Decimal string. */
  blockNumber: string
}

/** Why a transaction ended without being mined. */
export type TransactionFailure =
  /** The wallet (or the nonce read before it) answered with an error: declined, refused. */
  | { status: 'failed'; reason: 'declined'; error: unknown }
  /** The wallet did not answer within the time limit (nothing held open). */
  | { status: 'failed'; reason: 'timedOut' }
  /** The request left open in the wallet is past its deadline: it can no longer pay. */
  | { status: 'failed'; reason: 'expired' }
  /** Mined, but reverted. */
  | { status: 'failed'; reason: 'reverted'; hash: string }
  /** Sent, but no receipt within the polling window (SPEC §9). */
  | { status: 'failed'; reason: 'unseen'; hash: string }

/** How a transaction's life ended: its output. */
export type TransactionOutput =
  | { status: 'mined'; hash: string; receipt?: TransactionReceipt | undefined }
  | TransactionFailure

/** Where the transaction stands past the time limit: the chain looked at, the nonce still open or taken. */
export type OverdueStage = 'checking' | 'open' | 'taken' | 'late'

/** What the transaction tells its parent as it goes (`sendParent`): the parent shows it. */
export type TransactionNotice =
  /** A transaction is known (the wallet's answer, or the chain's for the held nonce): its receipt is awaited. */
  | { type: 'transaction.submitted'; hash: string }
  /** The wallet did not answer within the time limit (SPEC §8 alert REQUEST_TIMED_OUT). */
  | { type: 'transaction.timedOut' }
  /**
   * A request sent again failed while an earlier one is open, or the wallet answered no transaction hash (SPEC §5)
   * while the nonce is held: the chain is asked about the nonce.
   */
  | { type: 'transaction.failedAgain'; error: unknown }
  /** Past the time limit: where it stands. */
  | { type: 'transaction.overdue'; stage: OverdueStage }

export interface TransactionContext extends TransactionInput {
  nonce: HeldNonce | undefined
  /** The end, once known: the final state's output. */
  result: TransactionOutput | undefined
}

export type TransactionEvent =
  /**
   * Past the time limit, once the chain was looked at: ask the wallet again (the held nonce, if any). `from`, the
   * account that asks now: a nonce held for another account is let go and the new account's read.
   */
  { type: 'transaction.retry'; from?: string | undefined }
