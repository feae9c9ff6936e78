import { type Address, formatUnits, getAddress, type Hex, isAddress, parseUnits } from 'viem'
import {
  type ActorRefFrom,
  assertEvent,
  assign,
  emit,
  fromPromise,
  raise,
  type SnapshotFrom,
  setup,
} from 'xstate'
import {
  NATIVE_TOKEN_ADDRESS,
  PENDING_TX_POLLING_MS,
  SEND_REQUEST_TIMEOUT_MS,
  SIMULATION_TIMEOUT_MS,
  TX_RECEIPT_TIMEOUT_MS,
} from '../constants'
import type { BaseError } from '../errors/base'
import type { ErrorInfo } from '../errors/connection'
import { PayBusyError, payErrorInfo } from '../errors/pay'
import {
  AmountAndReceiverRequiredError,
  InsufficientBalanceError,
  InsufficientFeeFundsError,
  InvalidAmountError,
  InvalidReceiverError,
  InvalidTokenError,
  NameOnSolanaError,
  ReceiverChecksumError,
  SendNonceTakenError,
  type SendStage,
  SendStillOpenError,
  SendTimeoutError,
  sendErrorInfo,
  TokenDecimalsMismatchError,
  TokenRequiredError,
  TransactionPendingError,
  TransactionRevertedError,
  UnsupportedChainError,
} from '../errors/send'
import { SimulationDisagreementError } from '../errors/simulation'
import { eip155Reference, formatChainId, isCaip2, parseAccountId } from '../utils/caip'
import type { ChainNamespace } from './connection'
import type { ModalEvent } from './modal'
import { type PayContext, payRefusal, payToken } from './send/pay'
import { sendSimulationDisagreement } from './send/simulation'
import type {
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
  TokenBalance,
  TokenOnChain,
} from './send/types'

/**
 * The send flow (SPEC §4 "Sending a token", §5, §8, §9).
 *
 * editing → (`send.preview`, the form valid) → previewing, or through `resolving` when the receiver is a name →
 * previewing: `estimating` the network fee → (eip155) `simulating` the send on the chain → `ready` (shown, with
 * the simulated balance changes when the node could simulate; `send.confirm`), or `disagrees` (the simulation
 * moves something else than the preview shows: no confirm; `send.retry`), or `unavailable` (the estimate
 * failed or the fee cannot be paid; `send.retry`) → sending (loading on; the wallet is asked, native or ERC-20)
 * → confirming: `waiting` for the receipt up to 25 s, then `polling` for it another 30 s (SPEC §9) → done (the
 * send state is reset and `send.succeeded` emitted, so the kit navigates: SPEC §2) or failed.
 *
 * Solana (SPEC §4 "native, ERC20 or Solana send"): a token whose chain is `solana:…` (SOL has no address, an
 * SPL token's address is its mint) takes the `isSolana` branches: the receiver is a base58 public key (no names
 * on Solana, SPEC §1), the fee is `estimateSolanaFee`'s (signatures, plus the rent of a token account the send
 * creates), and `sendSolana` is asked as the kit's `sender` (`send.setSender`): it signs through the wallet,
 * sends and waits for 'confirmed', so `done` follows it directly.
 *
 * An ERC-20 is read from its contract first (`checkingToken`, `readTokenMetadata`): decimals (or a symbol) other
 * than the balances' refuse the token (`tokenMismatch`), and amounts are scaled by the contract's decimals. A
 * mixed-case receiver must carry its EIP-55 checksum (`receiverChecksumInvalid`).
 *
 * One payment, one transaction: before its first eip155 wallet request the payment reads the account's nonce
 * (`readNonce`) and every request of it asks for that nonce, until a transaction of it is known.
 * `sending` has a time limit (`sendRequestTimeout`, SEND_REQUEST_TIMEOUT_MS): a wallet that never answers leads
 * to `overdue` (SendTimeoutError, and `request.timedOut` for the kit's alert), which asks the chain whether a
 * transaction took the nonce (`checkNonce`, then `watchNonce`) before it offers `send.retry` ("Send again", the
 * same nonce: at most one of the two requests can be mined). On Solana the time limit fails the send as before.
 * `send.reset` leaves either.
 *
 * failed keeps the form: `retryable` (declined in the wallet, refused, reverted, timed out) offers `send.retry` (send again)
 * and `send.edit`; `unconfirmed` (sent, but no receipt in time) offers `send.retry` as "check again", which polls
 * and never sends twice.
 *
 * Every effect is a named actor slot: `readTokenMetadata`, `resolveName`, `estimateFee`, `simulate`, `readNonce`,
 * `sendNative`, `sendErc20`, `checkNonce`, `watchNonce`, `waitForReceipt`, `pollReceipt`, `estimateSolanaFee`,
 * `sendSolana`. `createSendActors` (src/actors/send.ts) fills them over
 * wagmi, and Solana's over its chunk, loaded on first use; tests with fakes.
 */

export { NATIVE_TOKEN_ADDRESS } from '../constants'
export { simulatedChanges, simulationResultOf } from './send/simulation'
export type * from './send/types'

const EMPTY_FORM = {
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
  nonce: undefined,
} satisfies Partial<SendContext>

