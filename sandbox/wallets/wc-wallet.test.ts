import { randomBytes } from 'node:crypto'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  VersionedTransaction,
} from '@solana/web3.js'
import { SignClient } from '@walletconnect/sign-client'
import bs58 from 'bs58'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import nacl from 'tweetnacl'
import { createPublicClient, type Hex, http, parseEther, toHex, verifyMessage } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'
import { SANDBOX_SOLANA_CHAIN_ID } from '../api/solana.ts'
import { type Chain, startChain } from '../chain/chain.ts'
import { rpcEndpoint, startRpcService } from '../chain/rpc.ts'
import { type InspectorServer, startInspectorServer } from '../inspector/server.ts'
import { type Relay, startRelay } from '../relay/relay.ts'
import type { SandboxService } from '../shared/http.ts'
import { Stops } from '../shared/stops.ts'
import { type Solana, startSolana } from '../solana/solana.ts'
import { startWallets, type Wallets } from './server.ts'
import { seedBytes, WC_SOLANA_ADDRESS, WC_SOLANA_SEED_HEX } from './solana-account.ts'

/*
 * The WalletConnect wallet page as the kit's session client machine (wallet role) drives it, in real Chromium,
 * against real app-side SignClients paired through the sandbox relay: sessions listed and ended one by one,
 * requests answered from the machine's queue, one-click sign-in, bad input, the wallet's lifecycle streamed
 * to the sandbox inspector with ?inspect=, and its `solana` namespace signing and sending on the sandbox Solana
 * chain.
 */

const PROJECT_ID = 'wc-wallet-test'

type Dapp = InstanceType<typeof SignClient>

let chain: Chain
let solana: Solana
let rpc: SandboxService
let relay: Relay
let wallets: Wallets
let inspector: InspectorServer
let browser: Browser
const dapps: Dapp[] = []

// Registered before the setup runs: whatever started is stopped, even when a start fails (no Chromium).
const stops = new Stops()

beforeAll(async () => {
  chain = await stops.track(startChain())
  ;[rpc, relay, inspector, solana] = await Promise.all([
    stops.track(startRpcService({ chain })),
    stops.track(startRelay()),
    stops.track(startInspectorServer()),
    stops.track(startSolana()),
  ])
  wallets = await stops.track(
    startWallets({
      rpcUrl: rpcEndpoint(rpc.origin, PROJECT_ID),
      chainId: chain.chainId,
      accounts: chain.accounts,
      relayUrl: relay.url,
      projectId: PROJECT_ID,
      solanaRpcUrl: solana.rpcUrl,
    }),
  )
  browser = await stops.track(chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }))
}, 120_000)

afterAll(async () => {
  await Promise.all(
    dapps.splice(0).map(async (dapp) => {
      dapp.core.heartbeat.stop()
      await dapp.core.relayer.transportClose()
    }),
  )
  await stops.close()
})

const caip = () => `eip155:${chain.chainId}`

const eip155Namespace = () => ({
  chains: [caip()],
  methods: ['personal_sign', 'eth_sendTransaction', 'eth_chainId'],
  events: ['accountsChanged', 'chainChanged'],
})

const SOLANA_METHODS = ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction']
const solanaNamespace = () => ({ chains: [SANDBOX_SOLANA_CHAIN_ID], methods: SOLANA_METHODS, events: [] })

async function makeDapp(name: string): Promise<Dapp> {
  const dapp = await SignClient.init({
    projectId: PROJECT_ID,
    relayUrl: relay.url,
    telemetryEnabled: false,
    customStoragePrefix: `wc-wallet-test-${randomBytes(6).toString('hex')}`,
    logger: 'silent',
    metadata: { name, description: 'test', url: `http://127.0.0.1/${slug(name)}`, icons: [] },
  })
  dapps.push(dapp)
  return dapp
}

const slug = (name: string) => name.toLowerCase().replace(/\W+/g, '-')

/**
 * Proposes a session. `approval()` is called at once: sign-client 2.25 resolves only a caller already waiting,
 * so one that asks after the wallet approved waits for the proposal's expiry instead.
 */
