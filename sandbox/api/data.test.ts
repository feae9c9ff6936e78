import { createServer } from 'node:net'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseEther,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, NFT_MINTED, startChain } from '../chain/chain.ts'
import {
  type BalanceItem,
  type DataApi,
  HISTORY_PAGE_SIZE,
  type HistoryItem,
  NATIVE_TOKEN_ADDRESS,
  type NameRecord,
  type NftItem,
  type Page,
  SEEDED_NAME,
  startDataApi,
  type TelemetryEvent,
} from './data.ts'
import { openDatabase, type SandboxDb } from './db.ts'

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-wagmi-0.1.0' }

let chain: Chain
let db: SandboxDb
let api: DataApi

function url(path: string, query: Record<string, string> = {}, sdk: Partial<typeof SDK> = SDK): string {
  return `${api.origin}${path}?${new URLSearchParams({ ...sdk, ...query })}`
}

async function balances(address: string, query: Record<string, string> = {}): Promise<BalanceItem[]> {
  const res = await fetch(
    url(`/v1/account/${address}/balance`, { currency: 'usd', chainId: 'eip155:31337', ...query }),
  )
  expect(res.status).toBe(200)
  return ((await res.json()) as { balances: BalanceItem[] }).balances
}

function post(path: string, body: unknown, sdk: Partial<typeof SDK> = SDK): Promise<Response> {
  return fetch(url(path, {}, sdk), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

async function getJson<T>(path: string, query: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url(path, query))
  expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(200)
  return (await res.json()) as T
}

const history = (account: string, query: Record<string, string> = {}) =>
  getJson<Page<HistoryItem>>(`/v1/account/${account}/history`, query)
const nfts = (account: string, query: Record<string, string> = {}) =>
  getJson<Page<NftItem>>(`/v1/account/${account}/nfts`, query)

/** Every page of an account's history, following `next`. */
async function fullHistory(account: string): Promise<HistoryItem[]> {
  const items: HistoryItem[] = []
  let cursor: string | null | undefined
  do {
    const page = await history(account, cursor ? { cursor } : {})
    items.push(...page.data)
    cursor = page.next
  } while (cursor)
  return items
}

/** Waits for a transaction's receipt: anvil may answer a send a moment before it has mined it. */
async function mined(hash: Hex): Promise<Hex> {
  const reader = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 20 })
  await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  return hash
}

function walletOf(privateKey: Hex) {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: chain.viemChain,
    transport: http(chain.rpcUrl),
  })
}

/** A new account with `eth` ether from a dev account, so its history starts empty but for that. */
async function freshAccount(
  funder: number,
  eth = '1',
): Promise<{ privateKey: Hex; address: Address; funded: Hex }> {
  const privateKey = generatePrivateKey()
  const address = privateKeyToAccount(privateKey).address
  const funded = await mined(
    await walletOf(chain.accounts[funder]!.privateKey).sendTransaction({
      to: address,
      value: parseEther(eth),
    }),
  )
  return { privateKey, address, funded }
}

beforeAll(async () => {
  // The chain and the database take a moment each; start them side by side.
  ;[chain, db] = await Promise.all([startChain(), openDatabase()])
  api = await startDataApi({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokens: chain.tokens, db })
})
afterAll(async () => {
  await api?.close()
  await db?.close()
  await chain?.close()
})

describe('GET /v1/supported-chains', () => {
  it('lists the sandbox chain', async () => {
    const res = await fetch(url('/v1/supported-chains'))
    expect(await res.json()).toEqual({ http: ['eip155:31337'], ws: [] })
  })
})

