import { assertEvent, assign, emit, raise, setup } from 'xstate'
import { HEADER_TEXT_MS, MODAL_HEIGHT_MS, MODAL_SHAKE_MS, VIEW_TRANSITION_MS } from '../constants'
import { homeView, type ViewName } from '../views'

/**
 * The modal and its view stack (SPEC §2).
 *
 * - `closed` / `open`. Opening without a view shows Connect, or Account once connected.
 * - `history` is the stack of view names, the last one shown; `viewData` runs beside it.
 * - Back closes the modal when one view is left or when UnsupportedChain is anywhere in the history.
 * - Pushing the view already shown does nothing. Closing clears `loading` and resets the stack.
 * - While open, four regions run side by side: the view transition (a state the UI renders, so an event
 *   that arrives mid-transition is applied once and restarts the transition: never lost, never doubled),
 *   the header text fade, the height change, and the shake. Their timings are the SPEC's named delays.
 */
export type ModalDirection = 'next' | 'prev'

export interface ModalContext {
  history: ViewName[]
  /** Data passed with `router.push`/`router.replace`, one entry per history entry. */
  viewData: unknown[]
  direction: ModalDirection
  connected: boolean
  /** A view's own busy flag (e.g. waiting on a wallet); cleared on close so it can never stick. */
  loading: boolean
}

export type ModalEvent =
  | { type: 'modal.open'; view?: ViewName; data?: unknown }
  | { type: 'modal.close' }
  | { type: 'modal.shake' }
  | { type: 'modal.loading'; loading: boolean }
  | { type: 'modal.connected'; connected: boolean }
  | { type: 'router.push'; view: ViewName; data?: unknown }
  | { type: 'router.replace'; view: ViewName; data?: unknown }
  | { type: 'router.back' }
  | { type: 'router.reset'; view: ViewName }
  /** Raised internally when the shown view changes, so the header and height regions follow. */
  | { type: 'modal.viewChanged' }

/** What the modal tells the kit (emitted: `modal.on('modal.shown', …)`): the view stack it shows (empty once closed). */
export type ModalNotice = { type: 'modal.shown'; open: boolean; history: readonly ViewName[] }

export interface ModalInput {
  connected?: boolean
}

export type ModalTag = 'transitioning' | 'headerChanging' | 'resizing' | 'shaking'

const current = (context: ModalContext): ViewName => context.history[context.history.length - 1]!

