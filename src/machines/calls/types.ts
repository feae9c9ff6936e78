import type { ErrorInfo } from '../../errors/base'

/** Batched calls' types (EIP-5792): what the host asks, what the wallet says, and the kit's record of a batch. */

/** One call of a batch, as the host gives it (SPEC §5: `to` starts 0x; `data`, if present, starts 0x). */
export interface BatchCall {
  to: `0x${string}`
  /** Calldata; none for a plain transfer of the native currency. */
  data?: `0x${string}` | undefined
  /** Wei sent with the call. */
  value?: bigint | undefined
}

/** A call as the kit's events and snapshots carry it (plain data: its value a hex quantity). */
export interface KitBatchCall {
  to: `0x${string}`
  data?: `0x${string}` | undefined
  /** Wei, as a hex quantity. */
  value?: `0x${string}` | undefined
}

/** A batch the host asks for (`useKitSendCalls().sendCalls(calls)`). */
export interface CallsRequest {
  calls: readonly KitBatchCall[]
  /** An eip155 chain id; the connected account's chain when absent. */
  chainId?: number | undefined
}

/**
 * EIP-5792's `atomic` capability on one chain, as the wallet reports it: `supported` (it executes a batch
 * atomically), `ready` (it can, after upgrading the account), `unsupported` (it sends the calls one by one), or
 * `unknown` (the wallet does not answer `wallet_getCapabilities`: no batching is assumed).
 */
export type AtomicStatus = 'supported' | 'ready' | 'unsupported' | 'unknown'

/** A mined call of a batch: its transaction and whether it succeeded. */
export interface CallsReceipt {
  transactionHash: `0x${string}`
  blockNumber: string
  status: 'success' | 'reverted'
}

/** `wallet_getCallsStatus`'s answer, read and checked. */
export interface CallsStatus {
  status: 'pending' | 'success' | 'failure'
  /** Whether the wallet executed the calls atomically. */
  atomic: boolean
  receipts: readonly CallsReceipt[]
}

/** Where the host's last batch stands. */
export type CallsPhase = 'sending' | 'succeeded' | 'failed'

/** The kit's record of the host's batch (its `calls.send` id ties it to the host's call). */
export interface CallsRecord {
  id: number
  request: CallsRequest
  phase: CallsPhase
  /** The chain the batch went to. */
  chainId?: number | undefined
  /** The wallet's atomic batching on that chain, once asked. */
  atomic?: AtomicStatus | undefined
  /** Sent as separate transactions, one prompt each (the wallet cannot batch atomically). */
  sequential?: boolean | undefined
  /** The batch's id from the wallet (`wallet_getCallsStatus` takes it). */
  batchId?: string | undefined
  /** The final status with its receipts. */
  result?: CallsStatus | undefined
  error?: ErrorInfo | undefined
}

/** The account the batch is sent from. */
export interface CallsAccount {
  address: `0x${string}`
  chainId: number
}

/** The events the host (and the kit) send batched calls. */
export type CallsEvent =
  /** The host's batch (`useKitSendCalls().sendCalls`). */
  | { type: 'calls.send'; id: number; request: CallsRequest }
  /** The eip155 account shown changed (none: disconnected). */
  | { type: 'calls.account'; account: CallsAccount | undefined }

/** What the calls machine tells the kit (its glue). */
export type CallsNotice =
  /** The wallet cannot batch atomically: it will ask for each call separately (the visitor is told). */
  | { type: 'calls.sequential'; count: number }
  /** The batch landed. */
  | { type: 'calls.succeeded'; count: number }
  /** The batch failed after it reached the wallet. */
  | { type: 'calls.failed'; error: ErrorInfo }
