import {
  type ActorRefFrom,
  assertEvent,
  assign,
  emit,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  sendTo,
  setup,
  spawnChild,
  stopChild,
} from 'xstate'
import {
  DATA_API_TIMEOUT_MS,
  ONRAMP_POLL_INTERVAL_MS,
  ONRAMP_PROCESSING_TIMEOUT_MS,
  ONRAMP_PURCHASE_TIMEOUT_MS,
  ONRAMP_QUOTE_DEBOUNCE_MS,
} from '../constants'
import {
  OnrampAbandonedError,
  OnrampPurchaseFailedError,
  OnrampQuoteError,
  type OnrampStage,
  OnrampStillProcessingError,
  OnrampTimeoutError,
  onrampErrorInfo,
} from '../errors/onramp'
import { formatQuantity } from '../utils/format'
import { mockQuote, sampleOnrampOptions } from '../utils/onrampSamples'
import {
  confirmedOrder,
  networkOf,
  normaliseFiatAmount,
  ONRAMP_PAYMENT_METHODS,
  onrampLimitsOf,
  orderFailed,
  orderPending,
  pickPaymentCurrency,
  pickPurchase,
  purchaseCurrencyOf,
  purchaseOn,
  unquotedProviders,
  validateOnrampAmount,
} from './onramp/rules'
import type {
  OnrampContext,
  OnrampEvent,
  OnrampInput,
  OnrampNotice,
  OnrampOptions,
  OnrampOrder,
  OnrampPartnerCommand,
  OnrampPartnerInput,
  OnrampPurchasesRequest,
  OnrampQuote,
  OnrampQuoteRequest,
  OnrampUrlRequest,
} from './onramp/types'

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
 */

export {
  networkOf,
  normaliseFiatAmount,
  ONRAMP_PAYMENT_METHODS,
  onrampLimitsOf,
  purchaseCurrencyOf,
  validateOnrampAmount,
} from './onramp/rules'
export type * from './onramp/types'

const notProvided = (slot: string) => () => {
  throw new Error(`onrampMachine: the "${slot}" actor slot was not provided`)
}

/** The id of the spawned `openPartner` actor: it lives from the partner window's opening to the end of waiting. */
export const ONRAMP_PARTNER_ID = 'partner'

