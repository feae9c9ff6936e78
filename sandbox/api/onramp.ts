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
  ONRAMP_NETWORKS,
  ONRAMP_PROVIDER_IDS,
  ONRAMP_PROVIDERS,
  ONRAMP_SOLANA_NATIVE_ADDRESS,
  ONRAMP_SOLANA_NETWORK,
  ONRAMP_SOLANA_NETWORK_DISPLAY_NAME,
  type OnrampNetworkName,
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
import { isSolanaAddress } from './solana.ts'

/**
 * The Data API's onramp calls (SPEC §7, issue 19), answered from the sandbox's own catalogue (`onramp/pricing.ts`)
 * and orders (`onramp/orders.ts`, the sandbox database):
 * - `GET /v1/onramp/options`: what can be bought (USDC on the sandbox chain, when the API serves the token, and
 *   native ETH; with `solana`, SOL and the sandbox USDC on the sandbox Solana chain, network
 *   `walletstate-sandbox-solana`, `chain_id` its CAIP-2 reference), with what (USD, EUR; card and bank limits)
 *   and from whom (`providers`).
 * - `POST /v1/onramp/quote` `{ purchaseCurrency, paymentCurrency, amount, network, provider?, paymentMethod? }`:
 *   the fee, subtotal, total and purchase amount. An amount outside the limits is 400 'amount out of range' with
 *   `min` and `max` (the payment method's when given, else the widest any method allows).
 * - `POST /v1/generators/onrampurl`: stores a `pending` order and answers `{ url }` on the partner page's origin.
 *   The destination wallet is a 0x address on the sandbox chain, a base58 public key (32 bytes) on Solana.
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
  /**
   * The partner page's origin and the accounts it delivers from (`solanaAddress` on Solana); without it the URL
   * generator answers 503.
   */
  partner?: { origin: string; address: Address; solanaAddress?: string | undefined } | undefined
  /** The sandbox Solana chain (its CAIP-2 id and USDC mint): with it SOL and USDC are sold there too. */
  solana?: { chainId: string; usdcMint: string } | undefined
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
const NetworkSchema = v.picklist(ONRAMP_NETWORKS, `network must be ${ONRAMP_NETWORKS.join(' or ')}`)

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

/**
 * A destination wallet's address: a 0x address (eip155) or a base58 Solana public key of 32 bytes; which one the
 * order's network takes is checked with it ({@link destinationRefusal}).
 */
