import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import nacl from 'tweetnacl'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'
import { DEV_MNEMONIC } from '../chain/chain.ts'
import { Stops } from '../shared/stops.ts'
import { startSolana } from '../solana/solana.ts'
import { base58Encode } from '../solana/svm.ts'
import { startWallets, type Wallets } from './server.ts'
import {
  SOLANA_DEV_WALLET_ADDRESS,
  SOLANA_DEV_WALLET_CHAINS,
  SOLANA_DEV_WALLET_SEED_HEX,
  seedBytes,
} from './solana-account.ts'

/*
 * The Solana dev wallet in real Chromium, found the way a dapp finds it: `getWallets()` of
 * @wallet-standard/app, served to the host page as the package's own ES modules (they import nothing).
 * The EVM side is not exercised here, so the wallets server gets the anvil dev accounts without anvil and
 * URLs it never dials.
 */

const NAME = 'Walletstate Solana Dev Wallet'
const UNUSED_URL = 'http://127.0.0.1:9/'
const require = createRequire(import.meta.url)
/** The package's ES build (require.resolve answers its CommonJS one, lib/cjs, beside it). */
const APP_DIR = join(dirname(require.resolve('@wallet-standard/app')), '..', 'esm')

const devAccounts = [0, 1].map((addressIndex) => {
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex })
  const key = account.getHdKey().privateKey
  if (!key) throw new Error('no private key')
  return { address: account.address, privateKey: `0x${Buffer.from(key).toString('hex')}` }
})

const stops = new Stops()
afterAll(() => stops.close())

let wallets: Wallets
let browser: Browser
const walletKey = new PublicKey(SOLANA_DEV_WALLET_ADDRESS)

/** A host app on its own origin: @wallet-standard/app's getWallets() and a small bridge for the tests. */
async function startHostPage(scriptUrl: string): Promise<{ origin: string; close(): Promise<void> }> {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Solana host app</title><link rel="icon" href="data:,"></head>
<body><h1>Solana host app</h1>
<script type="module">
  import { getWallets } from '/ws-app/index.js'
  const { get, on } = getWallets()
  const NAME = ${JSON.stringify(NAME)}
  window.__changes = []
  const watch = (wallet) => {
    if (wallet.name !== NAME) return
    wallet.features['standard:events'].on('change', (change) => {
      if (change.accounts) window.__changes.push(change.accounts.map((account) => account.address))
    })
  }
  get().forEach(watch)
  on('register', (...added) => added.forEach(watch))
  const plain = (value) =>
    value instanceof Uint8Array ? [...value]
    : Array.isArray(value) ? value.map(plain)
    : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, x]) => [k, plain(x)]))
    : value
  const find = () => get().find((wallet) => wallet.name === NAME)
  window.__sol = {
    describe() {
      const wallet = find()
      return wallet && { name: wallet.name, icon: wallet.icon, version: wallet.version, chains: [...wallet.chains],
        features: Object.keys(wallet.features), accounts: wallet.accounts.map((a) => a.address),
        signTransactionVersions: [...wallet.features['solana:signTransaction'].supportedTransactionVersions] }
    },
    // Inputs cross as JSON: "account: true" is the wallet's first account; message/transaction are byte arrays.
    async call(feature, method, inputs) {
      const wallet = find()
      const args = inputs.map((input) => {
        const out = { ...input }
        if (out.account === true) out.account = wallet.accounts[0]
        for (const key of ['message', 'transaction']) if (Array.isArray(out[key])) out[key] = new Uint8Array(out[key])
        return out
      })
      try {
        return { result: plain(await wallet.features[feature][method](...args)) }
      } catch (error) {
        return { error: { name: error.name, code: error.code, message: error.message } }
      }
    },
  }
