import {
  createAssociatedTokenAccountInstruction,
  createMint,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  getOrCreateAssociatedTokenAccount,
  mintTo,
} from '@solana/spl-token'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Solana, startSolana } from '../solana/solana.ts'
import { type BalanceItem, type DataApi, SANDBOX_SOLANA_CHAIN_ID, startDataApi } from './data.ts'

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-solana-0.1.0' }
/** No anvil here: the eip155 side points at a dead port and is never read by these tests. */
const DEAD_EVM_RPC = 'http://127.0.0.1:9'

let solana: Solana
let connection: Connection
let api: DataApi

function balanceUrl(base: DataApi, address: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...SDK, currency: 'usd', chainId: SANDBOX_SOLANA_CHAIN_ID, ...query })
  return `${base.origin}/v1/account/${encodeURIComponent(address)}/balance?${params}`
}

async function balances(address: string, query: Record<string, string> = {}): Promise<BalanceItem[]> {
  const res = await fetch(balanceUrl(api, address, query))
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200)
  return ((await res.json()) as { balances: BalanceItem[] }).balances
}

beforeAll(async () => {
  solana = await startSolana()
  connection = new Connection(solana.rpcUrl, 'confirmed')
  api = await startDataApi({ rpcUrl: DEAD_EVM_RPC, chainId: 31337, tokens: [], solana })
})
afterAll(async () => {
  await api?.close()
  await solana?.close()
})

