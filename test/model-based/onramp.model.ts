import type { Address } from 'viem'
import { type EventFromLogic, fromCallback, fromPromise, type SnapshotFrom } from 'xstate'
import {
  OnrampAmountOutOfRangeError,
  OnrampPartnerOriginError,
  OnrampPopupBlockedError,
} from '../../src/errors/onramp'
import {
  networkOf,
  normaliseFiatAmount,
  type OnrampOptions,
  type OnrampOrder,
  type OnrampQuote,
  type OnrampStatus,
  onrampLimitsOf,
  onrampMachine,
  selectOnrampStatus,
  validateOnrampAmount,
} from '../../src/machines/onramp'
import { createModel, describeEvent, type ModelPath } from '../../src/testing'
import { mockQuote, sampleOnrampOptions } from '../../src/utils/onrampSamples'

/**
 * The onramp machine's model. Slots never settle on their own: each answer is an event of the path
 * (`xstate.done.actor.<id>` with an output, `xstate.error.actor.<id>` with an error; the machine names its
 * invokes, so the baseline read, the polls and the last poll after the window closed are told apart), the
 * partner window's news are the events `openPartner` sends, and the options and quote time limits, the debounce,
 * the poll interval and the purchase time limit are explored as delayed events, so every order of answers,
 * timers and visitor actions is a path.
 *
 * The notices (`emit`) are replaced by checks that throw when a notice would go out without its facts.
 *
 * Shared by onramp.test.ts (every path replayed on the machine, then scenarios with answering fakes).
 */
export const never = <T>() => new Promise<T>(() => {})
export const modelMachine = onrampMachine.provide({
  actors: {
    fetchOptions: fromPromise(never<OnrampOptions>),
    fetchQuote: fromPromise(never<OnrampQuote>),
    generateUrl: fromPromise(never<string>),
    fetchPurchases: fromPromise(never<OnrampOrder[]>),
    openPartner: fromCallback(() => {}),
  },
  actions: {
    emitOpened: ({ context }) => {
      if (!context.url || !context.provider) throw new Error('onramp.opened without the url and provider')
    },
    emitSucceeded: ({ context }) => {
      if (!context.purchase || !context.provider) throw new Error('onramp.succeeded without the purchase')
      if (context.baseline?.includes(context.purchase.id))
        throw new Error('onramp.succeeded for an old order')
    },
  },
})

type Machine = typeof modelMachine
export type Snapshot = SnapshotFrom<Machine>
export type Event = EventFromLogic<Machine>

export const ALICE: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
export const BASE = 8453
export const INPUT = { address: ALICE, chainId: BASE } as const
export const URL = 'https://pay.partner.example/buy?order=0123456789abcdef0123456789abcdef'
export const HASH = `0x${'ab'.repeat(32)}`

/**
 * The Data API's options: USDC on Base, cbBTC on Base and Ethereum (a currency the samples hold no price for, so
 * its quotes cannot be estimated), USD and EUR with SPEC §9's limits, the two providers.
 */
export const OPTIONS: OnrampOptions = {
  purchaseCurrencies: [
    {
      id: 'USDC',
      name: 'USD Coin',
      symbol: 'USDC',
      networks: [
        {
          name: 'base',
          display_name: 'Base',
          chain_id: '8453',
          contract_address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        },
      ],
    },
    {
      id: 'CBBTC',
      name: 'Coinbase Wrapped BTC',
      symbol: 'cbBTC',
      networks: [
        {
          name: 'base',
          display_name: 'Base',
          chain_id: '8453',
          contract_address: '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf',
        },
        {
          name: 'ethereum',
          display_name: 'Ethereum',
          chain_id: '1',
          contract_address: '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf',
        },
      ],
    },
  ],
  paymentCurrencies: ['USD', 'EUR'].map((id) => ({
    id,
    payment_method_limits: [
      { id: 'card' as const, min: '10.00', max: '7500.00' },
      { id: 'ach_bank_account' as const, min: '10.00', max: '25000.00' },
    ],
  })),
  providers: [
    { id: 'coinbase', name: 'Coinbase', feePercent: 1 },
    { id: 'meld', name: 'Meld', feePercent: 1.9 },
  ],
}

