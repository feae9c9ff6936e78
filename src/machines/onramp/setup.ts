import {
  assertEvent,
  assign,
  emit,
  fromCallback,
  fromPromise,
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
} from '../../constants'
import {
  OnrampAbandonedError,
  OnrampPurchaseFailedError,
  OnrampQuoteError,
  type OnrampStage,
  OnrampStillProcessingError,
  OnrampTimeoutError,
  onrampErrorInfo,
} from '../../errors/onramp'
import { formatQuantity } from '../../utils/format'
import { mockQuote, sampleOnrampOptions } from '../../utils/onrampSamples'
import {
  confirmedOrder,
  networkOf,
  ONRAMP_PAYMENT_METHODS,
  optionsFor,
  orderFailed,
  orderPending,
  pickPaymentCurrency,
  pickPurchase,
  purchaseOn,
  quoteRequestOf,
  unquotedProviders,
  validateOnrampAmount,
} from './rules'
import type {
  OnrampChainId,
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
} from './types'

/**
 * The Buy machine's `setup`: its types, slots, delays, guards and actions. The chart (`../onramp.ts`) builds the
 * machine from it.
 */

const notProvided = (slot: string) => () => {
  throw new Error(`onrampMachine: the "${slot}" actor slot was not provided`)
}

/** The id of the spawned `openPartner` actor: it lives from the partner window's opening to the end of waiting. */
export const ONRAMP_PARTNER_ID = 'partner'

/** An error event's payload, for `params`. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error

/** @internal */
export const onrampSetup = setup({
  types: {
    context: {} as OnrampContext,
    events: {} as OnrampEvent,
    input: {} as OnrampInput,
    emitted: {} as OnrampNotice,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    fetchOptions: fromPromise<OnrampOptions, { chainId: OnrampChainId }>(notProvided('fetchOptions')),
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
    /** The options, kept to the networks of the account's namespace (where its address can receive). */
    setOptions: assign(({ context }, params: { options: OnrampOptions; estimates: boolean }) => {
      const options = optionsFor(params.options, context.chainId)
      return {
        options,
        estimates: params.estimates,
        paymentCurrency: pickPaymentCurrency(options, context.paymentCurrency),
        ...pickPurchase(options, context.purchaseCurrency, context.chainId),
      }
    }),
    /** SPEC §8: the options failed, the built-in samples stand in (for the account's network when they know it). */
    useSampleOptions: assign(({ context }) => {
      const options = optionsFor(sampleOnrampOptions(context.chainId), context.chainId)
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
})
