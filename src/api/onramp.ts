import * as v from 'valibot'
import { DATA_API_TIMEOUT_MS, ONRAMP_PARTNER_ORIGINS } from '../constants'
import type { BaseErrorParameters } from '../errors/base'
import {
  type OnrampError,
  OnrampOptionsError,
  OnrampPartnerOriginError,
  OnrampQuoteError,
  OnrampUrlError,
} from '../errors/onramp'
import type {
  OnrampNetwork,
  OnrampOptions,
  OnrampPaymentCurrency,
  OnrampPaymentLimit,
  OnrampProvider,
  OnrampPurchaseCurrency,
  OnrampQuote,
  OnrampQuoteRequest,
  OnrampUrlRequest,
} from '../machines/onramp/types'
import { safeHttpUrl } from '../utils/httpUrl'
import { safeText } from '../utils/links'
import { ONRAMP_PROVIDERS } from '../utils/onrampSamples'
import { dataApiCall, type RequestFailure } from './http'

/**
 * Client of the Data API's onramp calls (SPEC §7: `GET /v1/onramp/options`, `POST /v1/onramp/quote`,
 * `POST /v1/generators/onrampurl`), loaded with the Buy flow. Every answer is parsed with a schema: a body that
 * does not fit fails the call; inside the options, an entry that does not fit (a network off eip155 and Solana, a limit
 * whose min is above its max) is dropped, the rest kept. Failures leave as the onramp's errors
 * (src/errors/onramp.ts): `OnrampOptionsError`, `OnrampQuoteError`, `OnrampUrlError`. The flow falls back on
 * the first two (SPEC §8); the partner link must be `https:` (or `http:` on the loopback host, the sandbox) and
 * on one of the chosen provider's origins (`partnerOrigins`), else `OnrampPartnerOriginError`.
 */

export interface OnrampClientOptions {
  /** `endpoints.api` of the kit config. */
  api: string
  projectId: string
  /** Per request; default {@link DATA_API_TIMEOUT_MS}. */
  timeoutMs?: number
  fetch?: typeof fetch
  /**
   * The origins each provider's partner page may be on (the resolved config's `onrampPartnerOrigins`); default
   * {@link ONRAMP_PARTNER_ORIGINS}. A provider without a list has no page the kit opens.
   */
  partnerOrigins?: Readonly<Record<string, readonly string[]>>
}

const MAX_CURRENCIES = 500
const MAX_NETWORKS = 100
const MAX_LIMITS = 20
const MAX_PROVIDERS = 20

const text = (max: number) =>
  v.pipe(
    v.string(),
    v.transform((value) => safeText(value, max)),
  )
const label = (max: number) => v.pipe(text(max), v.minLength(1, 'is empty'))
const id = (pattern: RegExp) => v.pipe(v.string(), v.regex(pattern, 'is not an id'))
const DECIMAL = v.pipe(v.string(), v.regex(/^\d{1,30}(\.\d{1,30})?$/, 'is not a decimal string'))
const list = (max: number) => v.pipe(v.array(v.unknown()), v.maxLength(max))
/** A limit: as the form compares them (src/machines/onramp/rules.ts). */
const LIMIT = v.pipe(v.string(), v.regex(/^\d{1,15}(\.\d{1,18})?$/, 'is not a limit'))

/** The items that fit `schema`, in order, the first of each `key` kept. */
function keepValid<S extends v.GenericSchema>(
  schema: S,
  items: readonly unknown[],
  key: (item: v.InferOutput<S>) => string,
): v.InferOutput<S>[] {
  const out: v.InferOutput<S>[] = []
  const seen = new Set<string>()
  for (const item of items) {
    const parsed = v.safeParse(schema, item)
    if (!parsed.success || seen.has(key(parsed.output))) continue
    seen.add(key(parsed.output))
    out.push(parsed.output)
  }
  return out
}

const byId = (item: { id: string }) => item.id

/** A Solana network's CAIP-2 reference: the first 32 base58 characters of its genesis hash. */
const SOLANA_REFERENCE = /^[1-9A-HJ-NP-Za-km-z]{32}$/

/**
 * A network of eip155 (a decimal `chain_id`, a 0x contract kept lower-case) or of Solana (a base58 reference, an
 * SPL mint or the native marker kept as it is: base58 is case-sensitive); the kit delivers to the account's
 * address on its own namespace.
 */
