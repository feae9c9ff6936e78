import type { Hex } from 'viem'
import { assign, enqueueActions, fromPromise, setup } from 'xstate'
import { PENDING_TX_POLLING_MS, SEND_REQUEST_TIMEOUT_MS, TX_RECEIPT_TIMEOUT_MS } from '../../constants'
import { InvalidTransactionHashError } from '../../errors/frame'
import { isTransactionHash } from '../../utils/rpcResults'
import type {
  NonceCheck,
  NonceReading,
  NonceStatus,
  ReceiptRequest,
  TransactionContext,
  TransactionEvent,
  TransactionInput,
  TransactionNotice,
  TransactionOutput,
  TransactionReceipt,
  TransactionRequest,
} from './types'

/**
 * The transaction machine's `setup`: its slots, delays, guards and actions. The chart is `../transaction.ts`.
 * Its slots are its parent's (`linkTransaction`): the wallet request, the receipt, the nonce.
 */

const notProvided = (slot: string) => () => {
  throw new Error(`transactionMachine: the "${slot}" actor slot was not provided`)
}

export const outputOf = <T>({ event }: { event: { output: T } }) => event.output
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error

/** The wallet request as the `ask` slot takes it: the parent's request, with the held nonce. */
export const askOf = (context: TransactionContext): TransactionRequest =>
  context.rules.holdsNonce ? { ...context.request, nonce: context.nonce?.nonce } : context.request

/**
 * The eip155 chain receipts and nonces are read on. A transaction on another namespace is one its wallet
 * confirms (`confirmedByWallet`): its rules read nothing from the chain, so this is never asked of it.
 */
export function chainOf(context: TransactionContext): number {
  if (typeof context.chainId !== 'number')
    throw new Error(`transactionMachine: receipts and nonces are read on eip155 only, not ${context.chainId}`)
  return context.chainId
}

/** The held nonce and the payment that should take it, for `checkNonce` and `watchNonce`. */
export function nonceCheckOf(context: TransactionContext): NonceCheck {
  const { abandoned: _, ...nonce } = context.nonce!
  return { ...nonce, chainId: chainOf(context), request: context.payment }
}

/**
 * SPEC §5: the wallet's answer that is no transaction hash, as the error it is (never shown, kept or awaited as a
 * hash).
 */
export const malformedHashError = ({ event }: { event: { output: unknown } }) =>
  new InvalidTransactionHashError({
    details: `The wallet answered the transaction request with no transaction hash (${describeAnswer(event.output)}).`,
  })

/** A short, printable account of an untrusted answer, for an error's details. */
function describeAnswer(answer: unknown): string {
  if (typeof answer !== 'string') return typeof answer
  return JSON.stringify(answer.length > 80 ? `${answer.slice(0, 80)}…` : answer)
}

