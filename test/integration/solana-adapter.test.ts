import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { getAssociatedTokenAddressSync } from '@solana/spl-token'
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js'
import bs58 from 'bs58'
import { type Browser, chromium, type Page } from 'playwright-core'
import nacl from 'tweetnacl'
import { mnemonicToAccount } from 'viem/accounts'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_MNEMONIC } from '../../sandbox/chain/chain.ts'
import { Stops } from '../../sandbox/shared/stops.ts'
import { type Solana, startSolana } from '../../sandbox/solana/solana.ts'
import { startWallets, type Wallets } from '../../sandbox/wallets/server.ts'
import { SOLANA_DEV_WALLET_ADDRESS } from '../../sandbox/wallets/solana-account.ts'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'

/*
 * The kit's Solana adapter (src/chains/solana) in real Chromium against the sandbox: the sandbox Solana chain
 * (litesvm behind JSON-RPC + WebSocket), the sandbox's Wallet Standard dev wallet (it asks before it signs; the
 * test answers its prompt), and the adapter bundled by Vite for the browser as an app's build would.
 */

const NAME = 'Walletstate Solana Dev Wallet'
const UNUSED_URL = 'http://127.0.0.1:9/'
const ENTRY = fileURLToPath(new URL('./solana-adapter.page.ts', import.meta.url))

const devAccounts = [0, 1].map((addressIndex) => {
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex })
  const key = account.getHdKey().privateKey
  if (!key) throw new Error('no private key')
  return { address: account.address, privateKey: `0x${Buffer.from(key).toString('hex')}` }
})

/** The adapter bundled for the browser (Vite, ES modules), each output file by name. */
async function bundleAdapter(): Promise<Map<string, string>> {
  const result = await build({
    configFile: false,
    envDir: false,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: false,
      lib: { entry: ENTRY, formats: ['es'], fileName: 'adapter' },
    },
  })
  const outputs = (Array.isArray(result) ? result : [result]) as Array<{
    output: Array<{ fileName: string; type: string; code?: string; source?: unknown }>
  }>
  const files = new Map<string, string>()
  for (const { output } of outputs)
    for (const item of output) if (item.type === 'chunk' && item.code) files.set(item.fileName, item.code)
  return files
}