/** A Solana send's fee and what it sends, as the slot takes them. */
type SolanaTransferRequest = SolanaSendRequest & { fee?: FeeEstimate | undefined }

const notProvided = (slot: string) => () => {
  throw new Error(`sendMachine: the "${slot}" actor slot was not provided`)
}

/** An error event's payload, for `params`. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error
const feeOf = ({ event }: { event: { output: FeeEstimate } }) => event.output
const outputOf = <T>({ event }: { event: { output: T } }) => event.output

/** Where the chain's word on a held nonce leads (after the time limit, or a request sent again that failed). */
const NONCE_LOOKED_UP = [
  {
    guard: { type: 'paymentMined', params: outputOf<NonceStatus> },
    target: '#send.confirming',
    actions: [{ type: 'setMinedHash', params: outputOf<NonceStatus> }, 'releaseNonce', 'emitSubmitted'],
  },
  {
    guard: { type: 'nonceTaken', params: outputOf<NonceStatus> },
    target: '#send.overdue.taken',
    actions: ['releaseNonce', 'showNonceTaken'],
  },
] as const

/**
 * Where a fee estimate leads, on either namespace: the preview (through the simulation on eip155; Solana's send
 * is preflighted by its own slot), or why it cannot send.
 */
const feeEstimated = <const T extends '#send.previewing.ready' | '#send.previewing.simulating'>(next: T) =>
  ({
    onDone: [
      {
        guard: { type: 'cannotPayFee', params: feeOf },
        target: '#send.previewing.unavailable',
        actions: { type: 'showFeeNotPayable', params: feeOf },
      },
      { target: next, actions: { type: 'setFee', params: feeOf } },
    ],
    onError: {
      target: '#send.previewing.unavailable',
      actions: {
        type: 'setError',
        params: (args: { event: { error: unknown } }) => ({
          error: errorOf(args),
          stage: 'estimate' as const,
        }),
      },
    },
  }) as const

/** Where a wallet's answer to an eip155 request leads: the receipt awaited, or why not. */
const WALLET_ANSWERED = {
  onDone: {
    target: '#send.confirming',
    actions: [{ type: 'setHash', params: outputOf<string> }, 'releaseNonce', 'emitSubmitted'],
  },
  onError: [
    // The request sent again failed: the one left earlier may have gone through. The chain tells.
    {
      guard: 'earlierRequestOpen',
      target: '#send.overdue',
      actions: {
        type: 'setError',
        params: (args: { event: { error: unknown } }) => ({ error: errorOf(args), stage: 'send' as const }),
      },
    },
    {
      target: '#send.failed.retryable',
      actions: [
        {
          type: 'setError',
          params: (args: { event: { error: unknown } }) => ({ error: errorOf(args), stage: 'send' as const }),
        },
        // Answered (declined, failed) with no earlier request left open: nothing holds the nonce any more.
        'releaseNonce',
      ],
    },
  ],
} as const