const DestinationWalletSchema = v.object({
  address: v.pipe(
    v.string('destinationWallets[].address must be a string'),
    v.maxLength(64, 'destinationWallets[].address is too long'),
    v.check(
      (value) => isAddress(value, { strict: false }) || isSolanaAddress(value),
      'destinationWallets[].address must be a 0x address or a base58 Solana address',
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

/**
 * Why `address` cannot receive on `network`, or `undefined` when it can: the sandbox chain takes a 0x address,
 * the Solana network a base58 public key that decodes to 32 bytes.
 *
 * @example
 * destinationRefusal('walletstate-sandbox-solana', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
 * // 'destinationWallets[].address must be a base58 Solana address (32 bytes) on walletstate-sandbox-solana'
 */
export function destinationRefusal(network: OnrampNetworkName, address: string): string | undefined {
  if (network === ONRAMP_SOLANA_NETWORK) {
    return isSolanaAddress(address)
      ? undefined
      : `destinationWallets[].address must be a base58 Solana address (32 bytes) on ${network}`
  }
  return isAddress(address, { strict: false })
    ? undefined
    : `destinationWallets[].address must be a 0x address on ${network}`
}

/** The 400 of an amount outside the limits. */
function amountOutOfRange(limits: { min: string; max: string }, currency: string): SandboxResponse {
  return errorJson(400, 'amount out of range', { min: limits.min, max: limits.max, currency })
}

/** Where an asset is sold: the network, its chain (CAIP-2) and the token there (`null`: the native currency). */
interface AssetNetwork {
  network: OnrampNetworkName
  chainId: string
  /** `contract_address` of the options. */
  contract: string
  /** What the partner delivers: the token, or `null` for the native currency. */
  token: string | null
}

/** What the sandbox sells, with its name and the networks it lives on. */
function assetsOf(
  options: OnrampRoutesOptions,
): Map<PurchaseCurrencyId, { name: string; networks: AssetNetwork[] }> {
  const evm = (contract: string, token: string | null): AssetNetwork => ({
    network: ONRAMP_NETWORK,
    chainId: `eip155:${options.chainId}`,
    contract,
    token,
  })
  const solana = (contract: string, token: string | null): AssetNetwork[] =>
    options.solana
      ? [{ network: ONRAMP_SOLANA_NETWORK, chainId: options.solana.chainId, contract, token }]
      : []
  const assets = new Map<PurchaseCurrencyId, { name: string; networks: AssetNetwork[] }>()
  const usdc = [
    ...(options.usdc ? [evm(getAddress(options.usdc.address), getAddress(options.usdc.address))] : []),
    ...(options.solana ? solana(options.solana.usdcMint, options.solana.usdcMint) : []),
  ]
  if (usdc.length > 0) assets.set('USDC', { name: options.usdc?.name ?? 'USD Coin', networks: usdc })
  assets.set('ETH', { name: 'Ether', networks: [evm(ONRAMP_NATIVE_ADDRESS, null)] })
  if (options.solana)
    assets.set('SOL', { name: 'Solana', networks: solana(ONRAMP_SOLANA_NATIVE_ADDRESS, null) })
  return assets
}

const NETWORK_DISPLAY_NAMES: Record<OnrampNetworkName, string> = {
  [ONRAMP_NETWORK]: ONRAMP_NETWORK_DISPLAY_NAME,
  [ONRAMP_SOLANA_NETWORK]: ONRAMP_SOLANA_NETWORK_DISPLAY_NAME,
}

/** The options' `chain_id`: the eip155 reference, or the Solana chain's CAIP-2 reference. */
const chainReference = (chainId: string) => chainId.slice(chainId.indexOf(':') + 1)

/**
 * The onramp routes of the Data API (see the module comment).
 *
 * @example
 * startService({ name: 'api', handler: createRouter([...onrampRoutes({ db, chainId: 31337 })]) })
 */
export function onrampRoutes(options: OnrampRoutesOptions): Route[] {
  const assets = assetsOf(options)
  /** Where `currency` is sold on `network`, if it is. */
  const soldOn = (currency: PurchaseCurrencyId, network: OnrampNetworkName) =>
    assets.get(currency)?.networks.find((n) => n.network === network)

  const onrampOptions = (): OnrampOptions => ({
    purchaseCurrencies: [...assets].map(([id, asset]) => ({
      id,
      name: asset.name,
      symbol: id,
      networks: asset.networks.map((n) => ({
        name: n.network,
        display_name: NETWORK_DISPLAY_NAMES[n.network],
        chain_id: chainReference(n.chainId),
        contract_address: n.contract,
      })),
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

  const notSold = (currency: string, network: string) =>
    errorJson(400, `purchaseCurrency ${currency} is not sold on ${network}`)

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
        if (!soldOn(body.purchaseCurrency, body.network)) return notSold(body.purchaseCurrency, body.network)
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
        const refused = destinationRefusal(body.defaultNetwork, wallet.address)
        if (refused) return errorJson(400, refused)
        const asset = wallet.assets.find(
          (a): a is PurchaseCurrencyId => soldOn(a as PurchaseCurrencyId, body.defaultNetwork) !== undefined,
        )
        if (!asset) return notSold(wallet.assets.join(', ').slice(0, 100), body.defaultNetwork)
        const where = soldOn(asset, body.defaultNetwork)!
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
        const onSolana = body.defaultNetwork === ONRAMP_SOLANA_NETWORK
        const partnerAddress = onSolana ? options.partner.solanaAddress : options.partner.address
        if (!partnerAddress)
          return errorJson(503, `Onramp partner page does not deliver on ${body.defaultNetwork}`)
        const order = await createOrder(options.db, {
          provider: body.provider,
          partnerUserId: body.partnerUserId,
          address: onSolana ? wallet.address : getAddress(wallet.address),
          chainId: where.chainId,
          network: body.defaultNetwork,
          purchaseCurrency: asset,
          tokenAddress: where.token,
          decimals: ONRAMP_ASSETS[asset].decimals,
          paymentCurrency: body.paymentCurrency,
          paymentMethod: body.paymentMethod,
          paymentTotal: formatCents(price.totalCents),
          paymentSubtotal: formatCents(price.subtotalCents),
          fee: formatCents(price.feeCents),
          purchaseAmount: purchaseAmountOf(price),
          purchaseBase: baseUnitsOf(price),
          partnerAddress,
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
  account: string,
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
  const names: Record<PurchaseCurrencyId, string> = {
    USDC: options.usdc?.name ?? 'USD Coin',
    ETH: 'Ether',
    SOL: 'Solana',
  }
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
