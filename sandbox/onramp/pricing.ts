/**
 * The sandbox onramp's catalogue and arithmetic (issue 19): the two stand-in providers and their fees, the fiat
 * and crypto currencies, the payment-method limits, and the quote math the Data API and the partner page share.
 * Money is exact: fiat in cents and crypto in units of its quoted precision, as bigints; nothing is a float.
 */

/** The two providers, their display names and fees in percent of the fiat amount (SPEC §9: 1-2 %). */
export const ONRAMP_PROVIDERS = [
  { id: 'coinbase', name: 'Coinbase', feePercent: 1.0 },
  { id: 'meld', name: 'Meld', feePercent: 1.9 },
] as const

export type OnrampProviderId = (typeof ONRAMP_PROVIDERS)[number]['id']
export const ONRAMP_PROVIDER_IDS = ONRAMP_PROVIDERS.map((p) => p.id) as [
  OnrampProviderId,
  ...OnrampProviderId[],
]
export const DEFAULT_ONRAMP_PROVIDER: OnrampProviderId = 'coinbase'

/** Fees in basis points, for exact arithmetic: 1.0 % is 100, 1.9 % is 190. */
const FEE_BPS: Record<OnrampProviderId, bigint> = { coinbase: 100n, meld: 190n }

/** The one network purchases are delivered on: the sandbox chain, by the provider's network name. */
export const ONRAMP_NETWORK = 'walletstate-sandbox'
export const ONRAMP_NETWORK_DISPLAY_NAME = 'Walletstate Sandbox'

/** The sandbox Solana chain, by the provider's network name: SOL and its USDC are delivered there. */
export const ONRAMP_SOLANA_NETWORK = 'walletstate-sandbox-solana'
export const ONRAMP_SOLANA_NETWORK_DISPLAY_NAME = 'Walletstate Sandbox Solana'
/** The network names the sandbox delivers on. */
export const ONRAMP_NETWORKS = [ONRAMP_NETWORK, ONRAMP_SOLANA_NETWORK] as const
export type OnrampNetworkName = (typeof ONRAMP_NETWORKS)[number]

/** How the native SOL is named in the options' `contract_address` (the convert calls' convention). */
export const ONRAMP_SOLANA_NATIVE_ADDRESS = 'So11111111111111111111111111111111111111111'

/** The address that names the native currency in the options' `contract_address`. */
export const ONRAMP_NATIVE_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

export const PAYMENT_CURRENCIES = ['USD', 'EUR'] as const
export type PaymentCurrencyId = (typeof PAYMENT_CURRENCIES)[number]

export const PAYMENT_METHODS = ['card', 'ach_bank_account'] as const
export type PaymentMethodId = (typeof PAYMENT_METHODS)[number]

export const PURCHASE_CURRENCIES = ['USDC', 'ETH', 'SOL'] as const
export type PurchaseCurrencyId = (typeof PURCHASE_CURRENCIES)[number]

/** The limits of a fiat amount by payment method, the same in USD and EUR (SPEC §9), as decimal strings. */
export const ONRAMP_LIMITS: Readonly<Record<PaymentMethodId, { min: string; max: string }>> = {
  card: { min: '10.00', max: '7500.00' },
  ach_bank_account: { min: '10.00', max: '25000.00' },
}

/** USD per unit of the payment currency, as a fraction: EUR is 1.08 USD. */
const FIAT_IN_USD: Record<PaymentCurrencyId, { num: bigint; den: bigint }> = {
  USD: { num: 1n, den: 1n },
  EUR: { num: 108n, den: 100n },
}

/**
 * What the providers sell: the USD price (the Data API's fixed prices), how many decimals a quoted amount keeps
 * (rounded down) and the decimals of the asset on the chain.
 */
export const ONRAMP_ASSETS: Readonly<
  Record<PurchaseCurrencyId, { priceUsd: bigint; quoteDecimals: number; decimals: number }>
> = {
  USDC: { priceUsd: 1n, quoteDecimals: 6, decimals: 6 },
  ETH: { priceUsd: 3000n, quoteDecimals: 8, decimals: 18 },
  SOL: { priceUsd: 150n, quoteDecimals: 9, decimals: 9 },
}

/** A fiat amount: digits with at most two decimals. */
export const FIAT_AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/

/** Cents of a fiat decimal string (`'50'`, `'50.5'`, `'50.25'`); `undefined` when it is not one. */
export function parseCents(amount: string): bigint | undefined {
  const match = FIAT_AMOUNT.exec(amount)
  if (!match) return undefined
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'))
}

