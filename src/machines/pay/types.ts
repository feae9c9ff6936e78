import type { ErrorInfo } from '../../errors/base'

/** Pay's types: the kit's record of a payment; its rules are the send flow's (src/machines/send/pay.ts). */

/** What is paid: an ERC-20 (or SPL mint) by its address, or the network's native currency without one. */
export interface PayAsset {
  /** The token's contract (0x…) on eip155, its mint (base58) on Solana; absent for the native currency. */
  address?: string
  symbol: string
  decimals: number
  name?: string
}

/** A payment the host asks for (`useKitPay().pay(request)`). */
export interface PayRequest {
  /** Who is paid: a 0x address on eip155, a base58 public key on Solana. */
  recipient: string
  /** In the asset's units, as a decimal string (`'0.25'`). */
  amount: string
  /** The network's native currency when absent. */
  asset?: PayAsset
  /** A configured network's CAIP-2 id; the connected account's network when absent. */
  network?: `${string}:${string}`
}

/** Where the host's last payment stands. */
export type PayStatus = 'paying' | 'succeeded' | 'failed'

/** The kit's record of the host's last payment (its `pay.open` id ties it to the host's call). */
export interface PayState {
  id: number
  request: PayRequest
  status: PayStatus
  /** The Pay view has been shown: leaving it from then on ends the payment. */
  shown: boolean
  /** The transaction hash (a Solana signature) once paid. */
  hash?: string | undefined
  /** Why it did not happen (refused, cancelled, or the transfer's last failure). */
  error?: ErrorInfo | undefined
  /** The transfer's last failure while Pay is open (the visitor may try again). */
  lastError?: ErrorInfo | undefined
}

/** The events the host (and the Pay view) send the kit. */
export type PayEvent = { type: 'pay.open'; id: number; request: PayRequest }

/** What the pay machine takes: the host's payment, and what the send flow and the modal made of it. */
export type PayMachineEvent =
  | PayEvent
  /** The send flow took the payment: its form is filled and previewed (`send.payAccepted`). */
  | { type: 'pay.accepted' }
  /** The send flow refused the payment, or its code did not load: the host hears why. */
  | { type: 'pay.refused'; error: ErrorInfo }
  /** A transfer landed while Pay showed: the payment's hash (a Solana signature). */
  | { type: 'pay.sent'; hash: string }
  /** A transfer failed (the visitor may try again from Pay): kept, in case the visitor leaves. */
  | { type: 'pay.transferFailed'; error: ErrorInfo }
  /** The view the modal shows now (undefined: closed). */
  | { type: 'pay.view'; view: string | undefined }

/** What the pay machine asks of the kit (its glue). */
export type PayNotice =
  /** The send flow is asked to take the payment: its form, reset, becomes the payment. */
  | { type: 'pay.ask'; request: PayRequest }
  /** The send flow took it: Pay shows. */
  | { type: 'pay.show' }
  /** Paid: Pay closes (the record is kept first, so the close does not cancel it). */
  | { type: 'pay.done' }
  /** Left before paying: the send form the payment filled is reset. */
  | { type: 'pay.ended' }
