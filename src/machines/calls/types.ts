import type { ErrorInfo } from '../../errors/base'

/** One call of a batch, as the host gives it (SPEC §5: `to` starts 0x; `data`, if present, starts 0x). */
export interface BatchCall {
  to: `0x${string}`
  data?: `0x${string}` | undefined
  value?: bigint | undefined
}

/** A call as the kit carries it (its value in wei, hex). */
export interface KitBatchCall {
  to: `0x${string}`
  data?: `0x${string}` | undefined
  value?: `0x${string}` | undefined
}

/** A batch the host asks for (`useKitSendCalls().sendCalls(calls)`). */
export interface CallsRequest {
  calls: readonly KitBatchCall[]
  chainId?: number | undefined
}

/** EIP-5792's `atomic` on one chain; `unknown`: the wallet has no `wallet_getCapabilities`. */
export type AtomicStatus = 'supported' | 'ready' | 'unsupported' | 'unknown'

/** A mined transaction of a batch. */
export interface CallsReceipt {
  transactionHash: `0x${string}`
  blockNumber: string
  status: 'success' | 'reverted'
}

/** `wallet_getCallsStatus`'s answer, read and checked. */
export interface CallsStatus {
  status: 'pending' | 'success' | 'failure'
  atomic: boolean
  receipts: readonly CallsReceipt[]
}

export type CallsPhase = 'sending' | 'succeeded' | 'failed'

/** The kit's record of the host's batch (by the id of its `calls.send`). */
export interface CallsRecord {
  id: number
  request: CallsRequest
  phase: CallsPhase
  chainId?: number | undefined
  atomic?: AtomicStatus | undefined
  /** Sent as separate transactions (no atomic batching). */
  sequential?: boolean | undefined
  batchId?: string | undefined
  result?: CallsStatus | undefined
  error?: ErrorInfo | undefined
}

export interface CallsAccount {
  address: `0x${string}`
  chainId: number
}

export type CallsEvent =
  | { type: 'calls.send'; id: number; request: CallsRequest }
  | { type: 'calls.account'; account: CallsAccount | undefined }
  /** EIP-5792 `wallet_showCallsStatus`: the batch `batchId`'s status shown to the visitor (`id`: the host's call). */
  | { type: 'calls.showStatus'; id: number; batchId: string }
  /** Raised by the machine itself: the status was not shown within its time. */
  | { type: 'calls.showTimedOut' }
  /** From the batch child (src/machines/calls/batch.ts): the wallet took the batch. */
  | { type: 'batch.sent'; id: string }

/** The calls machine's notices to its glue. */
export type CallsNotice =
  | { type: 'calls.sequential'; count: number }
  | { type: 'calls.succeeded'; count: number }
  | { type: 'calls.failed'; error: ErrorInfo }
  /** A batch's status for the kit to show (the wallet does not show it itself: the embedded wallet). */
  | { type: 'calls.status'; status: ShownCallsStatus; receipts: number }

/** A batch's status in words, as the kit shows it. */
export type ShownCallsStatus = 'pending' | 'confirmed' | 'reverted'

/** The host's last `wallet_showCallsStatus` (by the id of its `calls.showStatus`). */
export interface ShowStatusRecord {
  id: number
  batchId: string
  phase: 'showing' | 'shown' | 'failed'
  error?: ErrorInfo | undefined
}
