import { randomUUID } from 'node:crypto'
import * as v from 'valibot'
import { type Address, getAddress, isAddress } from 'viem'
import { createOrder, listOrders, type OnrampOrder } from '../onramp/orders.ts'
import {
  baseUnitsOf,
  DEFAULT_ONRAMP_PROVIDER,
  FIAT_AMOUNT,
  formatCents,
  limitsOf,
  ONRAMP_ASSETS,
  ONRAMP_LIMITS,
  ONRAMP_NATIVE_ADDRESS,
  ONRAMP_NETWORK,
  ONRAMP_NETWORK_DISPLAY_NAME,
  ONRAMP_PROVIDER_IDS,
  ONRAMP_PROVIDERS,
  type OnrampPrice,
  type OnrampProviderId,
  outOfRange,
  PAYMENT_CURRENCIES,
  PAYMENT_METHODS,
  type PaymentCurrencyId,
  type PaymentMethodId,
  PURCHASE_CURRENCIES,
  type PurchaseCurrencyId,
  parseCents,
  parseUnitsDown,
  priceCrypto,
  priceFiat,
  purchaseAmountOf,
} from '../onramp/pricing.ts'
import { errorJson, type SandboxResponse } from '../shared/http.ts'
import { parseBody, type Route } from './common.ts'
import type { SandboxDb } from './db.ts'
import { decodeCursor, encodeCursor, HISTORY_PAGE_SIZE, type Page } from './history.ts'

/**
 * The Data API's onramp calls (SPEC §7, issue 19), answered from the sandbox's own catalogue (`onramp/pricing.ts`)
 * and orders (`onramp/orders.ts`, the sandbox database):
 * - `GET /v1/onramp/options`: what can be bought (USDC on the sandbox chain, when the API serves the token, and
 *   native ETH), with what (USD, EUR; card and bank limits) and from whom (`providers`).
 * - `POST /v1/onramp/quote` `{ purchaseCurrency, paymentCurrency, amount, network, provider?, paymentMethod? }`:
 *   the fee, subtotal, total and purchase amount. An amount outside the limits is 400 'amount out of range' with
 *   `min` and `max` (the payment method's when given, else the widest any method allows).
 * - `POST /v1/generators/onrampurl`: stores a `pending` order and answers `{ url }` on the partner page's origin.
 * - `GET /v1/account/{address}/history?onramp=<provider>` (through {@link onrampHistoryPage}): that provider's
 *   orders for the address as history items of operation `buy`: those the buyer submitted (paid: pending while
 *   the partner settles them, then confirmed, or failed); a checkout opened and never paid is not listed.
 */

/** An onramp history item: a history item whose id is the order's and whose hash is '' until delivery. */
export interface OnrampHistoryItem {
  id: string
  metadata: {
    operationType: 'buy'
    hash: string
    minedAt: string
    sentFrom: string
    sentTo: string
    status: 'pending' | 'confirmed' | 'failed'
    chain: string
  }
  transfers: Array<{
    fungible_info: { name: string; symbol: string; icon?: { url: string } }
    direction: 'in'
    quantity: { numeric: string }
  }>
}

/** `GET /v1/onramp/options`. */
export interface OnrampOptions {
  purchaseCurrencies: Array<{
    id: PurchaseCurrencyId
    name: string
    symbol: string
    networks: Array<{ name: string; display_name: string; chain_id: string; contract_address: string }>
  }>
  paymentCurrencies: Array<{
    id: PaymentCurrencyId
    payment_method_limits: Array<{ id: PaymentMethodId; min: string; max: string }>
  }>
  providers: Array<{ id: OnrampProviderId; name: string; feePercent: number }>
}

/** `POST /v1/onramp/quote`. */
export interface OnrampQuote {
  quoteId: string
  paymentTotal: { amount: string; currency: string }
  paymentSubtotal: { amount: string; currency: string }
  fee: { amount: string; currency: string }
  purchaseAmount: { amount: string; currency: string }
}

export interface OnrampRoutesOptions {
  db: SandboxDb
  /** EIP-155 chain id of the sandbox chain. */
  chainId: number
  /** The chain's USDC; without it only ETH is sold. */
  usdc?: { address: Address; name: string; symbol: string; decimals: number }
  /** The partner page's origin and the account it delivers from; without it the URL generator answers 503. */
  partner?: { origin: string; address: Address } | undefined
}

