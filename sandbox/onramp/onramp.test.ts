import { type Browser, type Page as BrowserPage, chromium } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'
import { createDataApiClient } from '../../src/api/dataApi.ts'
import { type DataApi, type HistoryItem, type Page, startDataApi } from '../api/data.ts'
import { openDatabase, type SandboxDb } from '../api/db.ts'
import type { OnrampHistoryItem, OnrampOptions, OnrampQuote } from '../api/onramp.ts'
import { type Chain, startChain } from '../chain/chain.ts'
import { Stops } from '../shared/stops.ts'
import { getOrder } from './orders.ts'
import { type OnrampPartner, PARTNER_FUNDING, type PartnerOrderView, startOnrampPartner } from './partner.ts'

/*
 * The onramp (issue 19) end to end in the sandbox: the Data API's options, quotes, URL generator and
 * history?onramp against a real anvil, and the partner page on its own origin delivering purchases from its
 * funded account; then the page itself in Chromium.
 */

const SDK = { projectId: 'onramp-test', st: 'appkit', sv: 'html-wagmi-0.1.0' }
const NETWORK = 'walletstate-sandbox'
const CARD = {
  paymentMethod: 'card',
  cardNumber: '4242 4242 4242 4242',
  expiry: '12/34',
  cvc: '123',
  name: 'Sandbox Buyer',
}
const BANK = {
  paymentMethod: 'ach_bank_account',
  accountHolder: 'Sandbox Buyer',
  routingNumber: '110000000',
  accountNumber: '000123456789',
}

const stops = new Stops()
let chain: Chain
let db: SandboxDb
let partner: OnrampPartner
let api: DataApi
let reader: PublicClient

afterAll(() => stops.close())
beforeAll(async () => {
  ;[chain, db] = await Promise.all([stops.track(startChain()), stops.track(openDatabase())])
  partner = await stops.track(startOnrampPartner({ chain, db }))
  api = await stops.track(
    startDataApi({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      tokens: chain.tokens,
      db,
      onrampPartner: { origin: partner.origin, address: partner.address },
    }),
  )
  reader = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) }) as PublicClient
})

const apiUrl = (path: string, query: Record<string, string> = {}) =>
  `${api.origin}${path}?${new URLSearchParams({ ...SDK, ...query })}`

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

async function json<T>(res: Promise<Response> | Response, status = 200): Promise<T> {
  const answer = await res
  const body = (await answer.json()) as T
  expect(answer.status, JSON.stringify(body)).toBe(status)
  return body
}

const quote = (body: Record<string, unknown>) => postJson(apiUrl('/v1/onramp/quote'), body)

const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address

const usdcAddress = () => chain.contracts.usdc
const usdcOf = (holder: Address) =>
  reader.readContract({ address: usdcAddress(), abi: erc20Abi, functionName: 'balanceOf', args: [holder] })

interface UrlRequest {
  address: Address
  asset?: string
  fiat?: string | number
  crypto?: string | number
  provider?: string
  paymentCurrency?: string
  paymentMethod?: string
  partnerUserId?: string
}

const urlBody = (r: UrlRequest) => ({
  destinationWallets: [{ address: r.address, blockchains: [NETWORK], assets: [r.asset ?? 'USDC'] }],
  defaultNetwork: NETWORK,
  partnerUserId: r.partnerUserId ?? 'user-1',
  defaultExperience: 'buy',
  ...(r.fiat === undefined ? {} : { presetFiatAmount: r.fiat }),
  ...(r.crypto === undefined ? {} : { presetCryptoAmount: r.crypto }),
  ...(r.provider ? { provider: r.provider } : {}),
  ...(r.paymentCurrency ? { paymentCurrency: r.paymentCurrency } : {}),
  ...(r.paymentMethod ? { paymentMethod: r.paymentMethod } : {}),
})

/** Makes an order through the generator; answers its URL and id. */
async function order(r: UrlRequest): Promise<{ url: string; id: string }> {
  const { url } = await json<{ url: string }>(postJson(apiUrl('/v1/generators/onrampurl'), urlBody(r)))
  const id = /\/order\/([0-9a-f]{32})$/.exec(new URL(url).pathname)?.[1]
  expect(id, url).toBeDefined()
  return { url, id: id! }
}

const complete = (id: string, body: unknown = CARD) =>
  postJson(`${partner.origin}/api/orders/${id}/complete`, body)
