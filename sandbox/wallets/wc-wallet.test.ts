import { randomBytes } from 'node:crypto'
import { SignClient } from '@walletconnect/sign-client'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { createPublicClient, type Hex, http, parseEther, toHex, verifyMessage } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'
import { type Chain, startChain } from '../chain/chain.ts'
import { rpcEndpoint, startRpcService } from '../chain/rpc.ts'
import { type InspectorServer, startInspectorServer } from '../inspector/server.ts'
import { type Relay, startRelay } from '../relay/relay.ts'
import type { SandboxService } from '../shared/http.ts'
import { Stops } from '../shared/stops.ts'
import { startWallets, type Wallets } from './server.ts'

/*
 * The WalletConnect wallet page as the kit's session client machine (wallet role) drives it, in real Chromium,
 * against real app-side SignClients paired through the sandbox relay: sessions listed and ended one by one,
 * requests answered from the machine's queue, one-click sign-in, bad input, and the wallet's lifecycle streamed
 * to the sandbox inspector with ?inspect=.
 */

const PROJECT_ID = 'wc-wallet-test'

type Dapp = InstanceType<typeof SignClient>

let chain: Chain
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
  ;[rpc, relay, inspector] = await Promise.all([
    stops.track(startRpcService({ chain })),
    stops.track(startRelay()),
    stops.track(startInspectorServer()),
  ])
  wallets = await stops.track(
    startWallets({
      rpcUrl: rpcEndpoint(rpc.origin, PROJECT_ID),
      chainId: chain.chainId,
      accounts: chain.accounts,
      relayUrl: relay.url,
      projectId: PROJECT_ID,
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
async function connect(dapp: Dapp) {
  const { uri, approval } = await within(
    dapp.connect({
      optionalNamespaces: {
        eip155: {
          chains: [caip()],
          methods: ['personal_sign', 'eth_sendTransaction', 'eth_chainId'],
          events: ['accountsChanged', 'chainChanged'],
        },
      },
    }),
    10_000,
    'connect',
  )
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
async function approveSession(page: Page, dapp: Dapp, pairing: 'query' | 'paste') {
  const { uri, approval } = await connect(dapp)
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
    expect(first.namespaces.eip155?.accounts).toEqual([`${caip()}:${wallets.wcAddress}`])
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

  it('signs in by one-click auth (wc_sessionAuthenticate) and holds the session it creates', async () => {
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

    const { auths, session } = await within(response(), 10_000, 'auth response')
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