const providerMessage = `must be one of ${ONRAMP_PROVIDER_IDS.join(', ')}`
const ProviderSchema = v.picklist(ONRAMP_PROVIDER_IDS, `provider ${providerMessage}`)
const PaymentCurrencySchema = v.picklist(
  PAYMENT_CURRENCIES,
  `paymentCurrency must be one of ${PAYMENT_CURRENCIES.join(', ')}`,
)
const PaymentMethodSchema = v.picklist(
  PAYMENT_METHODS,
  `paymentMethod must be one of ${PAYMENT_METHODS.join(', ')}`,
)
const PurchaseCurrencySchema = v.picklist(
  PURCHASE_CURRENCIES,
  `purchaseCurrency must be one of ${PURCHASE_CURRENCIES.join(', ')}`,
)
const NetworkSchema = v.literal(ONRAMP_NETWORK, `network must be ${ONRAMP_NETWORK}`)

/** `POST /v1/onramp/quote`. */
export const QuoteBodySchema = v.object({
  purchaseCurrency: PurchaseCurrencySchema,
  paymentCurrency: PaymentCurrencySchema,
  amount: v.pipe(
    v.string('amount must be a decimal string'),
    v.regex(FIAT_AMOUNT, 'amount must be a decimal number with at most 2 decimals, like "50.00"'),
  ),
  network: NetworkSchema,
  provider: v.optional(ProviderSchema, DEFAULT_ONRAMP_PROVIDER),
  paymentMethod: v.optional(PaymentMethodSchema),
})

/** A preset amount: a decimal string, or a number as the provider's clients also send it. */
const PresetSchema = (name: string) =>
  v.pipe(
    v.union(
      [
        v.pipe(v.number(), v.finite(), v.minValue(0), v.transform(String)),
        v.pipe(v.string(), v.maxLength(40)),
      ],
      `${name} must be a decimal number`,
    ),
    v.regex(/^\d{1,30}(\.\d{1,40})?$/, `${name} must be a decimal number like "50.00"`),
  )

const DestinationWalletSchema = v.object({
  address: v.pipe(
    v.string('destinationWallets[].address must be a string'),
    v.check(
      (value) => isAddress(value, { strict: false }),
      'destinationWallets[].address must be a 0x address',
    ),
  ),
  blockchains: v.pipe(
    v.array(
      v.pipe(v.string(), v.maxLength(64)),
      'destinationWallets[].blockchains must be a list of networks',
    ),
    v.minLength(1, 'destinationWallets[].blockchains must name a network'),
    v.maxLength(20, 'destinationWallets[].blockchains is too long'),
  ),
  assets: v.pipe(
    v.array(v.pipe(v.string(), v.maxLength(64)), 'destinationWallets[].assets must be a list of currencies'),
    v.minLength(1, 'destinationWallets[].assets must name a currency'),
    v.maxLength(20, 'destinationWallets[].assets is too long'),
  ),
})

/** `POST /v1/generators/onrampurl`. */
export const UrlBodySchema = v.object({
  destinationWallets: v.pipe(
    v.array(DestinationWalletSchema, 'destinationWallets must be a list'),
    v.minLength(1, 'destinationWallets must hold a wallet'),
    v.maxLength(10, 'destinationWallets is too long'),
  ),
  defaultNetwork: NetworkSchema,
  partnerUserId: v.pipe(
    v.string('partnerUserId must be a string'),
    v.minLength(1, 'partnerUserId must not be empty'),
    v.maxLength(100, 'partnerUserId is too long (100 characters at most)'),
  ),
  defaultExperience: v.literal('buy', 'defaultExperience must be "buy"'),
  presetCryptoAmount: v.optional(PresetSchema('presetCryptoAmount')),
  presetFiatAmount: v.optional(PresetSchema('presetFiatAmount')),
  provider: v.optional(ProviderSchema, DEFAULT_ONRAMP_PROVIDER),
  paymentCurrency: v.optional(PaymentCurrencySchema, 'USD'),
  paymentMethod: v.optional(PaymentMethodSchema, 'card'),
})

/** The 400 of an amount outside the limits. */
function amountOutOfRange(limits: { min: string; max: string }, currency: string): SandboxResponse {
  return errorJson(400, 'amount out of range', { min: limits.min, max: limits.max, currency })
}