/** A host app: the bundled adapter, the dev wallet's script, and a small bridge the test calls. */
async function startHostPage(
  walletScriptUrl: string,
  files: Map<string, string>,
  rpcUrl: string,
): Promise<{ origin: string; close(): Promise<void> }> {
  const entry = [...files.keys()].find((name) => name.startsWith('adapter'))
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Solana adapter host</title><link rel="icon" href="data:,"></head>
<body><h1>Solana adapter host</h1>
<script type="module">
  import * as sol from '/${entry}'
  const connection = new sol.Connection(${JSON.stringify(rpcUrl)}, 'confirmed')
  const errorOf = (error) => ({ name: error?.name, shortMessage: error?.shortMessage, code: error?.code, message: error?.message })
  window.__events = []
  window.__bridge = {
    list: () => sol.listSolanaWallets(),
    changes: [],
    client: undefined,
    open(id) {
      this.client?.destroy()
      this.client = sol.createSolanaWallet(id)
      this.client.watch((account) => window.__events.push(['change', account.address]), () => window.__events.push(['disconnect']))
      return this.client.info
    },
    async call(method, args) {
      try {
        const client = this.client
        let result
        if (method === 'connect') result = await client.connect(args)
        else if (method === 'disconnect') result = await client.disconnect()
        else if (method === 'signMessage') result = await client.signMessage(args)
        else if (method === 'sendSol') result = await client.sendSol({ to: args.to, lamports: BigInt(args.lamports), connection, options: args.options })
        else if (method === 'sendSpl') result = await client.sendSpl({ mint: args.mint, to: args.to, amount: BigInt(args.amount), decimals: args.decimals, connection, options: args.options })
        else throw new Error('unknown method ' + method)
        return { result: result ?? null }
      } catch (error) {
        return { error: errorOf(error) }
      }
    },
  }
  sol.subscribeSolanaWallets((wallets) => window.__bridge.changes.push(wallets.map((w) => w.name)))
</script>
<script type="module" src="${walletScriptUrl}"></script>
</body></html>`
  const server: Server = createServer((req, res) => {
    const file = files.get((req.url ?? '').slice(1))
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
    else if (file !== undefined) res.writeHead(200, { 'content-type': 'text/javascript' }).end(file)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

interface Outcome<T> {
  result?: T
  error?: { name: string; shortMessage?: string; code?: number; message: string }
}
type Bridge = {
  list(): Array<{ id: string; name: string; icon?: string; chains: string[] }>
  changes: string[][]
  open(id: string): { id: string; name: string }
  call(method: string, args: unknown): Promise<Outcome<unknown>>
}
const bridge = (page: Page) => page.evaluate.bind(page) as Page['evaluate']

function call<T>(page: Page, method: string, args?: unknown): Promise<Outcome<T>> {
  return bridge(page)(
    ({ method, args }) => (window as unknown as { __bridge: Bridge }).__bridge.call(method, args),
    { method, args },
  ) as Promise<Outcome<T>>
}

async function answerPrompt(page: Page, expectText: string[], button: 'Approve' | 'Reject'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: NAME })
  await dialog.waitFor({ state: 'visible', timeout: 15_000 })
  const text = await dialog.textContent()
  for (const expected of expectText) expect(text).toContain(expected)
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await dialog.waitFor({ state: 'detached', timeout: 5_000 })
}

/** Loads the page, waits for the dev wallet to be listed by the adapter, and opens a client for it. */
async function openWallet(page: Page, origin: string): Promise<string> {
  await page.goto(origin)
  await page.waitForFunction(
    (name) =>
      (window as unknown as { __bridge?: Bridge }).__bridge?.list().some((wallet) => wallet.name === name),
    NAME,
  )
  return page.evaluate((name) => {
    const b = (window as unknown as { __bridge: Bridge }).__bridge
    const found = b.list().find((wallet) => wallet.name === name)
    if (!found) throw new Error('not listed')
    return b.open(found.id).id
  }, NAME)
}

const stops = new Stops()
afterAll(() => stops.close())

let solana: Solana
let wallets: Wallets
let browser: Browser
let host: { origin: string; close(): Promise<void> }
let page: Page
let chain: Connection

beforeAll(async () => {
  const [files, startedSolana] = await Promise.all([
    bundleAdapter(),
    stops.track(startSolana({ fund: [SOLANA_DEV_WALLET_ADDRESS] })),
  ])
  solana = startedSolana
  chain = new Connection(solana.rpcUrl, 'confirmed')
  ;[wallets, browser] = await Promise.all([
    stops.track(
      startWallets({
        rpcUrl: UNUSED_URL,
        chainId: 31337,
        accounts: devAccounts,
        relayUrl: 'ws://127.0.0.1:9/',
        projectId: 'solana-adapter-test',
        solanaRpcUrl: solana.rpcUrl,
      }),
    ),
    stops.track(chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })),
  ])
  host = await stops.track(startHostPage(wallets.solanaScriptUrl, files, solana.rpcUrl))
  page = await (await browser.newContext()).newPage()
}, 180_000)

describe('the Solana adapter in Chromium, on the sandbox chain and dev wallet', () => {
  it('discovery lists the dev wallet, with its safe icon and chains, and follows registrations', async () => {
    const id = await openWallet(page, host.origin)
    expect(id).toBe('solana:walletstate-solana-dev-wallet')
    const listed = await page.evaluate(() => (window as unknown as { __bridge: Bridge }).__bridge.list())
    const wallet = listed.find((w) => w.name === NAME)
    expect(wallet?.icon).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(wallet?.chains).toEqual(['solana:sandbox', 'solana:localnet'])
    const changes = await page.evaluate(() => (window as unknown as { __bridge: Bridge }).__bridge.changes)
    expect(changes.at(-1)).toContain(NAME)
  })

  it('a silent connect before any approval answers null and asks nothing', async () => {
    expect(await call(page, 'connect', { silent: true })).toEqual({ result: null })
    expect(await page.getByRole('dialog', { name: NAME }).count()).toBe(0)
  })

  it('a rejected connect is “User rejected the request.”', async () => {
    const refused = call(page, 'connect')
    await answerPrompt(page, ['Connection request'], 'Reject')
    expect((await refused).error).toMatchObject({
      name: 'SolanaUserRejectedError',
      shortMessage: 'User rejected the request.',
      code: 4001,
    })
  })

  it('connects after Approve: the dev wallet’s base58 address and its chains', async () => {
    const connecting = call<{ address: string; chains: string[] }>(page, 'connect')
    await answerPrompt(page, ['Connection request', host.origin], 'Approve')
    expect((await connecting).result).toEqual({
      address: SOLANA_DEV_WALLET_ADDRESS,
      chains: ['solana:sandbox', 'solana:localnet'],
    })
    const events = await page.evaluate(() => (window as unknown as { __events: string[][] }).__events)
    expect(events).toContainEqual(['change', SOLANA_DEV_WALLET_ADDRESS])
  })

  it('signMessage: a base58 ed25519 signature that verifies; a rejection is the user’s', async () => {
    const text = `Walletstate adapter test ${randomBytes(4).toString('hex')}`
    const signing = call<string>(page, 'signMessage', text)
    await answerPrompt(page, ['Signature request', text], 'Approve')
    const { result, error } = await signing
    expect(error).toBeUndefined()
    const signature = bs58.decode(result ?? '')
    expect(signature).toHaveLength(64)
    expect(
      nacl.sign.detached.verify(
        new TextEncoder().encode(text),
        signature,
        new PublicKey(SOLANA_DEV_WALLET_ADDRESS).toBytes(),
      ),
    ).toBe(true)

    const refused = call(page, 'signMessage', 'No thanks')
    await answerPrompt(page, ['No thanks'], 'Reject')
    expect((await refused).error).toMatchObject({ shortMessage: 'User rejected the request.', code: 4001 })
  })

  it('sendSol 0.5 SOL to a fresh key: confirmed, and the chain shows the balance', async () => {
    const to = Keypair.generate().publicKey
    const before = await chain.getBalance(new PublicKey(SOLANA_DEV_WALLET_ADDRESS))
    const sending = call<string>(page, 'sendSol', {
      to: to.toBase58(),
      lamports: String(LAMPORTS_PER_SOL / 2),
      options: { preflightCommitment: 'singleGossip' },
    })
    await answerPrompt(page, ['Transaction request', `transfer 0.5 SOL to ${to.toBase58()}`], 'Approve')
    const { result, error } = await sending
    expect(error).toBeUndefined()
    const status = await chain.getSignatureStatus(result ?? '')
    expect(status.value?.err).toBeNull()
    expect(await chain.getBalance(to)).toBe(LAMPORTS_PER_SOL / 2)
    expect(before - (await chain.getBalance(new PublicKey(SOLANA_DEV_WALLET_ADDRESS)))).toBe(
      LAMPORTS_PER_SOL / 2 + 5_000,
    )
  })

  it('sendSpl 10 USDC to a fresh key: its token account is created and holds 10', async () => {
    const to = Keypair.generate().publicKey
    const mint = new PublicKey(solana.mints.usdc)
    const sending = call<string>(page, 'sendSpl', {
      mint: mint.toBase58(),
      to: to.toBase58(),
      amount: '10000000',
      decimals: 6,
    })
    await answerPrompt(page, ['Transaction request'], 'Approve')
    const { result, error } = await sending
    expect(error).toBeUndefined()
    expect(result).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    const ata = getAssociatedTokenAddressSync(mint, to)
    const balance = await chain.getTokenAccountBalance(ata)
    expect(balance.value.amount).toBe('10000000')
    expect(balance.value.uiAmount).toBe(10)
  })

  it('a rejected send is “User rejected the request.” and moves nothing', async () => {
    const to = Keypair.generate().publicKey
    const sending = call(page, 'sendSol', { to: to.toBase58(), lamports: String(LAMPORTS_PER_SOL) })
    await answerPrompt(page, ['Transaction request'], 'Reject')
    expect((await sending).error).toMatchObject({ shortMessage: 'User rejected the request.', code: 4001 })
    expect(await chain.getBalance(to)).toBe(0)
  })

  it('refuses before asking: a bad address, more than the balance, an invalid preflight commitment', async () => {
    const to = Keypair.generate().publicKey.toBase58()
    expect((await call(page, 'sendSol', { to: '0xnot-solana', lamports: '1' })).error).toMatchObject({
      name: 'SolanaInvalidAddressError',
      shortMessage: 'Invalid address',
    })
    expect(
      (await call(page, 'sendSol', { to, lamports: String(10_000 * LAMPORTS_PER_SOL) })).error,
    ).toMatchObject({ name: 'SolanaInsufficientFundsError', shortMessage: 'Insufficient funds' })
    expect(
      (await call(page, 'sendSpl', { mint: solana.mints.usdc, to, amount: String(10n ** 12n), decimals: 6 }))
        .error,
    ).toMatchObject({ name: 'SolanaInsufficientFundsError' })
    expect(
      (await call(page, 'sendSol', { to, lamports: '1000', options: { preflightCommitment: 'soon' } })).error,
    ).toMatchObject({ name: 'SolanaInvalidCommitmentError', shortMessage: 'Invalid preflight commitment' })
    expect(await page.getByRole('dialog', { name: NAME }).count()).toBe(0)
  })

  it('an RPC that fails is “unavailable”', async () => {
    const fault = await fetch(new URL('/__fault', solana.rpcUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'fail', times: 1 }),
    })
    expect(fault.ok).toBe(true)
    const to = Keypair.generate().publicKey.toBase58()
    expect((await call(page, 'sendSol', { to, lamports: '1000' })).error).toMatchObject({
      name: 'SolanaRpcUnavailableError',
    })
  })

  it('reconnects silently after a reload, asking nothing', async () => {
    await openWallet(page, host.origin)
    expect((await call(page, 'connect', { silent: true })).result).toEqual({
      address: SOLANA_DEV_WALLET_ADDRESS,
      chains: ['solana:sandbox', 'solana:localnet'],
    })
    expect(await page.getByRole('dialog', { name: NAME }).count()).toBe(0)
  })

  it('disconnects: the watcher hears it and a silent connect answers null', async () => {
    expect(await call(page, 'disconnect')).toEqual({ result: null })
    const events = await page.evaluate(() => (window as unknown as { __events: string[][] }).__events)
    expect(events.at(-1)).toEqual(['disconnect'])
    expect(await call(page, 'connect', { silent: true })).toEqual({ result: null })
  })
})
