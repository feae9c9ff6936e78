import type { ActorRefFrom, SnapshotFrom } from 'xstate'
import {
  networkOf,
  onrampLimitsOf,
  purchaseCurrencyOf,
  purchasesRequestOf,
  quoteRequestOf,
  urlRequestOf,
} from './onramp/rules'
import { errorOf, onrampSetup } from './onramp/setup'
import type { OnrampOrder } from './onramp/types'

/**
 * The Buy (onramp) flow (SPEC §7 onramp calls, §8 fallbacks, §9 limits; issue 19).
 *
 * loadingOptions (`fetchOptions`; failing or slower than `optionsTimeout`: the built-in samples, `estimates`) →
 * form: payment currency, purchase currency, network, amount and payment method. Every change goes through
 * `choosing`: an empty amount rests in `idle`; one outside the payment method's limits in `invalid` with
 * `amountError` (SPEC §9: card 10.00–7500.00, bank 10.00–25000.00, USD and EUR, or the options' own); else
 * `debouncing` (`quoteDebounce`: typing coalesces) → `quoting`, one `fetchQuote` per provider in the options'
 * order (a failure, or no answer within `quoteTimeout`: the sample quote, marked `estimate`) → `quoted`.
 *
 * `onramp.choose` (a quoted provider, the amount within the limits) → opening: its entry spawns `openPartner`,
 * which opens a blank window at once, while the visitor's click is still being handled (a window opened after
 * the calls below would be a pop-up the browser blocks); `onramp.partnerFailed` when the browser refused. Then
 * the provider's orders are read (`fetchPurchases`: the baseline, so the purchase is the order that was not
 * there) and the partner URL generated (`generateUrl`; a URL off the provider's origins is refused there), and
 * the blank window is sent there (`partner.navigate`: `openPartner` checks the origin again and answers
 * `onramp.partnerOpened`, or `onramp.partnerFailed`, and later `onramp.partnerClosed`) → waiting: the orders read
 * every `pollInterval`; a new confirmed order → done (`onramp.succeeded`), a new failed one → failed. The window
 * closed → one more read (`closing`): a new order confirmed → done, failed → failed, still pending → processing
 * (the partner settles it later: the orders are read every `pollInterval` until it is confirmed or failed, or
 * `processingTimeout` → unconfirmed, which says the purchase may still complete and where to look); no new order
 * at all → failed (abandoned). No purchase within `purchaseTimeout` while the window is open → failed (timed out).
 *
 * `onramp.cancel` (opening, waiting, processing) and `onramp.retry` (failed, unconfirmed) go back to the form
 * with every choice kept, and ask for fresh quotes. A window the kit opened blank and never sent to the partner
 * (the URL failed or was refused, or the visitor cancelled first) is closed when the flow leaves it; the partner's
 * page, once shown, is the visitor's: leaving only stops watching it.
 *
 * Every effect is a named actor slot: `fetchOptions`, `fetchQuote`, `generateUrl`, `openPartner`,
 * `fetchPurchases`. Tests fill them with fakes; src/kit/load/onramp.ts with the real ones.
 *
 * This file is the chart; beside it in onramp/: `setup.ts` (types, slots, delays, guards, actions) and `rules.ts`
 * (the rules as pure functions, and what each slot is asked for).
 */

export {
  networkChainId,
  networkOf,
  normaliseFiatAmount,
  ONRAMP_PAYMENT_METHODS,
  onrampLimitsOf,
  purchaseCurrencyOf,
  validateOnrampAmount,
} from './onramp/rules'
export { ONRAMP_PARTNER_ID } from './onramp/setup'
export type * from './onramp/types'

/**
 * What a read of the provider's orders decides while the partner page is open or was just closed: a new order
 * confirmed is the purchase (done), a new order failed is a failed purchase; otherwise the state's own fallback.
 */
const ORDERS_DECIDE = [
  {
    guard: {
      type: 'purchaseConfirmed',
      params: ({ event }: { event: { output: OnrampOrder[] } }) => event.output,
    },
    target: '#onramp.done',
    actions: {
      type: 'setPurchase',
      params: ({ event }: { event: { output: OnrampOrder[] } }) => event.output,
    },
  },
  {
    guard: {
      type: 'purchaseFailed',
      params: ({ event }: { event: { output: OnrampOrder[] } }) => event.output,
    },
    target: '#onramp.failed',
    actions: 'setPurchaseFailed',
  },
] as const