/** Coinbase's answer for 50.00 USD of USDC. */
export const QUOTE: OnrampQuote = {
  quoteId: 'q-1',
  paymentTotal: { amount: '50.00', currency: 'USD' },
  paymentSubtotal: { amount: '49.50', currency: 'USD' },
  fee: { amount: '0.50', currency: 'USD' },
  purchaseAmount: { amount: '49.5', currency: 'USDC' },
}

/** An order made before this purchase (confirmed long ago): never the purchase. */
export const OLD: OnrampOrder = { id: 'old', status: 'confirmed', amount: '10', symbol: 'USDC', hash: HASH }
export const PENDING: OnrampOrder = { id: 'new', status: 'pending', amount: '49.5', symbol: 'USDC', hash: '' }
export const CONFIRMED: OnrampOrder = {
  id: 'new',
  status: 'confirmed',
  amount: '49.5',
  symbol: 'USDC',
  hash: HASH,
}
export const FAILED: OnrampOrder = { id: 'new', status: 'failed', amount: '49.5', symbol: 'USDC', hash: '' }

const orderAnswers = (id: string) => [
  { type: `xstate.done.actor.${id}`, output: [OLD] },
  { type: `xstate.done.actor.${id}`, output: [PENDING, OLD] },
  { type: `xstate.done.actor.${id}`, output: [CONFIRMED, OLD] },
  { type: `xstate.done.actor.${id}`, output: [FAILED, OLD] },
  { type: `xstate.error.actor.${id}`, error: new Error('HTTP 500') },
]

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const answers = [
  { type: 'xstate.done.actor.fetchOptions', output: OPTIONS },
  { type: 'xstate.error.actor.fetchOptions', error: new Error('HTTP 503') },
  { type: 'xstate.done.actor.fetchQuote', output: QUOTE },
  { type: 'xstate.error.actor.fetchQuote', error: new Error('HTTP 503') },
  { type: 'xstate.done.actor.fetchBaseline', output: [OLD] },
  { type: 'xstate.error.actor.fetchBaseline', error: new Error('HTTP 500') },
  { type: 'xstate.done.actor.generateUrl', output: URL },
  { type: 'xstate.error.actor.generateUrl', error: new Error('HTTP 500') },
  ...orderAnswers('pollOrders'),
  ...orderAnswers('lastPoll'),
  ...orderAnswers('processingPoll'),
] as unknown as Event[]

export const events: Event[] = [
  { type: 'onramp.setAmount', amount: '' },
  { type: 'onramp.setAmount', amount: '50' },
  // Over the card's 7,500.00, within the bank account's 25,000.00.
  { type: 'onramp.setAmount', amount: '10000' },
  { type: 'onramp.setPaymentMethod', id: 'ach_bank_account' },
  { type: 'onramp.setPaymentCurrency', id: 'EUR' },
  { type: 'onramp.setPaymentCurrency', id: 'GBP' },
  { type: 'onramp.setPurchaseCurrency', id: 'CBBTC' },
  { type: 'onramp.setNetwork', chainId: 1 },
  { type: 'onramp.choose', provider: 'coinbase' },
  { type: 'onramp.choose', provider: 'nobody' },
  { type: 'onramp.partnerFailed', error: new OnrampPopupBlockedError() },
  {
    type: 'onramp.partnerFailed',
    error: new OnrampPartnerOriginError({ origin: 'https://evil.example', provider: 'coinbase' }),
  },
  ...answers,
]

/**
 * State identity: the state and the context that decides where the machine goes and what the invariants speak
 * of. Whether a quote is an estimate decides nothing (it is checked by the invariant), so it is left out; past
 * the form the choices are fixed, and in the form the last provider chosen decides nothing.
 */