const NetworkSchema = v.union([
  v.object({
    name: id(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/),
    display_name: label(100),
    chain_id: id(/^[1-9]\d{0,15}$/),
    contract_address: v.pipe(
      v.string(),
      v.regex(/^(0x[0-9a-fA-F]{40})?$/, 'is not an address'),
      v.toLowerCase(),
    ),
  }),
  v.object({
    name: id(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/),
    display_name: label(100),
    chain_id: id(SOLANA_REFERENCE),
    // 32 to 44 base58 characters (a public key's length in base58), or '' when not given.
    contract_address: v.pipe(
      v.string(),
      v.regex(/^([1-9A-HJ-NP-Za-km-z]{32,44})?$/, 'is not a Solana address'),
    ),
  }),
])

const PurchaseCurrencySchema = v.object({
  id: id(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/),
  name: text(100),
  symbol: label(20),
  networks: v.pipe(
    list(MAX_NETWORKS),
    v.transform((items) => keepValid(NetworkSchema, items, (network) => network.chain_id)),
  ),
})

const LimitSchema = v.pipe(
  v.object({ id: v.picklist(['card', 'ach_bank_account']), min: LIMIT, max: LIMIT }),
  v.check((limit) => compareDecimal(limit.min, limit.max) <= 0, 'has its min above its max'),
)

const PaymentCurrencySchema = v.object({
  id: id(/^[A-Z]{3}$/),
  payment_method_limits: v.pipe(
    list(MAX_LIMITS),
    v.transform((items) => keepValid(LimitSchema, items, byId)),
  ),
})

const ProviderSchema = v.object({
  id: id(/^[a-z0-9][a-z0-9_-]{0,39}$/),
  name: label(60),
  feePercent: v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(100)),
})

const OptionsSchema = v.object({
  purchaseCurrencies: list(MAX_CURRENCIES),
  paymentCurrencies: list(MAX_CURRENCIES),
  providers: v.optional(list(MAX_PROVIDERS)),
})

const MoneySchema = v.object({ amount: DECIMAL, currency: id(/^[A-Za-z0-9._-]{1,40}$/) })
const QuoteSchema = v.object({
  quoteId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  paymentTotal: MoneySchema,
  paymentSubtotal: MoneySchema,
  fee: MoneySchema,
  purchaseAmount: MoneySchema,
})

const UrlSchema = v.object({ url: v.string() })

/** -1, 0 or 1: two decimal strings compared exactly. */
export function compareDecimal(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.')
  const [bWhole = '', bFraction = ''] = b.split('.')
  const width = Math.max(aFraction.length, bFraction.length)
  const left = BigInt(`${aWhole || '0'}${aFraction.padEnd(width, '0')}`)
  const right = BigInt(`${bWhole || '0'}${bFraction.padEnd(width, '0')}`)
  return left < right ? -1 : left > right ? 1 : 0
}

/** The link of the partner page, when the kit may open it: `https:`, or `http:` on the loopback host. */
export function safePartnerUrl(value: unknown): string | undefined {
  const url = safeHttpUrl(value)
  if (!url) return undefined
  const { protocol, hostname } = new URL(url)
  if (protocol === 'https:') return url
  return ['localhost', '127.0.0.1', '[::1]'].includes(hostname) ? url : undefined
}

/**
 * Why the partner link may not be opened for `provider`: its origin is not one of the provider's (the
 * Data API's answer alone does not decide where the visitor is sent), or `undefined` when it may.
 *
 * @example
 * partnerOriginRefusal('https://evil.example/buy', 'coinbase', ONRAMP_PARTNER_ORIGINS)?.shortMessage
 */
export function partnerOriginRefusal(
  url: string,
  provider: string,
  origins: Readonly<Record<string, readonly string[]>>,
): OnrampPartnerOriginError | undefined {
  let origin: string
  try {
    origin = new URL(url).origin
  } catch {
    origin = 'null'
  }
  const allowed = Object.hasOwn(origins, provider) ? origins[provider] : undefined
  return allowed?.includes(origin) ? undefined : new OnrampPartnerOriginError({ origin, provider })
}

type Stage = 'options' | 'quote' | 'url'
const STAGE_ERRORS: Record<Stage, new (parameters: BaseErrorParameters) => OnrampError> = {
  options: OnrampOptionsError,
  quote: OnrampQuoteError,
  url: OnrampUrlError,
}

/**
 * @example
 * const onramp = createOnrampClient({ api: config.endpoints.api, projectId: config.projectId })
 * const { purchaseCurrencies } = await onramp.options()
 */
