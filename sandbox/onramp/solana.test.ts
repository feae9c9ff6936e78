import { getAssociatedTokenAddressSync } from '@solana/spl-token'
import { Connection, Keypair, PublicKey } from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDataApiClient } from '../../src/api/dataApi.ts'
import { type DataApi, type Page, SANDBOX_SOLANA_CHAIN_ID, startDataApi } from '../api/data.ts'
import { openDatabase, type SandboxDb } from '../api/db.ts'
import {
  destinationRefusal,
  type OnrampHistoryItem,
  type OnrampOptions,
  type OnrampQuote,
} from '../api/onramp.ts'
import { type Chain, startChain } from '../chain/chain.ts'
import { Stops } from '../shared/stops.ts'
import { type Solana, startSolana } from '../solana/solana.ts'
import { getOrder } from './orders.ts'
import {
  type OnrampPartner,
  type PartnerOrderView,
  partnerSolanaKeypair,
  startOnrampPartner,
} from './partner.ts'

/*
 * Buy on Solana in the sandbox: the Data API sells SOL and the sandbox USDC on its Solana network, takes a
 * base58 destination (and refuses any other), and the partner page delivers the purchase on the SVM from its
 * funded Solana key, creating the buyer's USDC account when it is missing.
 */

const SDK = { projectId: 'onramp-solana-test', st: 'appkit', sv: 'html-wagmi-0.1.0' }
const NETWORK = 'walletstate-sandbox-solana'
const REFERENCE = SANDBOX_SOLANA_CHAIN_ID.slice('solana:'.length)
const CARD = {
  paymentMethod: 'card',
  cardNumber: '4242 4242 4242 4242',
  expiry: '12/34',
  cvc: '123',
  name: 'Sandbox Buyer',
}

const stops = new Stops()
let chain: Chain
let solana: Solana
let db: SandboxDb
let partner: OnrampPartner
let api: DataApi
let connection: Connection

afterAll(() => stops.close())
beforeAll(async () => {
  ;[chain, solana, db] = await Promise.all([
    stops.track(startChain()),
    stops.track(startSolana({ fund: [partnerSolanaKeypair().publicKey.toBase58()] })),
    stops.track(openDatabase()),
  ])
  partner = await stops.track(
    startOnrampPartner({ chain, db, solana: { rpcUrl: solana.rpcUrl, usdcMint: solana.mints.usdc } }),
  )
  api = await stops.track(
    startDataApi({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      tokens: chain.tokens,
      db,
      solana: { rpcUrl: solana.rpcUrl, mints: solana.mints },
      onrampPartner: {
        origin: partner.origin,
        address: partner.address,
        solanaAddress: partner.solanaAddress,
      },
    }),
  )
  connection = new Connection(solana.rpcUrl, 'confirmed')
})

const apiUrl = (path: string, query: Record<string, string> = {}) =>
  `${api.origin}${path}?${new URLSearchParams({ ...SDK, ...query })}`

const postJson = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

async function json<T>(res: Promise<Response> | Response, status = 200): Promise<T> {
  const answer = await res
  const body = (await answer.json()) as T
  expect(answer.status, JSON.stringify(body)).toBe(status)
  return body
}

const urlBody = (address: string, asset: string, network = NETWORK) => ({
  destinationWallets: [{ address, blockchains: [network], assets: [asset] }],
  defaultNetwork: network,
  partnerUserId: address,
  defaultExperience: 'buy',
  presetFiatAmount: '50.00',
})

/** Makes an order through the generator; answers its id. */
async function order(address: string, asset: string): Promise<string> {
  const { url } = await json<{ url: string }>(
    postJson(apiUrl('/v1/generators/onrampurl'), urlBody(address, asset)),
  )
  const id = /\/order\/([0-9a-f]{32})$/.exec(new URL(url).pathname)?.[1]
  expect(id, url).toBeDefined()
  return id!
}

const complete = (id: string) => postJson(`${partner.origin}/api/orders/${id}/complete`, CARD)

async function usdcOf(owner: PublicKey): Promise<bigint | undefined> {
  const account = getAssociatedTokenAddressSync(new PublicKey(solana.mints.usdc), owner)
  if (!(await connection.getAccountInfo(account))) return undefined
  return BigInt((await connection.getTokenAccountBalance(account)).value.amount)
}