export const sendMachine = setup({
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
    sendErc20: fromPromise<Hex, SendTransactionRequest & { token: Address }>(notProvided('sendErc20')),
    waitForReceipt: fromPromise<SendReceipt, ReceiptRequest>(notProvided('waitForReceipt')),
    pollReceipt: fromPromise<SendReceipt, { hash: Hex; chainId: number }>(notProvided('pollReceipt')),
    /** Solana: the network fee of the transfer (and the rent of the recipient's token account to create). */
    estimateSolanaFee: fromPromise<FeeEstimate, SolanaSendRequest>(notProvided('estimateSolanaFee')),
    /** Solana: signs through the wallet, sends and confirms ('confirmed'); the signature (base58). */
    sendSolana: fromPromise<string, SolanaTransferRequest>(notProvided('sendSolana')),
    /** eip155: the send simulated on the chain before the wallet is asked; the account's balance changes. */
    simulate: fromPromise<SendSimulation, SendSimulationRequest>(notProvided('simulate')),
    /** An ERC-20's `decimals()` and `symbol()` from its contract (cached per token). */
    readTokenMetadata: fromPromise<TokenOnChain, { chainId: number; address: Address }>(
      notProvided('readTokenMetadata'),
    ),
    /** The sending account's next nonce (pending counted), read before a payment's first wallet request. */
    readNonce: fromPromise<NonceReading, { chainId: number }>(notProvided('readNonce')),
    /** One look at the chain: has a transaction of the account taken the held nonce, and is it this payment? */
    checkNonce: fromPromise<NonceStatus, NonceCheck>(notProvided('checkNonce')),
    /** Looks again and again until a transaction takes the held nonce; answers what took it. */
    watchNonce: fromPromise<NonceStatus, NonceCheck>(notProvided('watchNonce')),
  },
  delays: {
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
    /** No nonce is held for this chain and account yet: it is read before the wallet is asked. */
    needsNonce: ({ context }) => !holdsNonce(context),
    /** A wallet request is out with the held nonce: at the time limit it may still be signed. */
    walletMayHoldRequest: ({ context }) => !isSolanaContext(context) && holdsNonce(context),
    /** A request with the held nonce was left to the wallet at the time limit, and may still be signed. */
    earlierRequestOpen: ({ context }) => holdsNonce(context) && context.nonce!.abandoned,
    paymentMined: (_, status: NonceStatus) => status.status === 'mined',
    nonceTaken: (_, status: NonceStatus) => status.status === 'taken',
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
    isNative: ({ context }) => context.token !== undefined && isNativeToken(context.token),
    reverted: (_, receipt: SendReceipt) => receipt.status === 'reverted',
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
    setNonce: assign(({ context }, reading: NonceReading) => ({
      nonce: { ...reading, chainId: chainReference(context.token!)!, abandoned: false },
    })),
    /** The time limit left a request with the held nonce to the wallet. */
    markNonceAbandoned: assign(({ context }) => ({
      nonce: context.nonce ? { ...context.nonce, abandoned: true } : undefined,
    })),
    /** A transaction of the payment is known (or another took the nonce): the next payment reads a new nonce. */
    releaseNonce: assign({ nonce: undefined }),
    setMinedHash: assign((_, status: NonceStatus) => ({
      hash: status.status === 'mined' ? status.hash : undefined,
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
    setHash: assign((_, hash: string) => ({ hash })),
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
}).createMachine({
  id: 'send',
  context: ({ input }) => {
    const tokenBalances = (input.tokenBalances ?? []).filter((t) => t.quantity.decimals !== '0')
    return {
      ...EMPTY_FORM,
      token: input.token,
      tokenBalances,
      networkBalanceInUsd: networkBalanceInUsd(tokenBalances, input.token?.chainId),
      hash: undefined,
      sender: input.sender,
    }
  },
  on: {
    'send.setTokenBalances': { actions: 'setTokenBalances' },
    'send.setSender': { actions: 'setSender' },
    'send.pay': { actions: 'refuseBusyPayment' },
  },
  initial: 'editing',
  states: {
    editing: {
      entry: 'clearHash',
      on: {
        'send.setToken': { actions: 'setToken' },
        'send.setAmount': { actions: 'setAmount' },
        'send.setReceiver': { actions: 'setReceiver' },
        'send.setMax': { guard: 'hasToken', actions: 'setMax' },
        'send.preview': [
          { guard: 'receiverChecksumInvalid', actions: 'showValidationError' },
          { guard: 'formInvalid', actions: 'showValidationError' },
          { guard: 'isErc20', target: 'checkingToken', actions: 'clearError' },
          { guard: 'receiverIsName', target: 'resolving', actions: 'clearError' },
          { target: 'previewing', actions: 'acceptAddress' },
        ],
        'send.reset': { actions: 'resetForm' },
        // Pay (SPEC §1 `pay`): the host's payment, checked, fills the form, which is previewed at once.
        'send.pay': [
          { guard: 'paymentRefused', actions: 'refusePayment' },
          { actions: ['takePayment', 'emitPayAccepted', raise({ type: 'send.preview' })] },
        ],
      },
    },
    // An ERC-20's amount is scaled by the decimals its contract states, never by the balances' word alone.
    checkingToken: {
      tags: 'busy',
      invoke: {
        id: 'readTokenMetadata',
        src: 'readTokenMetadata',
        input: ({ context }) => ({
          chainId: chainReference(context.token!)!,
          address: tokenContract(context.token!)!,
        }),
        onDone: [
          {
            guard: { type: 'tokenMismatch', params: outputOf<TokenOnChain> },
            target: 'editing',
            actions: { type: 'refuseToken', params: outputOf<TokenOnChain> },
          },
          {
            guard: 'receiverIsName',
            target: 'resolving',
            actions: { type: 'setTokenOnChain', params: outputOf<TokenOnChain> },
          },
          {
            target: 'previewing',
            actions: [{ type: 'setTokenOnChain', params: outputOf<TokenOnChain> }, 'acceptAddress'],
          },
        ],
        onError: {
          target: 'editing',
          actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'token' }) },
        },
      },
      on: {
        'send.edit': 'editing',
        'send.reset': { target: 'editing', actions: 'resetForm' },
      },
    },
    resolving: {
      tags: 'busy',
      invoke: {
        id: 'resolveName',
        src: 'resolveName',
        input: ({ context }) => ({ name: context.receiverAddress!.trim() }),
        onDone: {
          target: 'previewing',
          actions: { type: 'applyResolvedName', params: ({ event }) => event.output },
        },
        onError: {
          target: 'editing',
          actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'resolve' }) },
        },
      },
      on: {
        'send.edit': 'editing',
        'send.reset': { target: 'editing', actions: 'resetForm' },
      },
    },
    previewing: {
      entry: 'emitPreviewing',
      on: {
        'send.edit': { target: 'editing', actions: 'clearError' },
        'send.reset': { target: 'editing', actions: 'resetForm' },
      },
      initial: 'estimating',
      states: {
        estimating: {
          tags: 'busy',
          entry: ['clearError', 'clearSimulation'],
          initial: 'choosing',
          states: {
            choosing: {
              always: [{ guard: 'isSolana', target: 'solana' }, { target: 'eip155' }],
            },
            eip155: {
              invoke: {
                id: 'estimateFee',
                src: 'estimateFee',
                input: ({ context }) => sendRequestOf(context),
                ...feeEstimated('#send.previewing.simulating'),
              },
            },
            solana: {
              invoke: {
                id: 'estimateSolanaFee',
                src: 'estimateSolanaFee',
                input: ({ context }) => solanaRequestOf(context),
                ...feeEstimated('#send.previewing.ready'),
              },
            },
          },
        },
        // See before you sign (eip155): the send simulated before confirm is offered. A node that cannot simulate
        // (an unavailable answer, an error, no answer in time) leads to the preview without the line.
        simulating: {
          tags: 'busy',
          after: { simulationTimeout: { target: 'ready', actions: 'clearSimulation' } },
          invoke: {
            id: 'simulate',
            src: 'simulate',
            input: ({ context }) => simulationRequestOf(context),
            onDone: [
              {
                guard: { type: 'simulationDisagrees', params: ({ event }) => event.output },
                target: 'disagrees',
                actions: { type: 'showDisagreement', params: ({ event }) => event.output },
              },
              { target: 'ready', actions: { type: 'setSimulation', params: ({ event }) => event.output } },
            ],
            onError: { target: 'ready', actions: 'clearSimulation' },
          },
        },
        ready: {
          on: { 'send.confirm': '#send.sending' },
        },
        // The simulation disagrees with the preview: no confirm; back to the form, or simulate again.
        disagrees: {
          tags: 'failed',
          on: { 'send.retry': 'estimating' },
        },
        unavailable: {
          tags: 'failed',
          on: { 'send.retry': 'estimating' },
        },
      },
    },
    sending: {
      tags: ['loading', 'busy'],
      entry: ['loadingOn', 'clearError', 'clearHash'],
      exit: 'loadingOff',
      // A wallet that never answers: its request is left (its actor stopped, so a hash it sends later is ignored).
      // On eip155 the request holds the payment's nonce: `overdue` watches the chain for it before offering to
      // send again (with the same nonce). Solana's send has no such slot: the form is kept for a deliberate retry.
      after: {
        sendRequestTimeout: [
          {
            guard: 'walletMayHoldRequest',
            target: '#send.overdue',
            actions: ['setTimedOut', 'markNonceAbandoned', 'emitTimedOut'],
          },
          { target: '#send.failed.retryable', actions: ['setTimedOut', 'emitTimedOut'] },
        ],
      },
      // SPEC §4 reset (the kit sends it on disconnect): the wallet is gone, so is its request.
      on: { 'send.reset': { target: 'editing', actions: 'resetForm' } },
      initial: 'choosing',
      states: {
        choosing: {
          always: [
            { guard: 'isSolana', target: 'solana' },
            { guard: 'needsNonce', target: 'nonce' },
            { guard: 'isNative', target: 'native' },
            { target: 'erc20' },
          ],
        },
        asking: {
          always: [{ guard: 'isNative', target: 'native' }, { target: 'erc20' }],
        },
        // The payment's nonce, read once: every wallet request of this payment asks for it.
        nonce: {
          invoke: {
            id: 'readNonce',
            src: 'readNonce',
            input: ({ context }) => ({ chainId: chainReference(context.token!)! }),
            // Straight to the request: the nonce just read is the one to use, whatever the kit's sender says.
            onDone: { target: 'asking', actions: { type: 'setNonce', params: outputOf<NonceReading> } },
            onError: {
              target: '#send.failed.retryable',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'send' }) },
            },
          },
        },
        // One slot signs, sends and confirms ('confirmed', SPEC §5): no receipt to wait for afterwards.
        solana: {
          invoke: {
            id: 'sendSolana',
            src: 'sendSolana',
            input: ({ context }) => ({ ...solanaRequestOf(context), fee: context.fee }),
            onDone: {
              target: '#send.done',
              actions: { type: 'setHash', params: ({ event }) => event.output },
            },
            onError: {
              target: '#send.failed.retryable',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'send' }) },
            },
          },
        },
        native: {
          invoke: {
            id: 'sendNative',
            src: 'sendNative',
            input: ({ context }) => ({
              ...sendRequestOf(context),
              fee: context.fee,
              nonce: context.nonce?.nonce,
            }),
            ...WALLET_ANSWERED,
          },
        },
        erc20: {
          invoke: {
            id: 'sendErc20',
            src: 'sendErc20',
            input: ({ context }) => {
              const request = sendRequestOf(context)
              return { ...request, token: request.token!, fee: context.fee, nonce: context.nonce?.nonce }
            },
            ...WALLET_ANSWERED,
          },
        },
      },
    },
    confirming: {
      tags: ['loading', 'busy'],
      entry: ['loadingOn', 'clearError'],
      exit: 'loadingOff',
      initial: 'waiting',
      states: {
        waiting: {
          invoke: {
            id: 'waitForReceipt',
            src: 'waitForReceipt',
            input: ({ context }) => ({
              hash: context.hash! as Hex,
              chainId: chainReference(context.token!)!,
              timeoutMs: TX_RECEIPT_TIMEOUT_MS,
            }),
            onDone: [
              {
                guard: { type: 'reverted', params: ({ event }) => event.output },
                target: '#send.failed.retryable',
                actions: 'setReverted',
              },
              { target: '#send.done' },
            ],
            // A timed-out (or interrupted) wait is not a failed send: the transaction is out there. Look again.
            onError: 'polling',
          },
          after: { receiptTimeout: 'polling' },
        },
        polling: {
          invoke: {
            id: 'pollReceipt',
            src: 'pollReceipt',
            input: ({ context }) => ({
              hash: context.hash! as Hex,
              chainId: chainReference(context.token!)!,
            }),
            onDone: [
              {
                guard: { type: 'reverted', params: ({ event }) => event.output },
                target: '#send.failed.retryable',
                actions: 'setReverted',
              },
              { target: '#send.done' },
            ],
          },
          after: { pendingPolling: { target: '#send.failed.unconfirmed', actions: 'setPending' } },
        },
      },
    },
    // Past the wallet's time limit (or a request sent again that failed while an earlier one was left open):
    // nothing is offered until the chain says whether a transaction took the payment's nonce. Mined as this
    // payment → its receipt; taken by another transaction → a new nonce next time; still open → "Send again",
    // which asks for the same nonce (so at most one request can be mined), while the chain is watched on.
    overdue: {
      initial: 'checking',
      on: {
        'send.reset': { target: 'editing', actions: 'resetForm' },
      },
      states: {
        checking: {
          tags: 'busy',
          invoke: {
            id: 'checkNonce',
            src: 'checkNonce',
            input: ({ context }) => nonceCheckOf(context),
            onDone: [...NONCE_LOOKED_UP, { target: 'open', actions: 'showStillOpen' }],
            // The chain cannot tell now: sending again is still safe (same nonce); the watch goes on.
            onError: { target: 'open', actions: 'showStillOpen' },
          },
        },
        open: {
          invoke: {
            id: 'watchNonce',
            src: 'watchNonce',
            input: ({ context }) => nonceCheckOf(context),
            onDone: [...NONCE_LOOKED_UP, { target: 'checking' }],
            onError: { target: 'checking' },
          },
          on: { 'send.retry': '#send.sending' },
        },
        // Another transaction took the nonce: the left request cannot be mined any more. A new send reads a new one.
        taken: {
          on: { 'send.retry': '#send.sending' },
        },
      },
    },
    done: {
      // The notice first: it reads the form the reset clears.
      entry: ['emitSucceeded', 'resetForm'],
      on: {
        'send.reset': 'editing',
        'send.setToken': { target: 'editing', actions: 'setToken' },
      },
    },
    failed: {
      tags: 'failed',
      entry: 'emitFailed',
      initial: 'retryable',
      states: {
        retryable: {
          on: {
            'send.retry': '#send.sending',
            'send.edit': { target: '#send.editing', actions: 'clearError' },
            'send.reset': { target: '#send.editing', actions: 'resetForm' },
          },
        },
        unconfirmed: {
          on: {
            // Never a second transaction: only the receipt of the one sent is looked for again.
            'send.retry': '#send.confirming.polling',
            'send.reset': { target: '#send.editing', actions: 'resetForm' },
          },
        },
      },
    },
  },
})