/** What the sandbox sells, with its name and where it lives on the chain. */
function assetsOf(options: OnrampRoutesOptions): Map<PurchaseCurrencyId, { name: string; contract: string }> {
  const assets = new Map<PurchaseCurrencyId, { name: string; contract: string }>()
  if (options.usdc)
    assets.set('USDC', { name: options.usdc.name, contract: getAddress(options.usdc.address) })
  assets.set('ETH', { name: 'Ether', contract: ONRAMP_NATIVE_ADDRESS })
  return assets
}

/**
 * The onramp routes of the Data API (see the module comment).
 *
 * @example
 * startService({ name: 'api', handler: createRouter([...onrampRoutes({ db, chainId: 31337 })]) })
 */
export function onrampRoutes(options: OnrampRoutesOptions): Route[] {
  const assets = assetsOf(options)
  const caip2 = `eip155:${options.chainId}`

  const onrampOptions = (): OnrampOptions => ({
    purchaseCurrencies: [...assets].map(([id, asset]) => ({
      id,
      name: asset.name,
      symbol: id,
      networks: [
        {
          name: ONRAMP_NETWORK,
          display_name: ONRAMP_NETWORK_DISPLAY_NAME,
          chain_id: String(options.chainId),
          contract_address: asset.contract,
        },
      ],
    })),
    paymentCurrencies: PAYMENT_CURRENCIES.map((id) => ({
      id,
      payment_method_limits: PAYMENT_METHODS.map((method) => ({ id: method, ...ONRAMP_LIMITS[method] })),
    })),
    providers: ONRAMP_PROVIDERS.map(({ id, name, feePercent }) => ({ id, name, feePercent })),
  })

  const quoteOf = (price: OnrampPrice): OnrampQuote => ({
    quoteId: randomUUID(),
    paymentTotal: { amount: formatCents(price.totalCents), currency: price.paymentCurrency },
    paymentSubtotal: { amount: formatCents(price.subtotalCents), currency: price.paymentCurrency },
    fee: { amount: formatCents(price.feeCents), currency: price.paymentCurrency },
    purchaseAmount: { amount: purchaseAmountOf(price), currency: price.purchaseCurrency },
  })

  const notSold = (currency: string) =>
    errorJson(400, `purchaseCurrency ${currency} is not sold on ${ONRAMP_NETWORK}`)

  return [
    {
      method: 'GET',
      pattern: /^\/v1\/onramp\/options$/,
      handle: () => ({ json: onrampOptions() }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/onramp\/quote$/,
      handle: ({ req }) => {
        const parsed = parseBody(req.body, QuoteBodySchema, 'quote')
        if ('error' in parsed) return parsed.error
        const body = parsed.value
        if (!assets.has(body.purchaseCurrency)) return notSold(body.purchaseCurrency)
        const cents = parseCents(body.amount)!
        const limits = outOfRange(cents, body.paymentMethod)
        if (limits) return amountOutOfRange(limits, body.paymentCurrency)
        return {
          json: quoteOf(priceFiat(body.provider, body.paymentCurrency, body.purchaseCurrency, cents)),
        }
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/generators\/onrampurl$/,
      handle: async ({ req }) => {
        const parsed = parseBody(req.body, UrlBodySchema, 'onramp URL')
        if ('error' in parsed) return parsed.error
        const body = parsed.value
        const wallet = body.destinationWallets.find((w) => w.blockchains.includes(body.defaultNetwork))
        if (!wallet) return errorJson(400, `No destination wallet on ${body.defaultNetwork}`)
        const asset = wallet.assets.find((a): a is PurchaseCurrencyId => assets.has(a as PurchaseCurrencyId))
        if (!asset) return notSold(wallet.assets.join(', ').slice(0, 100))
        let price: OnrampPrice
        if (body.presetFiatAmount !== undefined) {
          const cents = parseCents(body.presetFiatAmount)
          if (cents === undefined) {
            return errorJson(400, 'presetFiatAmount must have at most 2 decimals, like "50.00"')
          }
          price = priceFiat(body.provider, body.paymentCurrency, asset, cents)
        } else if (body.presetCryptoAmount !== undefined) {
          const units = parseUnitsDown(body.presetCryptoAmount, ONRAMP_ASSETS[asset].quoteDecimals)!
          if (units <= 0n) return errorJson(400, 'presetCryptoAmount must be more than 0')
          price = priceCrypto(body.provider, body.paymentCurrency, asset, units)
        } else {
          return errorJson(400, 'presetFiatAmount or presetCryptoAmount is required')
        }
        const limits = outOfRange(price.totalCents, body.paymentMethod)
        if (limits) return amountOutOfRange(limits, body.paymentCurrency)
        if (price.purchaseUnits <= 0n)
          return amountOutOfRange(limitsOf(body.paymentMethod), body.paymentCurrency)
        if (!options.partner) return errorJson(503, 'Onramp partner page not configured')
        const order = await createOrder(options.db, {
          provider: body.provider,
          partnerUserId: body.partnerUserId,
          address: getAddress(wallet.address),
          chainId: caip2,
          network: body.defaultNetwork,
          purchaseCurrency: asset,
          tokenAddress: asset === 'USDC' ? getAddress(options.usdc!.address) : null,
          decimals: ONRAMP_ASSETS[asset].decimals,
          paymentCurrency: body.paymentCurrency,
          paymentMethod: body.paymentMethod,
          paymentTotal: formatCents(price.totalCents),
          paymentSubtotal: formatCents(price.subtotalCents),
          fee: formatCents(price.feeCents),
          purchaseAmount: purchaseAmountOf(price),
          purchaseBase: baseUnitsOf(price),
          partnerAddress: options.partner.address,
        })
        return { json: { url: `${options.partner.origin}/order/${order.id}` } }
      },
    },
  ]
}

/** The history item of one order. */
export function orderHistoryItem(
  order: OnrampOrder,
  asset: { name: string; iconUrl: string | undefined },
): OnrampHistoryItem {
  return {
    id: order.id,
    metadata: {
      operationType: 'buy',
      hash: order.txHash ?? '',
      // The order's creation until it is delivered, then the delivery's time.
      minedAt: order.status === 'confirmed' ? (order.completedAt ?? order.createdAt) : order.createdAt,
      sentFrom: order.partnerAddress,
      sentTo: order.address,
      status: order.status === 'delivering' ? 'pending' : order.status,
      chain: order.chainId,
    },
    transfers: [
      {
        fungible_info: {
          name: asset.name,
          symbol: order.purchaseCurrency,
          ...(asset.iconUrl ? { icon: { url: asset.iconUrl } } : {}),
        },
        direction: 'in',
        quantity: { numeric: order.purchaseAmount },
      },
    ],
  }
}

/** `onramp` of the history call: a provider id. */
export const OnrampProviderQuerySchema = v.picklist(ONRAMP_PROVIDER_IDS, providerMessage)

/**
 * One page of a provider's orders for an address, newest first (`GET /v1/account/{a}/history?onramp=`): pages of
 * {@link HISTORY_PAGE_SIZE}, the cursor naming the last order shown.
 *
 * @example
 * const answer = await onrampHistoryPage({ db, usdc, iconUrl }, '0xf39f...', 'coinbase', undefined, undefined)
 */
export async function onrampHistoryPage(
  options: Pick<OnrampRoutesOptions, 'db' | 'usdc'> & { iconUrl(symbol: string): string | undefined },
  account: Address,
  provider: OnrampProviderId,
  cursor: string | undefined,
  chainId: string | undefined,
): Promise<SandboxResponse> {
  let beforeSeq: number | undefined
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor)
    if (!decoded || !Number.isSafeInteger(decoded.o) || (decoded.o as number) < 0) {
      return errorJson(400, 'Invalid query parameter cursor: not a cursor this API made')
    }
    beforeSeq = decoded.o as number
  }
  const orders = await listOrders(options.db, {
    provider,
    address: account,
    ...(chainId === undefined ? {} : { chainId }),
    ...(beforeSeq === undefined ? {} : { beforeSeq }),
    limit: HISTORY_PAGE_SIZE + 1,
  })
  const page = orders.slice(0, HISTORY_PAGE_SIZE)
  const names: Record<PurchaseCurrencyId, string> = { USDC: options.usdc?.name ?? 'USD Coin', ETH: 'Ether' }
  const data = page.map((order) =>
    orderHistoryItem(order, {
      name: names[order.purchaseCurrency] ?? order.purchaseCurrency,
      iconUrl: options.iconUrl(order.purchaseCurrency),
    }),
  )
  const last = page[page.length - 1]
  const next = orders.length > HISTORY_PAGE_SIZE && last ? encodeCursor({ o: last.seq }) : null
  const answer: Page<OnrampHistoryItem> = { data, next }
  return { json: answer }
}