describe('GET /v1/account/{address}/balance', () => {
  it('reads a funded dev account: native first, then each ERC-20, priced in USD', async () => {
    const list = await balances(chain.accounts[1]!.address)
    expect(list.map((b) => b.symbol)).toEqual(['ETH', 'USDC', 'STK', 'USDT'])
    const [eth, usdc, stk, usdt] = list
    expect(eth).toMatchObject({
      name: 'Ether',
      chainId: 'eip155:31337',
      price: 3000,
      quantity: { decimals: '18', numeric: '10000' },
      value: 30_000_000,
    })
    expect(eth).not.toHaveProperty('address')
    expect(usdc).toMatchObject({
      name: 'Sandbox USD Coin',
      address: `eip155:31337:${chain.contracts.usdc}`,
      price: 1,
      quantity: { decimals: '6', numeric: '10000' },
      value: 10_000,
    })
    expect(stk).toMatchObject({ price: 2.5, quantity: { decimals: '18', numeric: '1000' }, value: 2500 })
    expect(usdt).toMatchObject({ address: `eip155:31337:${chain.contracts.usdt}`, value: 10_000 })

    const icon = await fetch(usdc!.iconUrl)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
  })

  it('sees a native and an ERC-20 transfer made moments before', async () => {
    const sender = chain.accounts[2]!
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    expect(await balances(receiver)).toEqual([])

    const wallet = createWalletClient({
      account: privateKeyToAccount(sender.privateKey),
      chain: chain.viemChain,
      transport: http(chain.rpcUrl),
    })
    await wallet.sendTransaction({ to: receiver, value: parseEther('1.5') })
    await wallet.writeContract({
      address: chain.contracts.usdc,
      abi: chain.abis.erc20,
      functionName: 'transfer',
      args: [receiver, parseUnits('12.5', 6)],
    })
    const last = await wallet.writeContract({
      address: chain.contracts.usdt,
      abi: chain.abis.usdt,
      functionName: 'transfer',
      args: [receiver, parseUnits('3', 6)],
    })
    // Mined (anvil answers the hash before it has always mined it), so the balances read it.
    await createPublicClient({ transport: http(chain.rpcUrl) }).waitForTransactionReceipt({
      hash: last,
      pollingInterval: 20,
    })

    const after = await balances(receiver, { forceUpdate: 'true' })
    expect(after.map((b) => [b.symbol, b.quantity.numeric, b.value])).toEqual([
      ['ETH', '1.5', 4500],
      ['USDC', '12.5', 12.5],
      ['USDT', '3', 3],
    ])
    // Lower-case addresses are accepted too.
    expect(await balances(receiver.toLowerCase())).toEqual(after)

    const senderUsdc = (await balances(sender.address)).find((b) => b.symbol === 'USDC')
    expect(senderUsdc?.quantity.numeric).toBe('9987.5')
  })

  it('answers an empty list for chains it does not serve', async () => {
    const address = chain.accounts[1]!.address
    expect(await balances(address, { chainId: 'eip155:1' })).toEqual([])
    expect(
      await balances('So11111111111111111111111111111111111111112', {
        chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      }),
    ).toEqual([])
  })

  it('refuses invalid addresses, chain ids and currencies with 400', async () => {
    const address = chain.accounts[1]!.address
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['0x1234', {}, /^Invalid address: 0x1234$/],
      ['not-an-address', {}, /^Invalid address/],
      [address, { chainId: '31337' }, /^Invalid query parameter chainId/],
      [address, { currency: 'eur' }, /Unsupported currency/],
    ]
    for (const [who, query, message] of cases) {
      const res = await fetch(
        url(`/v1/account/${who}/balance`, { currency: 'usd', chainId: 'eip155:31337', ...query }),
      )
      expect(res.status, `${who} ${JSON.stringify(query)}`).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
  })

  it('answers 502 when the chain is unreachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    const dead = await startDataApi({
      rpcUrl: `http://127.0.0.1:${port}`,
      chainId: 31337,
      tokens: chain.tokens,
      db,
    })
    try {
      const res = await fetch(
        `${dead.origin}/v1/account/${chain.accounts[0]!.address}/balance?${new URLSearchParams(SDK)}`,
      )
      expect(res.status).toBe(502)
      expect(((await res.json()) as { error: string }).error).toMatch(/^Chain RPC unavailable/)
      const history = await fetch(
        `${dead.origin}/v1/account/${chain.accounts[0]!.address}/history?${new URLSearchParams(SDK)}`,
      )
      expect(history.status).toBe(502)
    } finally {
      await dead.close()
    }
    // The shared database outlives a service that did not open it.
    expect(await api.telemetry()).toBeInstanceOf(Array)
  })
})