export type SendMachine = typeof sendMachine
export type SendActorRef = ActorRefFrom<typeof sendMachine>
export type SendSnapshot = SnapshotFrom<typeof sendMachine>

/** True for the native currency: no contract address, or the 0xeee… marker. */
export function isNativeToken(token: Pick<TokenBalance, 'address'>): boolean {
  const address = addressPart(token.address)
  return !address || address.toLowerCase() === NATIVE_TOKEN_ADDRESS
}

/** The address of a CAIP-10 id (`eip155:1:0xab…`), or the value itself when it is a plain address. */
const addressPart = (value: string | undefined) =>
  value === undefined ? undefined : (parseAccountId(value.trim())?.address ?? value.trim())

/** The ERC-20 contract of a token (from CAIP-10 or a plain address); undefined for native or malformed ones. */
export function tokenContract(token: Pick<TokenBalance, 'address'>): Address | undefined {
  if (isNativeToken(token)) return undefined
  const address = addressPart(token.address) ?? ''
  return isAddress(address, { strict: false }) ? getAddress(address) : undefined
}

/** The eip155 reference of a CAIP-2 chain id (`eip155:1` → 1, or a bare `1`); undefined for other namespaces. */
export function chainReference(token: Pick<TokenBalance, 'chainId'>): number | undefined {
  const id = token.chainId.trim()
  return eip155Reference(isCaip2(id) ? id : formatChainId('eip155', id))
}