export function serialize(snapshot: Snapshot): string {
  const c = snapshot.context
  const pastForm = !snapshot.matches('form') && !snapshot.matches('loadingOptions')
  return JSON.stringify({
    value: snapshot.value,
    amount: c.amount,
    pay: c.paymentCurrency,
    buy: c.purchaseCurrency,
    chain: c.chainId,
    method: c.paymentMethod,
    estimates: c.estimates,
    quoted: Object.keys(c.quotes).sort(),
    failures: c.quoteFailures,
    ...(pastForm
      ? {
          provider: c.provider ?? null,
          url: c.url !== undefined,
          baseline: c.baseline ?? null,
          purchase: c.purchase?.id ?? null,
        }
      : {}),
    error: c.error?.name ?? null,
  })
}

export const model = createModel(modelMachine, { events, input: INPUT, serializeState: serialize })

/** What must hold in every state of the Buy flow. */
export function invariant(snapshot: Snapshot): void {
  const c = snapshot.context
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  if (snapshot.status !== 'active') fail(`actor ${snapshot.status}`)
  const loading =
    snapshot.matches('loadingOptions') ||
    snapshot.matches({ form: 'debouncing' }) ||
    snapshot.matches({ form: 'quoting' })
  if (snapshot.hasTag('loading') !== loading) fail('loading tag out of step')
  const busy = snapshot.matches('opening') || snapshot.matches('waiting') || snapshot.matches('processing')
  if (snapshot.hasTag('busy') !== busy) fail('busy tag out of step')

  // Options: none while loading; afterwards the API's or, marked as estimates, the samples for the account.
  if (snapshot.matches('loadingOptions') !== (c.options === undefined)) fail('options out of step')
  if (c.options && c.estimates && JSON.stringify(c.options) !== JSON.stringify(sampleOnrampOptions(BASE)))
    fail('estimates without the sample options')
  if (c.options && !c.estimates && c.options !== OPTIONS) fail('the API options replaced')
  if (c.options && !networkOf(c)) fail('a purchase currency off its networks')
  if (c.options && !c.options.paymentCurrencies.some((p) => p.id === c.paymentCurrency))
    fail('a payment currency the options do not hold')

  // The amount against the limits (SPEC §9).
  const problem = validateOnrampAmount(c)
  if (snapshot.matches({ form: 'invalid' })) {
    if (!(c.amountError instanceof OnrampAmountOutOfRangeError)) fail('invalid without its error')
    const limits = onrampLimitsOf(c)
    if (c.amountError?.min !== limits.min || c.amountError.max !== limits.max) fail('the wrong limits shown')
    if (!problem) fail('invalid with an amount within the limits')
  } else if (c.amountError) fail('an amount error outside invalid')
  if (snapshot.matches({ form: 'idle' }) && c.amount.trim() !== '') fail('idle with an amount')
  const quoting = snapshot.matches({ form: 'debouncing' }) || snapshot.matches({ form: 'quoting' })
  if ((quoting || snapshot.matches({ form: 'quoted' })) && problem) fail('quotes for an amount out of range')

  // Quotes: one per provider for the form as it is; an estimate is the kit's mock for that provider.
  const providers = c.options?.providers ?? []
  if (
    snapshot.matches({ form: 'debouncing' }) &&
    (Object.keys(c.quotes).length > 0 || c.quoteFailures.length)
  )
    fail('old quotes kept')
  if (
    snapshot.matches({ form: 'quoted' }) &&
    !providers.every((p) => p.id in c.quotes || c.quoteFailures.includes(p.id))
  )
    fail('quoted with a provider unasked')
  for (const [id, entry] of Object.entries(c.quotes)) {
    const provider = providers.find((p) => p.id === id)
    if (!provider) fail(`a quote from ${id}, not a provider`)
    if (entry.estimate) {
      const request = {
        purchaseCurrency: c.purchaseCurrency,
        paymentCurrency: c.paymentCurrency,
        amount: normaliseFiatAmount(c.amount) ?? '',
        network: networkOf(c)?.name ?? '',
        provider: id,
        paymentMethod: c.paymentMethod,
      }
      const expected = mockQuote(request, provider!)
      if (JSON.stringify(entry.quote) !== JSON.stringify(expected)) fail('an estimate that is not the mock')
    } else if (entry.quote !== QUOTE) fail('a real quote that is not the answer')
  }
  if (c.quoteFailures.length > 0 && c.error?.name !== 'OnrampQuoteError' && snapshot.matches('form'))
    fail('a provider without a quote and no error')

  // `onramp.choose` only for a quoted provider, the amount within the limits.
  const canChoose = snapshot.can({ type: 'onramp.choose', provider: 'coinbase' })
  if (canChoose !== (snapshot.matches({ form: 'quoted' }) && 'coinbase' in c.quotes && !problem))
    fail('choose offered out of step')
  if (snapshot.can({ type: 'onramp.choose', provider: 'nobody' })) fail('choose offered for no provider')

  // The purchase: the choices hold; the baseline before the URL, the URL before the window.
  if (busy || snapshot.matches('done')) {
    if (!c.provider || !(c.provider in c.quotes) || problem) fail('a purchase without a quoted provider')
    if (!snapshot.can({ type: 'onramp.cancel' }) && busy) fail('no way back from the purchase')
  }
  if (snapshot.matches({ opening: 'generating' }) && !c.baseline) fail('a URL asked for before the baseline')
  if ((snapshot.matches({ opening: 'launching' }) || snapshot.matches('waiting')) && (!c.url || !c.baseline))
    fail('the window without its URL')
  // Issue 33: the window is opened (blank) as the purchase starts, in the visitor's click, and watched until it
  // closes; once closed (processing) nothing watches it.
  const watching = snapshot.matches('opening') || snapshot.matches('waiting')
  if (watching !== (snapshot.children.partner !== undefined)) fail('the partner window watched out of step')
  if (snapshot.matches('processing') && (!c.url || !c.baseline))
    fail('processing without a purchase under way')
  if (snapshot.matches('done')) {
    if (!c.purchase || c.purchase.id !== CONFIRMED.id || c.purchase.hash !== HASH)
      fail('done without the purchase')
  } else if (c.purchase) fail('a purchase outside done')
  if (snapshot.matches('failed')) {
    if (!c.error) fail('failed without an error')
    if (!snapshot.can({ type: 'onramp.retry' })) fail('failed without a retry')
  }
  // Issue 33: after the time limit on a pending order, the text that says it may still complete.
  if (snapshot.matches('unconfirmed')) {
    if (c.error?.name !== 'OnrampStillProcessingError') fail('unconfirmed without its text')
    if (!snapshot.can({ type: 'onramp.retry' })) fail('unconfirmed without a way back')
  } else if (c.error?.name === 'OnrampStillProcessingError')
    fail('the still-processing text outside unconfirmed')

  // The status the views read follows the states.
  const status = selectOnrampStatus(snapshot)
  const statusStates: Array<[OnrampStatus, boolean]> = [
    ['loading', snapshot.matches('loadingOptions')],
    ['editing', snapshot.matches({ form: 'idle' })],
    ['invalid', snapshot.matches({ form: 'invalid' })],
    ['quoting', quoting],
    ['quoted', snapshot.matches({ form: 'quoted' })],
    ['opening', snapshot.matches('opening')],
    ['waiting', snapshot.matches('waiting')],
    ['processing', snapshot.matches('processing')],
    ['unconfirmed', snapshot.matches('unconfirmed')],
    ['done', snapshot.matches('done')],
    ['failed', snapshot.matches('failed')],
  ]
  for (const [name, inState] of statusStates)
    if ((status === name) !== inState) fail(`status ${status} vs ${name}`)
}

/** A readable path name: answers are named by the slot, orders by their news. */
export function short(path: ModelPath): string {
  if (path.steps.length === 0) return '(initial state)'
  return path.steps
    .map(({ event }) => {
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
      if (!answer) {
        if (event.type === 'onramp.partnerFailed') return 'partnerFailed'
        return describeEvent(event).replace(/^onramp\./, '')
      }
      if (answer[1] === 'error') return `failure(${answer[2]})`
      const output = (event as { output?: unknown }).output
      const detail = Array.isArray(output)
        ? (output as OnrampOrder[]).map((o) => `${o.id} ${o.status}`).join(', ')
        : ''
      return `answer(${answer[2]}${detail ? `: ${detail}` : ''})`
    })
    .join(' → ')
}