describe('GET /v1/account/{account}/history', () => {
  it('lists what an account received and sent, newest first, as it happened on the chain', async () => {
    const sender = chain.accounts[3]!
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const wallet = walletOf(sender.privateKey)
    const eth = await wallet.sendTransaction({ to: receiver, value: parseEther('1.5') })
    const usdc = await wallet.writeContract({
      address: chain.contracts.usdc,
      abi: chain.abis.erc20,
      functionName: 'transfer',
      args: [receiver, parseUnits('12.5', 6)],
    })
    const usdt = await wallet.writeContract({
      address: chain.contracts.usdt,
      abi: chain.abis.usdt,
      functionName: 'transfer',
      args: [receiver, parseUnits('3', 6)],
    })
    await mined(usdt)

    const page = await history(receiver)
    expect(page.next).toBeNull()
    expect(page.data.map((item) => item.id)).toEqual([usdt, usdc, eth])
    const [usdtItem, usdcItem, ethItem] = page.data
    expect(usdtItem).toEqual({
      id: usdt,
      metadata: {
        operationType: 'receive',
        hash: usdt,
        minedAt: expect.any(String),
        sentFrom: sender.address,
        sentTo: chain.contracts.usdt,
        status: 'confirmed',
        nonce: expect.any(Number),
        chain: 'eip155:31337',
      },
      transfers: [
        {
          fungible_info: {
            name: 'Sandbox Tether',
            symbol: 'USDT',
            icon: { url: `${api.origin}/icons/USDT.svg` },
          },
          direction: 'in',
          quantity: { numeric: '3' },
          value: 3,
          price: 1,
        },
      ],
    })
    const reader = createPublicClient({ transport: http(chain.rpcUrl) })
    const receipt = await reader.getTransactionReceipt({ hash: usdt })
    const block = await reader.getBlock({ blockNumber: receipt.blockNumber })
    expect(Date.parse(usdtItem!.metadata.minedAt)).toBe(Number(block.timestamp) * 1000)
    expect(usdcItem?.transfers).toMatchObject([
      { fungible_info: { symbol: 'USDC' }, direction: 'in', quantity: { numeric: '12.5' }, value: 12.5 },
    ])
    expect(ethItem?.metadata).toMatchObject({ operationType: 'receive', sentTo: receiver })
    expect(ethItem?.transfers).toEqual([
      {
        fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: `${api.origin}/icons/ETH.svg` } },
        direction: 'in',
        quantity: { numeric: '1.5' },
        value: 4500,
        price: 3000,
      },
    ])

    // The same three, seen from the sender: sends, money out.
    const sent = (await history(sender.address)).data.slice(0, 3)
    expect(sent.map((item) => [item.id, item.metadata.operationType, item.transfers[0]?.direction])).toEqual([
      [usdt, 'send', 'out'],
      [usdc, 'send', 'out'],
      [eth, 'send', 'out'],
    ])
    // Lower-case addresses and the served chain id give the same answer; other chains and onramp give none.
    expect(await history(receiver.toLowerCase(), { chainId: 'eip155:31337' })).toEqual(page)
    expect(await history(receiver, { chainId: 'eip155:1' })).toEqual({ data: [], next: null })
    expect(await history(receiver, { onramp: 'coinbase' })).toEqual({ data: [], next: null })
  })

  it('pages newest first with a cursor that keeps its place while blocks are mined', async () => {
    const account = await freshAccount(5)
    const wallet = walletOf(account.privateKey)
    const hashes: Hex[] = [account.funded]
    for (let n = 0; n < HISTORY_PAGE_SIZE + 1; n++) {
      hashes.push(await wallet.sendTransaction({ to: chain.accounts[6]!.address, value: BigInt(n + 1) }))
    }
    await mined(hashes.at(-1)!)
    const newestFirst = [...hashes].reverse()

    const first = await history(account.address)
    expect(first.data).toHaveLength(HISTORY_PAGE_SIZE)
    expect(first.next).toEqual(expect.any(String))
    const second = await history(account.address, { cursor: first.next! })
    expect(second.next).toBeNull()
    expect([...first.data, ...second.data].map((item) => item.id)).toEqual(newestFirst)
    expect(second.data.at(-1)?.metadata.operationType).toBe('receive')

    const later = await mined(await wallet.sendTransaction({ to: chain.accounts[6]!.address, value: 1n }))
    expect(await history(account.address, { cursor: first.next! })).toEqual(second)
    expect((await history(account.address)).data[0]?.id).toBe(later)
  })

  it('names mints, approvals and failed sends; NFT transfers carry name, image and the spam flag', async () => {
    const minted = await fullHistory(chain.accounts[1]!.address)
    const mints = minted.filter((item) => item.metadata.operationType === 'mint')
    expect(mints.map((item) => item.transfers[0]?.fungible_info?.symbol).sort()).toEqual([
      'STK',
      'USDC',
      'USDT',
    ])
    expect(mints[0]?.metadata.sentFrom).toBe(chain.accounts[0]!.address)

    const account = await freshAccount(7)
    const wallet = walletOf(account.privateKey)
    const approve = await wallet.writeContract({
      address: chain.contracts.usdc,
      abi: chain.abis.erc20,
      functionName: 'approve',
      args: [chain.contracts.pool, 10n],
    })
    // A transfer of more than the account holds, sent without simulation: mined, reverted.
    const failed = await wallet.writeContract({
      address: chain.contracts.usdc,
      abi: chain.abis.erc20,
      functionName: 'transfer',
      args: [chain.accounts[6]!.address, parseUnits('20000', 6)],
      gas: 100_000n,
    })
    const reader = createPublicClient({ transport: http(chain.rpcUrl) })
    expect((await reader.getTransactionReceipt({ hash: await mined(failed) })).status).toBe('reverted')
    const punk = await walletOf(chain.accounts[0]!.privateKey).writeContract({
      address: chain.contracts.nft,
      abi: chain.abis.nft,
      functionName: 'transferFrom',
      args: [chain.accounts[0]!.address, account.address, 2n],
    })
    await mined(punk)

    const [received, failedItem, approveItem] = (await history(account.address)).data
    expect(received?.id).toBe(punk)
    expect(received?.metadata.operationType).toBe('receive')
    expect(received?.transfers).toEqual([
      {
        nft_info: {
          name: 'Sandbox Punk #2',
          content: {
            preview: { url: `${api.origin}/nft/${chain.contracts.nft}/2.svg`, content_type: 'image/svg+xml' },
            detail: { url: `${api.origin}/nft/${chain.contracts.nft}/2.svg`, content_type: 'image/svg+xml' },
          },
          flags: { is_spam: false },
        },
        direction: 'in',
        quantity: { numeric: '1' },
      },
    ])
    const image = await fetch(received!.transfers[0]!.nft_info!.content.preview.url)
    expect(image.headers.get('content-type')).toBe('image/svg+xml')
    expect(await image.text()).toMatch(/^<svg /)

    expect(failedItem).toMatchObject({
      id: failed,
      metadata: { operationType: 'send', status: 'failed' },
      transfers: [{ fungible_info: { symbol: 'USDC' }, direction: 'out', quantity: { numeric: '20000' } }],
    })
    expect(approveItem).toMatchObject({ id: approve, metadata: { operationType: 'approve' }, transfers: [] })

    // Dev account 0 minted the Sandbox Punks at start; the last one is the sandbox's spam item.
    const punks = (await fullHistory(chain.accounts[0]!.address))
      .flatMap((item) => item.transfers.map((t) => ({ op: item.metadata.operationType, nft: t.nft_info })))
      .filter((t) => t.nft !== undefined)
    const spam = punks.filter((t) => t.nft?.flags.is_spam).map((t) => [t.op, t.nft?.name])
    expect(spam).toEqual([['mint', `Sandbox Punk #${NFT_MINTED}`]])
  })

  it('refuses invalid addresses and cursors with 400', async () => {
    const address = chain.accounts[0]!.address
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['0x1234', {}, /^Invalid address: 0x1234$/],
      [address, { cursor: 'not a cursor' }, /^Invalid query parameter cursor/],
      [
        address,
        { cursor: Buffer.from('{"c":"x"}').toString('base64url') },
        /^Invalid query parameter cursor/,
      ],
      [address, { chainId: '1' }, /^Invalid query parameter chainId/],
    ]
    for (const [who, query, message] of cases) {
      const res = await fetch(url(`/v1/account/${who}/history`, query))
      expect(res.status, `${who} ${JSON.stringify(query)}`).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
  })
})