export const onrampMachine = onrampSetup.createMachine({
  id: 'onramp',
  context: ({ input }) => ({
    address: input.address,
    chainId: input.chainId,
    options: undefined,
    estimates: false,
    paymentCurrency: 'USD',
    purchaseCurrency: 'USDC',
    amount: '',
    paymentMethod: 'card',
    quotes: {},
    quoteFailures: [],
    amountError: undefined,
    provider: undefined,
    url: undefined,
    baseline: undefined,
    purchase: undefined,
    error: undefined,
  }),
  initial: 'loadingOptions',
  states: {
    loadingOptions: {
      tags: 'loading',
      invoke: {
        id: 'fetchOptions',
        src: 'fetchOptions',
        input: ({ context }) => ({ chainId: context.chainId }),
        onDone: {
          target: 'form',
          actions: {
            type: 'setOptions',
            params: ({ event }) => ({ options: event.output, estimates: false }),
          },
        },
        onError: { target: 'form', actions: 'useSampleOptions' },
      },
      after: { optionsTimeout: { target: 'form', actions: 'useSampleOptions' } },
    },
    form: {
      // Back from opening, waiting or a failure: the partner window is no longer watched.
      entry: 'closePartner',
      initial: 'choosing',
      on: {
        'onramp.setPaymentCurrency': {
          guard: 'knownPaymentCurrency',
          actions: 'setPaymentCurrency',
          target: '.choosing',
        },
        'onramp.setPurchaseCurrency': {
          guard: 'knownPurchaseCurrency',
          actions: 'setPurchaseCurrency',
          target: '.choosing',
        },
        'onramp.setNetwork': { guard: 'knownNetwork', actions: 'setNetwork', target: '.choosing' },
        'onramp.setAmount': { actions: 'setAmount', target: '.choosing' },
        'onramp.setPaymentMethod': {
          guard: 'knownPaymentMethod',
          actions: 'setPaymentMethod',
          target: '.choosing',
        },
      },
      states: {
        /** Where the form stands after a change: nothing typed, outside the limits, or quotes due. */
        choosing: {
          entry: 'clearQuotes',
          always: [
            { guard: 'amountEmpty', target: 'idle' },
            { guard: 'amountOutOfRange', target: 'invalid' },
            { target: 'debouncing' },
          ],
        },
        idle: {},
        invalid: {
          entry: 'setAmountError',
          exit: 'clearAmountError',
        },
        debouncing: {
          tags: 'loading',
          after: { quoteDebounce: 'quoting' },
        },
        /** One provider at a time, in the options' order; re-entered for the next. */
        quoting: {
          tags: 'loading',
          invoke: {
            id: 'fetchQuote',
            src: 'fetchQuote',
            input: ({ context }) => quoteRequestOf(context),
            onDone: [
              {
                guard: 'lastQuote',
                target: 'quoted',
                actions: { type: 'setQuote', params: ({ event }) => event.output },
              },
              {
                target: 'quoting',
                reenter: true,
                actions: { type: 'setQuote', params: ({ event }) => event.output },
              },
            ],
            onError: [
              { guard: 'lastQuote', target: 'quoted', actions: 'setEstimate' },
              { target: 'quoting', reenter: true, actions: 'setEstimate' },
            ],
          },
          after: {
            quoteTimeout: [
              { guard: 'lastQuote', target: 'quoted', actions: 'setEstimate' },
              { target: 'quoting', reenter: true, actions: 'setEstimate' },
            ],
          },
        },
        quoted: {
          on: {
            'onramp.choose': { guard: 'canChoose', target: '#onramp.opening', actions: 'setProvider' },
          },
        },
      },
    },
    opening: {
      tags: 'busy',
      // The window opens in this transition: still in the visitor's click.
      entry: ['startPurchase', 'emitOpening', 'openPartner'],
      on: {
        'onramp.cancel': '#onramp.form',
        // Blocked by the browser, or the URL's origin refused: the blank window is closed on the way out.
        'onramp.partnerFailed': {
          target: '#onramp.failed',
          actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'open' }) },
        },
        // The visitor closed the window before the partner page was in it.
        'onramp.partnerClosed': { target: '#onramp.failed', actions: 'setAbandoned' },
      },
      initial: 'readingOrders',
      states: {
        /** The provider's orders before the partner page opens: the purchase will be the one not among them. */
        readingOrders: {
          invoke: {
            id: 'fetchBaseline',
            src: 'fetchPurchases',
            input: ({ context }) => purchasesRequestOf(context),
            onDone: {
              target: 'generating',
              actions: { type: 'setBaseline', params: ({ event }) => event.output },
            },
            onError: {
              target: '#onramp.failed',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'purchases' }) },
            },
          },
        },
        generating: {
          invoke: {
            id: 'generateUrl',
            src: 'generateUrl',
            input: ({ context }) => urlRequestOf(context),
            onDone: { target: 'launching', actions: { type: 'setUrl', params: ({ event }) => event.output } },
            onError: {
              target: '#onramp.failed',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'url' }) },
            },
          },
        },
        /** The blank window sent to the partner page; `openPartner` lives on through waiting, watching it. */
        launching: {
          entry: 'navigatePartner',
          on: {
            'onramp.partnerOpened': { target: '#onramp.waiting', actions: 'emitOpened' },
          },
        },
      },
    },
    waiting: {
      tags: 'busy',
      on: { 'onramp.cancel': '#onramp.form' },
      after: { purchaseTimeout: { target: '#onramp.failed', actions: 'setTimedOut' } },
      initial: 'sleeping',
      states: {
        sleeping: {
          after: { pollInterval: 'polling' },
          on: { 'onramp.partnerClosed': 'closing' },
        },
        polling: {
          on: { 'onramp.partnerClosed': 'closing' },
          invoke: {
            id: 'pollOrders',
            src: 'fetchPurchases',
            input: ({ context }) => purchasesRequestOf(context),
            // Still pending (or not made yet): read again after the interval.
            onDone: [...ORDERS_DECIDE, { target: 'sleeping' }],
            // A failed read is not a failed purchase: read again after the interval.
            onError: 'sleeping',
          },
        },
        /** The window was closed: one more read decides. */
        closing: {
          invoke: {
            id: 'lastPoll',
            src: 'fetchPurchases',
            input: ({ context }) => purchasesRequestOf(context),
            onDone: [
              ...ORDERS_DECIDE,
              // Paid, not settled yet: the partner confirms it later, so it is watched on.
              {
                guard: {
                  type: 'purchasePending',
                  params: ({ event }: { event: { output: OnrampOrder[] } }) => event.output,
                },
                target: '#onramp.processing',
              },
              // No new order at all: the window was closed without paying.
              { target: '#onramp.failed', actions: 'setAbandoned' },
            ],
            // The read failed: the purchase may still have landed, so it is read again after the interval.
            onError: 'closed',
          },
        },
        /** The window is closed and the last read failed: read again after the interval. */
        closed: {
          after: { pollInterval: 'closing' },
        },
      },
    },
    /**
     * The window is closed and the new order pending: read every `pollInterval` until it is confirmed or failed;
     * after `processingTimeout`, unconfirmed.
     */
    processing: {
      tags: 'busy',
      entry: 'closePartner',
      on: { 'onramp.cancel': '#onramp.form' },
      after: { processingTimeout: { target: '#onramp.unconfirmed', actions: 'setStillProcessing' } },
      initial: 'sleeping',
      states: {
        sleeping: {
          after: { pollInterval: 'polling' },
        },
        polling: {
          invoke: {
            id: 'processingPoll',
            src: 'fetchPurchases',
            input: ({ context }) => purchasesRequestOf(context),
            onDone: [...ORDERS_DECIDE, { target: 'sleeping' }],
            onError: 'sleeping',
          },
        },
      },
    },
    /** Still pending when the kit stopped watching: the purchase may still complete (the text says where to look). */
    unconfirmed: {
      on: { 'onramp.retry': '#onramp.form' },
    },
    done: {
      entry: ['closePartner', 'emitSucceeded'],
      // Another purchase: the form again, every choice kept, the last purchase forgotten.
      on: { 'onramp.retry': { target: '#onramp.form', actions: 'forgetPurchase' } },
    },
    failed: {
      entry: 'closePartner',
      on: { 'onramp.retry': '#onramp.form' },
    },
  },
})

