/**
 * The Buy flow's rules as pure functions of its context (src/machines/onramp.ts names them as guards and
 * actions): the amount against the payment method's limits (SPEC §9), the network of the purchase currency,
 * which provider is quoted next, which order is the purchase, and what each slot is asked for.
 */
import { parseUnits } from 'viem'
import { ONRAMP_LIMITS } from '../../constants'
import { OnrampAmountOutOfRangeError } from '../../errors/onramp'
import { formatCents } from '../../utils/onrampSamples'
import type {
  OnrampChainId,
  OnrampContext,
  OnrampNetwork,
  OnrampOptions,
  OnrampOrder,
  OnrampPaymentMethod,
  OnrampProvider,
  OnrampPurchaseCurrency,
  OnrampPurchasesRequest,
  OnrampQuoteRequest,
  OnrampUrlRequest,
} from './types'

/** The payment methods the kit offers. */
export const ONRAMP_PAYMENT_METHODS: readonly OnrampPaymentMethod[] = ['card', 'ach_bank_account']

/** A fiat amount as people type it: digits, then at most two decimals (`50`, `50.5`, `50.`, `.5`). */
const FIAT_AMOUNT = /^(\d{1,12}(\.\d{0,2})?|\.\d{1,2})$/
/** A limit from the options: a decimal string (more decimals than cents are allowed, and compared exactly). */
const DECIMAL = /^\d{1,15}(\.\d{1,18})?$/
const SCALE = 18

/**
 * The amount as the Data API takes it (`50.00`), or undefined when it is not a positive fiat amount with at most
 * two decimals.
 *
 * @example
 * normaliseFiatAmount(' 50.5 ') // '50.50'
 * normaliseFiatAmount('1e3') // undefined
 */
export function normaliseFiatAmount(amount: string): string | undefined {
  const text = amount.trim()
  if (!FIAT_AMOUNT.test(text)) return undefined
  const cents = parseUnits(text.endsWith('.') ? text.slice(0, -1) : text, 2)
  return cents > 0n ? formatCents(cents) : undefined
}

/** The limits of the form's payment currency and method: the options' own, else SPEC §9's fallback. */
export function onrampLimitsOf(
  context: Pick<OnrampContext, 'options' | 'paymentCurrency' | 'paymentMethod'>,
): { min: string; max: string; currency: string } {
  const currency = context.paymentCurrency
  const own = context.options?.paymentCurrencies
    .find((c) => c.id === currency)
    ?.payment_method_limits.find((l) => l.id === context.paymentMethod)
  if (own) return { min: own.min, max: own.max, currency }
  const fallback =
    (ONRAMP_LIMITS as Record<string, (typeof ONRAMP_LIMITS)['USD']>)[currency] ?? ONRAMP_LIMITS.USD
  return { ...fallback[context.paymentMethod], currency }
}

function scaled(decimal: string): bigint | undefined {
  return DECIMAL.test(decimal) ? parseUnits(decimal, SCALE) : undefined
}

/**
 * The amount's problem, or undefined when it is within the limits of the payment currency and method. An empty
 * amount has none (there is nothing to check yet); one that is not a positive amount with at most two decimals
 * is out of range too: the limits say what is wanted.
 *
 * @example
 * validateOnrampAmount({ ...context, amount: '5' })?.shortMessage // 'Enter an amount between 10.00 and 7,500.00 USD'
 */
export function validateOnrampAmount(
  context: Pick<OnrampContext, 'options' | 'paymentCurrency' | 'paymentMethod' | 'amount'>,
): OnrampAmountOutOfRangeError | undefined {
  if (context.amount.trim() === '') return undefined
  const limits = onrampLimitsOf(context)
  const normal = normaliseFiatAmount(context.amount)
  const value = normal === undefined ? undefined : scaled(normal)
  const min = scaled(limits.min)
  const max = scaled(limits.max)
  if (value !== undefined && min !== undefined && max !== undefined && value >= min && value <= max)
    return undefined
  return new OnrampAmountOutOfRangeError(limits)
}

/**
 * The chain a network of the options is on: its decimal `chain_id` as an eip155 reference, or a Solana network's
 * CAIP-2 id from its base58 reference.
 *
 * @example
 * networkChainId({ ...network, chain_id: '8453' }) // 8453
 * networkChainId({ ...network, chain_id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }) // 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
 */
export function networkChainId(network: Pick<OnrampNetwork, 'chain_id'>): OnrampChainId {
  return /^\d+$/.test(network.chain_id) ? Number(network.chain_id) : `solana:${network.chain_id}`
}

/** The namespace of a delivery chain: an account receives only on its own. */
const namespaceOf = (chainId: OnrampChainId) => (typeof chainId === 'number' ? 'eip155' : 'solana')

const onChain = (chainId: OnrampChainId) => (network: OnrampNetwork) => networkChainId(network) === chainId

/**
 * The options an account can buy with: the networks of its namespace only (a 0x address receives on eip155
 * networks, a base58 one on Solana's), the purchase currencies left without a network dropped; the options
 * themselves when all of them are on its namespace.
 *
 * @example
 * optionsFor(options, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp').purchaseCurrencies.map((c) => c.id) // ['USDC', 'SOL']
 * @internal
 */