describe('GET /v1/account/{account}/nfts', () => {
  it('lists the items an account holds, following transfers, with images and the spam flag', async () => {
    const holder = await freshAccount(8)
    await mined(
      await walletOf(chain.accounts[0]!.privateKey).writeContract({
        address: chain.contracts.nft,
        abi: chain.abis.nft,
        functionName: 'transferFrom',
        args: [chain.accounts[0]!.address, holder.address, 3n],
      }),
    )
    const page = await nfts(holder.address)
    expect(page).toEqual({
      data: [
        {
          chainId: 'eip155:31337',
          contract: chain.contracts.nft,
          tokenId: '3',
          name: 'Sandbox Punk #3',
          description: expect.stringMatching(/Walletstate sandbox chain/),
          collection: { name: 'Sandbox Punks', symbol: 'SPUNK' },
          preview: { url: `${api.origin}/nft/${chain.contracts.nft}/3.svg`, content_type: 'image/svg+xml' },
          flags: { is_spam: false },
        },
      ],
      next: null,
    })
    // The served image is the one the contract's tokenURI carries.
    const reader = createPublicClient({ transport: http(chain.rpcUrl) })
    const uri = await reader.readContract({
      address: chain.contracts.nft,
      abi: chain.abis.nft,
      functionName: 'tokenURI',
      args: [3n],
    })
    const json = JSON.parse(Buffer.from(uri.split(',')[1]!, 'base64').toString('utf8')) as { image: string }
    const svg = Buffer.from(json.image.split(',')[1]!, 'base64').toString('utf8')
    expect(await (await fetch(page.data[0]!.preview.url)).text()).toBe(svg)

    const devItems = (await nfts(chain.accounts[0]!.address)).data
    expect(devItems.map((item) => item.tokenId)).not.toContain('3')
    expect(devItems.find((item) => item.tokenId === String(NFT_MINTED))?.flags.is_spam).toBe(true)
    expect(devItems.find((item) => item.tokenId === '1')?.flags.is_spam).toBe(false)
    expect(await nfts(holder.address, { chainId: 'eip155:1' })).toEqual({ data: [], next: null })
    expect((await fetch(`${api.origin}/nft/${chain.contracts.nft}/999.svg`)).status).toBe(404)
  })

  it('pages by contract and token id; spam can be marked at start', async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address
    const owner = walletOf(chain.accounts[0]!.privateKey)
    const reader = createPublicClient({ transport: http(chain.rpcUrl) })
    const firstId =
      (await reader.readContract({
        address: chain.contracts.nft,
        abi: chain.abis.nft,
        functionName: 'totalSupply',
      })) + 1n
    for (let n = 0; n < 21; n++) {
      await mined(
        await owner.writeContract({
          address: chain.contracts.nft,
          abi: chain.abis.nft,
          functionName: 'mint',
          args: [holder],
        }),
      )
    }
    const first = await nfts(holder)
    expect(first.data).toHaveLength(20)
    const second = await nfts(holder, { cursor: first.next! })
    expect(second.next).toBeNull()
    const ids = [...first.data, ...second.data].map((item) => BigInt(item.tokenId))
    expect(ids).toEqual(Array.from({ length: 21 }, (_, n) => firstId + BigInt(n)))

    const flagged = await startDataApi({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      tokens: chain.tokens,
      db,
      spamNfts: [{ contract: chain.contracts.nft, tokenId: firstId }],
    })
    try {
      const res = await fetch(`${flagged.origin}/v1/account/${holder}/nfts?${new URLSearchParams(SDK)}`)
      const page = (await res.json()) as Page<NftItem>
      expect(page.data.filter((item) => item.flags.is_spam).map((item) => item.tokenId)).toEqual([
        String(firstId),
      ])
    } finally {
      await flagged.close()
    }
  })
})

