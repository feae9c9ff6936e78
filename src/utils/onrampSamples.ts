import { formatUnits, parseUnits } from 'viem'
import { NATIVE_TOKEN_ADDRESS, ONRAMP_LIMITS } from '../constants'
import type {
  OnrampChainId,
  OnrampNetwork,
  OnrampOptions,
  OnrampProvider,
  OnrampPurchaseCurrency,
  OnrampQuote,
  OnrampQuoteRequest,
} from '../machines/onramp/types'

/**
 * The Buy flow's built-in data for SPEC §8's fallbacks: "Onramp options fall back to built-in sample data on
 * failure; the quote falls back to a mocked quote." Pure data and arithmetic, so the onramp machine applies the
 * fallback itself (a transition in its chart) and the Data API client, the actors and the sandbox read the same
 * figures. `src/api/onrampSamples.ts` re-exports this module under the name the issue gives it.
 */

/** Issue 19's two payment partners, within SPEC §9's fee range of 1–2 %. */
export const ONRAMP_PROVIDERS: readonly OnrampProvider[] = [
  { id: 'coinbase', name: 'Coinbase', feePercent: 1.0 },
  { id: 'meld', name: 'Meld', feePercent: 1.9 },
]

/** USDC and the native currency on the networks the samples know, by eip155 reference. */
interface SampleNetwork {
  name: string
  display_name: string
  /** USDC's contract there; '' when it is not fixed (the local development chain deploys its own per run). */
  usdc: string
}