export const modalMachine = setup({
  types: {
    context: {} as ModalContext,
    events: {} as ModalEvent,
    input: {} as ModalInput,
    tags: {} as ModalTag,
    emitted: {} as ModalNotice,
  },
  delays: {
    headerText: HEADER_TEXT_MS,
    modalHeight: MODAL_HEIGHT_MS,
    viewTransition: VIEW_TRANSITION_MS,
    shake: MODAL_SHAKE_MS,
  },
  guards: {
    /** The event names a view other than the one shown. */
    isOtherView: ({ context, event }) =>
      'view' in event && event.view !== undefined && event.view !== current(context),
    /** SPEC §2: back closes with one view left or with UnsupportedChain in the history. */
    backCloses: ({ context }) => context.history.length <= 1 || context.history.includes('UnsupportedChain'),
    /** Reset changes something only when the stack is not already exactly that view. */
    resetChanges: ({ context, event }) => {
      assertEvent(event, 'router.reset')
      return context.history.length !== 1 || context.history[0] !== event.view
    },
  },
  actions: {
    openOn: assign(({ context, event }) => {
      assertEvent(event, 'modal.open')
      return {
        history: [event.view ?? homeView(context.connected)],
        viewData: [event.data],
        direction: 'next' as const,
      }
    }),
    push: assign(({ context, event }) => {
      assertEvent(event, ['router.push', 'modal.open'])
      const view = event.view ?? homeView(context.connected)
      return {
        history: [...context.history, view],
        viewData: [...context.viewData, event.data],
        direction: 'next' as const,
      }
    }),
    replace: assign(({ context, event }) => {
      assertEvent(event, 'router.replace')
      return {
        history: [...context.history.slice(0, -1), event.view],
        viewData: [...context.viewData.slice(0, -1), event.data],
        direction: 'next' as const,
      }
    }),
    pop: assign(({ context }) => ({
      history: context.history.slice(0, -1),
      viewData: context.viewData.slice(0, -1),
      direction: 'prev' as const,
    })),
    resetTo: assign(({ event }) => {
      assertEvent(event, 'router.reset')
      return { history: [event.view], viewData: [undefined], direction: 'prev' as const }
    }),
    clearOnClose: assign(({ context }) => ({
      history: [homeView(context.connected)],
      viewData: [undefined],
      direction: 'next' as const,
      loading: false,
    })),
    setLoading: assign(({ event }) => {
      assertEvent(event, 'modal.loading')
      return { loading: event.loading }
    }),
    setConnected: assign(({ event }) => {
      assertEvent(event, 'modal.connected')
      return { connected: event.connected }
    }),
    /** While closed, the stack follows the connection so the next open starts on the right view. */
    setConnectedAndHome: assign(({ event }) => {
      assertEvent(event, 'modal.connected')
      return { connected: event.connected, history: [homeView(event.connected)], viewData: [undefined] }
    }),
    announceViewChange: raise({ type: 'modal.viewChanged' }),
    notifyShown: emit(
      ({ context }): ModalNotice => ({ type: 'modal.shown', open: true, history: context.history }),
    ),
    notifyClosed: emit((): ModalNotice => ({ type: 'modal.shown', open: false, history: [] })),
  },
}).createMachine({
  id: 'modal',
  context: ({ input }) => {
    const connected = input?.connected ?? false
    return {
      history: [homeView(connected)],
      viewData: [undefined],
      direction: 'next',
      connected,
      loading: false,
    }
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'modal.open': { target: 'open', actions: 'openOn' },
        'modal.connected': { actions: 'setConnectedAndHome' },
      },
    },
    open: {
      type: 'parallel',
      entry: 'notifyShown',
      on: {
        'modal.close': { target: 'closed', actions: ['clearOnClose', 'notifyClosed'] },
        'modal.connected': { actions: 'setConnected' },
        // Only an open modal can be busy: a flag set while closed would show on the next open.
        'modal.loading': { actions: 'setLoading' },
      },
      states: {
        view: {
          initial: 'idle',
          on: {
            'modal.open': { guard: 'isOtherView', target: '.transitioning', actions: 'push' },
            'router.push': { guard: 'isOtherView', target: '.transitioning', actions: 'push' },
            'router.replace': { guard: 'isOtherView', target: '.transitioning', actions: 'replace' },
            'router.back': [
              { guard: 'backCloses', target: '#modal.closed', actions: ['clearOnClose', 'notifyClosed'] },
              { target: '.transitioning', actions: 'pop' },
            ],
            'router.reset': { guard: 'resetChanges', target: '.transitioning', actions: 'resetTo' },
          },
          states: {
            idle: {},
            transitioning: {
              tags: 'transitioning',
              entry: ['announceViewChange', 'notifyShown'],
              after: { viewTransition: 'idle' },
            },
          },
        },
        header: {
          initial: 'steady',
          on: { 'modal.viewChanged': '.changing' },
          states: {
            steady: {},
            changing: { tags: 'headerChanging', after: { headerText: 'steady' } },
          },
        },
        height: {
          initial: 'steady',
          on: { 'modal.viewChanged': '.resizing' },
          states: {
            steady: {},
            resizing: { tags: 'resizing', after: { modalHeight: 'steady' } },
          },
        },
        shake: {
          initial: 'still',
          on: { 'modal.shake': '.shaking' },
          states: {
            still: {},
            shaking: { tags: 'shaking', after: { shake: 'still' } },
          },
        },
      },
    },
  },
})

/** The view the modal shows (or would show when opened). */
export const selectView = (snapshot: { context: ModalContext }): ViewName => current(snapshot.context)

/** Whether the modal is open. */
export const selectIsOpen = (snapshot: { matches: (value: 'open') => boolean }): boolean =>
  snapshot.matches('open')

/**
 * `modalMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface ModalMachine extends ModalMachineType {}
type ModalMachineType = typeof modalMachine