describe('identity and profile names', () => {
  const dev = () => chain.accounts[0]!.address

  it('GET /v1/identity/{address}: the seeded name and avatar of dev account 0, nulls for others', async () => {
    const identity = await getJson<{ name: string | null; avatar: string | null }>(`/v1/identity/${dev()}`, {
      sender: chain.accounts[1]!.address,
    })
    expect(identity).toEqual({ name: SEEDED_NAME, avatar: `${api.origin}/avatars/sandbox-dev.svg` })
    expect(await getJson(`/v1/identity/${dev().toLowerCase()}`)).toEqual(identity)
    const avatar = await fetch(identity.avatar!)
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml')
    expect(await getJson(`/v1/identity/${chain.accounts[2]!.address}`)).toEqual({ name: null, avatar: null })
    expect((await fetch(`${api.origin}/avatars/nobody.svg`)).status).toBe(404)
  })

  it('GET /v1/profile/reverse/{address} and /v1/profile/account/{name} read the names table', async () => {
    await db.pg.query(
      `INSERT INTO profile_names (name, address, registered_at, updated_at)
       VALUES ('second-name.reown.id', $1, '2025-02-01T00:00:00Z', '2025-02-01T00:00:00Z')`,
      [dev().toLowerCase()],
    )
    try {
      const records = await getJson<NameRecord[]>(`/v1/profile/reverse/${dev()}`, { apiVersion: '2' })
      expect(records.map((record) => record.name)).toEqual([SEEDED_NAME, 'second-name.reown.id'])
      expect(records[0]).toEqual({
        name: SEEDED_NAME,
        registered: Date.parse('2025-01-01T00:00:00Z'),
        updated: Date.parse('2025-01-01T00:00:00Z'),
        addresses: { '60': { address: dev(), created: Date.parse('2025-01-01T00:00:00Z') } },
        attributes: {
          avatar: `${api.origin}/avatars/sandbox-dev.svg`,
          bio: 'Dev account 0 of the Walletstate sandbox',
        },
      })
      expect(records[1]?.attributes).toEqual({})
      // The primary name stays the first registered.
      expect(await getJson(`/v1/identity/${dev()}`)).toMatchObject({ name: SEEDED_NAME })
      expect(await getJson(`/v1/profile/reverse/${chain.accounts[2]!.address}`)).toEqual([])

      expect(await getJson(`/v1/profile/account/${SEEDED_NAME.toUpperCase()}`)).toEqual(records[0])
      const missing = await fetch(url('/v1/profile/account/nobody-here.reown.id'))
      expect(missing.status).toBe(404)
      expect(((await missing.json()) as { error: string }).error).toBe('Name not found: nobody-here.reown.id')
    } finally {
      await db.pg.query("DELETE FROM profile_names WHERE name = 'second-name.reown.id'")
    }
  })

  it('refuses malformed addresses, senders and names with 400', async () => {
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['/v1/identity/0xabc', {}, /^Invalid address/],
      [`/v1/identity/${dev()}`, { sender: 'me' }, /^Invalid query parameter sender/],
      ['/v1/profile/reverse/not-an-address', {}, /^Invalid address/],
      [`/v1/profile/reverse/${dev()}`, { apiVersion: 'two' }, /^Invalid query parameter apiVersion/],
      ['/v1/profile/account/no spaces.reown.id', {}, /^Invalid name/],
      ['/v1/profile/account/nodot', {}, /^Invalid name/],
    ]
    for (const [path, query, message] of cases) {
      const res = await fetch(url(path, query))
      expect(res.status, path).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
  })
})

