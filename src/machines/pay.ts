import { type ActorRefFrom, assertEvent, assign, emit, type SnapshotFrom, setup } from 'xstate'
import type { ErrorInfo } from '../errors/base'
import { PayBusyError, PayCancelledError, PayDisabledError, payErrorInfo } from '../errors/pay'
import type { PayMachineEvent, PayNotice, PayRequest, PayState } from './pay/types'

export type * from './pay/types'

/**
 * Pay (SPEC §1 `pay`, off by default): the host's payment, through the send flow. The host asks (`pay.open`,
 * `useKitPay().pay`); the payment is refused at once while Pay is off (`payOff`) or another payment is being
 * checked or open (`busy` in `asking` and `paying`); else the send flow is asked to take it (`pay.ask`: its
 * rules check the rest, src/machines/send/pay.ts), and it takes it (`pay.accepted`: Pay shows) or refuses it
 * (`pay.refused`, also when its code did not load). While Pay is open a transfer's failure is kept
 * (`pay.transferFailed`); a transfer that lands is the payment (`pay.sent`: Pay closes). Pay shown, then left
 * (close, back, Escape, a disconnect: `leavesPay`), ends the payment with the transfer's last failure, or as
 * cancelled.
 *
 * The host reads the last payment (`pay`) and the last refusal (`payRefused`) by the id it gave (src/react/pay.ts).
 * Pure: it has no slots; its glue (src/kit/load/pay.ts) turns its notices into the kit's events.
 */
export interface PayContext {
  /** `features.pay`. */
  enabled: boolean
  /** The host's last payment that the send flow took. */
  pay: PayState | undefined
  /** A payment the send flow is checking. */
  payPending: { id: number; request: PayRequest } | undefined
  /** The last payment refused, and why. */
  payRefused: { id: number; error: ErrorInfo } | undefined
}

const payMachineSetup = setup({
  types: {
    context: {} as PayContext,
    events: {} as PayMachineEvent,
    input: {} as { enabled: boolean },
    emitted: {} as PayNotice,
  },
  guards: {
    /** SPEC §1: Pay is off (its default). */
    payOff: ({ context }) => !context.enabled,
    /** The modal shows Pay. */
    showsPay: ({ event }) => event.type === 'pay.view' && event.view === 'Pay',
    /** Pay was shown, and the modal shows something else now (or closed): the visitor left it. */
    leavesPay: ({ context }) => context.pay?.shown === true,
  },
  actions: {
    /** The payment `pay.open` asked for is refused: Pay is off, or busy with another. */
    refuse: assign(({ event }, reason: 'disabled' | 'busy') => {
      assertEvent(event, 'pay.open')
      const error = reason === 'disabled' ? new PayDisabledError() : new PayBusyError()
      return { payRefused: { id: event.id, error: payErrorInfo(error) } }
    }),
    keepPending: assign(({ event }) => {
      assertEvent(event, 'pay.open')
      return { payPending: { id: event.id, request: event.request } }
    }),
    ask: emit(({ event }) => {
      assertEvent(event, 'pay.open')
      return { type: 'pay.ask' as const, request: event.request }
    }),
    startPaying: assign(({ context }) => ({
      pay: {
        id: context.payPending!.id,
        request: context.payPending!.request,
        status: 'paying',
        shown: false,
      },
      payPending: undefined,
    })),
    show: emit({ type: 'pay.show' as const }),
    refusePending: assign(({ context, event }) => {
      assertEvent(event, 'pay.refused')
      return { payRefused: { id: context.payPending!.id, error: event.error }, payPending: undefined }
    }),
    markShown: assign(({ context }) => ({ pay: { ...context.pay!, shown: true } })),
    /** Left: the transfer's last failure is the payment's, else it was cancelled. */
    endLeft: assign(({ context }) => ({
      pay: {
        ...context.pay!,
        status: 'failed',
        error: context.pay!.lastError ?? payErrorInfo(new PayCancelledError()),
      },
    })),
    ended: emit({ type: 'pay.ended' as const }),
    noteFailure: assign(({ context, event }) => {
      assertEvent(event, 'pay.transferFailed')
      return { pay: { ...context.pay!, lastError: event.error } }
    }),
    paid: assign(({ context, event }) => {
      assertEvent(event, 'pay.sent')
      return { pay: { ...context.pay!, status: 'succeeded', hash: event.hash, lastError: undefined } }
    }),
    done: emit({ type: 'pay.done' as const }),
  },
})

export const payMachine = payMachineSetup.createMachine({
  id: 'pay',
  context: ({ input }) => ({
    enabled: input.enabled,
    pay: undefined,
    payPending: undefined,
    payRefused: undefined,
  }),
  initial: 'idle',
  states: {
    /** No payment open. */
    idle: {
      on: {
        'pay.open': [
          { guard: 'payOff', actions: { type: 'refuse', params: 'disabled' } },
          { target: 'asking', actions: ['keepPending', 'ask'] },
        ],
      },
    },
    /** The send flow checks the payment (its code loads first, if it has not). */
    asking: {
      on: {
        'pay.open': { actions: { type: 'refuse', params: 'busy' } },
        'pay.accepted': { target: 'paying', actions: ['startPaying', 'show'] },
        'pay.refused': { target: 'idle', actions: 'refusePending' },
      },
    },
    /** Pay shows the payment's preview; the visitor approves it in the wallet, or leaves. */
    paying: {
      on: {
        'pay.open': { actions: { type: 'refuse', params: 'busy' } },
        'pay.view': [
          { guard: 'showsPay', actions: 'markShown' },
          { guard: 'leavesPay', target: 'idle', actions: ['endLeft', 'ended'] },
        ],
        'pay.transferFailed': { actions: 'noteFailure' },
        'pay.sent': { target: 'idle', actions: ['paid', 'done'] },
      },
    },
  },
})

export type PayMachine = typeof payMachine
export type PayActorRef = ActorRefFrom<PayMachine>
export type PaySnapshot = SnapshotFrom<PayMachine>