export function optionsFor(options: OnrampOptions, chainId: OnrampChainId): OnrampOptions {
  const namespace = namespaceOf(chainId)
  const ours = (network: OnrampNetwork) => namespaceOf(networkChainId(network)) === namespace
  // All of them on the account's namespace: the options as they are (the same object).
  if (options.purchaseCurrencies.every((currency) => currency.networks.every(ours))) return options
  return {
    ...options,
    purchaseCurrencies: options.purchaseCurrencies
      .map((currency) => ({
        ...currency,
        networks: currency.networks.filter(ours),
      }))
      .filter((currency) => currency.networks.length > 0),
  }
}

/** The purchase currency of the form. */
export function purchaseCurrencyOf(
  context: Pick<OnrampContext, 'options' | 'purchaseCurrency'>,
): OnrampPurchaseCurrency | undefined {
  return context.options?.purchaseCurrencies.find((c) => c.id === context.purchaseCurrency)
}

/** The network the purchase is delivered on (the purchase currency's, on the form's chain). */
export function networkOf(
  context: Pick<OnrampContext, 'options' | 'purchaseCurrency' | 'chainId'>,
): OnrampNetwork | undefined {
  return purchaseCurrencyOf(context)?.networks.find(onChain(context.chainId))
}

/**
 * The purchase currency and network once options are known: the one asked for on the account's chain, else
 * another on that chain, else the one asked for (or the first) on its first network.
 * @internal
 */
export function pickPurchase(
  options: OnrampOptions,
  wanted: string,
  chainId: OnrampChainId,
): { purchaseCurrency: string; chainId: OnrampChainId } {
  const currencies = options.purchaseCurrencies
  const here = (c: OnrampPurchaseCurrency) => c.networks.some(onChain(chainId))
  const chosen =
    currencies.find((c) => c.id === wanted && here(c)) ??
    currencies.find(here) ??
    currencies.find((c) => c.id === wanted) ??
    currencies[0]
  return chosen ? purchaseOn(chosen, chainId) : { purchaseCurrency: wanted, chainId }
}

/**
 * A purchase currency the visitor chose: on the form's chain when it is there, else on its first network.
 * @internal
 */
export function purchaseOn(
  currency: OnrampPurchaseCurrency,
  chainId: OnrampChainId,
): { purchaseCurrency: string; chainId: OnrampChainId } {
  const network = currency.networks.find(onChain(chainId)) ?? currency.networks[0]
  return { purchaseCurrency: currency.id, chainId: network ? networkChainId(network) : chainId }
}

/**
 * The payment currency once options are known: the one asked for, else USD, else the first.
 * @internal
 */
export function pickPaymentCurrency(options: OnrampOptions, wanted: string): string {
  const ids = options.paymentCurrencies.map((c) => c.id)
  return ids.find((id) => id === wanted) ?? ids.find((id) => id === 'USD') ?? ids[0] ?? wanted
}

/**
 * The providers still to be quoted for the form as it is, in the options' order.
 * @internal
 */
export function unquotedProviders(
  context: Pick<OnrampContext, 'options' | 'quotes' | 'quoteFailures'>,
): OnrampProvider[] {
  return (context.options?.providers ?? []).filter(
    (p) => !(p.id in context.quotes) && !context.quoteFailures.includes(p.id),
  )
}

/**
 * The orders that were not there before the partner page opened.
 * @internal
 */
export function newOrders(
  context: Pick<OnrampContext, 'baseline'>,
  orders: readonly OnrampOrder[],
): OnrampOrder[] {
  const before = new Set(context.baseline ?? [])
  return orders.filter((order) => !before.has(order.id))
}

/**
 * The new order that was confirmed, if one was.
 * @internal
 */
export function confirmedOrder(
  context: Pick<OnrampContext, 'baseline'>,
  orders: readonly OnrampOrder[],
): OnrampOrder | undefined {
  return newOrders(context, orders).find((order) => order.status === 'confirmed')
}

/**
 * Whether a new order is still pending: paid, not settled yet (the machine asks after confirmed and failed).
 * @internal
 */
export function orderPending(
  context: Pick<OnrampContext, 'baseline'>,
  orders: readonly OnrampOrder[],
): boolean {
  return newOrders(context, orders).some((o) => o.status === 'pending')
}

/**
 * Whether a new order failed (and none was confirmed).
 * @internal
 */
export function orderFailed(
  context: Pick<OnrampContext, 'baseline'>,
  orders: readonly OnrampOrder[],
): boolean {
  const fresh = newOrders(context, orders)
  return !fresh.some((o) => o.status === 'confirmed') && fresh.some((o) => o.status === 'failed')
}

/** The quote request for the next provider to be quoted. Only called where one is. */
export function quoteRequestOf(context: OnrampContext): OnrampQuoteRequest {
  return {
    purchaseCurrency: context.purchaseCurrency,
    paymentCurrency: context.paymentCurrency,
    amount: normaliseFiatAmount(context.amount) ?? context.amount.trim(),
    network: networkOf(context)?.name ?? '',
    provider: unquotedProviders(context)[0]?.id ?? '',
    paymentMethod: context.paymentMethod,
  }
}

/** @internal */
export function urlRequestOf(context: OnrampContext): OnrampUrlRequest {
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

/** @internal */
export function purchasesRequestOf(context: OnrampContext): OnrampPurchasesRequest {
  return { address: context.address, chainId: context.chainId, provider: context.provider! }
}