/** An error event's payload, for `params`. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error

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

export const onrampMachine = setup({
  types: {
    context: {} as OnrampContext,
    events: {} as OnrampEvent,
    input: {} as OnrampInput,
    emitted: {} as OnrampNotice,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    fetchOptions: fromPromise<OnrampOptions, { chainId: number }>(notProvided('fetchOptions')),
    fetchQuote: fromPromise<OnrampQuote, OnrampQuoteRequest>(notProvided('fetchQuote')),
    generateUrl: fromPromise<string, OnrampUrlRequest>(notProvided('generateUrl')),
    /**
     * Opens a blank window when it starts (in the visitor's click) and sends it to the partner page on
     * `partner.navigate`; sends `onramp.partnerOpened` / `onramp.partnerFailed`, then `onramp.partnerClosed`.
     */
    openPartner: fromCallback<OnrampPartnerCommand, OnrampPartnerInput>(notProvided('openPartner')),
    fetchPurchases: fromPromise<OnrampOrder[], OnrampPurchasesRequest>(notProvided('fetchPurchases')),
  },
  delays: {
    /** Ours: as long as the Data API client waits (DATA_API_TIMEOUT_MS); then the samples (SPEC §8). */
    optionsTimeout: DATA_API_TIMEOUT_MS,
    /** Ours (src/constants.ts): typing coalesces into one round of quotes. */
    quoteDebounce: ONRAMP_QUOTE_DEBOUNCE_MS,
    /** Ours: as long as the Data API client waits; then the provider's quote is estimated (SPEC §8). */
    quoteTimeout: DATA_API_TIMEOUT_MS,
    /** Ours (src/constants.ts): how often the provider's orders are read while the partner page is open. */
    pollInterval: ONRAMP_POLL_INTERVAL_MS,
    /** Ours (src/constants.ts): how long a purchase may take before the kit gives up (retryable). */
    purchaseTimeout: ONRAMP_PURCHASE_TIMEOUT_MS,
    /** Ours (src/constants.ts): how long a pending order is watched after the partner window closed. */
    processingTimeout: ONRAMP_PROCESSING_TIMEOUT_MS,
  },
  guards: {
    /** Nothing typed yet: nothing to check or quote. */
    amountEmpty: ({ context }) => context.amount.trim() === '',
    /** SPEC §9: the amount is outside the limits of the payment currency and method. */
    amountOutOfRange: ({ context }) => validateOnrampAmount(context) !== undefined,
    knownPaymentCurrency: ({ context, event }) => {
      assertEvent(event, 'onramp.setPaymentCurrency')
      return context.options?.paymentCurrencies.some((c) => c.id === event.id) === true
    },
    knownPurchaseCurrency: ({ context, event }) => {
      assertEvent(event, 'onramp.setPurchaseCurrency')
      return (
        context.options?.purchaseCurrencies.some((c) => c.id === event.id && c.networks.length > 0) === true
      )
    },
    /** One of the purchase currency's networks. */
    knownNetwork: ({ context, event }) => {
      assertEvent(event, 'onramp.setNetwork')
      return networkOf({ ...context, chainId: event.chainId }) !== undefined
    },
    knownPaymentMethod: ({ event }) => {
      assertEvent(event, 'onramp.setPaymentMethod')
      return ONRAMP_PAYMENT_METHODS.includes(event.id)
    },
    /** The provider answered is the last one still to be quoted. */
    lastQuote: ({ context }) => unquotedProviders(context).length <= 1,
    /** A quoted provider, the amount within the limits (issue 19: refused otherwise). */
    canChoose: ({ context, event }) => {
      assertEvent(event, 'onramp.choose')
      return event.provider in context.quotes && validateOnrampAmount(context) === undefined
    },
    /** A new order of the provider was confirmed: the purchase landed. */
    purchaseConfirmed: ({ context }, orders: OnrampOrder[]) => confirmedOrder(context, orders) !== undefined,
    /** A new order of the provider failed. */
    purchaseFailed: ({ context }, orders: OnrampOrder[]) => orderFailed(context, orders),
    /**
     * A new order of the provider is still pending: the visitor paid, the partner settles it later, so
     * the window closing is not the purchase abandoned.
     */
    purchasePending: ({ context }, orders: OnrampOrder[]) => orderPending(context, orders),
  },
  actions: {
    setOptions: assign(({ context }, params: { options: OnrampOptions; estimates: boolean }) => ({
      options: params.options,
      estimates: params.estimates,
      paymentCurrency: pickPaymentCurrency(params.options, context.paymentCurrency),
      ...pickPurchase(params.options, context.purchaseCurrency, context.chainId),
    })),
    /** SPEC §8: the options failed, the built-in samples stand in (for the account's network when they know it). */
    useSampleOptions: assign(({ context }) => {
      const options = sampleOnrampOptions(context.chainId)
      return {
        options,
        estimates: true,
        paymentCurrency: pickPaymentCurrency(options, context.paymentCurrency),
        ...pickPurchase(options, context.purchaseCurrency, context.chainId),
      }
    }),
    setPaymentCurrency: assign(({ event }) => {
      assertEvent(event, 'onramp.setPaymentCurrency')
      return { paymentCurrency: event.id }
    }),
    setPurchaseCurrency: assign(({ context, event }) => {
      assertEvent(event, 'onramp.setPurchaseCurrency')
      const currency = context.options!.purchaseCurrencies.find((c) => c.id === event.id)!
      return purchaseOn(currency, context.chainId)
    }),
    setNetwork: assign(({ event }) => {
      assertEvent(event, 'onramp.setNetwork')
      return { chainId: event.chainId }
    }),
    setAmount: assign(({ event }) => {
      assertEvent(event, 'onramp.setAmount')
      return { amount: event.amount }
    }),
    setPaymentMethod: assign(({ event }) => {
      assertEvent(event, 'onramp.setPaymentMethod')
      return { paymentMethod: event.id }
    }),
    /** The form changed: the quotes (and the last failure) belong to the form as it was. */
    clearQuotes: assign({ quotes: {}, quoteFailures: [], error: undefined }),
    setAmountError: assign(({ context }) => ({ amountError: validateOnrampAmount(context) })),
    clearAmountError: assign({ amountError: undefined }),
    setQuote: assign(({ context }, quote: OnrampQuote) => {
      const provider = unquotedProviders(context)[0]!
      return { quotes: { ...context.quotes, [provider.id]: { quote, estimate: false } } }
    }),
    /** SPEC §8: the provider's quote failed, the kit's estimate stands in (when it has prices for the pair). */
    setEstimate: assign(({ context }) => {
      const provider = unquotedProviders(context)[0]!
      const estimate = mockQuote(quoteRequestOf(context), provider)
      if (estimate)
        return { quotes: { ...context.quotes, [provider.id]: { quote: estimate, estimate: true } } }
      return {
        quoteFailures: [...context.quoteFailures, provider.id],
        error: onrampErrorInfo(new OnrampQuoteError({ details: `No quote from ${provider.name}` }), 'quote'),
      }
    }),
    setProvider: assign(({ event }) => {
      assertEvent(event, 'onramp.choose')
      return { provider: event.provider }
    }),
    startPurchase: assign({ url: undefined, baseline: undefined, purchase: undefined, error: undefined }),
    forgetPurchase: assign({ url: undefined, baseline: undefined, purchase: undefined, provider: undefined }),
    setBaseline: assign((_, orders: OnrampOrder[]) => ({ baseline: orders.map((order) => order.id) })),
    setUrl: assign((_, url: string) => ({ url })),
    /** The window opened blank, now: in the visitor's click (`onramp.choose`). */
    openPartner: spawnChild('openPartner', {
      id: ONRAMP_PARTNER_ID,
      input: ({ context }) => ({ provider: context.provider! }),
    }),
    /** The blank window sent to the partner page, once its URL is known. */
    navigatePartner: sendTo(
      ONRAMP_PARTNER_ID,
      ({ context }): OnrampPartnerCommand => ({ type: 'partner.navigate', url: context.url! }),
    ),
    /** Stops watching the partner window (the partner's page is the visitor's; a blank one is closed). */
    closePartner: stopChild(ONRAMP_PARTNER_ID),
    setPurchase: assign(({ context }, orders: OnrampOrder[]) => {
      const order = confirmedOrder(context, orders)!
      return { purchase: { id: order.id, amount: order.amount, symbol: order.symbol, hash: order.hash } }
    }),
    setError: assign((_, params: { error: unknown; stage: OnrampStage }) => ({
      error: onrampErrorInfo(params.error, params.stage),
    })),
    setPurchaseFailed: assign({ error: onrampErrorInfo(new OnrampPurchaseFailedError(), 'purchases') }),
    setAbandoned: assign({ error: onrampErrorInfo(new OnrampAbandonedError(), 'purchases') }),
    setTimedOut: assign({
      error: onrampErrorInfo(new OnrampTimeoutError({ timeoutMs: ONRAMP_PURCHASE_TIMEOUT_MS }), 'purchases'),
    }),
    setStillProcessing: assign({
      error: onrampErrorInfo(
        new OnrampStillProcessingError({ timeoutMs: ONRAMP_PROCESSING_TIMEOUT_MS }),
        'purchases',
      ),
    }),
    emitOpening: emit(({ context }) => ({ type: 'onramp.opening' as const, provider: context.provider! })),
    emitOpened: emit(({ context }) => ({
      type: 'onramp.opened' as const,
      provider: context.provider!,
      url: context.url!,
    })),
    emitSucceeded: emit(({ context }) => {
      const { amount, symbol, hash } = context.purchase!
      const message = `Purchase complete: received ${formatQuantity(amount, 6)} ${symbol}`
      return { type: 'onramp.succeeded' as const, provider: context.provider!, amount, symbol, hash, message }
    }),
  },
}).createMachine({
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

/** The quote request for the next provider to be quoted. Only called where one is. */
function quoteRequestOf(context: OnrampContext): OnrampQuoteRequest {
  return {
    purchaseCurrency: context.purchaseCurrency,
    paymentCurrency: context.paymentCurrency,
    amount: normaliseFiatAmount(context.amount) ?? context.amount.trim(),
    network: networkOf(context)?.name ?? '',
    provider: unquotedProviders(context)[0]?.id ?? '',
    paymentMethod: context.paymentMethod,
  }
}

function urlRequestOf(context: OnrampContext): OnrampUrlRequest {
  return {
    address: context.address,
    network: networkOf(context)?.name ?? '',
    purchaseCurrency: context.purchaseCurrency,
    paymentCurrency: context.paymentCurrency,
    paymentMethod: context.paymentMethod,
    amount: normaliseFiatAmount(context.amount) ?? context.amount.trim(),
    provider: context.provider!,
  }
}

function purchasesRequestOf(context: OnrampContext): OnrampPurchasesRequest {
  return { address: context.address, chainId: context.chainId, provider: context.provider! }
}

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