type ProposedNamespaces = Record<string, { chains: string[]; methods: string[]; events: string[] }>

async function connect(dapp: Dapp, optionalNamespaces: ProposedNamespaces = { eip155: eip155Namespace() }) {
  const { uri, approval } = await within(dapp.connect({ optionalNamespaces }), 10_000, 'connect')
  const settled = approval()
  // Awaited (or left) by the test; never an unhandled rejection meanwhile.
  settled.catch(() => {})
  return { uri: uri as string, approval: () => settled }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms: ${what}`)), ms)
    }),
  ])
}

/** A fresh browser context per test, recording uncaught page errors and every request leaving loopback. */
interface WalletTab {
  page: Page
  context: BrowserContext
  pageErrors: string[]
  requests: string[]
}

const tabs: WalletTab[] = []

async function openWallet(query = ''): Promise<WalletTab> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const tab: WalletTab = { page, context, pageErrors: [], requests: [] }
  page.on('pageerror', (error) => tab.pageErrors.push(error.message))
  page.on('request', (request) => tab.requests.push(request.url()))
  tabs.push(tab)
  await page.goto(`${wallets.wcWalletUrl}${query}`)
  await page.locator('#app[data-state="ready"]').waitFor({ timeout: 20_000 })
  return tab
}

afterEach(async () => {
  await Promise.all(tabs.splice(0).map((tab) => tab.context.close()))
})

const machine = (page: Page) => page.getByTestId('wc-wallet-machine')
const log = (page: Page) => page.getByTestId('wc-wallet-status')
const sessionItems = (page: Page) => page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')

async function pasteAndPair(page: Page, uri: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Pairing URI' }).fill(uri)
  await page.getByRole('button', { name: 'Pair', exact: true }).click()
}

/** Pairs `dapp` through the page, approves its proposal there and answers the dapp's session. */
async function approveSession(
  page: Page,
  dapp: Dapp,
  pairing: 'query' | 'paste',
  namespaces?: ProposedNamespaces,
) {
  const { uri, approval } = await connect(dapp, namespaces)
  if (pairing === 'query') await page.goto(`${wallets.wcWalletUrl}?uri=${encodeURIComponent(uri)}`)
  else await pasteAndPair(page, uri)
  const proposal = page.getByRole('region', { name: 'Session proposal' })
  await proposal.getByText(dapp.metadata.name, { exact: true }).waitFor({ timeout: 15_000 })
  await expect.poll(() => machine(page).getAttribute('data-state')).toBe('proposal')
  await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
  return within(approval(), 10_000, 'session approval')
}

describe('WalletConnect wallet page driven by the session client machine', () => {
  it('lists sessions, answers requests from the queue, and disconnects one session of two', async () => {
    const { page, pageErrors, requests } = await openWallet()
    const alpha = await makeDapp('Alpha Dapp')
    const beta = await makeDapp('Beta Dapp')

    const first = await approveSession(page, alpha, 'query')
    expect(first.namespaces.eip155?.accounts).toEqual([
      `${caip()}:${wallets.wcAddress}`,
      `${caip()}:${chain.accounts[4]!.address}`,
    ])
    const alphaItem = sessionItems(page).filter({ hasText: 'Alpha Dapp' })
    // The session is active once the app acknowledged the settlement; the row shows its topic and expiry.
    await page.locator(`li[data-topic="${first.topic}"][data-state="active"]`).waitFor({ timeout: 10_000 })
    const alphaText = await alphaItem.textContent()
    expect(alphaText).toContain(`${first.topic.slice(0, 6)}…${first.topic.slice(-4)}`)
    expect(await alphaItem.locator('time').getAttribute('datetime')).toBe(
      new Date(first.expiry * 1000).toISOString(),
    )
    await expect.poll(() => machine(page).getAttribute('data-sessions')).toBe('1')
    expect(await machine(page).getAttribute('data-state')).toBe('idle')

    // eth_chainId needs no person: the page answers it as soon as the machine makes it active.
    const chainId = await within(
      alpha.request<Hex>({
        topic: first.topic,
        chainId: caip(),
        request: { method: 'eth_chainId', params: [] },
      }),
      10_000,
      'eth_chainId',
    )
    expect(chainId).toBe(toHex(chain.chainId))

    const message = `Machine-driven sign-in ${randomBytes(4).toString('hex')}`
    const signing = alpha.request<Hex>({
      topic: first.topic,
      chainId: caip(),
      request: { method: 'personal_sign', params: [toHex(message), wallets.wcAddress] },
    })
    const signatureRequest = page.getByRole('region', { name: 'Signature request' })
    await signatureRequest.getByText(message).waitFor({ timeout: 10_000 })
    expect(await machine(page).getAttribute('data-queue')).toBe('active')
    expect(await signatureRequest.textContent()).toContain('Alpha Dapp')
    await signatureRequest.getByRole('button', { name: 'Approve', exact: true }).click()
    const signature = await within(signing, 10_000, 'personal_sign')
    expect(await verifyMessage({ address: wallets.wcAddress, message, signature })).toBe(true)

    const to = chain.accounts[6]?.address as Hex
    const sending = alpha.request<Hex>({
      topic: first.topic,
      chainId: caip(),
      request: {
        method: 'eth_sendTransaction',
        params: [{ from: wallets.wcAddress, to, value: toHex(parseEther('0.125')) }],
      },
    })
    const transaction = page.getByRole('region', { name: 'Transaction request' })
    await transaction.getByText('0.125 ETH').waitFor({ timeout: 10_000 })
    await transaction.getByRole('button', { name: 'Approve', exact: true }).click()
    const hash = await within(sending, 20_000, 'eth_sendTransaction')
    const reader = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(wallets.wcAddress.toLowerCase())
    await expect.poll(() => machine(page).getAttribute('data-queue')).toBe('idle')

    // A second app, paired by pasting its URI: two sessions, one Disconnect button each.
    const second = await approveSession(page, beta, 'paste')
    await page.locator(`li[data-topic="${second.topic}"][data-state="active"]`).waitFor({ timeout: 10_000 })
    await expect.poll(() => machine(page).getAttribute('data-sessions')).toBe('2')
    expect(
      await sessionItems(page)
        .getByRole('button', { name: /^Disconnect / })
        .count(),
    ).toBe(2)

    const betaDeletes: string[] = []
    beta.on('session_delete', ({ topic }) => betaDeletes.push(topic))
    const alphaDeleted = new Promise<string>((resolve) =>
      alpha.once('session_delete', ({ topic }) => resolve(topic)),
    )
    await page.getByRole('button', { name: 'Disconnect Alpha Dapp', exact: true }).click()
    expect(await within(alphaDeleted, 10_000, 'session_delete at Alpha')).toBe(first.topic)
    await alphaItem.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => machine(page).getAttribute('data-sessions')).toBe('1')
    expect(alpha.session.keys).not.toContain(first.topic)
    expect(await log(page).textContent()).toContain('Disconnected from Alpha Dapp')
    // The other session is untouched: its app still reaches the wallet.
    await within(beta.ping({ topic: second.topic }), 10_000, 'ping Beta')
    expect(betaDeletes).toEqual([])
    expect(await sessionItems(page).textContent()).toContain('Beta Dapp')

    // Ended from the app's side: the machine hears it and the list empties.
    await beta.disconnect({ topic: second.topic, reason: { code: 6000, message: 'User disconnected.' } })
    await page.getByText('No active sessions').waitFor({ state: 'visible', timeout: 10_000 })
    expect(await log(page).textContent()).toContain('The app ended the session (Beta Dapp)')
    expect(await machine(page).getAttribute('data-sessions')).toBe('0')

    expect(pageErrors).toEqual([])
    expect(requests.filter((url) => !/^(data:|http:\/\/127\.0\.0\.1[:/])/.test(url))).toEqual([])
    // Without ?inspect= the inspector's code is never fetched.
    expect(requests.filter((url) => url.includes('statelyai'))).toEqual([])
  })

  // Known flake, cause not found yet: in the full integration tier (two files at a time) the dapp's auth response
  // has sometimes never come (3 runs of 6 on 2026-11-29), while alone it answers in about 1 s. One retry, so a
  // second hang still fails; the issue notes say so.
  it('signs in by one-click auth (wc_sessionAuthenticate) and holds the session it creates', {
    retry: 1,
    timeout: 90_000,
  }, async () => {
    const { page, pageErrors } = await openWallet()
    const dapp = await makeDapp('Sign-in Dapp')
    const { uri, response } = await within(
      dapp.authenticate({
        chains: [caip()],
        domain: '127.0.0.1',
        uri: 'http://127.0.0.1/login',
        nonce: randomBytes(8).toString('hex'),
        statement: 'Sign in to the sign-in dapp',
        methods: ['personal_sign'],
      }),
      10_000,
      'authenticate',
    )
    await pasteAndPair(page, uri)
    const signIn = page.getByRole('region', { name: 'Sign-in request' })
    await signIn.getByText('Sign in to the sign-in dapp').first().waitFor({ timeout: 15_000 })
    expect(await machine(page).getAttribute('data-state')).toBe('sign-in')
    await signIn.getByRole('button', { name: 'Approve', exact: true }).click()

    // The dapp verifies the signed message before it answers (a hang guard, not a speed check: on a busy
    // machine the two clients' crypto and the relay's round trips have taken over 10 s).
    const { auths, session } = await within(response(), 30_000, 'auth response')
    const cacao = auths?.[0]
    expect(cacao?.p.iss).toBe(`did:pkh:${caip()}:${wallets.wcAddress}`)
    const signed = dapp.formatAuthMessage({ request: cacao!.p, iss: cacao!.p.iss })
    expect(
      await verifyMessage({ address: wallets.wcAddress, message: signed, signature: cacao!.s.s as Hex }),
    ).toBe(true)
    expect(session).toBeDefined()
    await page.locator(`li[data-topic="${session!.topic}"]`).waitFor({ timeout: 10_000 })
    expect(await log(page).textContent()).toContain('Signed in to Sign-in Dapp')
    expect(pageErrors).toEqual([])
  })

  it('shows a clear error for a malformed pairing URI or inspector URL, and still pairs afterwards', async () => {
    const { page, pageErrors } = await openWallet(
      `?uri=${encodeURIComponent('wc:not-a-uri')}&inspect=${encodeURIComponent('http://nope')}`,
    )
    const pairError = page.getByTestId('wc-pair-error')
    await pairError.waitFor({ state: 'visible' })
    expect(await pairError.textContent()).toMatch(
      /^Not a pairing URI: a WalletConnect v2 pairing URI looks like/,
    )
    expect(await page.getByRole('textbox', { name: 'Pairing URI' }).getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByTestId('wc-action-error').textContent()).toMatch(/^Not an inspector URL/)
    expect(page.url()).not.toContain('uri=')

    await pasteAndPair(page, 'hello')
    await expect.poll(() => pairError.textContent()).toContain('Not a pairing URI')

    // Well formed but expired: refused by the WalletConnect client, reported through the machine.
    const hex = () => randomBytes(32).toString('hex')
    await pasteAndPair(page, `wc:${hex()}@2?relay-protocol=irn&symKey=${hex()}&expiryTimestamp=1000`)
    await expect.poll(() => pairError.textContent()).toMatch(/^Pairing failed: .*expired/i)
    expect(await machine(page).getAttribute('data-pair')).toBe('idle')

    // A good URI afterwards pairs, clears the error, and a rejection reaches the app.
    const dapp = await makeDapp('After Errors Dapp')
    const { uri, approval } = await connect(dapp)
    const rejected = approval().then(
      () => 'approved',
      (error: unknown) => error,
    )
    await pasteAndPair(page, uri)
    const proposal = page.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('After Errors Dapp', { exact: true }).waitFor({ timeout: 15_000 })
    expect(await pairError.isHidden()).toBe(true)
    await proposal.getByRole('button', { name: 'Reject', exact: true }).click()
    expect(await within(rejected, 10_000, 'rejected proposal')).toMatchObject({ code: 5000 })
    await expect
      .poll(() => log(page).textContent())
      .toContain('Rejected the session proposal from After Errors')
    expect(pageErrors).toEqual([])
  })

  it('streams the wallet-side lifecycle to the inspector server when ?inspect= is given', async () => {
    const dapp = await makeDapp('Inspected Dapp')
    const { uri, approval } = await connect(dapp)
    const { page, pageErrors, requests } = await openWallet(
      `?inspect=${encodeURIComponent(inspector.url)}&uri=${encodeURIComponent(uri)}`,
    )
    const proposal = page.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Inspected Dapp', { exact: true }).waitFor({ timeout: 15_000 })
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    const session = await within(approval(), 10_000, 'session approval')
    const signing = dapp.request<Hex>({
      topic: session.topic,
      chainId: caip(),
      request: { method: 'personal_sign', params: [toHex('Watched by the inspector'), wallets.wcAddress] },
    })
    const request = page.getByRole('region', { name: 'Signature request' })
    await request.getByText('Watched by the inspector').waitFor({ timeout: 10_000 })
    await request.getByRole('button', { name: 'Approve', exact: true }).click()
    await within(signing, 10_000, 'personal_sign')
    // Reloads keep ?inspect= but never pair the used URI again.
    expect(page.url()).toContain('inspect=')
    expect(page.url()).not.toContain('uri=')

    type Recorded = { type: string; name?: string; event?: { type?: string }; snapshot?: { value?: unknown } }
    const records = () => inspector.records() as Recorded[]
    const eventTypes = () => records().flatMap((r) => (r.type === '@xstate.event' ? [r.event?.type] : []))
    await expect
      .poll(eventTypes, { timeout: 10_000 })
      .toEqual(
        expect.arrayContaining([
          'session.pair',
          'wc.sessionPropose',
          'proposal.approve',
          'wc.sessionSettle',
          'wc.settleAcknowledged',
          'wc.sessionRequest',
          'request.activate',
          'request.respond',
          'request.settled',
        ]),
      )
    const actors = records().flatMap((r) => (r.type === '@xstate.actor' ? [r.name ?? ''] : []))
    expect(actors).toContain('sessionClient')
    expect(actors).toContain(`session:${session.topic}`)
    expect(actors.some((name) => name.startsWith('proposal:'))).toBe(true)
    expect(actors.some((name) => name.startsWith('request:'))).toBe(true)
    const sessionStates = records()
      .filter((r) => r.type === '@xstate.snapshot')
      .map((r) => JSON.stringify(r.snapshot?.value) ?? '')
    expect(sessionStates.some((value) => value.startsWith('{"active":'))).toBe(true)
    // The inspector's code was loaded for this page (and only because of ?inspect=).
    expect(requests.some((url) => url.includes('statelyai'))).toBe(true)
    expect(pageErrors).toEqual([])
  })
})

describe('the WalletConnect wallet page’s solana namespace', () => {
  const wcKey = () => new PublicKey(wallets.wcSolanaAddress)
  const solanaAccount = () => `${SANDBOX_SOLANA_CHAIN_ID}:${wallets.wcSolanaAddress}`
  /** What a rejected request rejects with at the app: the wallet's error object. */
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      (result) => ({ resolved: result }),
      (error: unknown) => error,
    )

  it('holds a funded dev key of the sandbox Solana chain, not the injected Solana wallet’s', async () => {
    expect(Keypair.fromSeed(seedBytes(WC_SOLANA_SEED_HEX)).publicKey.toBase58()).toBe(WC_SOLANA_ADDRESS)
    expect(wallets.wcSolanaAddress).toBe(WC_SOLANA_ADDRESS)
    expect(wallets.wcSolanaAddress).toBe(solana.accounts[1]?.publicKey)
    expect(wallets.wcSolanaAddress).not.toBe(wallets.solanaAddress)
    const connection = new Connection(solana.rpcUrl, 'confirmed')
    expect(await connection.getBalance(wcKey())).toBeGreaterThan(LAMPORTS_PER_SOL)
  })

  it('approves the sandbox Solana chain, signs messages ed25519, and answers a declined or malformed request', async () => {
    const { page, pageErrors } = await openWallet()
    await expect.poll(() => page.locator('#solana-address').textContent()).toBe(wallets.wcSolanaAddress)
    const dapp = await makeDapp('Solana Dapp')
    const { uri, approval } = await connect(dapp, { solana: solanaNamespace() })
    await pasteAndPair(page, uri)
    const proposal = page.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Solana Dapp', { exact: true }).waitFor({ timeout: 15_000 })
    // Solana alone was asked for: the card shows (and the session gets) the Solana account only.
    expect(await proposal.textContent()).toContain(solanaAccount())
    expect(await proposal.textContent()).not.toContain(wallets.wcAddress)
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    const session = await within(approval(), 10_000, 'session approval')
    expect(Object.keys(session.namespaces)).toEqual(['solana'])
    expect(session.namespaces.solana).toMatchObject({
      chains: [SANDBOX_SOLANA_CHAIN_ID],
      accounts: [solanaAccount()],
      // The events it can send there: SPEC §1's defaults.
      events: ['accountsChanged', 'chainChanged'],
    })
    expect([...(session.namespaces.solana?.methods ?? [])].sort()).toEqual([...SOLANA_METHODS].sort())
    await page.locator(`li[data-topic="${session.topic}"][data-state="active"]`).waitFor({ timeout: 10_000 })

    const signMessage = (message: string) =>
      dapp.request<{ signature: string }>({
        topic: session.topic,
        chainId: SANDBOX_SOLANA_CHAIN_ID,
        request: {
          method: 'solana_signMessage',
          params: {
            message: bs58.encode(new TextEncoder().encode(message)),
            pubkey: wallets.wcSolanaAddress,
          },
        },
      })
    const card = page.getByRole('region', { name: 'Signature request' })

    // (a) Approved: a detached ed25519 signature over the message bytes, by the account's key.
    const text = `Sign in to Solana Dapp ${randomBytes(4).toString('hex')}`
    const signing = signMessage(text)
    await card.getByText(text).waitFor({ timeout: 10_000 })
    expect(await card.textContent()).toContain('solana_signMessage')
    expect(await card.textContent()).toContain(wallets.wcSolanaAddress)
    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    const { signature } = await within(signing, 10_000, 'solana_signMessage')
    const signatureBytes = bs58.decode(signature)
    expect(signatureBytes).toHaveLength(64)
    const messageBytes = new TextEncoder().encode(text)
    expect(nacl.sign.detached.verify(messageBytes, signatureBytes, wcKey().toBytes())).toBe(true)
    expect(
      nacl.sign.detached.verify(new TextEncoder().encode(`${text}!`), signatureBytes, wcKey().toBytes()),
    ).toBe(false)

    // (c) Declined: WalletConnect's user-rejected error reaches the app.
    const declined = failure(signMessage('Do not sign this'))
    await card.getByText('Do not sign this').waitFor({ timeout: 10_000 })
    await card.getByRole('button', { name: 'Reject', exact: true }).click()
    expect(await within(declined, 10_000, 'declined solana_signMessage')).toMatchObject({
      code: 5000,
      message: 'User rejected.',
    })
    await expect.poll(() => log(page).textContent()).toContain('Rejected solana_signMessage from Solana Dapp')

    // Wrong-shaped params: refused with invalid params, never shown to the person.
    const malformed = [
      { method: 'solana_signMessage', params: { message: 42, pubkey: wallets.wcSolanaAddress } },
      {
        method: 'solana_signMessage',
        params: { message: 'not base58: 0OIl', pubkey: wallets.wcSolanaAddress },
      },
      { method: 'solana_signMessage', params: { message: bs58.encode([1, 2, 3]) } },
      { method: 'solana_signTransaction', params: { transaction: 'not base64!' } },
      { method: 'solana_signTransaction', params: { transaction: 'AAAA' } },
      { method: 'solana_signAndSendTransaction', params: [] },
    ]
    for (const request of malformed) {
      const answer = await within(
        failure(dapp.request({ topic: session.topic, chainId: SANDBOX_SOLANA_CHAIN_ID, request })),
        10_000,
        `${request.method} with bad params`,
      )
      expect(answer, JSON.stringify(request)).toMatchObject({ code: -32602 })
    }
    // Another account's key: refused as well (the wallet signs only with its own).
    const other = Keypair.generate().publicKey.toBase58()
    const foreign = await within(
      failure(
        dapp.request({
          topic: session.topic,
          chainId: SANDBOX_SOLANA_CHAIN_ID,
          request: { method: 'solana_signMessage', params: { message: bs58.encode([1]), pubkey: other } },
        }),
      ),
      10_000,
      'solana_signMessage for another key',
    )
    expect(foreign).toMatchObject({ code: -32602 })
    expect(await machine(page).getAttribute('data-queue')).toBe('idle')
    expect(await page.getByRole('region', { name: /request$/ }).count()).toBe(0)
    expect(pageErrors).toEqual([])
  })

  it('signs and sends a real SOL transfer that lands on the sandbox Solana chain, and signs one for the app to send', async () => {
    const { page, pageErrors } = await openWallet()
    const dapp = await makeDapp('Solana Sender')
    const session = await approveSession(page, dapp, 'paste', { solana: solanaNamespace() })
    const connection = new Connection(solana.rpcUrl, 'confirmed')
    const transfer = async (to: PublicKey, lamports: number) => {
      const { blockhash } = await connection.getLatestBlockhash()
      const tx = new Transaction({ feePayer: wcKey(), recentBlockhash: blockhash }).add(
        SystemProgram.transfer({ fromPubkey: wcKey(), toPubkey: to, lamports }),
      )
      return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64')
    }

    // (b) solana_signAndSendTransaction: the wallet signs, submits to the sandbox RPC and answers the signature.
    const to = Keypair.generate().publicKey
    const before = await connection.getBalance(wcKey())
    const sending = dapp.request<{ signature: string }>({
      topic: session.topic,
      chainId: SANDBOX_SOLANA_CHAIN_ID,
      request: {
        method: 'solana_signAndSendTransaction',
        params: {
          transaction: await transfer(to, 0.25 * LAMPORTS_PER_SOL),
          pubkey: wallets.wcSolanaAddress,
          sendOptions: { preflightCommitment: 'confirmed' },
        },
      },
    })
    const card = page.getByRole('region', { name: 'Transaction request' })
    await card
      .getByText(`transfer 0.25 SOL to ${to.toBase58()}`, { exact: false })
      .waitFor({ timeout: 10_000 })
    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    const { signature } = await within(sending, 20_000, 'solana_signAndSendTransaction')
    expect(bs58.decode(signature)).toHaveLength(64)
    const status = await connection.getSignatureStatus(signature)
    expect(status.value?.err).toBeNull()
    expect(await connection.getBalance(to)).toBe(0.25 * LAMPORTS_PER_SOL)
    expect(before - (await connection.getBalance(wcKey()))).toBe(0.25 * LAMPORTS_PER_SOL + 5_000)

    // solana_signTransaction: signed, not sent; the app sends the signed bytes itself and they land.
    const second = Keypair.generate().publicKey
    const signing = dapp.request<{ signature: string; transaction: string }>({
      topic: session.topic,
      chainId: SANDBOX_SOLANA_CHAIN_ID,
      request: {
        method: 'solana_signTransaction',
        params: {
          transaction: await transfer(second, 0.1 * LAMPORTS_PER_SOL),
          pubkey: wallets.wcSolanaAddress,
        },
      },
    })
    const signCard = page.getByRole('region', { name: 'Transaction signature request' })
    await signCard.getByText(`transfer 0.1 SOL to ${second.toBase58()}`, { exact: false }).waitFor({
      timeout: 10_000,
    })
    await signCard.getByRole('button', { name: 'Approve', exact: true }).click()
    const signed = await within(signing, 10_000, 'solana_signTransaction')
    const tx = VersionedTransaction.deserialize(Buffer.from(signed.transaction, 'base64'))
    expect(tx.signatures[0] && bs58.encode(tx.signatures[0])).toBe(signed.signature)
    expect(
      nacl.sign.detached.verify(tx.message.serialize(), bs58.decode(signed.signature), wcKey().toBytes()),
    ).toBe(true)
    expect(await connection.getBalance(second)).toBe(0)
    const sent = await connection.sendRawTransaction(tx.serialize())
    expect(sent).toBe(signed.signature)
    expect(await connection.getBalance(second)).toBe(0.1 * LAMPORTS_PER_SOL)

    // The node's refusal reaches the app with its code (a transfer of more than the account holds).
    const tooMuch = failure(
      dapp.request({
        topic: session.topic,
        chainId: SANDBOX_SOLANA_CHAIN_ID,
        request: {
          method: 'solana_signAndSendTransaction',
          params: { transaction: await transfer(Keypair.generate().publicKey, 1_000_000 * LAMPORTS_PER_SOL) },
        },
      }),
    )
    await card.getByText('transfer 1000000 SOL', { exact: false }).waitFor({ timeout: 10_000 })
    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    const refusal = (await within(tooMuch, 20_000, 'failing solana_signAndSendTransaction')) as {
      code?: number
      message?: string
    }
    expect(refusal.code).toBe(-32002)
    expect(refusal.message).toMatch(/^Transaction simulation failed/)
    expect(pageErrors).toEqual([])
  })

  it('grants both namespaces to an eip155 + solana proposal and answers on each chain', async () => {
    const { page, pageErrors } = await openWallet()
    const dapp = await makeDapp('Multichain Dapp')
    const { uri, approval } = await connect(dapp, { eip155: eip155Namespace(), solana: solanaNamespace() })
    await pasteAndPair(page, uri)
    const proposal = page.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Multichain Dapp', { exact: true }).waitFor({ timeout: 15_000 })
    const facts = await proposal.textContent()
    expect(facts).toContain(`${caip()}:${wallets.wcAddress}`)
    expect(facts).toContain(solanaAccount())
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    const session = await within(approval(), 10_000, 'session approval')
    expect(Object.keys(session.namespaces).sort()).toEqual(['eip155', 'solana'])
    expect(session.namespaces.eip155?.accounts).toEqual(wallets.wcAddresses.map((a) => `${caip()}:${a}`))
    expect(session.namespaces.eip155?.chains).toEqual([caip()])
    expect(session.namespaces.solana?.accounts).toEqual([solanaAccount()])
    expect(session.namespaces.solana?.chains).toEqual([SANDBOX_SOLANA_CHAIN_ID])

    // eip155 as before: answered at once, and a declined signature is EIP-1193's 4001.
    const chainId = await within(
      dapp.request<Hex>({
        topic: session.topic,
        chainId: caip(),
        request: { method: 'eth_chainId', params: [] },
      }),
      10_000,
      'eth_chainId',
    )
    expect(chainId).toBe(toHex(chain.chainId))
    const declined = failure(
      dapp.request({
        topic: session.topic,
        chainId: caip(),
        request: { method: 'personal_sign', params: [toHex('EVM, declined'), wallets.wcAddress] },
      }),
    )
    const card = page.getByRole('region', { name: 'Signature request' })
    await card.getByText('EVM, declined').waitFor({ timeout: 10_000 })
    await card.getByRole('button', { name: 'Reject', exact: true }).click()
    expect(await within(declined, 10_000, 'declined personal_sign')).toMatchObject({ code: 4001 })

    // The same session's Solana side signs with the Solana key.
    const message = new TextEncoder().encode('Both chains')
    const signing = dapp.request<{ signature: string }>({
      topic: session.topic,
      chainId: SANDBOX_SOLANA_CHAIN_ID,
      request: {
        method: 'solana_signMessage',
        params: { message: bs58.encode(message), pubkey: wallets.wcSolanaAddress },
      },
    })
    await card.getByText('Both chains').waitFor({ timeout: 10_000 })
    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    const { signature } = await within(signing, 10_000, 'solana_signMessage')
    expect(nacl.sign.detached.verify(message, bs58.decode(signature), wcKey().toBytes())).toBe(true)
    expect(pageErrors).toEqual([])
  })
})