describe('POST /v1/fungible/price', () => {
  it('prices the native currency and the sandbox tokens from the fixed table', async () => {
    const res = await post('/v1/fungible/price', {
      currency: 'usd',
      projectId: SDK.projectId,
      addresses: [
        `eip155:31337:${NATIVE_TOKEN_ADDRESS}`,
        `eip155:31337:${chain.contracts.usdc}`,
        `eip155:31337:${chain.contracts.stk.toLowerCase()}`,
        `eip155:31337:${chain.contracts.usdt}`,
        `eip155:31337:${chain.contracts.nft}`,
        `eip155:1:${chain.contracts.usdc}`,
      ],
    })
    expect(res.status).toBe(200)
    const { fungibles } = (await res.json()) as {
      fungibles: Array<{ name: string; symbol: string; iconUrl: string; price: number }>
    }
    expect(fungibles.map(({ symbol, price, name }) => ({ symbol, price, name }))).toEqual([
      { symbol: 'ETH', price: 3000, name: 'Ether' },
      { symbol: 'USDC', price: 1, name: 'Sandbox USD Coin' },
      { symbol: 'STK', price: 2.5, name: 'Sandbox Token' },
      { symbol: 'USDT', price: 1, name: 'Sandbox Tether' },
    ])
    for (const fungible of fungibles)
      expect(fungible.iconUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/icons\/\w+\.svg$/)
  })

  it('refuses malformed price requests with 400', async () => {
    const bodies: Array<[unknown, RegExp]> = [
      ['{not json', /^price request body must be JSON$/],
      [{ currency: 'usd', addresses: ['0xabc'] }, /CAIP-10/],
      [{ currency: 'eur', addresses: [] }, /Unsupported currency/],
      [{ currency: 'usd' }, /^Invalid price request body/],
    ]
    for (const [body, message] of bodies) {
      const res = await post('/v1/fungible/price', body)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
  })
})

describe('telemetry sink POST /e', () => {
  const event = (eventId: string) => ({
    eventId,
    url: 'http://127.0.0.1:5173/',
    domain: '127.0.0.1',
    timestamp: 1_760_000_000_000,
    props: {
      type: 'error',
      event: 'ERROR',
      errorType: 'Error',
      errorMessage: 'Token Balance Unavailable',
      stackTrace: 'Error: Token Balance Unavailable\n    at x',
    },
  })

  it('stores valid events and lists them', async () => {
    const id = crypto.randomUUID()
    const res = await post('/e', event(id))
    expect(res.status).toBe(202)
    expect(await res.json()).toEqual({ ok: true, duplicate: false })

    const again = await post('/e', event(id))
    expect(await again.json()).toEqual({ ok: true, duplicate: true })

    const other = await post(
      '/e',
      { ...event(crypto.randomUUID()), props: { type: 'track', event: 'MODAL_OPEN' } },
      {
        ...SDK,
        projectId: 'other-project',
      },
    )
    expect(other.status).toBe(202)

    const stored = (await api.telemetry()).filter((e) => e.eventId === id)
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({
      ...event(id),
      projectId: 'test-project',
      st: 'appkit',
      sv: 'html-wagmi-0.1.0',
    })
    expect(Date.parse(stored[0]!.receivedAt)).toBeGreaterThan(Date.now() - 60_000)

    const listed = (await (await fetch(`${api.origin}/__telemetry`)).json()) as { events: TelemetryEvent[] }
    expect(listed.events.map((e) => e.eventId)).toContain(id)
    const mine = (await (await fetch(`${api.origin}/__telemetry?projectId=other-project`)).json()) as {
      events: TelemetryEvent[]
    }
    expect(mine.events).toHaveLength(1)
    expect(mine.events[0]?.props).toEqual({ type: 'track', event: 'MODAL_OPEN' })
  })

  it('refuses malformed bodies with 400 and stores nothing', async () => {
    const before = (await api.telemetry()).length
    const bad: Array<[unknown, RegExp]> = [
      ['not json', /^telemetry body must be JSON$/],
      [{ ...event('x1'), props: { type: 'error' } }, /^Invalid telemetry body/],
      [{ ...event('x2'), timestamp: '2025-01-01' }, /^Invalid telemetry body/],
      [{ ...event(''), eventId: '' }, /must not be empty/],
      [{ ...event('x3'), props: { ...event('x3').props, errorMessage: 42 } }, /^Invalid telemetry body/],
      [[], /^Invalid telemetry body/],
    ]
    for (const [body, message] of bad) {
      const res = await post('/e', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
    const missing = await post('/e', event('x4'), { projectId: 'p', st: 'appkit' })
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { error: string }).error).toBe('Missing query parameter: sv')
    expect(await api.telemetry()).toHaveLength(before)
  })
})

describe('SDK query parameters, unknown paths, fault switch', () => {
  it('refuses every endpoint without projectId, st or sv', async () => {
    const address = chain.accounts[0]!.address
    const calls: Array<[string, 'GET' | 'POST']> = [
      ['/v1/supported-chains', 'GET'],
      [`/v1/account/${address}/balance`, 'GET'],
      ['/v1/fungible/price', 'POST'],
      ['/e', 'POST'],
      [`/v1/account/${address}/history`, 'GET'],
      [`/v1/account/${address}/nfts`, 'GET'],
      [`/v1/identity/${address}`, 'GET'],
      [`/v1/profile/reverse/${address}`, 'GET'],
      [`/v1/profile/account/${SEEDED_NAME}`, 'GET'],
    ]
    for (const [path, method] of calls) {
      for (const name of ['projectId', 'st', 'sv'] as const) {
        const sdk: Partial<typeof SDK> = { ...SDK }
        delete sdk[name]
        const res = await fetch(url(path, {}, sdk), { method, ...(method === 'POST' ? { body: '{}' } : {}) })
        expect(res.status, `${path} without ${name}`).toBe(400)
        expect(((await res.json()) as { error: string }).error).toBe(`Missing query parameter: ${name}`)
      }
    }
  })

  it('answers 404 for unknown paths and icons', async () => {
    expect((await fetch(url('/v1/nothing'))).status).toBe(404)
    expect((await fetch(url(`/v1/account/${chain.accounts[0]!.address}/balances`))).status).toBe(404)
    expect((await fetch(`${api.origin}/icons/NOPE.svg`)).status).toBe(404)
    expect((await fetch(url('/e'))).status).toBe(405)
  })

  it('fails, drops and recovers under the fault switch', async () => {
    const address = chain.accounts[0]!.address
    const set = (fault: object) =>
      fetch(`${api.origin}/__fault`, { method: 'POST', body: JSON.stringify(fault) }).then((r) => r.status)

    expect(await set({ mode: 'fail', times: 1, path: '/v1/account' })).toBe(200)
    expect((await fetch(url('/v1/supported-chains'))).status).toBe(200)
    const failed = await fetch(url(`/v1/account/${address}/balance`))
    expect(failed.status).toBe(500)
    expect((await fetch(url(`/v1/account/${address}/balance`))).status).toBe(200)

    // The same switch covers the history, NFT, identity and profile routes.
    expect(await set({ mode: '429', times: 1, retryAfterSeconds: 2, path: '/v1/account' })).toBe(200)
    const limited = await fetch(url(`/v1/account/${address}/history`))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect((await fetch(url(`/v1/account/${address}/history`))).status).toBe(200)
    for (const path of [
      `/v1/account/${address}/nfts`,
      `/v1/identity/${address}`,
      `/v1/profile/reverse/${address}`,
    ]) {
      expect(await set({ mode: 'fail', times: 1, path })).toBe(200)
      expect((await fetch(url(path))).status, path).toBe(500)
      expect((await fetch(url(path))).status, path).toBe(200)
    }

    expect(await set({ mode: 'drop', times: 1 })).toBe(200)
    await expect(fetch(url('/v1/supported-chains'))).rejects.toThrow()
    expect((await fetch(url('/v1/supported-chains'))).status).toBe(200)
    expect(api.fault.current.mode).toBe('off')
  })
})

describe('the chain index', () => {
  it('is rebuilt when the chain no longer has the block it stopped at (a revert)', async () => {
    const test = createTestClient({ mode: 'anvil', chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const wallet = walletOf(chain.accounts[9]!.privateKey)
    const snapshot = await test.snapshot()
    const undone = await mined(await wallet.sendTransaction({ to: receiver, value: parseEther('1') }))
    expect((await history(receiver)).data.map((item) => item.id)).toEqual([undone])

    await test.revert({ id: snapshot })
    expect(await history(receiver)).toEqual({ data: [], next: null })
    const kept = await mined(await wallet.sendTransaction({ to: receiver, value: parseEther('2') }))
    const after = await history(receiver)
    expect(after.data.map((item) => [item.id, item.transfers[0]?.quantity.numeric])).toEqual([[kept, '2']])
    expect(getAddress(after.data[0]!.metadata.sentFrom)).toBe(chain.accounts[9]!.address)
  })
})