export type OnrampMachine = typeof onrampMachine
export type OnrampActorRef = ActorRefFrom<typeof onrampMachine>
export type OnrampSnapshot = SnapshotFrom<typeof onrampMachine>

/**
 * Where the Buy flow stands, for the views: options `loading`; the form (`editing`, `invalid` amount, quotes
 * `quoting` (the debounce included), `quoted`); `opening` the partner page; `waiting` for the purchase;
 * `processing` (the window closed, the order pending); `unconfirmed` (still pending when the kit stopped
 * watching); `done`; `failed` (retryable).
 */
export type OnrampStatus =
  | 'loading'
  | 'editing'
  | 'invalid'
  | 'quoting'
  | 'quoted'
  | 'opening'
  | 'waiting'
  | 'processing'
  | 'unconfirmed'
  | 'done'
  | 'failed'

const ONRAMP_STATUSES: ReadonlyArray<[Parameters<OnrampSnapshot['matches']>[0], OnrampStatus]> = [
  ['loadingOptions', 'loading'],
  [{ form: 'invalid' }, 'invalid'],
  [{ form: 'debouncing' }, 'quoting'],
  [{ form: 'quoting' }, 'quoting'],
  [{ form: 'quoted' }, 'quoted'],
  ['opening', 'opening'],
  ['waiting', 'waiting'],
  ['processing', 'processing'],
  ['unconfirmed', 'unconfirmed'],
  ['done', 'done'],
  ['failed', 'failed'],
]

/** The Buy flow's {@link OnrampStatus}. */
export function selectOnrampStatus(snapshot: OnrampSnapshot): OnrampStatus {
  return ONRAMP_STATUSES.find(([state]) => snapshot.matches(state))?.[1] ?? 'editing'
}

/** The limits the amount must be within (payment currency and method of the form), for the views' hint. */
export function selectOnrampLimits(snapshot: OnrampSnapshot): { min: string; max: string; currency: string } {
  return onrampLimitsOf(snapshot.context)
}

/** The providers of the options, each with its quote for the form as it is (when it has one). */
export function selectOnrampProviders(snapshot: OnrampSnapshot) {
  const { options, quotes } = snapshot.context
  return (options?.providers ?? []).map((provider) => ({ ...provider, ...quotes[provider.id] }))
}

/** The purchase currency of the form and the network it is delivered on. */
export function selectOnrampAsset(snapshot: OnrampSnapshot) {
  return { currency: purchaseCurrencyOf(snapshot.context), network: networkOf(snapshot.context) }
}
