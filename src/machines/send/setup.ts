import { getAddress, type Hex, isAddress } from 'viem'
import { assertEvent, assign, emit, fromPromise, sendTo, setup } from 'xstate'
import {
  PENDING_TX_POLLING_MS,
  SEND_REQUEST_TIMEOUT_MS,
  SIMULATION_TIMEOUT_MS,
  TX_RECEIPT_TIMEOUT_MS,
} from '../../constants'
import type { BaseError } from '../../errors/base'
import type { ErrorInfo } from '../../errors/connection'
import { PayBusyError, payErrorInfo } from '../../errors/pay'
import {
  InsufficientFeeFundsError,
  SendNonceTakenError,
  type SendStage,
  SendStillOpenError,
  SendTimeoutError,
  sendErrorInfo,
  TokenDecimalsMismatchError,
  TransactionPendingError,
  TransactionRevertedError,
} from '../../errors/send'
import { SimulationDisagreementError } from '../../errors/simulation'
import {
  type TransactionMachine,
  type TransactionNotice,
  transactionEnds,
  transactionMachine,
} from '../transaction'
import { payRefusal, payToken } from './pay'
import {
  canPayFee,
  chainReference,
  hasWrongChecksum,
  isNativeToken,
  isSolanaContext,
  isSolanaToken,
  maxAmount,
  networkBalanceInUsd,
  paymentContext,
  sameToken,
  simulationRequestOf,
  tokenMismatchOf,
  tokenNamespace,
  validateSend,
} from './rules'
import { sendSimulationDisagreement } from './simulation'
import type {
  Erc20TransferRequest,
  FeeEstimate,
  NonceCheck,
  NonceReading,
  NonceStatus,
  ReceiptRequest,
  ResolvedName,
  SendContext,
  SendEvent,
  SendInput,
  SendNotice,
  SendReceipt,
  SendRequest,
  SendSimulation,
  SendSimulationRequest,
  SendTransactionRequest,
  SolanaSendRequest,
  TokenMetadataRequest,
  TokenOnChain,
} from './types'

/**
 * The send machine's `setup`: its types, slots, delays, guards and actions. The chart (`../send.ts`) builds the
 * machine from it, and the transactions in this folder their state configs (`sendSetup.createStateConfig`), so
 * every part shares the chart's types.
 */

export const EMPTY_FORM = {
  token: undefined,
  sendTokenAmount: undefined,
  receiverAddress: undefined,
  resolvedAddress: undefined,
  receiverProfileName: undefined,
  receiverProfileImageUrl: undefined,
  fee: undefined,
  error: undefined,
  loading: false,
  simulation: undefined,
  tokenOnChain: undefined,
} satisfies Partial<SendContext>

/** A Solana send's fee and what it sends, as the slot takes them. */
type SolanaTransferRequest = SolanaSendRequest & { fee?: FeeEstimate | undefined }

const notProvided = (slot: string) => () => {
  throw new Error(`sendMachine: the "${slot}" actor slot was not provided`)
}

