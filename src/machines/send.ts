import { type ActorRefFrom, raise, type SnapshotFrom } from 'xstate'
import type { ModalEvent } from './modal'
import {
  chainReference,
  networkBalanceInUsd,
  sendRequestOf,
  simulationRequestOf,
  solanaRequestOf,
  tokenContract,
} from './send/rules'
import { EMPTY_FORM, errorOf, feeOf, outputOf, sendSetup } from './send/setup'
import { simulatingState } from './send/simulation'
import { sendTransaction } from './send/transactions'
import type { SendContext, SendNotice, TokenOnChain } from './send/types'
import { sendWalletMachine } from './send/wallet'
import { linkTransaction } from './transaction'

/**
 * The send flow (SPEC §4 "Sending a token", §5, §8, §9).
 *
 * editing → (`send.preview`, the form valid) → previewing, or through `resolving` when the receiver is a name →
 * previewing: `estimating` the network fee → (eip155) `simulating` the send on the chain → `ready` (shown, with
 * the simulated balance changes when the node could simulate; `send.confirm`), or `disagrees` (the simulation
 * moves something else than the preview shows: no confirm; `send.retry`), or `unavailable` (the estimate
 * failed or the fee cannot be paid; `send.retry`) → transaction: `sending` (loading on; the wallet is asked,
 * native or ERC-20) → `confirming` (the receipt waited for up to 25 s, then polled for another 30 s: SPEC §9) →
 * done (the send state is reset and `send.succeeded` emitted, so the kit navigates: SPEC §2) or failed.
 *
 * The transaction is a transaction machine invoked as a child (src/machines/transaction.ts, the same one the
 * swap's approvals and swap run on; `send/transactions.ts`): its slots are this machine's, its wallet request
 * asked through `sendNative`, `sendErc20` or `sendSolana` (`send/wallet.ts`), its time limits this machine's
 * delays (`sendRequestTimeout`, `receiptTimeout`, `pendingPolling`: a `.provide({ delays })` reaches it). The
 * send's `sending`, `confirming` and `overdue` are where the views read it, from the child's notices.
 *
 * Solana (SPEC §4 "native, ERC20 or Solana send"): a token whose chain is `solana:…` (SOL has no address, an
 * SPL token's address is its mint) takes the `isSolana` branches: the receiver is a base58 public key (no names
 * on Solana, SPEC §1), the fee is `estimateSolanaFee`'s (signatures, plus the rent of a token account the send
 * creates), and `sendSolana` is asked as the kit's `sender` (`send.setSender`): it signs through the wallet,
 * sends and waits for 'confirmed', so `done` follows it directly (its transaction's rule `confirmedByWallet`).
 *
 * An ERC-20 is read from its contract first (`checkingToken`, `readTokenMetadata`): decimals (or a symbol) other
 * than the balances' refuse the token (`tokenMismatch`), and amounts are scaled by the contract's decimals. A
 * mixed-case receiver must carry its EIP-55 checksum (`receiverChecksumInvalid`).
 *
 * One payment, one transaction (its rule `holdsNonce`): before its first eip155 wallet request the payment reads
 * the account's nonce (`readNonce`) and every request of it asks for that nonce, until a transaction of it is
 * known. `sending` has a time limit (`sendRequestTimeout`, SEND_REQUEST_TIMEOUT_MS): a wallet that never answers
 * leads to `overdue` (SendTimeoutError, and `request.timedOut` for the kit's alert), which asks the chain whether
 * a transaction took the nonce (`checkNonce`, then `watchNonce`) before it offers `send.retry` ("Send again", the
 * same nonce: at most one of the two requests can be mined; another account connected meanwhile reads its own).
 * On Solana the time limit fails the send. `send.reset` leaves either.
 *
 * failed keeps the form: `retryable` (declined in the wallet, refused, reverted, timed out) offers `send.retry` (send again)
 * and `send.edit`; `unconfirmed` (sent, but no receipt in time) offers `send.retry` as "check again", which polls
 * and never sends twice.
 *
 * Every effect is a named actor slot: `readTokenMetadata`, `resolveName`, `estimateFee`, `simulate`, `readNonce`,
 * `sendNative`, `sendErc20`, `checkNonce`, `watchNonce`, `waitForReceipt`, `pollReceipt`, `estimateSolanaFee`,
 * `sendSolana`. `createSendActors` (src/actors/send.ts) fills them over
 * wagmi, and Solana's over its chunk, loaded on first use; tests with fakes.
 *
 * This file is the chart; beside it in send/: `setup.ts` (types, slots, delays, guards, actions), `rules.ts`
 * (the rules as pure functions), `transactions.ts` (the transaction: sending, confirming, overdue), `wallet.ts`
 * (its wallet request), `pay.ts` (Pay's rules).
 */