describe('the onramp on the sandbox Solana network', () => {
  it('offers SOL and the sandbox USDC there, beside USDC and ETH on the sandbox chain', async () => {
    const options = await json<OnrampOptions>(fetch(apiUrl('/v1/onramp/options')))
    const solanaNetwork = (contract: string) => ({
      name: NETWORK,
      display_name: 'Walletstate Sandbox Solana',
      chain_id: REFERENCE,
      contract_address: contract,
    })
    const networksOf = (id: string) => options.purchaseCurrencies.find((c) => c.id === id)?.networks
    expect(networksOf('USDC')?.map((n) => n.name)).toEqual(['walletstate-sandbox', NETWORK])
    expect(networksOf('USDC')?.[1]).toEqual(solanaNetwork(solana.mints.usdc))
    expect(networksOf('SOL')).toEqual([solanaNetwork('So11111111111111111111111111111111111111111')])
    expect(networksOf('ETH')?.map((n) => n.name)).toEqual(['walletstate-sandbox'])
  })

  it('quotes SOL and USDC on Solana, and refuses ETH there', async () => {
    const body = { paymentCurrency: 'USD', amount: '50.00', network: NETWORK }
    const sol = await json<OnrampQuote>(
      postJson(apiUrl('/v1/onramp/quote'), { ...body, purchaseCurrency: 'SOL' }),
    )
    // 50 USD less Coinbase's 1 % is 49.50 USD; at 150 USD a SOL, 0.33 SOL.
    expect(sol.purchaseAmount).toEqual({ amount: '0.33', currency: 'SOL' })
    const usdc = await json<OnrampQuote>(
      postJson(apiUrl('/v1/onramp/quote'), { ...body, purchaseCurrency: 'USDC' }),
    )
    expect(usdc.purchaseAmount).toEqual({ amount: '49.5', currency: 'USDC' })
    const eth = await json<{ error: string }>(
      postJson(apiUrl('/v1/onramp/quote'), { ...body, purchaseCurrency: 'ETH' }),
      400,
    )
    expect(eth.error).toBe(`purchaseCurrency ETH is not sold on ${NETWORK}`)
  })

  it('takes a base58 public key as the destination there, and nothing else', async () => {
    const generate = (address: string, network = NETWORK) =>
      json<{ error: string }>(
        postJson(apiUrl('/v1/generators/onrampurl'), urlBody(address, 'USDC', network)),
        400,
      )
    const evm = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    expect((await generate(evm)).error).toBe(
      `destinationWallets[].address must be a base58 Solana address (32 bytes) on ${NETWORK}`,
    )
    // Base58, but 31 bytes: not a public key.
    const short = '1111111111111111111111111111111'
    expect((await generate(short)).error).toContain('must be a 0x address or a base58 Solana address')
    // A Solana key on the sandbox chain.
    const key = Keypair.generate().publicKey.toBase58()
    expect((await generate(key, 'walletstate-sandbox')).error).toBe(
      'destinationWallets[].address must be a 0x address on walletstate-sandbox',
    )
    expect(destinationRefusal(NETWORK, key)).toBeUndefined()
    expect(destinationRefusal(NETWORK, `${key.slice(0, -1)}0`)).toBeDefined()
  })

  it('delivers 50 USD of USDC to a key without a USDC account: the account is created, 49.5 USDC land', async () => {
    const buyer = Keypair.generate().publicKey
    expect(await usdcOf(buyer)).toBeUndefined()
    const id = await order(buyer.toBase58(), 'USDC')
    const done = await json<PartnerOrderView>(complete(id))
    expect(done).toMatchObject({
      status: 'confirmed',
      address: buyer.toBase58(),
      network: NETWORK,
      purchaseCurrency: 'USDC',
      purchaseAmount: '49.5',
      tokenAddress: solana.mints.usdc,
    })
    expect(await usdcOf(buyer)).toBe(49_500_000n)
    // The delivery is a confirmed Solana transaction from the partner's key.
    const status = await connection.getSignatureStatus(done.hash!)
    expect(status.value?.err).toBeNull()
    expect((await getOrder(db, id))?.partnerAddress).toBe(partner.solanaAddress)
    // A second completion sends nothing more.
    expect((await json<{ error: string }>(complete(id), 409)).error).toBe('Order already completed')
    expect(await usdcOf(buyer)).toBe(49_500_000n)

    // The provider's orders for the key, as the Data API lists them and the kit's client reads them.
    const page = await json<Page<OnrampHistoryItem>>(
      fetch(
        apiUrl(`/v1/account/${buyer.toBase58()}/history`, {
          onramp: 'coinbase',
          chainId: SANDBOX_SOLANA_CHAIN_ID,
        }),
      ),
    )
    expect(page.data.map((item) => [item.id, item.metadata.status, item.metadata.hash])).toEqual([
      [id, 'confirmed', done.hash],
    ])
    const client = createDataApiClient({ api: api.origin, projectId: SDK.projectId })
    const read = await client.getHistory({
      account: buyer.toBase58(),
      chainId: SANDBOX_SOLANA_CHAIN_ID,
      onramp: 'coinbase',
    })
    expect(read.supported).toBe(true)
    expect(
      read.data.map((item) => [item.id, item.metadata.status, item.transfers[0]?.quantity.numeric]),
    ).toEqual([[id, 'confirmed', '49.5']])
    // On Solana the client asks for a base58 account's orders only.
    await expect(
      client.getHistory({
        account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        chainId: SANDBOX_SOLANA_CHAIN_ID,
        onramp: 'coinbase',
      }),
    ).rejects.toMatchObject({ name: 'DataApiError', kind: 'input' })
  })

  it('delivers SOL by a system transfer: the buyer holds exactly the lamports bought', async () => {
    const buyer = Keypair.generate().publicKey
    const id = await order(buyer.toBase58(), 'SOL')
    const done = await json<PartnerOrderView>(complete(id))
    expect(done).toMatchObject({ status: 'confirmed', purchaseAmount: '0.33', tokenAddress: null })
    expect(BigInt(await connection.getBalance(buyer))).toBe(330_000_000n)
  })
})
