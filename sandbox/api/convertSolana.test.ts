import { decodeTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemInstruction,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Solana, startSolana } from '../solana/solana.ts'
import { createRouter } from './common.ts'
import { convertRoutes } from './convert.ts'
import {
  SOLANA_HOSTILE_OWNER,
  SOLANA_NATIVE_ADDRESS,
  SOLANA_QUOTE_EXPIRED,
  SOLANA_SWAP_FEE_LAMPORTS,
  type SolanaSwapBuiltTx,
  type SolanaSwapQuote,
  solanaConvert,
  solanaMakerKeypair,
  solanaQuoteAmount,
} from './convertSolana.ts'
import { type DataApi, SANDBOX_SOLANA_CHAIN_ID, startDataApi } from './data.ts'

/*
 * The Solana swap maker behind the Data API's convert calls: quotes from the fixed prices, builds signed by the
 * maker, signed by the visitor and sent to the sandbox SVM here, balances read back from the chain.
 */

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-solana-0.1.0' }
const DEAD_EVM_RPC = 'http://127.0.0.1:9'
const CHAIN = SANDBOX_SOLANA_CHAIN_ID
const SOL = `${CHAIN}:${SOLANA_NATIVE_ADDRESS}`

let solana: Solana
let connection: Connection
let api: DataApi
let usdc: string
const maker = solanaMakerKeypair()

const url = (path: string, query: Record<string, string> = {}) =>
  `${api.origin}${path}?${new URLSearchParams({ ...SDK, ...query })}`