/** A token on a Solana chain (`solana:` + the genesis hash): SOL, or an SPL token. */
export function isSolanaToken(token: Pick<TokenBalance, 'chainId'>): boolean {
  return token.chainId.trim().startsWith('solana:') && isCaip2(token.chainId.trim())
}

/** The chain namespace a token is sent on. */
export const tokenNamespace = (token: Pick<TokenBalance, 'chainId'>): ChainNamespace =>
  isSolanaToken(token) ? 'solana' : 'eip155'

/** The SPL mint of a Solana token (from CAIP-10 or a plain base58 key); undefined for SOL or malformed ones. */
export function solanaMint(token: Pick<TokenBalance, 'address'>): string | undefined {
  if (isNativeToken(token)) return undefined
  const address = addressPart(token.address) ?? ''
  return isSolanaAddress(address) ? address : undefined
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * A Solana public key: base58 that decodes to exactly 32 bytes (web3.js' `PublicKey` takes no other). Checked
 * here, so the form needs no Solana code to say an address is wrong.
 *
 * @example isSolanaAddress('11111111111111111111111111111111') // true (the system program)
 */
export function isSolanaAddress(value: string): boolean {
  if (!BASE58.test(value)) return false
  let n = 0n
  for (const char of value) n = n * 58n + BigInt(BASE58_ALPHABET.indexOf(char))
  // Each leading '1' is a zero byte; the rest is the number's bytes.
  const zeros = value.length - value.replace(/^1+/, '').length
  const hex = n === 0n ? '' : n.toString(16)
  return zeros + Math.ceil(hex.length / 2) === 32
}

/** The form is about a Solana token. */
const isSolanaContext = (context: Pick<SendContext, 'token'>) =>
  context.token !== undefined && isSolanaToken(context.token)

const DECIMAL = /^(\d+\.?\d*|\.\d+)$/
/** A name: labels joined by dots (ENS, `.reown.id`), no spaces. */
const NAME = /^[^\s.]+(\.[^\s.]+)+$/

/** The amount in base units, or undefined if it is not a decimal the token can hold. */
export function parseAmount(amount: string, decimals: number): bigint | undefined {
  const text = amount.trim()
  if (!DECIMAL.test(text)) return undefined
  const fraction = text.split('.')[1] ?? ''
  if (fraction.length > decimals) return undefined
  return parseUnits(text, decimals)
}

function decimalsOf(token: TokenBalance): number | undefined {
  const decimals = Number(token.quantity.decimals)
  return Number.isInteger(decimals) && decimals >= 0 && decimals <= 255 ? decimals : undefined
}

function balanceOf(token: TokenBalance): bigint | undefined {
  const decimals = decimalsOf(token)
  if (decimals === undefined) return undefined
  const numeric = token.quantity.numeric.trim()
  if (!DECIMAL.test(numeric)) return undefined
  // A balance with more decimals than the token is a rounding artefact; the extra digits are dropped.
  const [whole = '', fraction = ''] = numeric.split('.')
  return parseUnits(`${whole || '0'}.${fraction.slice(0, decimals) || '0'}`, decimals)
}

/**
 * The first problem with the form (SPEC §5, in its order), or undefined when it can be previewed. Views use it
 * to label the preview button; the machine shows it when `send.preview` comes anyway.
 *
 * @example
 * const problem = validateSend(snapshot.context)
 * <button disabled={problem !== undefined}>{problem?.shortMessage ?? 'Preview send'}</button>
 */
export function validateSend(
  form: Pick<SendContext, 'token' | 'sendTokenAmount' | 'receiverAddress'>,
): BaseError | undefined {
  const amount = form.sendTokenAmount?.trim() ?? ''
  const receiver = form.receiverAddress?.trim() ?? ''
  if (!amount || !receiver) return new AmountAndReceiverRequiredError()
  const token = form.token
  if (!token) return new TokenRequiredError()
  if (isSolanaToken(token)) return validateSolanaSend(token, amount, receiver)
  if (chainReference(token) === undefined) return new UnsupportedChainError({ details: token.chainId })
  const decimals = decimalsOf(token)
  if (decimals === undefined || (!isNativeToken(token) && tokenContract(token) === undefined)) {
    return new InvalidTokenError()
  }
  const value = parseAmount(amount, decimals)
  if (value === undefined || value === 0n) return new InvalidAmountError()
  const balance = balanceOf(token)
  if (balance !== undefined && value > balance) return new InsufficientBalanceError()
  if (hasWrongChecksum(receiver)) return new ReceiverChecksumError({ details: receiver })
  if (!isAddress(receiver, { strict: false }) && !NAME.test(receiver)) return new InvalidReceiverError()
  return undefined
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * EIP-55: a 0x address in mixed case whose checksum does not match (a mistyped letter, or a changed case). All
 * lowercase and all uppercase hex carry no checksum and pass; names and other text are not addresses here.
 *
 * @example
 * hasWrongChecksum('0x70997970C51812dc3A010C7d01b50e0d17dc79C8') // false
 * hasWrongChecksum('0x70997970c51812dc3A010C7d01b50e0d17dc79C8') // true
 */
export function hasWrongChecksum(receiver: string | undefined): boolean {
  const text = receiver?.trim() ?? ''
  if (!HEX_ADDRESS.test(text)) return false
  const hex = text.slice(2)
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return false
  return !isAddress(text, { strict: true })
}

/** What differs between the selected token's stated decimals and symbol and its contract's; undefined if none. */
function tokenMismatchOf(context: Pick<SendContext, 'token'>, onChain: TokenOnChain): string | undefined {
  const token = context.token!
  const name = onChain.symbol ?? token.symbol
  if (decimalsOf(token) !== onChain.decimals)
    return `${name}: the contract states ${onChain.decimals} decimals, the balances ${token.quantity.decimals}`
  if (
    onChain.symbol !== undefined &&
    onChain.symbol.trim().toLowerCase() !== token.symbol.trim().toLowerCase()
  )
    return `The contract's symbol is ${onChain.symbol}, not ${token.symbol}`
  return undefined
}

/** The decimals an amount of the token is scaled by: its contract's once checked, else the balances'. */
function sendDecimalsOf(context: Pick<SendContext, 'token' | 'tokenOnChain'>): number {
  const token = context.token!
  const checked = context.tokenOnChain
  const contract = tokenContract(token)
  if (checked && contract && checked.address.toLowerCase() === contract.toLowerCase()) return checked.decimals
  return decimalsOf(token)!
}

/** A nonce is held for the token's chain and the account that sends (when the kit named one). */
function holdsNonce(context: Pick<SendContext, 'nonce' | 'token' | 'sender'>): boolean {
  const nonce = context.nonce
  if (!nonce || !context.token || nonce.chainId !== chainReference(context.token)) return false
  const sender = context.sender
  return !sender || sender.address.toLowerCase() === nonce.from.toLowerCase()
}

/** The held nonce and the payment that should take it, for `checkNonce` and `watchNonce`. */
function nonceCheckOf(context: SendContext): NonceCheck {
  const { abandoned: _, ...nonce } = context.nonce!
  return { ...nonce, request: sendRequestOf(context) }
}

/** SPEC §5 on Solana: the same checks, an SPL token named by its mint, a base58 public key as receiver. */
function validateSolanaSend(token: TokenBalance, amount: string, receiver: string): BaseError | undefined {
  const decimals = decimalsOf(token)
  if (decimals === undefined || (!isNativeToken(token) && solanaMint(token) === undefined)) {
    return new InvalidTokenError()
  }
  const value = parseAmount(amount, decimals)
  if (value === undefined || value === 0n) return new InvalidAmountError()
  const balance = balanceOf(token)
  if (balance !== undefined && value > balance) return new InsufficientBalanceError()
  if (isSolanaAddress(receiver)) return undefined
  // Names (ENS, .reown.id) resolve to eip155 addresses only (SPEC §1): say so rather than "invalid".
  if (NAME.test(receiver)) return new NameOnSolanaError({ details: receiver })
  return new InvalidReceiverError({ details: 'Not a Solana address (base58, 32 bytes)' })
}

/** The form as a Solana request, from the kit's sender. Only called where the form is known to be valid. */
export function solanaRequestOf(context: SendContext): SolanaSendRequest {
  const token = context.token!
  const decimals = decimalsOf(token)!
  const mint = solanaMint(token)
  const sender = context.sender?.namespace === 'solana' ? context.sender : undefined
  return {
    chainId: token.chainId.trim() as `solana:${string}`,
    // No Solana account: the slot refuses (SendAccountNotFoundError) rather than the machine guessing one.
    from: sender?.address ?? '',
    connectorId: sender?.connectorId ?? '',
    to: context.resolvedAddress!,
    amount: parseAmount(context.sendTokenAmount!, decimals)!,
    decimals,
    ...(mint ? { mint } : {}),
  }
}

/** The form as a request. Only called where the form is known to be valid. */
/** The send as the `simulate` slot takes it: the request, with the token as the preview names and scales it. */
export function simulationRequestOf(context: SendContext): SendSimulationRequest {
  return { ...sendRequestOf(context), symbol: context.token!.symbol, decimals: sendDecimalsOf(context) }
}

export function sendRequestOf(context: SendContext): SendRequest {
  const token = context.token!
  const contract = tokenContract(token)
  return {
    chainId: chainReference(token)!,
    to: context.resolvedAddress! as Address,
    amount: parseAmount(context.sendTokenAmount!, sendDecimalsOf(context))!,
    ...(contract ? { token: contract } : {}),
  }
}

/** Whether the native balance pays the fee (and, for the native currency, the amount too), as far as known. */
function canPayFee(context: SendContext, fee: FeeEstimate): boolean {
  const token = context.token!
  const feeWei = BigInt(fee.fee)
  if (isNativeToken(token)) {
    const balance = balanceOf(token)
    const amount = parseAmount(context.sendTokenAmount!, decimalsOf(token)!)!
    return balance === undefined || amount + feeWei <= balance
  }
  const native = context.tokenBalances.find((t) => t.chainId === token.chainId && isNativeToken(t))
  // Not listed is not proof of zero (the balances may not be loaded): the wallet and the chain will tell.
  const balance = native ? balanceOf(native) : undefined
  return balance === undefined || feeWei <= balance
}

function maxAmount(context: SendContext): string {
  const token = context.token!
  const decimals = decimalsOf(token)
  const balance = balanceOf(token)
  if (decimals === undefined || balance === undefined) return token.quantity.numeric
  const reserve = isNativeToken(token) && context.fee ? BigInt(context.fee.fee) : 0n
  const max = balance > reserve ? balance - reserve : 0n
  return formatUnits(max, decimals)
}

function sameToken(a: TokenBalance, b: TokenBalance): boolean {
  if (a.chainId !== b.chainId) return false
  if (isNativeToken(a) || isNativeToken(b)) return isNativeToken(a) && isNativeToken(b)
  const key = isSolanaToken(a) ? solanaMint : tokenContract
  return key(a) !== undefined && key(a) === key(b)
}

/** What Pay's rules check a payment against: the kit's networks and the account that sends. */
function paymentContext(context: SendContext, event: { networks: PayContext['networks'] }): PayContext {
  return { networks: event.networks, connected: context.sender }
}

/** The native balance's USD value on a chain (the first native balance when no chain is given). */
function networkBalanceInUsd(tokenBalances: TokenBalance[], chainId: string | undefined): string | undefined {
  const native = tokenBalances.find(
    (t) => isNativeToken(t) && (chainId === undefined || t.chainId === chainId),
  )
  return native ? String(native.value ?? 0) : undefined
}

function infoOf(error: BaseError): ErrorInfo {
  return sendErrorInfo(error, 'send')
}

/** The fee in USD, when the native currency's price is among the balances. */
export function feeInUsd(context: Pick<SendContext, 'fee' | 'token' | 'tokenBalances'>): number | undefined {
  const { fee, token } = context
  if (!fee || !token) return undefined
  const native = context.tokenBalances.find((t) => t.chainId === token.chainId && isNativeToken(t))
  const price = native?.price ?? (isNativeToken(token) ? token.price : undefined)
  if (price === undefined) return undefined
  return Number(fee.formatted) * price
}

/**
 * Where the modal goes after a successful send (SPEC §2): an ERC-20 or any Solana send (SOL too) returns to
 * Account, a native eip155 one goes back without naming a view.
 *
 * @example
 * sendActor.on('send.succeeded', (notice) => modal.send(routeAfterSend(notice)))
 */
export function routeAfterSend(
  notice: Pick<Extract<SendNotice, { type: 'send.succeeded' }>, 'native' | 'namespace'>,
): ModalEvent {
  return notice.native && notice.namespace !== 'solana'
    ? { type: 'router.back' }
    : { type: 'router.replace', view: 'Account' }
}

/**
 * Where the send flow stands, for the views: the form (`editing`), an ERC-20 read from its contract
 * (`checkingToken`), a name being looked up (`resolving`), the preview (`estimating` the fee, `ready` to send,
 * fee `unavailable`), the wallet asked (`sending`), the receipt awaited (`confirming`), a failure that may be
 * retried (`retryable`), a transaction sent but not seen mined (`unconfirmed`), the wallet's time limit passed
 * with its request perhaps still open (`overdue`: `can({ type: 'send.retry' })` once the chain was looked at),
 * and `done`.
 */
export type SendStatus =
  | 'editing'
  | 'checkingToken'
  | 'resolving'
  | 'estimating'
  | 'simulating'
  | 'ready'
  | 'unavailable'
  | 'disagrees'
  | 'sending'
  | 'confirming'
  | 'retryable'
  | 'unconfirmed'
  | 'overdue'
  | 'done'

const SEND_STATUSES: ReadonlyArray<[Parameters<SendSnapshot['matches']>[0], SendStatus]> = [
  [{ previewing: 'estimating' }, 'estimating'],
  [{ previewing: 'ready' }, 'ready'],
  [{ previewing: 'unavailable' }, 'unavailable'],
  [{ previewing: 'simulating' }, 'simulating'],
  [{ previewing: 'disagrees' }, 'disagrees'],
  ['sending', 'sending'],
  ['confirming', 'confirming'],
  [{ failed: 'retryable' }, 'retryable'],
  [{ failed: 'unconfirmed' }, 'unconfirmed'],
  ['overdue', 'overdue'],
  ['done', 'done'],
  ['resolving', 'resolving'],
  ['checkingToken', 'checkingToken'],
]

/** The send flow's {@link SendStatus}. */
export function selectSendStatus(snapshot: SendSnapshot): SendStatus {
  return SEND_STATUSES.find(([state]) => snapshot.matches(state))?.[1] ?? 'editing'
}

/** The form was accepted: its preview is shown (the fee being estimated, ready, or unavailable). */
export function selectIsPreviewing(snapshot: SendSnapshot): boolean {
  const status = selectSendStatus(snapshot)
  return (
    status === 'estimating' ||
    status === 'ready' ||
    status === 'unavailable' ||
    status === 'simulating' ||
    status === 'disagrees'
  )
}

/**
 * A transaction is on its way (the wallet asked, the receipt awaited, sent but not seen mined yet, or a request
 * left to the wallet at its time limit).
 */
export function selectInFlight(snapshot: SendSnapshot): boolean {
  const status = selectSendStatus(snapshot)
  return snapshot.hasTag('loading') || status === 'unconfirmed' || status === 'overdue'
}

/** The error the form shows (a name that did not resolve, a form the machine refused); none elsewhere. */
export function selectFormError(snapshot: SendSnapshot): SendContext['error'] {
  return selectSendStatus(snapshot) === 'editing' ? snapshot.context.error : undefined
}
