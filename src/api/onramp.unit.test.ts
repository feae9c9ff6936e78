import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type Asked,
  type ScriptedAnswer,
  type ScriptedServer,
  startScriptedServer,
} from '../../test/support/scriptedServer'
import {
  OnrampOptionsError,
  OnrampPartnerOriginError,
  OnrampQuoteError,
  OnrampUrlError,
} from '../errors/onramp'
import type { OnrampQuoteRequest, OnrampUrlRequest } from '../machines/onramp/types'
import { compareDecimal, createOnrampClient, partnerOriginRefusal, safePartnerUrl } from './onramp'
import { ONRAMP_PROVIDERS } from './onrampSamples'

/**
 * The onramp client at its boundary: a local HTTP server (port 0) answers what each test says, hostile answers
 * included, and records what the client asked.
 */

type Handler = (asked: Asked) => ScriptedAnswer

let server: ScriptedServer
let base: string
let handler: Handler
const asked: Asked[] = []

beforeAll(async () => {
  server = await startScriptedServer((entry) => handler(entry), asked)
  base = server.base
})

afterAll(() => server.close())

beforeEach(() => {
  asked.length = 0
  handler = () => ({ status: 404, body: { error: 'not found' } })
})

/** The partner origins of the tests' providers (the config's `onrampPartnerOrigins`). */
const PARTNER_ORIGINS = {
  coinbase: ['https://pay.partner.example', 'http://127.0.0.1:4321'],
  meld: ['https://meld.partner.example'],
}
const client = (timeoutMs?: number) =>
  createOnrampClient({
    api: base,
    projectId: 'p1',
    partnerOrigins: PARTNER_ORIGINS,
    ...(timeoutMs ? { timeoutMs } : {}),
  })