describe('GET /v1/account/{address}/balance on the sandbox Solana chain', () => {
  it('serves the chain under solana: and the first 32 characters of its genesis hash', async () => {
    const genesis = await connection.getGenesisHash()
    expect(SANDBOX_SOLANA_CHAIN_ID).toBe(`solana:${genesis.slice(0, 32)}`)
    const res = await fetch(`${api.origin}/v1/supported-chains?${new URLSearchParams(SDK)}`)
    expect(await res.json()).toEqual({ http: ['eip155:31337', SANDBOX_SOLANA_CHAIN_ID], ws: [] })
  })

  it("lists a dev key's SOL (native, no address) and USDC (CAIP-10 of the mint), priced in USD", async () => {
    const owner = solana.accounts[0]!.publicKey
    const list = await balances(owner)
    expect(list).toEqual([
      {
        name: 'Solana',
        symbol: 'SOL',
        chainId: SANDBOX_SOLANA_CHAIN_ID,
        value: 15_000,
        price: 150,
        quantity: { decimals: '9', numeric: '100' },
        iconUrl: `${api.origin}/icons/SOL.svg`,
      },
      {
        name: 'USD Coin',
        symbol: 'USDC',
        chainId: SANDBOX_SOLANA_CHAIN_ID,
        address: `${SANDBOX_SOLANA_CHAIN_ID}:${solana.mints.usdc}`,
        value: 10_000,
        price: 1,
        quantity: { decimals: '6', numeric: '10000' },
        iconUrl: `${api.origin}/icons/USDC.svg`,
      },
    ])
    for (const item of list) expect((await fetch(item.iconUrl)).status).toBe(200)
    // No cache to bypass: forceUpdate reads the chain like every other call.
    expect(await balances(owner, { forceUpdate: 'true' })).toEqual(list)
  })

  it('shows what a fresh key received once the transfers are confirmed', async () => {
    const from = Keypair.fromSecretKey(solana.accounts[1]!.secretKey)
    const to = Keypair.generate().publicKey
    expect(await balances(to.toBase58())).toEqual([])

    const mint = new PublicKey(solana.mints.usdc)
    const destination = getAssociatedTokenAddressSync(mint, to)
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL / 2 }),
      createAssociatedTokenAccountInstruction(from.publicKey, destination, to, mint),
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(mint, from.publicKey),
        mint,
        destination,
        from.publicKey,
        10_000_000n,
        6,
      ),
    )
    await sendAndConfirmTransaction(connection, tx, [from], { commitment: 'confirmed' })

    const list = await balances(to.toBase58())
    expect(list.map((b) => [b.symbol, b.quantity.numeric, b.value, b.address])).toEqual([
      ['SOL', '0.5', 75, undefined],
      ['USDC', '10', 10, `${SANDBOX_SOLANA_CHAIN_ID}:${solana.mints.usdc}`],
    ])
    const sender = await balances(from.publicKey.toBase58())
    expect(sender.find((b) => b.symbol === 'USDC')?.quantity.numeric).toBe('9990')
    // 0.5 SOL sent, plus the fee and the new token account's rent.
    expect(Number(sender.find((b) => b.symbol === 'SOL')?.quantity.numeric)).toBeLessThan(99.5)
  })

  it('lists every SPL mint held, an unknown one named after its address and priced at 0', async () => {
    const payer = Keypair.fromSecretKey(solana.accounts[2]!.secretKey)
    const owner = Keypair.generate().publicKey
    const other = await createMint(connection, payer, payer.publicKey, null, 2)
    const account = await getOrCreateAssociatedTokenAccount(connection, payer, other, owner)
    await mintTo(connection, payer, other, account.address, payer, 1234n)
    const mint = other.toBase58()
    expect(await balances(owner.toBase58())).toEqual([
      {
        name: `SPL token ${mint.slice(0, 4)}…${mint.slice(-4)}`,
        symbol: mint.slice(0, 4),
        chainId: SANDBOX_SOLANA_CHAIN_ID,
        address: `${SANDBOX_SOLANA_CHAIN_ID}:${mint}`,
        value: 0,
        price: 0,
        quantity: { decimals: '2', numeric: '12.34' },
        iconUrl: '',
      },
    ])
  })

  it('refuses an address that is not base58 of 32 bytes with 400', async () => {
    const cases = [
      '0x0000000000000000000000000000000000000001',
      'not-base58-0OIl',
      '1111111111111111111111111111111', // 31 bytes
      `${solana.accounts[0]!.publicKey}2`, // 33 bytes
    ]
    for (const address of cases) {
      const res = await fetch(balanceUrl(api, address))
      expect(res.status, address).toBe(400)
      expect(((await res.json()) as { error: string }).error).toBe(
        `Invalid address: ${address} is not a Solana address (base58 of 32 bytes)`,
      )
    }
  })

  it('answers an empty list for Solana chains it does not serve, as for eip155 ones', async () => {
    const owner = solana.accounts[0]!.publicKey
    expect(await balances(owner, { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toEqual([])
    expect(await balances(owner, { chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' })).toEqual([])
    expect(await balances(owner, { chainId: 'eip155:1' })).toEqual([])
    // Without the `solana` option, the sandbox chain's id is one more chain it does not serve.
    const plain = await startDataApi({ rpcUrl: DEAD_EVM_RPC, chainId: 31337, tokens: [] })
    try {
      const res = await fetch(balanceUrl(plain, owner))
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ balances: [] })
      const chains = await fetch(`${plain.origin}/v1/supported-chains?${new URLSearchParams(SDK)}`)
      expect(await chains.json()).toEqual({ http: ['eip155:31337'], ws: [] })
    } finally {
      await plain.close()
    }
  })

  it('answers 502 while the Solana chain fails, and obeys its own fault switch', async () => {
    const owner = solana.accounts[0]!.publicKey
    const setChain = (fault: object) =>
      fetch(`${solana.rpcUrl}/__fault`, { method: 'POST', body: JSON.stringify(fault) })
    await setChain({ mode: 'fail' })
    try {
      const res = await fetch(balanceUrl(api, owner))
      expect(res.status).toBe(502)
      expect(((await res.json()) as { error: string }).error).toMatch(/^Chain RPC unavailable: .*HTTP 500/)
    } finally {
      await setChain({ mode: 'off' })
    }
    expect((await balances(owner)).map((b) => b.symbol)).toEqual(['SOL', 'USDC'])

    const setApi = (fault: object) =>
      fetch(`${api.origin}/__fault`, { method: 'POST', body: JSON.stringify(fault) })
    await setApi({ mode: 'fail', times: 1, path: '/v1/account/' })
    expect((await fetch(balanceUrl(api, owner))).status).toBe(500)
    expect((await balances(owner)).map((b) => b.symbol)).toEqual(['SOL', 'USDC'])
  })
})
