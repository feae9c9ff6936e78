import { assertEvent, assign, setup } from 'xstate'
import { TOAST_DURATION_MS, TOAST_RESHOW_MS } from '../constants'

/**
 * Toasts (SPEC §2): variants success, loading and error. One shows at a time; a new toast while one is open
 * closes it and shows 150 ms later. A second new toast inside those 150 ms replaces the waiting one (the
 * latest message wins; the wait is not restarted). Success and error toasts close by themselves; a loading
 * toast stays until it is replaced or hidden; `toast.hide {message}` hides only that toast (`hidesAnother`).
 */
export type ToastVariant = 'success' | 'loading' | 'error'

export interface Toast {
  variant: ToastVariant
  message: string
}

export interface ToastContext {
  /** The toast on screen (undefined while closed or between two toasts). */
  current: Toast | undefined
  /** The toast waiting for the 150 ms gap to end. */
  pending: Toast | undefined
}

export type ToastEvent =
  | { type: 'toast.show'; variant: ToastVariant; message: string }
  | { type: 'toast.hide'; message?: string }

export const toastMachine = setup({
  types: {
    context: {} as ToastContext,
    events: {} as ToastEvent,
    tags: {} as 'visible',
  },
  delays: {
    toastReshow: TOAST_RESHOW_MS,
    toastDuration: TOAST_DURATION_MS,
  },
  guards: {
    closesByItself: ({ context }) => context.current?.variant !== 'loading',
    /** A hide naming another message than the toast shown (or waiting to show): that toast stays. */
    hidesAnother: ({ context, event }) =>
      event.type === 'toast.hide' &&
      event.message !== undefined &&
      (context.pending ?? context.current)?.message !== event.message,
  },
  actions: {
    show: assign(({ event }) => {
      assertEvent(event, 'toast.show')
      return { current: { variant: event.variant, message: event.message }, pending: undefined }
    }),
    queue: assign(({ event }) => {
      assertEvent(event, 'toast.show')
      return { current: undefined, pending: { variant: event.variant, message: event.message } }
    }),
    showPending: assign(({ context }) => ({ current: context.pending, pending: undefined })),
    clear: assign({ current: undefined, pending: undefined }),
  },
}).createMachine({
  id: 'toast',
  context: { current: undefined, pending: undefined },
  initial: 'closed',
  states: {
    closed: {
      on: { 'toast.show': { target: 'open', actions: 'show' } },
    },
    open: {
      tags: 'visible',
      after: { toastDuration: { guard: 'closesByItself', target: 'closed', actions: 'clear' } },
      on: {
        'toast.show': { target: 'replacing', actions: 'queue' },
        'toast.hide': [{ guard: 'hidesAnother' }, { target: 'closed', actions: 'clear' }],
      },
    },
    replacing: {
      after: { toastReshow: { target: 'open', actions: 'showPending' } },
      on: {
        'toast.show': { actions: 'queue' },
        'toast.hide': [{ guard: 'hidesAnother' }, { target: 'closed', actions: 'clear' }],
      },
    },
  },
})

/**
 * `toastMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface ToastMachine extends ToastMachineType {}
type ToastMachineType = typeof toastMachine