/** A cents amount as a decimal string with two decimals: 5025n → '50.25'. */
export function formatCents(cents: bigint): string {
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`
}

/** `units` of `10^-decimals` as a decimal string without trailing zeros: (4950000n, 6) → '4.95'. */
export function formatUnitsTrimmed(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals)
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '')
  return fraction ? `${units / scale}.${fraction}` : `${units / scale}`
}

/** A crypto decimal string in units of `10^-decimals`, rounded down; `undefined` when it is not a decimal. */
export function parseUnitsDown(amount: string, decimals: number): bigint | undefined {
  const match = /^(\d{1,30})(?:\.(\d{1,40}))?$/.exec(amount)
  if (!match) return undefined
  const fraction = (match[2] ?? '').slice(0, decimals).padEnd(decimals, '0')
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction || '0')
}

/** The limits a fiat amount must keep: one method's, or without one the widest any method allows. */
export function limitsOf(method: PaymentMethodId | undefined): { min: string; max: string } {
  if (method) return ONRAMP_LIMITS[method]
  const all = Object.values(ONRAMP_LIMITS)
  const cents = (s: string) => parseCents(s)!
  const min = all.reduce((a, b) => (cents(b.min) < cents(a) ? b.min : a), all[0]!.min)
  const max = all.reduce((a, b) => (cents(b.max) > cents(a) ? b.max : a), all[0]!.max)
  return { min, max }
}

/** Whether a fiat amount keeps the limits; answers the limits it broke otherwise. */
export function outOfRange(
  cents: bigint,
  method: PaymentMethodId | undefined,
): { min: string; max: string } | undefined {
  const limits = limitsOf(method)
  return cents < parseCents(limits.min)! || cents > parseCents(limits.max)! ? limits : undefined
}

/** A priced purchase: fiat in cents, the crypto amount in units of the asset's quoted precision. */
export interface OnrampPrice {
  provider: OnrampProviderId
  paymentCurrency: PaymentCurrencyId
  purchaseCurrency: PurchaseCurrencyId
  totalCents: bigint
  feeCents: bigint
  subtotalCents: bigint
  /** In units of `10^-quoteDecimals` of the asset. */
  purchaseUnits: bigint
}

/**
 * Prices a fiat amount: fee = amount × the provider's fee (to the cent, halves up), subtotal = amount − fee,
 * purchase = subtotal in USD ÷ the asset's price, rounded down to the asset's quoted decimals.
 *
 * @example
 * priceFiat('meld', 'USD', 'USDC', 5000n) // fee 95n, subtotal 4905n, purchaseUnits 49_050_000n (49.05 USDC)
 */
export function priceFiat(
  provider: OnrampProviderId,
  paymentCurrency: PaymentCurrencyId,
  purchaseCurrency: PurchaseCurrencyId,
  totalCents: bigint,
): OnrampPrice {
  const feeCents = (totalCents * FEE_BPS[provider] + 5_000n) / 10_000n
  const subtotalCents = totalCents - feeCents
  const { num, den } = FIAT_IN_USD[paymentCurrency]
  const asset = ONRAMP_ASSETS[purchaseCurrency]
  const purchaseUnits =
    (subtotalCents * num * 10n ** BigInt(asset.quoteDecimals)) / (100n * den * asset.priceUsd)
  return { provider, paymentCurrency, purchaseCurrency, totalCents, feeCents, subtotalCents, purchaseUnits }
}

/**
 * Prices a crypto amount (a preset crypto amount): the subtotal is what it costs, rounded up to the cent, and the
 * total the amount whose fee leaves that subtotal (rounded up); the purchase is the amount asked for.
 */
export function priceCrypto(
  provider: OnrampProviderId,
  paymentCurrency: PaymentCurrencyId,
  purchaseCurrency: PurchaseCurrencyId,
  purchaseUnits: bigint,
): OnrampPrice {
  const { num, den } = FIAT_IN_USD[paymentCurrency]
  const asset = ONRAMP_ASSETS[purchaseCurrency]
  const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
  const subtotalCents = ceilDiv(
    purchaseUnits * 100n * den * asset.priceUsd,
    num * 10n ** BigInt(asset.quoteDecimals),
  )
  const totalCents = ceilDiv(subtotalCents * 10_000n, 10_000n - FEE_BPS[provider])
  return {
    provider,
    paymentCurrency,
    purchaseCurrency,
    totalCents,
    feeCents: totalCents - subtotalCents,
    subtotalCents,
    purchaseUnits,
  }
}

/** The purchase in the asset's base units on the chain (wei for ETH, lamports for SOL). */
export function baseUnitsOf(price: Pick<OnrampPrice, 'purchaseCurrency' | 'purchaseUnits'>): bigint {
  const asset = ONRAMP_ASSETS[price.purchaseCurrency]
  return price.purchaseUnits * 10n ** BigInt(asset.decimals - asset.quoteDecimals)
}

/** The purchase as a decimal string of the asset ('49.05'). */
export function purchaseAmountOf(price: Pick<OnrampPrice, 'purchaseCurrency' | 'purchaseUnits'>): string {
  return formatUnitsTrimmed(price.purchaseUnits, ONRAMP_ASSETS[price.purchaseCurrency].quoteDecimals)
}

export function providerOf(id: OnrampProviderId): (typeof ONRAMP_PROVIDERS)[number] {
  return ONRAMP_PROVIDERS.find((p) => p.id === id)!
}