export { NATIVE_TOKEN_ADDRESS } from '../constants'
export {
  chainReference,
  feeInUsd,
  hasWrongChecksum,
  isNativeToken,
  isSolanaAddress,
  isSolanaToken,
  parseAmount,
  sendRequestOf,
  simulationRequestOf,
  solanaMint,
  solanaRequestOf,
  tokenContract,
  tokenNamespace,
  validateSend,
} from './send/rules'
export { simulatedChanges, simulationResultOf } from './send/simulation'
export type * from './send/types'

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

export const sendMachine = linkTransaction(
  sendSetup.createMachine({
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
            { guard: 'receiverChecksumInvalid', actions: ['showValidationError', 'emitRefused'] },
            { guard: 'formInvalid', actions: ['showValidationError', 'emitRefused'] },
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
          // See before you sign (eip155): the send simulated before confirm is offered. A node that cannot
          // simulate (an unavailable answer, an error, no answer in time) leads to the preview without the line.
          simulating: simulatingState(({ context }: { context: SendContext }) =>
            simulationRequestOf(context),
          ),
          ready: {
            on: { 'send.confirm': { target: '#send.transaction', actions: 'clearHash' } },
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
      transaction: sendTransaction,
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
              'send.retry': { target: '#send.transaction', actions: 'clearHash' },
              'send.edit': { target: '#send.editing', actions: 'clearError' },
              'send.reset': { target: '#send.editing', actions: 'resetForm' },
            },
          },
          unconfirmed: {
            on: {
              // Never a second transaction: only the receipt of the one sent is looked for again.
              'send.retry': '#send.transaction.confirming',
              'send.reset': { target: '#send.editing', actions: 'resetForm' },
            },
          },
        },
      },
    },
  }),
  {
    // The wallet asked through the send's slot for the request (`sendWalletMachine`), receipts as SPEC §9, the
    // payment's nonce read and looked for on the chain; the send's delays are the transaction's time limits.
    transaction: (actors, delays) => ({
      ask: sendWalletMachine.provide({
        actors: {
          sendNative: actors.sendNative!,
          sendErc20: actors.sendErc20!,
          sendSolana: actors.sendSolana!,
        },
      }),
      readNonce: actors.readNonce,
      checkNonce: actors.checkNonce,
      watchNonce: actors.watchNonce,
      waitForReceipt: actors.waitForReceipt!,
      pollReceipt: actors.pollReceipt!,
      delays: {
        timeLimit: delays.sendRequestTimeout,
        receiptTimeout: delays.receiptTimeout,
        pendingPolling: delays.pendingPolling,
      },
    }),
  },
)

export type SendMachine = typeof sendMachine
export type SendActorRef = ActorRefFrom<typeof sendMachine>
export type SendSnapshot = SnapshotFrom<typeof sendMachine>

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
  [{ transaction: 'sending' }, 'sending'],
  [{ transaction: 'confirming' }, 'confirming'],
  [{ failed: 'retryable' }, 'retryable'],
  [{ failed: 'unconfirmed' }, 'unconfirmed'],
  [{ transaction: 'overdue' }, 'overdue'],
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