/** An error event's payload, for `params`. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error
export const feeOf = ({ event }: { event: { output: FeeEstimate } }) => event.output
export const outputOf = <T>({ event }: { event: { output: T } }) => event.output

function infoOf(error: BaseError): ErrorInfo {
  return sendErrorInfo(error, 'send')
}

export const sendSetup = setup({
  types: {
    context: {} as SendContext,
    events: {} as SendEvent,
    input: {} as SendInput,
    emitted: {} as SendNotice,
    tags: {} as 'loading' | 'busy' | 'failed',
  },
  actors: {
    resolveName: fromPromise<ResolvedName, { name: string }>(notProvided('resolveName')),
    estimateFee: fromPromise<FeeEstimate, SendRequest>(notProvided('estimateFee')),
    sendNative: fromPromise<Hex, SendTransactionRequest>(notProvided('sendNative')),
    sendErc20: fromPromise<Hex, Erc20TransferRequest>(notProvided('sendErc20')),
    waitForReceipt: fromPromise<SendReceipt, ReceiptRequest>(notProvided('waitForReceipt')),
    pollReceipt: fromPromise<SendReceipt, { hash: Hex; chainId: number }>(notProvided('pollReceipt')),
    /** Solana: the network fee of the transfer (and the rent of the recipient's token account to create). */
    estimateSolanaFee: fromPromise<FeeEstimate, SolanaSendRequest>(notProvided('estimateSolanaFee')),
    /** Solana: signs through the wallet, sends and confirms ('confirmed'); the signature (base58). */
    sendSolana: fromPromise<string, SolanaTransferRequest>(notProvided('sendSolana')),
    /** eip155: the send simulated on the chain before the wallet is asked; the account's balance changes. */
    simulate: fromPromise<SendSimulation, SendSimulationRequest>(notProvided('simulate')),
    /** An ERC-20's `decimals()` and `symbol()` from its contract (cached per token). */
    readTokenMetadata: fromPromise<TokenOnChain, TokenMetadataRequest>(notProvided('readTokenMetadata')),
    /** The sending account's next nonce (pending counted), read before a payment's first wallet request. */
    readNonce: fromPromise<NonceReading, { chainId: number }>(notProvided('readNonce')),
    /** One look at the chain: has a transaction of the account taken the held nonce, and is it this payment? */
    checkNonce: fromPromise<NonceStatus, NonceCheck>(notProvided('checkNonce')),
    /** Looks again and again until a transaction takes the held nonce; answers what took it. */
    watchNonce: fromPromise<NonceStatus, NonceCheck>(notProvided('watchNonce')),
    /**
     * The send's transaction, a child machine: its slots and time limits are this machine's (`linkTransaction`,
     * ../send.ts), its wallet request asked through `sendNative`, `sendErc20` or `sendSolana`.
     */
    transaction: transactionMachine as TransactionMachine,
  },
  delays: {
    // The send's transaction's time limits (its own delays, linked in ../send.ts): a `.provide({ delays })` of
    // the send machine reaches its transaction.
    /** SPEC §9. */
    receiptTimeout: TX_RECEIPT_TIMEOUT_MS,
    /** SPEC §9. */
    pendingPolling: PENDING_TX_POLLING_MS,
    /** Ours (src/constants.ts): a wallet that never answers the transaction request. */
    sendRequestTimeout: SEND_REQUEST_TIMEOUT_MS,
    /** Ours (src/constants.ts): past it the preview shows no balance-change line. */
    simulationTimeout: SIMULATION_TIMEOUT_MS,
  },
  guards: {
    /** EIP-55: a mixed-case receiver must carry its checksum (one mistyped letter is refused, never fixed). */
    receiverChecksumInvalid: ({ context }) =>
      !isSolanaContext(context) && hasWrongChecksum(context.receiverAddress),
    formInvalid: ({ context }) => validateSend(context) !== undefined,
    /** An ERC-20 on eip155: its decimals (and symbol) are read from its contract before the preview. */
    isErc20: ({ context }) =>
      context.token !== undefined && !isSolanaToken(context.token) && !isNativeToken(context.token),
    /** The contract states other decimals (or another symbol) than the balances: the token is refused. */
    tokenMismatch: ({ context }, onChain: TokenOnChain) => tokenMismatchOf(context, onChain) !== undefined,
    /** How its transaction ended (src/machines/transaction.ts). */
    ...transactionEnds,
    /** Where the transaction stands past the time limit (its notice): the chain looked at, the nonce open or taken. */
    overdueAt: ({ event }, stage: Extract<TransactionNotice, { type: 'transaction.overdue' }>['stage']) =>
      event.type === 'transaction.overdue' && event.stage === stage,
    /** The host's payment breaks one of Pay's rules (`payRefusal`, src/machines/send/pay.ts). */
    paymentRefused: ({ context, event }) => {
      assertEvent(event, 'send.pay')
      return payRefusal(paymentContext(context, event), event.request) !== undefined
    },
    /** Names resolve on eip155 only (SPEC §1): on Solana the form takes nothing but a public key. */
    receiverIsName: ({ context }) =>
      !isSolanaContext(context) && !isAddress(context.receiverAddress?.trim() ?? '', { strict: false }),
    hasToken: ({ context }) => context.token !== undefined,
    /** The token is on a Solana chain (SOL, or an SPL token by its mint): Solana's slots send it. */
    isSolana: ({ context }) => isSolanaContext(context),
    cannotPayFee: ({ context }, fee: FeeEstimate) => !canPayFee(context, fee),
    /** See before you sign: the simulation moves something other than exactly what the preview shows. */
    simulationDisagrees: ({ context }, simulation: SendSimulation) =>
      sendSimulationDisagreement(simulationRequestOf(context), simulation) !== undefined,
  },
  actions: {
    setToken: assign(({ context, event }) => {
      assertEvent(event, 'send.setToken')
      const same = context.token !== undefined && sameToken(context.token, event.token)
      // A fee estimated for another token (or chain) says nothing about this one.
      return {
        token: event.token,
        fee: same ? context.fee : undefined,
        tokenOnChain: same ? context.tokenOnChain : undefined,
        error: undefined,
        networkBalanceInUsd: networkBalanceInUsd(context.tokenBalances, event.token.chainId),
      }
    }),
    setAmount: assign(({ event }) => {
      assertEvent(event, 'send.setAmount')
      return { sendTokenAmount: event.amount, error: undefined }
    }),
    setReceiver: assign(({ event }) => {
      assertEvent(event, 'send.setReceiver')
      return {
        receiverAddress: event.receiverAddress,
        resolvedAddress: undefined,
        receiverProfileName: undefined,
        receiverProfileImageUrl: undefined,
        error: undefined,
      }
    }),
    setMax: assign(({ context }) => ({ sendTokenAmount: maxAmount(context), error: undefined })),
    setSender: assign(({ event }) => {
      assertEvent(event, 'send.setSender')
      return { sender: event.sender }
    }),
    setTokenBalances: assign(({ context, event }) => {
      assertEvent(event, 'send.setTokenBalances')
      // SPEC §5: balances with decimals '0' are dropped.
      const tokenBalances = event.tokenBalances.filter((t) => t.quantity.decimals !== '0')
      const selected = context.token
      const fresh = selected ? tokenBalances.find((t) => sameToken(t, selected)) : undefined
      return {
        tokenBalances,
        token: fresh ?? selected,
        networkBalanceInUsd: networkBalanceInUsd(tokenBalances, selected?.chainId),
      }
    }),
    showValidationError: assign(({ context }) => ({
      error: infoOf(validateSend(context)!),
    })),
    acceptAddress: assign(({ context }) => ({
      resolvedAddress: isSolanaContext(context)
        ? context.receiverAddress!.trim()
        : getAddress(context.receiverAddress!.trim()),
      receiverProfileName: undefined,
      receiverProfileImageUrl: undefined,
      error: undefined,
    })),
    applyResolvedName: assign((_, resolved: ResolvedName) => ({
      resolvedAddress: getAddress(resolved.address),
      receiverProfileName: resolved.name,
      receiverProfileImageUrl: resolved.imageUrl,
      error: undefined,
    })),
    setFee: assign((_, fee: FeeEstimate) => ({ fee })),
    setTokenOnChain: assign((_, tokenOnChain: TokenOnChain) => ({ tokenOnChain })),
    refuseToken: assign(({ context }, onChain: TokenOnChain) => ({
      tokenOnChain: undefined,
      error: infoOf(new TokenDecimalsMismatchError({ details: tokenMismatchOf(context, onChain) })),
    })),
    showStillOpen: assign({ error: infoOf(new SendStillOpenError()) }),
    showNonceTaken: assign({ error: infoOf(new SendNonceTakenError()) }),
    /** The fee estimate came back, but the native balance cannot pay it (with the amount, for native sends). */
    showFeeNotPayable: assign((_, fee: FeeEstimate) => ({
      fee,
      error: infoOf(
        new InsufficientFeeFundsError({ details: `Network fee up to ${fee.formatted} ${fee.symbol}` }),
      ),
    })),
    setError: assign((_, params: { error: unknown; stage: SendStage }) => ({
      error: sendErrorInfo(params.error, params.stage),
    })),
    setReverted: assign(({ context }) => ({
      error: infoOf(new TransactionRevertedError({ details: `Transaction ${context.hash}` })),
    })),
    setTimedOut: assign({ error: infoOf(new SendTimeoutError({ timeoutMs: SEND_REQUEST_TIMEOUT_MS })) }),
    setPending: assign(({ context }) => ({
      error: infoOf(new TransactionPendingError({ hash: context.hash })),
    })),
    clearError: assign({ error: undefined }),
    setSimulation: assign((_, simulation: SendSimulation) => ({ simulation })),
    clearSimulation: assign({ simulation: undefined }),
    /** The simulation disagrees with the preview: said, and confirm is not offered. */
    showDisagreement: assign(({ context }, simulation: SendSimulation) => ({
      simulation,
      error: infoOf(
        new SimulationDisagreementError(
          sendSimulationDisagreement(simulationRequestOf(context), simulation)!,
        ),
      ),
    })),
    clearHash: assign({ hash: undefined }),
    /** "Send again" past the time limit, told to the transaction: with the account that sends now. */
    retryTransaction: sendTo('transaction', ({ context }) => ({
      type: 'transaction.retry' as const,
      from: context.sender?.address,
    })),
    setHash: assign((_, hash: string | undefined) => ({ hash })),
    loadingOn: assign({ loading: true }),
    loadingOff: assign({ loading: false }),
    /** SPEC §4: the send state reset. The balances stay: they are the account's, not the form's. */
    resetForm: assign(({ context }) => ({
      ...EMPTY_FORM,
      networkBalanceInUsd: networkBalanceInUsd(context.tokenBalances, undefined),
    })),
    emitSubmitted: emit(({ context }) => ({
      type: 'send.submitted' as const,
      hash: context.hash! as Hex,
      chainId: chainReference(context.token!)!,
    })),
    emitSucceeded: emit(({ context }) => ({
      type: 'send.succeeded' as const,
      hash: context.hash!,
      chainId: isSolanaToken(context.token!)
        ? (context.token!.chainId.trim() as `solana:${string}`)
        : chainReference(context.token!)!,
      namespace: tokenNamespace(context.token!),
      native: isNativeToken(context.token!),
      symbol: context.token!.symbol,
      amount: context.sendTokenAmount!.trim(),
      to: context.resolvedAddress!,
    })),
    /** The form was accepted: the kit shows the preview (`send.previewing`). */
    emitPreviewing: emit({ type: 'send.previewing' as const }),
    /** The form was refused (no amount, a bad amount or receiver): the kit shakes the modal (SPEC §2). */
    emitRefused: emit({ type: 'send.refused' as const }),
    /** Pay: the payment's token, amount and recipient become the form (the sender is the kit's account). */
    takePayment: assign(({ context, event }) => {
      assertEvent(event, 'send.pay')
      const token = payToken(paymentContext(context, event), event.request)
      return {
        ...EMPTY_FORM,
        token,
        sendTokenAmount: event.request.amount.trim(),
        receiverAddress: event.request.recipient,
        networkBalanceInUsd: networkBalanceInUsd(context.tokenBalances, token.chainId),
      }
    }),
    emitPayAccepted: emit({ type: 'send.payAccepted' as const }),
    refusePayment: emit(({ context, event }) => {
      assertEvent(event, 'send.pay')
      return {
        type: 'send.payRefused' as const,
        error: payErrorInfo(payRefusal(paymentContext(context, event), event.request)!),
      }
    }),
    /** A payment while a transfer is under way (not editing): refused, the transfer untouched. */
    refuseBusyPayment: emit({ type: 'send.payRefused' as const, error: payErrorInfo(new PayBusyError()) }),
    /** The wallet did not answer in time: the kit raises SPEC §8's REQUEST_TIMED_OUT alert. */
    emitTimedOut: emit({ type: 'request.timedOut' as const, request: 'send' as const }),
    emitFailed: emit(({ context }) => ({
      type: 'send.failed' as const,
      error: context.error!,
      hash: context.hash,
    })),
  },
})