export function createOnrampClient(options: OnrampClientOptions) {
  const timeoutMs = options.timeoutMs ?? DATA_API_TIMEOUT_MS
  const partnerOrigins = options.partnerOrigins ?? ONRAMP_PARTNER_ORIGINS
  const fail =
    (stage: Stage) =>
    (failure: Pick<RequestFailure, 'details'> & { cause?: unknown }): OnrampError =>
      new STAGE_ERRORS[stage]({
        details: failure.details,
        ...(failure.cause === undefined ? {} : { cause: failure.cause }),
      })

  async function call<S extends v.GenericSchema>(
    stage: Stage,
    path: string,
    schema: S,
    { body, signal }: { body?: unknown; signal?: AbortSignal | undefined },
  ): Promise<v.InferOutput<S>> {
    return dataApiCall({ ...options, timeoutMs }, { path, body, signal }, schema, fail(stage))
  }

  return {
    /**
     * What can be bought, on which eip155 networks, paid with what within which limits, through which providers
     * (the built-in two when the answer names none).
     */
    async options(signal?: AbortSignal): Promise<OnrampOptions> {
      const answer = await call('options', 'v1/onramp/options', OptionsSchema, { signal })
      const purchaseCurrencies: OnrampPurchaseCurrency[] = keepValid(
        PurchaseCurrencySchema,
        answer.purchaseCurrencies,
        byId,
      ).filter((currency) => currency.networks.length > 0)
      const paymentCurrencies: OnrampPaymentCurrency[] = keepValid(
        PaymentCurrencySchema,
        answer.paymentCurrencies,
        byId,
      ).map((currency) => ({
        id: currency.id,
        payment_method_limits: currency.payment_method_limits as OnrampPaymentLimit[],
      }))
      const providers: OnrampProvider[] =
        answer.providers === undefined
          ? ONRAMP_PROVIDERS.map((provider) => ({ ...provider }))
          : keepValid(ProviderSchema, answer.providers, byId)
      const empty = [
        ...(purchaseCurrencies.length === 0 ? ['no purchase currency on an eip155 network'] : []),
        ...(paymentCurrencies.length === 0 ? ['no payment currency'] : []),
        ...(providers.length === 0 ? ['no provider'] : []),
      ]
      if (empty.length > 0)
        throw fail('options')({ details: `The Data API's onramp options hold ${empty.join(', ')}` })
      return {
        purchaseCurrencies: purchaseCurrencies.map((currency) => ({
          ...currency,
          networks: currency.networks as OnrampNetwork[],
        })),
        paymentCurrencies,
        providers,
      }
    },

    /** One provider's quote for an amount (a decimal string in the payment currency). */
    async quote(request: OnrampQuoteRequest, signal?: AbortSignal): Promise<OnrampQuote> {
      const quote = await call('quote', 'v1/onramp/quote', QuoteSchema, {
        body: {
          purchaseCurrency: request.purchaseCurrency,
          paymentCurrency: request.paymentCurrency,
          amount: request.amount,
          network: request.network,
          provider: request.provider,
          paymentMethod: request.paymentMethod,
        },
        signal,
      })
      const wrong = [
        ...(['paymentTotal', 'paymentSubtotal', 'fee'] as const)
          .filter((field) => quote[field].currency !== request.paymentCurrency)
          .map((field) => `${field} in ${quote[field].currency}, not ${request.paymentCurrency}`),
        ...(quote.purchaseAmount.currency === request.purchaseCurrency
          ? []
          : [`purchaseAmount in ${quote.purchaseAmount.currency}, not ${request.purchaseCurrency}`]),
      ]
      if (wrong.length > 0) throw fail('quote')({ details: `The Data API quoted ${wrong.join('; ')}` })
      return quote
    },

    /** The partner page of a purchase (SPEC §7 generator), to open in its own window. */
    async url(request: OnrampUrlRequest, signal?: AbortSignal): Promise<string> {
      const answer = await call('url', 'v1/generators/onrampurl', UrlSchema, {
        body: {
          destinationWallets: [
            { address: request.address, blockchains: [request.network], assets: [request.purchaseCurrency] },
          ],
          defaultNetwork: request.network,
          // A 0x address lower-case; base58 as it is (it is case-sensitive).
          partnerUserId: request.address.startsWith('0x') ? request.address.toLowerCase() : request.address,
          defaultExperience: 'buy',
          presetFiatAmount: Number(request.amount),
          provider: request.provider,
          paymentCurrency: request.paymentCurrency,
          paymentMethod: request.paymentMethod,
        },
        signal,
      })
      const url = safePartnerUrl(answer.url)
      if (!url)
        throw fail('url')({
          details: `The Data API answered a partner link the kit will not open: ${safeText(answer.url, 80)}`,
        })
      const refusal = partnerOriginRefusal(url, request.provider, partnerOrigins)
      if (refusal) throw refusal
      return url
    },
  }
}

export type OnrampClient = ReturnType<typeof createOnrampClient>