async function call<T>(path: string, init?: { query?: Record<string, string>; body?: unknown }) {
  const res = await fetch(url(path, init?.query), {
    method: init?.body === undefined ? 'GET' : 'POST',
    ...(init?.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
  return { status: res.status, body: (await res.json()) as T }
}

async function quote(user: Keypair, from: string, to: string, amount: bigint) {
  const { status, body } = await call<{ quotes: SolanaSwapQuote[] }>('/v1/convert/quotes', {
    query: { amount: amount.toString(), userAddress: `${CHAIN}:${user.publicKey.toBase58()}`, from, to },
  })
  expect(status, JSON.stringify(body)).toBe(200)
  return body.quotes[0]!
}

async function build(user: Keypair, q: SolanaSwapQuote) {
  return call<SolanaSwapBuiltTx & { error?: string }>('/v1/convert/build-transaction', {
    body: {
      amount: q.fromAmount,
      from: q.fromAccount,
      to: q.toAccount,
      userAddress: `${CHAIN}:${user.publicKey.toBase58()}`,
      quoteId: q.id,
    },
  })
}

async function send(user: Keypair, built: SolanaSwapBuiltTx) {
  const tx = VersionedTransaction.deserialize(Buffer.from(built.tx.data, 'base64'))
  tx.sign([user])
  const signature = await connection.sendRawTransaction(tx.serialize())
  return connection.confirmTransaction(
    {
      signature,
      blockhash: built.tx.solana.recentBlockhash,
      lastValidBlockHeight: built.tx.solana.lastValidBlockHeight,
    },
    'confirmed',
  )
}

async function usdcOf(owner: PublicKey): Promise<bigint> {
  const info = await connection.getTokenAccountBalance(
    getAssociatedTokenAddressSync(new PublicKey(usdc), owner),
  )
  return BigInt(info.value.amount)
}

async function fundedVisitor(): Promise<Keypair> {
  // A dev key signs nothing here; a fresh key funded with SOL (no USDC account yet).
  const visitor = Keypair.generate()
  await connection.confirmTransaction(
    await connection.requestAirdrop(visitor.publicKey, 5 * LAMPORTS_PER_SOL),
    'confirmed',
  )
  return visitor
}

beforeAll(async () => {
  solana = await startSolana({ fund: [maker.publicKey.toBase58()] })
  connection = new Connection(solana.rpcUrl, 'confirmed')
  usdc = solana.mints.usdc
  api = await startDataApi({
    rpcUrl: DEAD_EVM_RPC,
    chainId: 31337,
    tokens: [],
    solana: { ...solana, maker },
  })
})
afterAll(async () => {
  await api?.close()
  await solana?.close()
})

describe('the convert calls on the sandbox Solana chain', () => {
  it('lists SOL and USDC, and answers the SPEC texts for what an RFQ swap does not need', async () => {
    const tokens = await call<{ tokens: Array<{ symbol: string; address: string; decimals: number }> }>(
      '/v1/convert/tokens',
      { query: { chainId: CHAIN } },
    )
    expect(tokens.body.tokens.map((t) => [t.symbol, t.address, t.decimals])).toEqual([
      ['SOL', SOL, 9],
      ['USDC', `${CHAIN}:${usdc}`, 6],
    ])
    const gas = await call<{ error: string }>('/v1/convert/gas-price', { query: { chainId: CHAIN } })
    expect([gas.status, gas.body.error]).toEqual([400, 'Network not supported for Gas Price'])
    const approve = await call<{ error: string }>('/v1/convert/build-approve', {
      query: { userAddress: solana.accounts[0]!.publicKey, from: `${CHAIN}:${usdc}`, to: SOL },
    })
    expect([approve.status, approve.body.error]).toEqual([400, 'Network not supported for Swaps'])
    // Another Solana network is not the maker's: the eip155 routes answer it as unsupported.
    const other = await call<{ tokens: unknown[] }>('/v1/convert/tokens', {
      query: { chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' },
    })
    expect(other.body.tokens).toEqual([])
  })

  it('swaps 10 USDC for SOL in one transaction signed by the maker and the visitor', async () => {
    const visitor = Keypair.fromSecretKey(solana.accounts[2]!.secretKey)
    const q = await quote(visitor, `${CHAIN}:${usdc}`, SOL, 10_000_000n)
    const expected = solanaQuoteAmount(10_000_000n, { decimals: 6, price: 1 }, { decimals: 9, price: 150 })
    expect(q.toAmount).toBe(expected.toAmount.toString())
    expect(q.fee).toBe('30000')
    expect(q.maker).toBe(maker.publicKey.toBase58())
    const built = await build(visitor, q)
    expect(built.status, JSON.stringify(built.body)).toBe(200)
    expect(built.body.tx.solana.feePayer).toBe(visitor.publicKey.toBase58())
    const tx = VersionedTransaction.deserialize(Buffer.from(built.body.tx.data, 'base64'))
    expect(tx.message.header.numRequiredSignatures).toBe(2)

    const before = {
      sol: BigInt(await connection.getBalance(visitor.publicKey)),
      usdc: await usdcOf(visitor.publicKey),
      makerSol: BigInt(await connection.getBalance(maker.publicKey)),
      makerUsdc: await usdcOf(maker.publicKey),
    }
    const outcome = await send(visitor, built.body)
    expect(outcome.value.err).toBeNull()
    expect(await usdcOf(visitor.publicKey)).toBe(before.usdc - 10_000_000n)
    expect(BigInt(await connection.getBalance(visitor.publicKey))).toBe(
      before.sol + expected.toAmount - SOLANA_SWAP_FEE_LAMPORTS,
    )
    expect(await usdcOf(maker.publicKey)).toBe(before.makerUsdc + 10_000_000n)
    expect(BigInt(await connection.getBalance(maker.publicKey))).toBe(before.makerSol - expected.toAmount)
  })

  it("creates the visitor's USDC account in the same transaction, the maker paying its rent", async () => {
    const visitor = await fundedVisitor()
    const q = await quote(visitor, SOL, `${CHAIN}:${usdc}`, BigInt(LAMPORTS_PER_SOL))
    const built = await build(visitor, q)
    expect(built.status, JSON.stringify(built.body)).toBe(200)
    expect(built.body.tx.solana.createsTokenAccount).toBe(true)
    const before = BigInt(await connection.getBalance(visitor.publicKey))
    expect((await send(visitor, built.body)).value.err).toBeNull()
    expect(await usdcOf(visitor.publicKey)).toBe(BigInt(q.toAmount))
    expect(BigInt(await connection.getBalance(visitor.publicKey))).toBe(
      before - BigInt(LAMPORTS_PER_SOL) - SOLANA_SWAP_FEE_LAMPORTS,
    )
  })

  it('refuses a build of a quote it did not give, or of another amount', async () => {
    const visitor = Keypair.fromSecretKey(solana.accounts[3]!.secretKey)
    const q = await quote(visitor, `${CHAIN}:${usdc}`, SOL, 5_000_000n)
    const other = await build(visitor, { ...q, fromAmount: '6000000' })
    expect([other.status, other.body.error]).toEqual([
      400,
      'Invalid quoteId: no quote of this maker for this swap',
    ])
    const unknown = await build(visitor, { ...q, id: 'f'.repeat(32) })
    expect(unknown.status).toBe(400)
  })

  it.each([
    ['elsewhere', 'sends the visitor’s tokens to another owner'],
    ['overdraw', 'takes more than the amount'],
    ['short', 'gives less than the least amount out'],
  ] as const)('the hostile fault (%s) builds a transaction that %s', async (kind, _what) => {
    const visitor = Keypair.fromSecretKey(solana.accounts[4]!.secretKey)
    const q = await quote(visitor, `${CHAIN}:${usdc}`, SOL, 10_000_000n)
    await fetch(`${api.origin}/__fault`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'hostile', times: 1, build: kind }),
    })
    const built = await build(visitor, q)
    expect(built.status).toBe(200)
    const tx = VersionedTransaction.deserialize(Buffer.from(built.body.tx.data, 'base64'))
    const keys = tx.message.staticAccountKeys.map((k) => k.toBase58())
    const hostileAccount = getAssociatedTokenAddressSync(
      new PublicKey(usdc),
      new PublicKey(SOLANA_HOSTILE_OWNER),
    ).toBase58()
    expect(keys.includes(hostileAccount)).toBe(kind === 'elsewhere')
    const instructions = TransactionMessage.decompile(tx.message).instructions
    const paid = decodeTransferCheckedInstruction(instructions.at(-2)!).data.amount
    const given = SystemInstruction.decodeTransfer(instructions.at(-1)!)
    expect(instructions.at(-1)!.programId.equals(SystemProgram.programId)).toBe(true)
    expect(given.toPubkey.equals(visitor.publicKey)).toBe(true)
    expect(paid).toBe(kind === 'overdraw' ? 15_000_000n : 10_000_000n)
    expect(given.lamports < BigInt(built.body.quote.minAmountOut)).toBe(kind === 'short')
    // The next build is the maker's own again.
    const next = await build(visitor, await quote(visitor, `${CHAIN}:${usdc}`, SOL, 10_000_000n))
    const nextKeys = VersionedTransaction.deserialize(
      Buffer.from(next.body.tx.data, 'base64'),
    ).message.staticAccountKeys.map((k) => k.toBase58())
    expect(nextKeys).not.toContain(hostileAccount)
  })
})

describe('the sandbox control of the quote window', () => {
  it('POST /__solana-maker/expire ends every quote given: its build is refused (410)', async () => {
    const visitor = Keypair.fromSecretKey(solana.accounts[6]!.secretKey)
    const q = await quote(visitor, `${CHAIN}:${usdc}`, SOL, 1_000_000n)
    const res = await fetch(`${api.origin}/__solana-maker/expire`, { method: 'POST' })
    expect(res.status).toBe(200)
    const late = await build(visitor, q)
    expect([late.status, late.body.error]).toEqual([410, SOLANA_QUOTE_EXPIRED])
    // A fresh quote is filled again.
    expect((await build(visitor, await quote(visitor, `${CHAIN}:${usdc}`, SOL, 1_000_000n))).status).toBe(200)
  })
})

describe('the maker’s quote window', () => {
  it('fills a quote within its window and refuses it after (410)', async () => {
    let now = 1_000_000
    const convert = solanaConvert({
      chainId: CHAIN,
      rpcUrl: solana.rpcUrl,
      usdc,
      maker,
      quoteWindowMs: 5_000,
      priceOf: (symbol) => ({ SOL: 150, USDC: 1 })[symbol] ?? 0,
      iconUrl: (symbol) => `/icons/${symbol}.svg`,
      now: () => now,
    })
    const router = createRouter(
      convert.over(
        convertRoutes({
          client: undefined as never,
          chainId: 31337,
          router: undefined,
          tokens: [],
          iconUrl: () => '',
        }),
      ),
    )
    const user = solana.accounts[5]!.publicKey
    const ask = async (method: 'GET' | 'POST', path: string, query: Record<string, string>, body = '') => {
      const res = await router(
        {
          method,
          url: new URL(`http://x${path}?${new URLSearchParams({ ...SDK, ...query })}`),
          headers: {},
          body,
          raw: undefined as never,
        },
        undefined as never,
      )
      return res as { status?: number; json: Record<string, unknown> }
    }
    const quoted = await ask('GET', '/v1/convert/quotes', {
      amount: '1000000',
      userAddress: user,
      from: `${CHAIN}:${usdc}`,
      to: SOL,
    })
    const q = (quoted.json.quotes as SolanaSwapQuote[])[0]!
    expect(q.expiresAt).toBe(1_005_000)
    const body = JSON.stringify({
      amount: '1000000',
      from: q.fromAccount,
      to: q.toAccount,
      userAddress: user,
      quoteId: q.id,
    })
    now = 1_005_000
    expect((await ask('POST', '/v1/convert/build-transaction', {}, body)).status).toBeUndefined()
    now = 1_005_001
    const late = await ask('POST', '/v1/convert/build-transaction', {}, body)
    expect([late.status, late.json.error]).toEqual([410, SOLANA_QUOTE_EXPIRED])
  })
})