const later = (id: string, body: unknown = CARD) => postJson(`${partner.origin}/api/orders/${id}/later`, body)
const fail = (id: string) => postJson(`${partner.origin}/api/orders/${id}/fail`, {})

const onrampHistory = (address: string, provider: string, query: Record<string, string> = {}) =>
  json<Page<OnrampHistoryItem>>(
    fetch(apiUrl(`/v1/account/${address}/history`, { onramp: provider, ...query })),
  )

describe('GET /v1/onramp/options', () => {
  it('sells USDC and ETH on the sandbox network, for USD and EUR by card or bank, from two providers', async () => {
    const options = await json<OnrampOptions>(fetch(apiUrl('/v1/onramp/options')))
    const network = (contract: string) => ({
      name: NETWORK,
      display_name: 'Walletstate Sandbox',
      chain_id: '31337',
      contract_address: contract,
    })
    const limits = [
      { id: 'card', min: '10.00', max: '7500.00' },
      { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
    ]
    expect(options).toEqual({
      purchaseCurrencies: [
        { id: 'USDC', name: 'Sandbox USD Coin', symbol: 'USDC', networks: [network(usdcAddress())] },
        {
          id: 'ETH',
          name: 'Ether',
          symbol: 'ETH',
          networks: [network('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')],
        },
      ],
      paymentCurrencies: [
        { id: 'USD', payment_method_limits: limits },
        { id: 'EUR', payment_method_limits: limits },
      ],
      providers: [
        { id: 'coinbase', name: 'Coinbase', feePercent: 1 },
        { id: 'meld', name: 'Meld', feePercent: 1.9 },
      ],
    })
  })

  it('needs the SDK parameters, and the fault switch answers its fault there, then clears', async () => {
    expect((await fetch(`${api.origin}/v1/onramp/options`)).status).toBe(400)
    await json(postJson(`${api.origin}/__fault`, { mode: 'fail', path: '/v1/onramp/options', times: 1 }))
    const faulted = await fetch(apiUrl('/v1/onramp/options'))
    expect(faulted.status).toBe(500)
    expect(((await faulted.json()) as { error: string }).error).toContain('fault switch')
    // Only the path it names: the quote still answers meanwhile; and `times: 1` switched it off.
    await json(postJson(`${api.origin}/__fault`, { mode: '429', path: '/v1/onramp/options' }))
    await json(quote({ purchaseCurrency: 'USDC', paymentCurrency: 'USD', amount: '50', network: NETWORK }))
    expect((await fetch(apiUrl('/v1/onramp/options'))).status).toBe(429)
    await json(postJson(`${api.origin}/__fault`, { mode: 'off' }))
    await json<OnrampOptions>(fetch(apiUrl('/v1/onramp/options')))
  })
})

describe('POST /v1/onramp/quote', () => {
  const usd = (amount: string) => ({ amount, currency: 'USD' })

  it('prices 50 USD of USDC per provider: fee 1.0 % (Coinbase, the default) and 1.9 % (Meld)', async () => {
    const base = { purchaseCurrency: 'USDC', paymentCurrency: 'USD', amount: '50.00', network: NETWORK }
    const coinbase = await json<OnrampQuote>(quote({ ...base, provider: 'coinbase' }))
    expect(coinbase).toEqual({
      quoteId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      paymentTotal: usd('50.00'),
      paymentSubtotal: usd('49.50'),
      fee: usd('0.50'),
      purchaseAmount: { amount: '49.5', currency: 'USDC' },
    })
    const byDefault = await json<OnrampQuote>(quote(base))
    expect({ ...byDefault, quoteId: '' }).toEqual({ ...coinbase, quoteId: '' })
    expect(byDefault.quoteId).not.toBe(coinbase.quoteId)
    const meld = await json<OnrampQuote>(quote({ ...base, provider: 'meld' }))
    expect(meld).toMatchObject({
      paymentTotal: usd('50.00'),
      paymentSubtotal: usd('49.05'),
      fee: usd('0.95'),
      purchaseAmount: { amount: '49.05', currency: 'USDC' },
    })
  })

  it('prices ETH at 3000 USD, EUR at 1.08 USD, rounding the fee to the cent and the ETH down to 8 decimals', async () => {
    // 10.01 USD, 1 %: fee 0.1001 → 0.10, subtotal 9.91, 9.91 / 3000 = 0.0033033333… → 0.00330333
    expect(
      await json<OnrampQuote>(
        quote({ purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '10.01', network: NETWORK }),
      ),
    ).toMatchObject({
      fee: usd('0.10'),
      paymentSubtotal: usd('9.91'),
      purchaseAmount: { amount: '0.00330333' },
    })
    // 1000 EUR with Meld: fee 19.00, subtotal 981.00 EUR = 1059.48 USD = 0.35316 ETH
    const eur = (amount: string) => ({ amount, currency: 'EUR' })
    expect(
      await json<OnrampQuote>(
        quote({
          purchaseCurrency: 'ETH',
          paymentCurrency: 'EUR',
          amount: '1000',
          network: NETWORK,
          provider: 'meld',
        }),
      ),
    ).toMatchObject({
      paymentTotal: eur('1000.00'),
      fee: eur('19.00'),
      paymentSubtotal: eur('981.00'),
      purchaseAmount: { amount: '0.35316', currency: 'ETH' },
    })
    // 33.33 EUR of USDC, 1 %: fee 0.3333 → 0.33, subtotal 33.00 EUR = 35.64 USDC
    expect(
      await json<OnrampQuote>(
        quote({ purchaseCurrency: 'USDC', paymentCurrency: 'EUR', amount: '33.33', network: NETWORK }),
      ),
    ).toMatchObject({ fee: eur('0.33'), purchaseAmount: { amount: '35.64', currency: 'USDC' } })
  })

  it('refuses an amount outside the limits with 400 "amount out of range", min and max', async () => {
    const base = { purchaseCurrency: 'USDC', paymentCurrency: 'USD', network: NETWORK }
    const refused = async (body: Record<string, unknown>) =>
      json<{ error: string; min: string; max: string }>(quote({ ...base, ...body }), 400)
    expect(await refused({ amount: '9.99', paymentMethod: 'card' })).toMatchObject({
      error: 'amount out of range',
      min: '10.00',
      max: '7500.00',
    })
    expect(await refused({ amount: '7500.01', paymentMethod: 'card' })).toMatchObject({
      error: 'amount out of range',
      max: '7500.00',
    })
    expect(await refused({ amount: '25000.01', paymentMethod: 'ach_bank_account' })).toMatchObject({
      error: 'amount out of range',
      min: '10.00',
      max: '25000.00',
    })
    // Without a payment method: the widest limits any method allows.
    expect(await refused({ amount: '9.99' })).toMatchObject({ min: '10.00', max: '25000.00' })
    expect(await refused({ amount: '0' })).toMatchObject({ error: 'amount out of range' })
    // The bounds themselves are in range.
    await json(quote({ ...base, amount: '10', paymentMethod: 'card' }))
    await json(quote({ ...base, amount: '7500.00', paymentMethod: 'card' }))
    await json(quote({ ...base, amount: '7500.01', paymentMethod: 'ach_bank_account' }))
    await json(quote({ ...base, amount: '25000', paymentMethod: 'ach_bank_account' }))
  })

  it('refuses malformed bodies with a 400 naming the problem', async () => {
    const good = { purchaseCurrency: 'USDC', paymentCurrency: 'USD', amount: '50', network: NETWORK }
    const error = async (body: unknown) => (await json<{ error: string }>(quote(body as never), 400)).error
    expect(await error('{')).toBe('quote body must be JSON')
    expect(await error({ ...good, amount: 50 })).toContain('amount must be a decimal string')
    expect(await error({ ...good, amount: '50.001' })).toContain('at most 2 decimals')
    expect(await error({ ...good, amount: '1e3' })).toContain('at most 2 decimals')
    expect(await error({ ...good, network: 'ethereum' })).toContain(`network must be ${NETWORK}`)
    expect(await error({ ...good, provider: 'paypal' })).toContain('provider must be one of coinbase, meld')
    expect(await error({ ...good, purchaseCurrency: 'BTC' })).toContain('purchaseCurrency must be one of')
    expect(await error({ ...good, paymentCurrency: 'GBP' })).toContain('paymentCurrency must be one of')
    expect(await error({ ...good, paymentMethod: 'paypal' })).toContain('paymentMethod must be one of')
    const { network: _, ...missing } = good
    expect(await error(missing)).toContain('network')
  })
})

describe('POST /v1/generators/onrampurl', () => {
  it('stores a pending order and answers a URL on the partner page’s origin with the order id', async () => {
    const address = freshAddress()
    const { url, id } = await order({ address, fiat: '50.00', provider: 'meld' })
    expect(new URL(url).origin).toBe(partner.origin)
    expect(new URL(url).origin).not.toBe(api.origin)
    const stored = await getOrder(db, id)
    expect(stored).toMatchObject({
      id,
      provider: 'meld',
      status: 'pending',
      address,
      chainId: 'eip155:31337',
      purchaseCurrency: 'USDC',
      tokenAddress: usdcAddress(),
      paymentCurrency: 'USD',
      paymentMethod: 'card',
      paymentTotal: '50.00',
      fee: '0.95',
      paymentSubtotal: '49.05',
      purchaseAmount: '49.05',
      purchaseBase: 49_050_000n,
      partnerAddress: partner.address,
      txHash: null,
    })
    // The partner serves the same order.
    expect(await json<PartnerOrderView>(fetch(`${partner.origin}/api/orders/${id}`))).toMatchObject({
      id,
      provider: 'meld',
      providerName: 'Meld',
      status: 'pending',
      purchaseAmount: '49.05',
      hash: null,
    })
  })

  it('takes a preset crypto amount (number or string): the purchase is that amount, the total what it costs', async () => {
    const { id } = await order({ address: freshAddress(), crypto: 0.01, asset: 'ETH', paymentMethod: 'card' })
    // 0.01 ETH = 30.00 USD; with 1 %: 30.00 / 0.99 = 30.3030… → 30.31, fee 0.31
    expect(await getOrder(db, id)).toMatchObject({
      purchaseCurrency: 'ETH',
      tokenAddress: null,
      purchaseAmount: '0.01',
      purchaseBase: parseEther('0.01'),
      paymentSubtotal: '30.00',
      paymentTotal: '30.31',
      fee: '0.31',
    })
  })

  it('refuses bad requests: limits, unsold assets, another network, no amount, a bad address', async () => {
    const address = freshAddress()
    const post = (body: unknown) => postJson(apiUrl('/v1/generators/onrampurl'), body)
    expect(await json(post(urlBody({ address, fiat: '7600' })), 400)).toMatchObject({
      error: 'amount out of range',
      min: '10.00',
      max: '7500.00',
    })
    await json(post(urlBody({ address, fiat: '7600', paymentMethod: 'ach_bank_account' })))
    expect(
      await json(post(urlBody({ address, fiat: '5', paymentMethod: 'ach_bank_account' })), 400),
    ).toMatchObject({ error: 'amount out of range', min: '10.00', max: '25000.00' })
    const error = async (body: unknown) => (await json<{ error: string }>(post(body), 400)).error
    expect(await error(urlBody({ address, fiat: '50', asset: 'STK' }))).toBe(
      'purchaseCurrency STK is not sold on walletstate-sandbox',
    )
    expect(await error(urlBody({ address }))).toBe('presetFiatAmount or presetCryptoAmount is required')
    expect(await error(urlBody({ address, fiat: '50.123' }))).toContain('at most 2 decimals')
    expect(await error(urlBody({ address, fiat: -5 }))).toContain('presetFiatAmount')
    expect(await error({ ...urlBody({ address, fiat: 50 }), defaultExperience: 'sell' })).toContain(
      'defaultExperience must be "buy"',
    )
    expect(await error({ ...urlBody({ address, fiat: 50 }), defaultNetwork: 'base' })).toContain(
      'network must be',
    )
    expect(
      await error({
        ...urlBody({ address, fiat: 50 }),
        destinationWallets: [{ address, blockchains: ['base'], assets: ['USDC'] }],
      }),
    ).toBe(`No destination wallet on ${NETWORK}`)
    expect(await error(urlBody({ address: '0x1234' as Address, fiat: 50 }))).toContain('must be a 0x address')
    expect(await error({ ...urlBody({ address, fiat: 50 }), partnerUserId: 'x'.repeat(101) })).toContain(
      'partnerUserId is too long',
    )
  })

  it('answers 503 from an API started without a partner page (options and quotes still work)', async () => {
    const lone = await stops.track(
      startDataApi({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokens: chain.tokens, db }),
    )
    const res = await postJson(
      `${lone.origin}/v1/generators/onrampurl?${new URLSearchParams(SDK)}`,
      urlBody({ address: freshAddress(), fiat: 50 }),
    )
    expect(res.status).toBe(503)
    expect((await fetch(`${lone.origin}/v1/onramp/options?${new URLSearchParams(SDK)}`)).status).toBe(200)
  })
})

describe('the partner delivers', () => {
  it('"Complete purchase" moves exactly the USDC bought to the wallet; history?onramp lists it confirmed with the hash', async () => {
    const address = freshAddress()
    const { id } = await order({ address, fiat: '50', provider: 'coinbase' })
    // Not paid yet: a checkout, not an order of the buyer's (the kit reads a new order as a purchase under way).
    expect((await onrampHistory(address, 'coinbase')).data).toEqual([])
    const partnerBefore = await usdcOf(partner.address)
    const done = await json<PartnerOrderView>(complete(id))
    expect(done).toMatchObject({ id, status: 'confirmed', hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect(await usdcOf(address)).toBe(parseUnits('49.5', 6))
    expect(partnerBefore - (await usdcOf(partner.address))).toBe(parseUnits('49.5', 6))
    const receipt = await reader.getTransactionReceipt({ hash: done.hash as Hex })
    expect(receipt.status).toBe('success')
    expect(getAddress(receipt.from)).toBe(partner.address)
    expect(getAddress(receipt.to!)).toBe(usdcAddress())

    const [item] = (await onrampHistory(address, 'coinbase')).data
    expect(item?.metadata).toMatchObject({ status: 'confirmed', hash: done.hash, operationType: 'buy' })
    expect(Date.parse(item!.metadata.minedAt)).not.toBeNaN()
    // Another provider's list does not hold it.
    expect(await onrampHistory(address, 'meld')).toEqual({ data: [], next: null })

    // The ordinary history: the delivery is a `buy` for the wallet, a `send` for the partner.
    const mine = await json<Page<HistoryItem>>(fetch(apiUrl(`/v1/account/${address}/history`)))
    expect(mine.data.map((i) => [i.id, i.metadata.operationType])).toEqual([[done.hash, 'buy']])
    expect(mine.data[0]?.transfers).toMatchObject([
      { fungible_info: { symbol: 'USDC' }, direction: 'in', quantity: { numeric: '49.5' } },
    ])
    const theirs = await json<Page<HistoryItem>>(fetch(apiUrl(`/v1/account/${partner.address}/history`)))
    expect(theirs.data[0]).toMatchObject({ id: done.hash, metadata: { operationType: 'send' } })
  })

  it('delivers native ETH, paid by bank, exactly the wei bought', async () => {
    const address = freshAddress()
    const { id } = await order({
      address,
      fiat: '300',
      asset: 'ETH',
      provider: 'meld',
      paymentMethod: 'ach_bank_account',
      paymentCurrency: 'EUR',
    })
    // A card's details do not pay a bank order.
    expect((await json<{ error: string }>(complete(id, CARD), 400)).error).toBe(
      'This order is paid by ach_bank_account, not card',
    )
    const done = await json<PartnerOrderView>(complete(id, BANK))
    // 300 EUR, 1.9 %: fee 5.70, subtotal 294.30 EUR = 317.844 USD = 0.105948 ETH
    expect(done.purchaseAmount).toBe('0.105948')
    expect(await reader.getBalance({ address })).toBe(parseEther('0.105948'))
    expect((await onrampHistory(address, 'meld')).data[0]?.metadata).toMatchObject({
      status: 'confirmed',
      hash: done.hash,
    })
  })

  it('refuses to complete twice, also when both arrive at once: the tokens move once', async () => {
    const address = freshAddress()
    const { id } = await order({ address, fiat: '20' })
    const answers = await Promise.all([complete(id), complete(id)])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    const again = await json<{ error: string }>(complete(id), 409)
    expect(again.error).toBe('Order already completed')
    expect(await usdcOf(address)).toBe(parseUnits('19.8', 6))
    expect((await json<{ error: string }>(fail(id), 409)).error).toBe('Order already completed')
    expect((await onrampHistory(address, 'coinbase')).data.map((i) => i.metadata.status)).toEqual([
      'confirmed',
    ])
  })

  it('"Fail purchase" marks it failed: nothing moves, and it can no longer be completed', async () => {
    const address = freshAddress()
    const { id } = await order({ address, fiat: '25' })
    expect(await json<PartnerOrderView>(fail(id))).toMatchObject({ id, status: 'failed', hash: null })
    expect((await json<{ error: string }>(complete(id), 409)).error).toBe('Order already failed')
    expect((await json<{ error: string }>(fail(id), 409)).error).toBe('Order already failed')
    expect(await usdcOf(address)).toBe(0n)
    expect((await onrampHistory(address, 'coinbase')).data[0]?.metadata).toMatchObject({
      status: 'failed',
      hash: '',
    })
  })

  it('checks the payment details and the order id', async () => {
    const { id } = await order({ address: freshAddress(), fiat: '15' })
    const error = async (body: unknown, status = 400) =>
      (await json<{ error: string }>(complete(id, body), status)).error
    expect(await error({ ...CARD, cardNumber: '4242 4242 4242 4241' })).toContain('check digit')
    expect(await error({ ...CARD, expiry: '13/30' })).toContain('expiry must be MM/YY')
    expect(await error({ ...CARD, cvc: '12a' })).toContain('cvc must be 3 or 4 digits')
    expect(await error({ ...CARD, paymentMethod: 'cash' })).toContain(
      'paymentMethod must be card or ach_bank_account',
    )
    expect(await error('not json')).toBe('payment body must be JSON')
    expect((await json<{ error: string }>(complete('%3Cscript%3E'), 400)).error).toContain('Invalid order id')
    expect((await json<{ error: string }>(complete('a'.repeat(32)), 404)).error).toBe('Order not found')
    // Still pending after all that.
    expect((await getOrder(db, id))?.status).toBe('pending')
  })

  it('refuses /api/ to pages on other origins (no CORS, 403)', async () => {
    const { id } = await order({ address: freshAddress(), fiat: '15' })
    const res = await postJson(`${partner.origin}/api/orders/${id}/complete`, CARD, {
      origin: 'http://127.0.0.1:1',
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect((await getOrder(db, id))?.status).toBe('pending')
  })

  it('history?onramp pages newest first, 10 at a time, and refuses an unknown provider', async () => {
    const address = freshAddress()
    const ids: string[] = []
    for (let i = 0; i < 11; i++) {
      const { id } = await order({ address, fiat: String(10 + i), provider: 'meld' })
      // Submitted (here: failed by the buyer), so listed.
      await json(fail(id))
      ids.push(id)
    }
    const first = await onrampHistory(address, 'meld')
    expect(first.data.map((i) => i.id)).toEqual(ids.slice(1).reverse())
    expect(first.next).toEqual(expect.any(String))
    const second = await onrampHistory(address, 'meld', { cursor: first.next! })
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next: null })
    expect(await onrampHistory(address.toLowerCase(), 'meld')).toEqual(first)
    expect(await onrampHistory(address, 'meld', { chainId: 'eip155:1' })).toEqual({ data: [], next: null })
    const bad = await json<{ error: string }>(
      fetch(apiUrl(`/v1/account/${address}/history`, { onramp: 'paypal' })),
      400,
    )
    expect(bad.error).toBe('Invalid query parameter onramp: must be one of coinbase, meld')
    await json(fetch(apiUrl(`/v1/account/${address}/history`, { onramp: 'meld', cursor: 'eyJiIjoxfQ' })), 400)
  })

  it('the kit’s own Data API client reads the onramp history: pending, failed and confirmed orders all kept', async () => {
    const address = freshAddress()
    const pending = await order({ address, fiat: '11' })
    expect((await json<PartnerOrderView>(later(pending.id), 202)).status).toBe('delivering')
    const failed = await order({ address, fiat: '12' })
    await json(fail(failed.id))
    const confirmed = await order({ address, fiat: '13' })
    const done = await json<PartnerOrderView>(complete(confirmed.id))
    const client = createDataApiClient({ api: api.origin, projectId: SDK.projectId })
    const page = await client.getHistory({ account: address, chainId: 'eip155:31337', onramp: 'coinbase' })
    expect(page.data.map((item) => [item.id, item.metadata.status, item.metadata.hash])).toEqual([
      [confirmed.id, 'confirmed', done.hash],
      [failed.id, 'failed', ''],
      [pending.id, 'pending', ''],
    ])
    expect(page.data[0]?.transfers).toEqual([
      expect.objectContaining({ direction: 'in', quantity: { numeric: '12.87' } }),
    ])
  })

  // Issue 33: paid now, settled a few seconds later. The kit must read such an order as under way when the window
  // closes (processing), not as abandoned; only a checkout never paid is left out of the list.
  it('"Complete later" takes the payment, lists the order pending (no hash), then delivers and confirms it', async () => {
    const address = freshAddress()
    const { id } = await order({ address, fiat: '50', provider: 'coinbase' })
    const taken = await json<PartnerOrderView>(later(id), 202)
    expect(taken).toMatchObject({ id, status: 'delivering', hash: null })
    expect((await onrampHistory(address, 'coinbase')).data).toEqual([
      {
        id,
        metadata: {
          operationType: 'buy',
          hash: '',
          minedAt: expect.any(String),
          sentFrom: partner.address,
          sentTo: address,
          status: 'pending',
          chain: 'eip155:31337',
        },
        transfers: [
          {
            fungible_info: {
              name: 'Sandbox USD Coin',
              symbol: 'USDC',
              icon: { url: `${api.origin}/icons/USDC.svg` },
            },
            direction: 'in',
            quantity: { numeric: '49.5' },
          },
        ],
      },
    ])
    // Paid once: neither completed again nor failed meanwhile.
    expect((await json<{ error: string }>(complete(id), 409)).error).toBe('Order is being completed')
    expect((await json<{ error: string }>(later(id), 409)).error).toBe('Order is being completed')
    expect((await json<{ error: string }>(fail(id), 409)).error).toBe('Order is being completed')
    // The partner settles it on its own, a few seconds later.
    await expect
      .poll(async () => (await onrampHistory(address, 'coinbase')).data[0]?.metadata.status, {
        timeout: 30_000,
      })
      .toBe('confirmed')
    expect(await usdcOf(address)).toBe(parseUnits('49.5', 6))
    const stored = await getOrder(db, id)
    expect(stored?.txHash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('"Complete later" checks the payment details as "Complete purchase" does', async () => {
    const { id } = await order({ address: freshAddress(), fiat: '20' })
    await json(later(id, { ...CARD, cardNumber: '4242 4242 4242 4241' }), 400)
    await json(later(id, BANK), 400)
    expect((await getOrder(db, id))?.status).toBe('pending')
  })

  it('was funded at start: its USDC minted by the token owner, its ETH set on anvil', async () => {
    // Without the funding it would hold nothing (a key anvil does not fund); the purchases above took little.
    expect(await usdcOf(partner.address)).toBeGreaterThan(PARTNER_FUNDING.usdc - parseUnits('1000', 6))
    expect(await reader.getBalance({ address: partner.address })).toBeGreaterThan(
      PARTNER_FUNDING.eth - parseEther('10'),
    )
  })
})

describe('the partner page', () => {
  it('shows the order and the payment fields, escaping what the buyer sent; bad ids get an error page', async () => {
    const hostile = '<script>alert(1)</script>"\'&'
    const { url } = await order({ address: freshAddress(), fiat: '42', partnerUserId: hostile })
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await res.text()
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#39;&#38;')
    for (const text of [
      'Buy with Coinbase',
      '42.00 USD',
      '41.58 USDC',
      'Walletstate Sandbox',
      'Card number',
    ]) {
      expect(html).toContain(text)
    }
    for (const label of ['Complete purchase', 'Fail purchase', 'Cancel']) {
      expect(html).toMatch(new RegExp(`<button type="(submit|button)" id="[a-z]+">${label}</button>`))
    }
    const bad = await fetch(`${partner.origin}/order/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E`)
    expect(bad.status).toBe(400)
    expect(await bad.text()).not.toContain('<img')
    expect((await fetch(`${partner.origin}/order/${'b'.repeat(32)}`)).status).toBe(404)
  })

  describe('in Chromium, opened as the kit opens it (a popup)', () => {
    let browser: Browser
    let opener: BrowserPage
    /** Every text the partner pages' status line showed, in order (read as it changes: a page may close soon). */
    const said: string[] = []
    beforeAll(async () => {
      browser = await stops.track(chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }))
      const context = await browser.newContext()
      await context.exposeBinding('__said', (_source, text: string) => void said.push(text))
      await context.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const line = document.getElementById('message')
          if (!line) return
          const report = (window as unknown as { __said(text: string): void }).__said
          new MutationObserver(() => report(line.textContent ?? '')).observe(line, {
            childList: true,
            characterData: true,
            subtree: true,
          })
        })
      })
      opener = await context.newPage()
    })

    /** Opens `url` in a new window from the opener, as the kit's `window.open`; answers the popup's page. */
    async function popup(url: string): Promise<{ page: BrowserPage; errors: string[] }> {
      const [page] = await Promise.all([
        opener.waitForEvent('popup'),
        opener.evaluate((target) => void window.open(target, '_blank'), url),
      ])
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.waitForLoadState()
      return { page, errors }
    }

    it('"Complete purchase" delivers, says "Purchase complete" and closes the window; hostile input stays text', async () => {
      const address = freshAddress()
      const { url, id } = await order({
        address,
        fiat: '50',
        provider: 'meld',
        partnerUserId: '<img src=x onerror="window.__owned=1">',
      })
      const { page, errors } = await popup(url)
      expect(await page.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242')
      expect(await page.getByText('<img src=x onerror="window.__owned=1">').count()).toBe(1)
      const closed = page.waitForEvent('close')
      expect(await page.evaluate(() => (window as { __owned?: number }).__owned)).toBeUndefined()
      said.length = 0
      await page.getByRole('button', { name: 'Complete purchase' }).click()
      // The page says so, then closes itself (after a second).
      await closed
      expect(said).toEqual(['Processing your payment…', 'Purchase complete: 49.05 USDC sent.'])
      expect(await usdcOf(address)).toBe(parseUnits('49.05', 6))
      expect((await getOrder(db, id))?.status).toBe('confirmed')
      expect(errors).toEqual([])
    })

    it('shows a refusal in an alert: a second completion of the same order', async () => {
      const { url, id } = await order({ address: freshAddress(), fiat: '12' })
      const { page, errors } = await popup(url)
      // Completed meanwhile elsewhere (another window): this page's click is refused.
      await json(complete(id))
      await page.getByRole('button', { name: 'Complete purchase' }).click()
      await page.getByRole('alert').filter({ hasText: 'Order already completed' }).waitFor()
      expect(await page.getByRole('button', { name: 'Complete purchase' }).isEnabled()).toBe(true)
      expect(errors).toEqual([])
      await page.close()
    })

    it('"Complete later" says the payment was taken and closes the window; the order is delivered afterwards', async () => {
      const address = freshAddress()
      const { url, id } = await order({ address, fiat: '40' })
      const { page, errors } = await popup(url)
      const closed = page.waitForEvent('close')
      said.length = 0
      await page.getByRole('button', { name: 'Complete later' }).click()
      await closed
      expect(said).toEqual([
        'Processing your payment…',
        'Payment received: your purchase completes in a few seconds. You can close this window.',
      ])
      await expect.poll(async () => (await getOrder(db, id))?.status, { timeout: 30_000 }).toBe('confirmed')
      expect(await usdcOf(address)).toBe(parseUnits('39.6', 6))
      expect(errors).toEqual([])
    })

    it('"Fail purchase" fails the order; "Cancel" closes the window and leaves the order pending', async () => {
      const failing = await order({ address: freshAddress(), fiat: '30', paymentMethod: 'ach_bank_account' })
      const first = await popup(failing.url)
      expect(await first.page.getByLabel('Routing number').inputValue()).toBe('110000000')
      const firstClosed = first.page.waitForEvent('close')
      said.length = 0
      await first.page.getByRole('button', { name: 'Fail purchase' }).click()
      await firstClosed
      expect(said).toEqual(['Purchase failed. You can close this window.'])
      expect((await getOrder(db, failing.id))?.status).toBe('failed')

      const cancelled = await order({ address: freshAddress(), fiat: '30' })
      const second = await popup(cancelled.url)
      const closed = second.page.waitForEvent('close')
      // Cancel closes its window at once: the click's own wait can end with the page, which is its point.
      await second.page
        .getByRole('button', { name: 'Cancel' })
        .click()
        .catch((error: unknown) => {
          if (!second.page.isClosed()) throw error
        })
      await closed
      const stored = await getOrder(db, cancelled.id)
      expect(stored?.status).toBe('pending')
      expect(stored?.openedAt).not.toBeNull()
      expect([...first.errors, ...second.errors]).toEqual([])
    })
  })
})