</script>
<script type="module" src="${scriptUrl}"></script>
</body></html>`
  const server: Server = createServer((req, res) => {
    const file = /^\/ws-app\/(index|wallets)\.js$/.exec(req.url ?? '')?.[1]
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
    else if (file)
      res
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(readFileSync(join(APP_DIR, `${file}.js`), 'utf8'))
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
  error?: { name: string; code?: number; message: string }
}

function call<T>(page: Page, feature: string, method: string, inputs: unknown[]): Promise<Outcome<T>> {
  return page.evaluate(
    ({ feature, method, inputs }) =>
      (
        window as unknown as {
          __sol: { call(f: string, m: string, i: unknown[]): Promise<Outcome<T>> }
        }
      ).__sol.call(feature, method, inputs),
    { feature, method, inputs },
  ) as Promise<Outcome<T>>
}

async function waitForWallet(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Boolean((window as unknown as { __sol?: { describe(): unknown } }).__sol?.describe()),
  )
}

const pendingPrompts = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __walletstateSolanaDevWallet: { pendingPrompts: number } })
        .__walletstateSolanaDevWallet.pendingPrompts,
  )

/** Waits for the wallet's prompt, checks what it says, and answers it by clicking. */
async function answerPrompt(page: Page, expectText: string[], button: 'Approve' | 'Reject'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: NAME })
  await dialog.waitFor({ state: 'visible', timeout: 10_000 })
  const text = await dialog.textContent()
  for (const expected of expectText) expect(text).toContain(expected)
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await dialog.waitFor({ state: 'detached', timeout: 5_000 })
}

/** A legacy SOL transfer from the wallet, as a dapp builds it (unsigned wire bytes). */
function legacyTransfer(to: PublicKey, sol: number, recentBlockhash?: string): number[] {
  const tx = new Transaction({
    feePayer: walletKey,
    recentBlockhash: recentBlockhash ?? Keypair.generate().publicKey.toBase58(),
  })
  tx.add(SystemProgram.transfer({ fromPubkey: walletKey, toPubkey: to, lamports: sol * LAMPORTS_PER_SOL }))
  return [...tx.serialize({ requireAllSignatures: false, verifySignatures: false })]
}

function v0Transfer(to: PublicKey, lamports: number): number[] {
  const message = new TransactionMessage({
    payerKey: walletKey,
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
    instructions: [SystemProgram.transfer({ fromPubkey: walletKey, toPubkey: to, lamports })],
  }).compileToV0Message()
  return [...new VersionedTransaction(message).serialize()]
}

beforeAll(async () => {
  wallets = await stops.track(
    startWallets({
      rpcUrl: UNUSED_URL,
      chainId: 31337,
      accounts: devAccounts,
      relayUrl: 'ws://127.0.0.1:9/',
      projectId: 'solana-wallet-test',
    }),
  )
  browser = await stops.track(chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }))
}, 120_000)

describe('the Solana dev account', () => {
  it('is the fixed dev seed’s keypair, served by startWallets', () => {
    const keypair = Keypair.fromSeed(seedBytes(SOLANA_DEV_WALLET_SEED_HEX))
    expect(keypair.publicKey.toBase58()).toBe(SOLANA_DEV_WALLET_ADDRESS)
    expect(wallets.solanaAddress).toBe(SOLANA_DEV_WALLET_ADDRESS)
    expect(wallets.solanaScriptUrl).toBe(`${wallets.origin}/solana/index.ts`)
  })

  it('lets a loopback origin load the Solana script as a module (CORS) and no foreign one', async () => {
    const allowed = await fetch(wallets.solanaScriptUrl, { headers: { origin: 'http://127.0.0.1:1234' } })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:1234')
    const foreign = await fetch(wallets.solanaScriptUrl, { headers: { origin: 'https://evil.example' } })
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('Solana dev wallet on a host page of another origin (Wallet Standard)', () => {
  let host: Awaited<ReturnType<typeof startHostPage>>
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    host = await stops.track(startHostPage(wallets.solanaScriptUrl))
    context = await browser.newContext()
    page = await context.newPage()
    await page.goto(host.origin)
    await waitForWallet(page)
  })
  afterAll(async () => {
    await context?.close()
  })

  it('is found by getWallets() with its features and chains', async () => {
    const described = await page.evaluate(() =>
      (window as unknown as { __sol: { describe(): Record<string, unknown> } }).__sol.describe(),
    )
    expect(described).toMatchObject({ name: NAME, version: '1.0.0', accounts: [] })
    expect(described.icon).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(described.chains).toEqual([...SOLANA_DEV_WALLET_CHAINS])
    expect(described.chains).toEqual(expect.arrayContaining(['solana:sandbox', 'solana:localnet']))
    expect(described.features).toEqual(
      expect.arrayContaining([
        'standard:connect',
        'standard:disconnect',
        'standard:events',
        'solana:signMessage',
        'solana:signTransaction',
        'solana:signAndSendTransaction',
      ]),
    )
    expect(described.signTransactionVersions).toEqual(['legacy', 0])
  })

  it('connects silently only once authorised; a rejected connect fails with the rejection error', async () => {
    expect(await call(page, 'standard:connect', 'connect', [{ silent: true }])).toEqual({
      result: { accounts: [] },
    })
    expect(await pendingPrompts(page)).toBe(0)

    const refused = call(page, 'standard:connect', 'connect', [{}])
    await answerPrompt(page, ['Connection request', host.origin], 'Reject')
    expect(await refused).toEqual({
      error: { name: 'WalletUserRejectedError', code: 4001, message: 'User rejected the request.' },
    })
  })

  it('connects after Approve with the dev public key, then silently after a reload', async () => {
    const connecting = call<{ accounts: Array<Record<string, unknown>> }>(
      page,
      'standard:connect',
      'connect',
      [{}],
    )
    await answerPrompt(
      page,
      ['Connection request', host.origin, SOLANA_DEV_WALLET_ADDRESS, 'Solana Sandbox'],
      'Approve',
    )
    const { result } = await connecting
    expect(result?.accounts).toHaveLength(1)
    const account = result?.accounts[0]
    expect(account?.address).toBe(SOLANA_DEV_WALLET_ADDRESS)
    expect(account?.publicKey).toEqual([...walletKey.toBytes()])
    expect(account?.chains).toEqual([...SOLANA_DEV_WALLET_CHAINS])
    expect(account?.features).toEqual([
      'solana:signMessage',
      'solana:signTransaction',
      'solana:signAndSendTransaction',
    ])
    expect(await page.evaluate(() => (window as unknown as { __changes: string[][] }).__changes)).toEqual([
      [SOLANA_DEV_WALLET_ADDRESS],
    ])

    await page.reload()
    await waitForWallet(page)
    const silent = await call<{ accounts: Array<{ address: string }> }>(page, 'standard:connect', 'connect', [
      { silent: true },
    ])
    expect(silent.result?.accounts.map((a) => a.address)).toEqual([SOLANA_DEV_WALLET_ADDRESS])
    // Authorised: even a non-silent connect asks nothing.
    const again = await call<{ accounts: unknown[] }>(page, 'standard:connect', 'connect', [{}])
    expect(again.result?.accounts).toHaveLength(1)
    expect(await pendingPrompts(page)).toBe(0)
  })

  it('signs a message on Approve (ed25519, verified in Node) and refuses on Reject', async () => {
    const text = `Sign in to the Solana host app, nonce ${randomBytes(4).toString('hex')}`
    const message = [...new TextEncoder().encode(text)]
    const signing = call<Array<{ signedMessage: number[]; signature: number[]; signatureType: string }>>(
      page,
      'solana:signMessage',
      'signMessage',
      [{ account: true, message }],
    )
    await answerPrompt(page, ['Signature request', text, SOLANA_DEV_WALLET_ADDRESS], 'Approve')
    const { result } = await signing
    const output = result?.[0]
    expect(output?.signedMessage).toEqual(message)
    expect(output?.signatureType).toBe('ed25519')
    expect(output?.signature).toHaveLength(64)
    expect(
      nacl.sign.detached.verify(
        Uint8Array.from(message),
        Uint8Array.from(output?.signature ?? []),
        walletKey.toBytes(),
      ),
    ).toBe(true)

    const refused = call(page, 'solana:signMessage', 'signMessage', [
      { account: true, message: [...new TextEncoder().encode('No thanks')] },
    ])
    await answerPrompt(page, ['No thanks'], 'Reject')
    expect(await refused).toEqual({
      error: { name: 'WalletUserRejectedError', code: 4001, message: 'User rejected the request.' },
    })
  })

  it('signs a legacy SOL transfer, showing fee payer and program; the signature verifies', async () => {
    const to = Keypair.generate().publicKey
    const signing = call<Array<{ signedTransaction: number[] }>>(
      page,
      'solana:signTransaction',
      'signTransaction',
      [{ account: true, transaction: legacyTransfer(to, 0.5), chain: 'solana:sandbox' }],
    )
    await answerPrompt(
      page,
      [
        'Transaction signature request',
        'legacy',
        'Fee payer',
        SOLANA_DEV_WALLET_ADDRESS,
        `System Program (${SystemProgram.programId.toBase58()})`,
        `transfer 0.5 SOL to ${to.toBase58()}`,
      ],
      'Approve',
    )
    const { result } = await signing
    const tx = Transaction.from(Uint8Array.from(result?.[0]?.signedTransaction ?? []))
    expect(tx.feePayer?.toBase58()).toBe(SOLANA_DEV_WALLET_ADDRESS)
    expect(tx.verifySignatures()).toBe(true)
    const signature = tx.signatures.find((s) => s.publicKey.equals(walletKey))?.signature
    expect(signature).toBeTruthy()
    expect(
      nacl.sign.detached.verify(tx.serializeMessage(), Uint8Array.from(signature ?? []), walletKey.toBytes()),
    ).toBe(true)
    const instruction = tx.instructions[0]
    expect(instruction?.programId.equals(SystemProgram.programId)).toBe(true)
    expect(instruction?.keys[1]?.pubkey.equals(to)).toBe(true)
  })

  it('signs a v0 transaction', async () => {
    const to = Keypair.generate().publicKey
    const signing = call<Array<{ signedTransaction: number[] }>>(
      page,
      'solana:signTransaction',
      'signTransaction',
      [{ account: true, transaction: v0Transfer(to, 1_234_000) }],
    )
    await answerPrompt(page, ['v0', `transfer 0.001234 SOL to ${to.toBase58()}`], 'Approve')
    const { result } = await signing
    const tx = VersionedTransaction.deserialize(Uint8Array.from(result?.[0]?.signedTransaction ?? []))
    expect(tx.version).toBe(0)
    expect(
      nacl.sign.detached.verify(
        tx.message.serialize(),
        tx.signatures[0] ?? new Uint8Array(),
        walletKey.toBytes(),
      ),
    ).toBe(true)
  })

  it('refuses, without asking, a transaction that does not need its signature or names another chain', async () => {
    const stranger = Keypair.generate().publicKey
    const foreign = new Transaction({
      feePayer: stranger,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
    })
    foreign.add(SystemProgram.transfer({ fromPubkey: stranger, toPubkey: walletKey, lamports: 1 }))
    const wire = [...foreign.serialize({ requireAllSignatures: false, verifySignatures: false })]
    const notOurs = await call(page, 'solana:signTransaction', 'signTransaction', [
      { account: true, transaction: wire },
    ])
    expect(notOurs.error?.message).toContain(`does not ask for the signature of ${SOLANA_DEV_WALLET_ADDRESS}`)
    const wrongChain = await call(page, 'solana:signTransaction', 'signTransaction', [
      { account: true, transaction: legacyTransfer(stranger, 1), chain: 'solana:mainnet' },
    ])
    expect(wrongChain.error?.message).toContain('does not serve chain solana:mainnet')
    const garbage = await call(page, 'solana:signTransaction', 'signTransaction', [
      { account: true, transaction: [1, 2, 3] },
    ])
    expect(garbage.error?.message).toMatch(/^Invalid transaction/)
    expect(await pendingPrompts(page)).toBe(0)
  })

  it('signAndSendTransaction fails clearly while no sandbox Solana RPC is configured', async () => {
    const sending = await call(page, 'solana:signAndSendTransaction', 'signAndSendTransaction', [
      {
        account: true,
        transaction: legacyTransfer(Keypair.generate().publicKey, 0.1),
        chain: 'solana:localnet',
      },
    ])
    expect(sending.error?.message).toBe('The sandbox Solana RPC is not configured')
    expect(await pendingPrompts(page)).toBe(0)
  })

  it('disconnects: no accounts, a change event, and a silent connect gets nothing', async () => {
    const before = await page.evaluate(
      () => (window as unknown as { __changes: string[][] }).__changes.length,
    )
    expect(await call(page, 'standard:disconnect', 'disconnect', [])).toEqual({})
    const changes = await page.evaluate(() => (window as unknown as { __changes: string[][] }).__changes)
    expect(changes.slice(before)).toEqual([[]])
    expect(
      await page.evaluate(
        () =>
          (window as unknown as { __sol: { describe(): { accounts: string[] } } }).__sol.describe().accounts,
      ),
    ).toEqual([])
    expect(await call(page, 'standard:connect', 'connect', [{ silent: true }])).toEqual({
      result: { accounts: [] },
    })
    const signing = await call(page, 'solana:signMessage', 'signMessage', [
      { account: { address: SOLANA_DEV_WALLET_ADDRESS }, message: [1] },
    ])
    expect(signing.error?.message).toContain('is not connected')
  })
})

/**
 * A recording stand-in for the sandbox Solana JSON-RPC's `sendTransaction` (until that chain lands here): it
 * keeps what the wallet sent and answers as a validator does, with the base58 signature or an RPC error.
 */
async function startRecordingRpc(): Promise<{
  url: string
  sent: Array<{ wire: Uint8Array; config: Record<string, unknown> }>
  failNext(message: string): void
  close(): Promise<void>
}> {
  const sent: Array<{ wire: Uint8Array; config: Record<string, unknown> }> = []
  let failure: string | undefined
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*')
    res.setHeader('access-control-allow-headers', 'content-type')
    if (req.method === 'OPTIONS') return void res.writeHead(204).end()
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      const request = JSON.parse(body) as {
        id: number
        method: string
        params: [string, Record<string, unknown>]
      }
      const answer = (payload: object) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...payload }))
      if (request.method !== 'sendTransaction')
        return answer({ error: { code: -32601, message: 'Method not found' } })
      const wire = Uint8Array.from(Buffer.from(request.params[0], 'base64'))
      sent.push({ wire, config: request.params[1] })
      if (failure) {
        const message = failure
        failure = undefined
        return answer({ error: { code: -32002, message } })
      }
      answer({ result: 'recorded' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    sent,
    failNext(message) {
      failure = message
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('Solana dev wallet with a Solana RPC URL configured', () => {
  let rpc: Awaited<ReturnType<typeof startRecordingRpc>>
  let withRpc: Wallets
  let host: Awaited<ReturnType<typeof startHostPage>>
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    rpc = await stops.track(startRecordingRpc())
    withRpc = await stops.track(
      startWallets({
        rpcUrl: UNUSED_URL,
        chainId: 31337,
        accounts: devAccounts,
        relayUrl: 'ws://127.0.0.1:9/',
        projectId: 'solana-wallet-test',
        solanaRpcUrl: rpc.url,
      }),
    )
    host = await stops.track(startHostPage(withRpc.solanaScriptUrl))
    context = await browser.newContext()
    page = await context.newPage()
    await page.goto(host.origin)
    await waitForWallet(page)
    const connecting = call(page, 'standard:connect', 'connect', [{}])
    await answerPrompt(page, ['Connection request'], 'Approve')
    expect((await connecting).result).toBeTruthy()
  }, 120_000)
  afterAll(async () => {
    await context?.close()
  })

  it('signs after Approve, submits the base64 wire by sendTransaction and answers the signature', async () => {
    const to = Keypair.generate().publicKey
    const sending = call<Array<{ signature: number[] }>>(
      page,
      'solana:signAndSendTransaction',
      'signAndSendTransaction',
      [
        {
          account: true,
          transaction: legacyTransfer(to, 0.5),
          chain: 'solana:localnet',
          options: { skipPreflight: true, preflightCommitment: 'processed' },
        },
      ],
    )
    await answerPrompt(page, ['Transaction request', `transfer 0.5 SOL to ${to.toBase58()}`], 'Approve')
    const { result, error } = await sending
    expect(error).toBeUndefined()
    expect(rpc.sent).toHaveLength(1)
    const submitted = rpc.sent[0]
    expect(submitted?.config).toMatchObject({
      encoding: 'base64',
      skipPreflight: true,
      preflightCommitment: 'processed',
    })
    const tx = Transaction.from(submitted?.wire ?? new Uint8Array())
    expect(tx.verifySignatures()).toBe(true)
    expect([...(tx.signature ?? [])]).toEqual(result?.[0]?.signature)
  })

  it('answers the RPC’s error when the chain refuses, and a rejection without sending', async () => {
    rpc.failNext(
      'Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.',
    )
    const failing = call(page, 'solana:signAndSendTransaction', 'signAndSendTransaction', [
      {
        account: true,
        transaction: legacyTransfer(Keypair.generate().publicKey, 1),
        chain: 'solana:sandbox',
      },
    ])
    await answerPrompt(page, ['Transaction request'], 'Approve')
    expect((await failing).error).toMatchObject({
      code: -32002,
      message: expect.stringContaining('no record of a prior credit'),
    })

    const before = rpc.sent.length
    const refused = call(page, 'solana:signAndSendTransaction', 'signAndSendTransaction', [
      {
        account: true,
        transaction: legacyTransfer(Keypair.generate().publicKey, 1),
        chain: 'solana:sandbox',
      },
    ])
    await answerPrompt(page, ['Transaction request'], 'Reject')
    expect((await refused).error).toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(rpc.sent.length).toBe(before)
  })
})

describe('Solana dev wallet on the sandbox Solana chain', () => {
  it('signAndSendTransaction sends 0.5 SOL for real: the chain moves it, the fee paid by the wallet', async () => {
    // The sandbox starts the chain this way: the wallet's key funded as the dev keys are.
    const solana = await stops.track(startSolana({ fund: [walletKey.toBase58()] }))
    const wallets = await stops.track(
      startWallets({
        rpcUrl: UNUSED_URL,
        chainId: 31337,
        accounts: devAccounts,
        relayUrl: 'ws://127.0.0.1:9/',
        projectId: 'solana-wallet-chain-test',
        solanaRpcUrl: solana.rpcUrl,
      }),
    )
    const host = await stops.track(startHostPage(wallets.solanaScriptUrl))
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(host.origin)
      await waitForWallet(page)
      const connecting = call(page, 'standard:connect', 'connect', [{}])
      await answerPrompt(page, ['Connection request'], 'Approve')
      expect((await connecting).result).toBeTruthy()
      const connection = new Connection(solana.rpcUrl, 'confirmed')
      const before = await connection.getBalance(walletKey)
      expect(before).toBe(100 * LAMPORTS_PER_SOL)
      const to = Keypair.generate().publicKey
      const { blockhash } = await connection.getLatestBlockhash()
      const sending = call<Array<{ signature: number[] }>>(
        page,
        'solana:signAndSendTransaction',
        'signAndSendTransaction',
        [{ account: true, transaction: legacyTransfer(to, 0.5, blockhash), chain: 'solana:localnet' }],
      )
      await answerPrompt(page, ['Transaction request', `transfer 0.5 SOL to ${to.toBase58()}`], 'Approve')
      const { result, error } = await sending
      expect(error).toBeUndefined()
      const signature = base58Encode(Uint8Array.from(result?.[0]?.signature ?? []))
      const status = await connection.getSignatureStatus(signature)
      expect(status.value?.err).toBeNull()
      expect(await connection.getBalance(to)).toBe(0.5 * LAMPORTS_PER_SOL)
      expect(before - (await connection.getBalance(walletKey))).toBe(0.5 * LAMPORTS_PER_SOL + 5_000)
    } finally {
      await context.close()
    }
  })
})