const SAMPLE_NETWORKS: ReadonlyArray<[number, SampleNetwork]> = [
  [1, { name: 'ethereum', display_name: 'Ethereum', usdc: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }],
  [8453, { name: 'base', display_name: 'Base', usdc: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' }],
  [10, { name: 'optimism', display_name: 'Optimism', usdc: '0x0b2c639c533813f4aa9d7837caf62653d097ff85' }],
  [42161, { name: 'arbitrum', display_name: 'Arbitrum', usdc: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' }],
  [137, { name: 'polygon', display_name: 'Polygon', usdc: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359' }],
  // The local development chain (anvil's default id) as the kit's sandbox names it.
  [31337, { name: 'walletstate-sandbox', display_name: 'Walletstate Sandbox', usdc: '' }],
]

/** Chains whose native currency is not ETH: no ETH sample there. */
const NOT_ETH = new Set([137])

function sampleNetwork(chainId: number, sample: SampleNetwork, contract: string): OnrampNetwork {
  return {
    name: sample.name,
    display_name: sample.display_name,
    chain_id: String(chainId),
    contract_address: contract,
  }
}

/** Solana mainnet as the samples name it: its CAIP-2 reference, USDC's mint, and how native SOL is named. */
const SOLANA_SAMPLE = {
  name: 'solana',
  display_name: 'Solana',
  chain_id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  usdc: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  native: 'So11111111111111111111111111111111111111111',
} as const

/** USDC and SOL on Solana mainnet (the samples for a Solana account). */
function solanaSamples(): OnrampPurchaseCurrency[] {
  const network = (contract: string): OnrampNetwork => ({
    name: SOLANA_SAMPLE.name,
    display_name: SOLANA_SAMPLE.display_name,
    chain_id: SOLANA_SAMPLE.chain_id,
    contract_address: contract,
  })
  return [
    { id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [network(SOLANA_SAMPLE.usdc)] },
    { id: 'SOL', name: 'Solana', symbol: 'SOL', networks: [network(SOLANA_SAMPLE.native)] },
  ]
}

/**
 * The sample options (SPEC §3 shape): USDC and ETH on the networks above, paid in USD or EUR with SPEC §9's
 * fallback limits, through the two providers. The account's network comes first when the samples know it. For a
 * Solana account: USDC and SOL on Solana mainnet.
 *
 * @example
 * sampleOnrampOptions(8453).purchaseCurrencies[0].networks[0].name // 'base'
 */
export function sampleOnrampOptions(chainId?: OnrampChainId): OnrampOptions {
  const networks = [...SAMPLE_NETWORKS].sort(([a], [b]) => Number(b === chainId) - Number(a === chainId))
  const usdc: OnrampPurchaseCurrency = {
    id: 'USDC',
    name: 'USD Coin',
    symbol: 'USDC',
    networks: networks.map(([id, sample]) => sampleNetwork(id, sample, sample.usdc)),
  }
  const eth: OnrampPurchaseCurrency = {
    id: 'ETH',
    name: 'Ether',
    symbol: 'ETH',
    networks: networks
      .filter(([id]) => !NOT_ETH.has(id))
      .map(([id, sample]) => sampleNetwork(id, sample, NATIVE_TOKEN_ADDRESS)),
  }
  return {
    purchaseCurrencies: typeof chainId === 'string' ? solanaSamples() : [usdc, eth],
    paymentCurrencies: (['USD', 'EUR'] as const).map((id) => ({
      id,
      payment_method_limits: [
        { id: 'card', ...ONRAMP_LIMITS[id].card },
        { id: 'ach_bank_account', ...ONRAMP_LIMITS[id].ach_bank_account },
      ],
    })),
    providers: ONRAMP_PROVIDERS.map((provider) => ({ ...provider })),
  }
}

/** A rate as a fraction, so the arithmetic stays exact. */
type Rate = readonly [numerator: bigint, denominator: bigint]

/** USD per unit of a payment currency (the sandbox's figures: 1 EUR = 1.08 USD). */
const PAYMENT_RATES: Record<string, Rate> = { USD: [1n, 1n], EUR: [108n, 100n] }

/** USD per unit of a purchase currency, and the decimals a purchase amount keeps (rounded down). */
const PURCHASE_PRICES: Record<string, { usd: Rate; decimals: number }> = {
  USDC: { usd: [1n, 1n], decimals: 6 },
  ETH: { usd: [3000n, 1n], decimals: 8 },
  SOL: { usd: [150n, 1n], decimals: 9 },
}

const FIAT = /^(\d{1,12})(\.\d{0,2})?$/

/** Cents as a decimal string with two decimals: `5000n` → `50.00`. */
export function formatCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : ''
  const abs = cents < 0n ? -cents : cents
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`
}

/**
 * A quote worked out by the kit when the API's failed (SPEC §8): the provider's fee on the amount, the rest
 * converted at the sample prices (USDC 1 USD, ETH 3000 USD, 1 EUR = 1.08 USD), the purchase amount rounded
 * down (6 decimals for USDC, 8 for ETH). `undefined` when the samples hold no price for the currencies or the
 * amount is not a fiat decimal. Views mark it as an estimate.
 *
 * @example
 * mockQuote({ purchaseCurrency: 'USDC', paymentCurrency: 'USD', amount: '50.00', network: 'base', provider: 'coinbase' },
 *   ONRAMP_PROVIDERS[0]).purchaseAmount // { amount: '49.5', currency: 'USDC' } (fee 0.50)
 */
export function mockQuote(request: OnrampQuoteRequest, provider: OnrampProvider): OnrampQuote | undefined {
  const rate = PAYMENT_RATES[request.paymentCurrency]
  const price = PURCHASE_PRICES[request.purchaseCurrency]
  const amount = request.amount.trim()
  if (!rate || !price || !FIAT.test(amount)) return undefined
  if (!Number.isFinite(provider.feePercent) || provider.feePercent < 0 || provider.feePercent > 100)
    return undefined
  const cents = parseUnits(amount, 2)
  // Basis points; the fee rounded to the nearest cent, halves up.
  const bps = BigInt(Math.round(provider.feePercent * 100))
  const fee = (cents * bps + 5_000n) / 10_000n
  const subtotal = cents - fee
  // subtotal/100 [payment] × rate [USD/payment] ÷ price [USD/purchase], in 10^-decimals units, rounded down.
  const [rateNum, rateDen] = rate
  const [priceNum, priceDen] = price.usd
  const units = (subtotal * rateNum * priceDen * 10n ** BigInt(price.decimals)) / (100n * rateDen * priceNum)
  const fiat = (value: bigint) => ({ amount: formatCents(value), currency: request.paymentCurrency })
  return {
    quoteId: `estimate:${provider.id}:${request.purchaseCurrency}:${request.paymentCurrency}:${formatCents(cents)}`,
    paymentTotal: fiat(cents),
    paymentSubtotal: fiat(subtotal),
    fee: fiat(fee),
    purchaseAmount: { amount: formatUnits(units, price.decimals), currency: request.purchaseCurrency },
  }
}