export const transactionSetup = setup({
  types: {
    context: {} as TransactionContext,
    events: {} as TransactionEvent,
    input: {} as TransactionInput,
    output: {} as TransactionOutput,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    /** The wallet asked for the checked request: the transaction hash (a Solana signature when it confirms). */
    ask: fromPromise<string, TransactionRequest>(notProvided('ask')),
    /** The account's next nonce (pending counted), read before the first wallet request. */
    readNonce: fromPromise<NonceReading, { chainId: number }>(notProvided('readNonce')),
    /** One look at the chain: has a transaction of the account taken the held nonce, and is it this one? */
    checkNonce: fromPromise<NonceStatus, NonceCheck>(notProvided('checkNonce')),
    /** Looks again and again until a transaction takes the held nonce; answers what took it. */
    watchNonce: fromPromise<NonceStatus, NonceCheck>(notProvided('watchNonce')),
    waitForReceipt: fromPromise<TransactionReceipt, ReceiptRequest>(notProvided('waitForReceipt')),
    pollReceipt: fromPromise<TransactionReceipt, { hash: Hex; chainId: number }>(notProvided('pollReceipt')),
  },
  delays: {
    /** Ours (src/constants.ts): a wallet that never answers the transaction request. */
    timeLimit: SEND_REQUEST_TIMEOUT_MS,
    /** The rules' deadline: how long past the time limit a request left open in the wallet can still pay. */
    deadline: ({ context }) => context.rules.deadlineMs ?? 0,
    /** SPEC §9. */
    receiptTimeout: TX_RECEIPT_TIMEOUT_MS,
    /** SPEC §9. */
    pendingPolling: PENDING_TX_POLLING_MS,
  },
  guards: {
    /** A transaction was already sent: its receipt is looked for again, never a second one asked for. */
    sent: ({ context }) => context.hash !== undefined,
    /** One request, one nonce: none is held yet, so it is read before the wallet is asked. */
    needsNonce: ({ context }) => context.rules.holdsNonce && context.nonce === undefined,
    /** A wallet request is out with the held nonce: at the time limit it may still be signed. */
    walletMayHoldRequest: ({ context }) => context.nonce !== undefined,
    /** The request stays open in the wallet past the time limit, until its deadline. */
    awaitsDeadline: ({ context }) => context.rules.deadlineMs !== undefined,
    /** A request with the held nonce was left to the wallet at the time limit, and may still be signed. */
    earlierRequestOpen: ({ context }) => context.nonce?.abandoned === true,
    /**
     * Asked again by another account than the one the nonce is held for (another account connected meanwhile):
     * that nonce is not this account's, so it is let go and the new account's read.
     */
    heldForAnotherAccount: ({ context, event }) =>
      event.type === 'transaction.retry' &&
      event.from !== undefined &&
      context.nonce !== undefined &&
      event.from.toLowerCase() !== context.nonce.from.toLowerCase(),
    /**
     * SPEC §5: the wallet answered with no transaction hash (0x and 64 hex characters). A wallet that confirms
     * itself answers its own namespace's signature (Solana's base58), checked by its slot.
     */
    malformedHash: ({ context }, answer: unknown) =>
      context.rules.confirmedByWallet !== true && !isTransactionHash(answer),
    /** The wallet's answer is the end (it signed, sent and confirmed): no receipt is awaited. */
    confirmedByWallet: ({ context }) => context.rules.confirmedByWallet === true,
    paymentMined: (_, status: NonceStatus) => status.status === 'mined',
    nonceTaken: (_, status: NonceStatus) => status.status === 'taken',
    reverted: (_, receipt: TransactionReceipt) => receipt.status === 'reverted',
  },
  actions: {
    /** Tells the parent (when there is one: run alone, as in its own tests, there is no one to tell). */
    notify: enqueueActions(({ enqueue, self }, notice: TransactionNotice) => {
      if (self._parent) enqueue.sendParent(notice)
    }),
    setNonce: assign((_, reading: NonceReading) => ({ nonce: { ...reading, abandoned: false } })),
    /** The time limit left a request with the held nonce to the wallet. */
    markNonceAbandoned: assign(({ context }) => ({
      nonce: context.nonce ? { ...context.nonce, abandoned: true } : undefined,
    })),
    /** A transaction is known (or another took the nonce): nothing holds it any more. */
    releaseNonce: assign({ nonce: undefined }),
    setHash: assign((_, hash: string) => ({ hash })),
    setMinedHash: assign((_, status: NonceStatus) => ({
      hash: status.status === 'mined' ? status.hash : undefined,
    })),
    mined: assign(({ context }, receipt: TransactionReceipt | undefined) => ({
      result: { status: 'mined' as const, hash: context.hash!, receipt },
    })),
    fail: assign((_, result: TransactionOutput) => ({ result })),
    failSent: assign(({ context }, reason: 'reverted' | 'unseen') => ({
      result: { status: 'failed' as const, reason, hash: context.hash! },
    })),
  },
})