const usdcOnBase = {
  name: 'base',
  display_name: 'Base',
  chain_id: '8453',
  contract_address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
}
const GOOD_OPTIONS = {
  purchaseCurrencies: [{ id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [usdcOnBase] }],
  paymentCurrencies: [
    {
      id: 'USD',
      payment_method_limits: [
        { id: 'card', min: '10.00', max: '7500.00' },
        { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
      ],
    },
  ],
  providers: [{ id: 'coinbase', name: 'Coinbase', feePercent: 1 }],
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the call to fail')
}

describe('onramp client: options', () => {
  it('reads the options with the SDK parameters, lower-casing contracts', async () => {
    handler = () => ({ body: GOOD_OPTIONS })
    const options = await client().options()
    expect(asked).toEqual([
      {
        method: 'GET',
        path: '/api/v1/onramp/options',
        query: { projectId: 'p1', st: 'walletstate', sv: expect.any(String) },
        body: undefined,
      },
    ])
    expect(options).toEqual({
      ...GOOD_OPTIONS,
      purchaseCurrencies: [
        {
          ...GOOD_OPTIONS.purchaseCurrencies[0],
          networks: [{ ...usdcOnBase, contract_address: usdcOnBase.contract_address.toLowerCase() }],
        },
      ],
    })
  })

  it('drops what does not fit and keeps the rest: networks off eip155, duplicates, bad limits, bad providers', async () => {
    handler = () => ({
      body: {
        purchaseCurrencies: [
          {
            id: 'USDC',
            name: 'USD\u202e Coin\n',
            symbol: 'USDC',
            networks: [
              usdcOnBase,
              { ...usdcOnBase, name: 'solana', chain_id: 'solana' },
              { ...usdcOnBase, chain_id: '0' },
              { ...usdcOnBase, contract_address: 'not an address' },
              // The same chain twice: the first kept.
              { ...usdcOnBase, name: 'base-again' },
            ],
          },
          { id: 'USDC', name: 'Duplicate', symbol: 'USDC', networks: [usdcOnBase] },
          { id: 'SOL', name: 'Solana', symbol: 'SOL', networks: [{ ...usdcOnBase, chain_id: 'solana' }] },
          { id: '<img src=x>', name: 'x', symbol: 'X', networks: [usdcOnBase] },
          { id: 'ETH', name: 'Ether', symbol: '', networks: [usdcOnBase] },
          'USDT',
          null,
        ],
        paymentCurrencies: [
          {
            id: 'USD',
            payment_method_limits: [
              { id: 'card', min: '7500.00', max: '10.00' },
              { id: 'card', min: '10', max: '7500' },
              { id: 'paypal', min: '1', max: '2' },
              { id: 'ach_bank_account', min: -10, max: '25000' },
              { id: 'ach_bank_account', min: '10', max: '1'.repeat(20) },
            ],
          },
          { id: 'usd', payment_method_limits: [] },
          { id: 'EURO', payment_method_limits: [] },
        ],
        providers: [
          { id: 'coinbase', name: 'Coinbase', feePercent: 1 },
          { id: 'meld', name: 'Meld', feePercent: 250 },
          { id: 'Evil Corp', name: 'Evil', feePercent: 1 },
          { id: 'nan', name: 'NaN', feePercent: 'NaN' },
        ],
      },
    })
    const options = await client().options()
    expect(options.purchaseCurrencies).toEqual([
      {
        id: 'USDC',
        name: 'USD Coin',
        symbol: 'USDC',
        networks: [{ ...usdcOnBase, contract_address: usdcOnBase.contract_address.toLowerCase() }],
      },
    ])
    expect(options.paymentCurrencies).toEqual([
      { id: 'USD', payment_method_limits: [{ id: 'card', min: '10', max: '7500' }] },
    ])
    expect(options.providers).toEqual([{ id: 'coinbase', name: 'Coinbase', feePercent: 1 }])
  })

  it('keeps Solana networks (a base58 reference, a mint or the native marker kept as written), drops malformed ones', async () => {
    const onSolana = {
      name: 'walletstate-sandbox-solana',
      display_name: 'Walletstate Sandbox Solana',
      chain_id: 'DxPJSVPMqPyW4TvqMa3Eki2nRaRCbwYC',
      contract_address: 'So11111111111111111111111111111111111111111',
    }
    handler = () => ({
      body: {
        ...GOOD_OPTIONS,
        purchaseCurrencies: [
          {
            id: 'SOL',
            name: 'Solana',
            symbol: 'SOL',
            networks: [
              onSolana,
              // A reference that is not 32 base58 characters; a mint too short for a public key; a 0x contract on Solana.
              { ...onSolana, chain_id: 'DxPJSVPMqPyW4TvqMa3Eki2nRaRCbwY0' },
              { ...onSolana, chain_id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', contract_address: '1'.repeat(31) },
              {
                ...onSolana,
                chain_id: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
                contract_address: usdcOnBase.contract_address,
              },
            ],
          },
        ],
      },
    })
    const options = await client().options()
    expect(options.purchaseCurrencies).toEqual([
      { id: 'SOL', name: 'Solana', symbol: 'SOL', networks: [onSolana] },
    ])
  })

  it('uses the built-in providers when the answer names none (SPEC §7 answers carry no providers)', async () => {
    handler = () => ({ body: { ...GOOD_OPTIONS, providers: undefined } })
    expect((await client().options()).providers).toEqual(ONRAMP_PROVIDERS)
  })

  it('fails with OnrampOptionsError when nothing usable is left, naming what is missing', async () => {
    handler = () => ({
      body: {
        purchaseCurrencies: [
          { id: 'SOL', name: 'Solana', symbol: 'SOL', networks: [{ ...usdcOnBase, chain_id: 'solana' }] },
        ],
        paymentCurrencies: [],
        providers: [{ id: 'Evil Corp', name: '', feePercent: 1 }],
      },
    })
    const error = await failure(client().options())
    expect(error).toBeInstanceOf(OnrampOptionsError)
    expect((error as OnrampOptionsError).details).toBe(
      "The Data API's onramp options hold no purchase currency on an eip155 network, no payment currency, no provider",
    )
  })

  it.each([
    ['an array', []],
    ['a string', 'options'],
    ['null', null],
    ['lists that are not lists', { purchaseCurrencies: {}, paymentCurrencies: {} }],
    ['providers that are not a list', { ...GOOD_OPTIONS, providers: 'coinbase' }],
    [
      'too many currencies',
      { ...GOOD_OPTIONS, purchaseCurrencies: Array(501).fill(GOOD_OPTIONS.purchaseCurrencies[0]) },
    ],
  ])('fails on a body of %s', async (_, body) => {
    handler = () => ({ body })
    const error = await failure(client().options())
    expect(error).toBeInstanceOf(OnrampOptionsError)
    expect((error as OnrampOptionsError).details).toMatch(/^The Data API answered an unexpected body/)
  })

  it('fails on an HTTP error, a body that is not JSON and no answer in time', async () => {
    handler = () => ({ status: 503, body: { error: 'maintenance' } })
    let error = await failure(client().options())
    expect(error).toBeInstanceOf(OnrampOptionsError)
    expect(error.message).toMatchInlineSnapshot(`
      "Unable to load what you can buy.

      Details: HTTP 503: maintenance"
    `)
    handler = () => ({ raw: '<html>' })
    expect(await failure(client().options())).toBeInstanceOf(OnrampOptionsError)
    handler = () => 'hang'
    error = await failure(client(200).options())
    expect(error).toBeInstanceOf(OnrampOptionsError)
    expect((error as OnrampOptionsError).details).toBe('The Data API did not answer within 0 s')
  })

  it('passes an abort through untouched (a cancellation, not a failure)', async () => {
    handler = () => 'hang'
    const controller = new AbortController()
    const call = client().options(controller.signal)
    const reason = new Error('left the state')
    setTimeout(() => controller.abort(reason), 20)
    expect(await failure(call)).toBe(reason)
  })
})

const QUOTE_REQUEST: OnrampQuoteRequest = {
  purchaseCurrency: 'USDC',
  paymentCurrency: 'USD',
  amount: '50.00',
  network: 'base',
  provider: 'meld',
  paymentMethod: 'card',
}
const GOOD_QUOTE = {
  quoteId: 'q-1',
  paymentTotal: { amount: '50.00', currency: 'USD' },
  paymentSubtotal: { amount: '49.05', currency: 'USD' },
  fee: { amount: '0.95', currency: 'USD' },
  purchaseAmount: { amount: '49.05', currency: 'USDC' },
}

describe('onramp client: quote', () => {
  it('posts the request and reads the quote', async () => {
    handler = () => ({ body: { ...GOOD_QUOTE, extra: 'ignored' } })
    expect(await client().quote(QUOTE_REQUEST)).toEqual(GOOD_QUOTE)
    expect(asked[0]).toMatchObject({ method: 'POST', path: '/api/v1/onramp/quote', body: QUOTE_REQUEST })
  })

  it('fails on an amount out of range with the API’s words', async () => {
    handler = () => ({ status: 400, body: { error: 'amount out of range', min: '10.00', max: '7500.00' } })
    const error = await failure(client().quote(QUOTE_REQUEST))
    expect(error).toBeInstanceOf(OnrampQuoteError)
    expect((error as OnrampQuoteError).details).toBe('HTTP 400: amount out of range')
  })

  it.each([
    [
      'a fee in another currency',
      { ...GOOD_QUOTE, fee: { amount: '0.95', currency: 'EUR' } },
      /fee in EUR, not USD/,
    ],
    [
      'a purchase of another token',
      { ...GOOD_QUOTE, purchaseAmount: { amount: '1', currency: 'ETH' } },
      /purchaseAmount in ETH, not USDC/,
    ],
    ['a negative amount', { ...GOOD_QUOTE, fee: { amount: '-0.95', currency: 'USD' } }, /unexpected body/],
    [
      'an exponent',
      { ...GOOD_QUOTE, purchaseAmount: { amount: '1e30', currency: 'USDC' } },
      /unexpected body/,
    ],
    [
      'a number for a decimal string',
      { ...GOOD_QUOTE, paymentTotal: { amount: 50, currency: 'USD' } },
      /unexpected body/,
    ],
    ['no quote id', { ...GOOD_QUOTE, quoteId: '' }, /unexpected body/],
    ['a missing field', { ...GOOD_QUOTE, paymentSubtotal: undefined }, /unexpected body/],
  ])('fails on %s', async (_, body, details) => {
    handler = () => ({ body })
    const error = await failure(client().quote(QUOTE_REQUEST))
    expect(error).toBeInstanceOf(OnrampQuoteError)
    expect((error as OnrampQuoteError).details).toMatch(details)
  })
})

const URL_REQUEST: OnrampUrlRequest = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  network: 'base',
  purchaseCurrency: 'USDC',
  paymentCurrency: 'EUR',
  paymentMethod: 'ach_bank_account',
  amount: '50.00',
  provider: 'coinbase',
}

describe('onramp client: url', () => {
  it('posts the generator body (SPEC §7) and reads the partner link', async () => {
    handler = () => ({ body: { url: 'https://pay.partner.example/buy?order=1' } })
    expect(await client().url(URL_REQUEST)).toBe('https://pay.partner.example/buy?order=1')
    expect(asked[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/generators/onrampurl',
      body: {
        destinationWallets: [{ address: URL_REQUEST.address, blockchains: ['base'], assets: ['USDC'] }],
        defaultNetwork: 'base',
        partnerUserId: URL_REQUEST.address.toLowerCase(),
        defaultExperience: 'buy',
        presetFiatAmount: 50,
        provider: 'coinbase',
        paymentCurrency: 'EUR',
        paymentMethod: 'ach_bank_account',
      },
    })
  })

  it('accepts plain http on the loopback host (the sandbox’s partner page)', async () => {
    handler = () => ({ body: { url: 'http://127.0.0.1:4321/pay/abc' } })
    expect(await client().url(URL_REQUEST)).toBe('http://127.0.0.1:4321/pay/abc')
  })

  it.each([
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['plain http elsewhere', 'http://pay.partner.example/buy'],
    ['credentials', 'https://pay.partner.example@evil.example/buy'],
    ['a relative path', '/buy?order=1'],
    ['a control character inside', 'https://pay.partner.example/a\u0001b'],
    ['an over-long link', `https://pay.partner.example/${'a'.repeat(5000)}`],
  ])('refuses a link with %s', async (_, url) => {
    handler = () => ({ body: { url } })
    const error = await failure(client().url(URL_REQUEST))
    expect(error).toBeInstanceOf(OnrampUrlError)
    expect(error.message.startsWith('Unable to open the payment page. Try again.')).toBe(true)
  })

  // Issue 33: the Data API's answer alone does not decide where the visitor is sent: the link must be on one of
  // the chosen provider's origins (the old code opened any https host).
  it.each([
    ['another https host', 'https://evil.example/buy?order=1'],
    ['a lookalike host', 'https://pay.partner.example.evil.example/buy'],
    ['another port', 'https://pay.partner.example:8443/buy'],
    ['another provider’s origin', 'https://meld.partner.example/buy'],
    ['another loopback port', 'http://127.0.0.1:4322/pay/abc'],
  ])('refuses a link on %s with OnrampPartnerOriginError', async (_, url) => {
    handler = () => ({ body: { url } })
    const error = await failure(client().url(URL_REQUEST))
    expect(error).toBeInstanceOf(OnrampPartnerOriginError)
    expect((error as OnrampPartnerOriginError).shortMessage).toBe(
      "The payment page is not on the provider's own site, so it was not opened.",
    )
    expect((error as OnrampPartnerOriginError).origin).toBe(new URL(url).origin)
    expect((error as OnrampPartnerOriginError).provider).toBe('coinbase')
  })

  it('checks against the built-in providers’ origins when the config names none', async () => {
    const builtIn = createOnrampClient({ api: base, projectId: 'p1' })
    handler = () => ({ body: { url: 'https://pay.coinbase.com/buy/select-asset?sessionToken=x' } })
    expect(await builtIn.url(URL_REQUEST)).toBe('https://pay.coinbase.com/buy/select-asset?sessionToken=x')
    expect(await failure(builtIn.url({ ...URL_REQUEST, provider: 'meld' }))).toBeInstanceOf(
      OnrampPartnerOriginError,
    )
    expect(await failure(builtIn.url({ ...URL_REQUEST, provider: 'unknown' }))).toBeInstanceOf(
      OnrampPartnerOriginError,
    )
    expect(partnerOriginRefusal('https://pay.coinbase.com/x', '__proto__', {})).toBeInstanceOf(
      OnrampPartnerOriginError,
    )
  })

  it('fails on a body without a link', async () => {
    handler = () => ({ body: { link: 'https://pay.partner.example' } })
    expect(await failure(client().url(URL_REQUEST))).toBeInstanceOf(OnrampUrlError)
  })
})

describe('onramp client: helpers', () => {
  it('compares decimal strings exactly', () => {
    expect(compareDecimal('10', '10.00')).toBe(0)
    expect(compareDecimal('7500.001', '7500')).toBe(1)
    expect(compareDecimal('9.99', '10')).toBe(-1)
    expect(compareDecimal('100000000000000000000.1', '100000000000000000000.01')).toBe(1)
  })

  it('opens https partner links anywhere and http ones on the loopback host only', () => {
    expect(safePartnerUrl('https://pay.example/x')).toBe('https://pay.example/x')
    expect(safePartnerUrl('http://localhost:3000/x')).toBe('http://localhost:3000/x')
    expect(safePartnerUrl('http://[::1]:3000/x')).toBe('http://[::1]:3000/x')
    expect(safePartnerUrl('http://10.0.0.1/x')).toBeUndefined()
    expect(safePartnerUrl(42)).toBeUndefined()
  })
})
