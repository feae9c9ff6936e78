import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import bs58 from 'bs58'
import { type Browser, chromium, type Page } from 'playwright-core'
import nacl from 'tweetnacl'
import * as v from 'valibot'
import { createPublicClient, type Hex, http, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs'
import { FrameUserSchema } from '../../src/frame/protocol.ts'
import { type ListingApi, startListingApi } from '../api/listing.ts'
import { SANDBOX_SOLANA_CHAIN_ID } from '../api/solana.ts'
import { type Chain, startChain } from '../chain/chain.ts'
import { Stops } from '../shared/stops.ts'
import { type Solana, startSolana } from '../solana/solana.ts'
import { type SecureSite, SOLANA_AIRDROP_LAMPORTS, startSecureSite } from './server.ts'

const PROJECT_ID = 'secure-frame-test'

interface Reply {
  ok: boolean
  result?: unknown
  error?: { message: string; code?: number }
}
interface Message {
  id?: string
  type: string
  payload?: unknown
}
/** What the host page exposes to the test. */
interface HostWindow {
  __messages: Message[]
  __request(type: string, payload?: unknown, id?: string): Promise<Reply>
}

let chain: Chain
let solana: Solana
let listing: ListingApi
let site: SecureSite
let host: { origin: string; server: Server }
let stranger: { origin: string; server: Server }
let browser: Browser

/**
 * A host app on its own origin: it embeds the frame, records every message the frame posts (from the frame's
 * origin and window only, as the kit does) and sends requests with ids. `/foreign` is a page that posts a
 * request straight into the secure frame (`parent.frames[0]`) from another window.
 */
async function startHost(frameSrc: string, frameOrigin: string): Promise<{ origin: string; server: Server }> {
  const hostPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host app</title><link rel="icon" href="data:,"></head>
<body><h1>Host app</h1>
<iframe id="secure" title="Secure site" src="${frameSrc}" style="width:420px;height:520px;border:1px solid #ccc"></iframe>
<script>
  const frameOrigin = ${JSON.stringify(frameOrigin)}
  const frame = document.getElementById('secure')
  window.__messages = []
  const waiting = new Map()
  let next = 0
  window.addEventListener('message', (event) => {
    if (event.origin !== frameOrigin || event.source !== frame.contentWindow) return
    window.__messages.push(event.data)
    const resolve = event.data && event.data.type === 'frame.reply' && waiting.get(event.data.id)
    if (resolve) { waiting.delete(event.data.id); resolve(event.data.payload) }
  })
  window.__request = (type, payload, id) => new Promise((resolve) => {
    const requestId = id || 'req-' + ++next
    waiting.set(requestId, resolve)
    frame.contentWindow.postMessage({ id: requestId, type, payload }, frameOrigin)
  })
</script></body></html>`
  const foreignPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Foreign</title></head><body>
<script>
  window.__received = []
  window.addEventListener('message', (event) => window.__received.push(event.data))
  const id = new URLSearchParams(location.search).get('id')
  parent.frames[0].postMessage({ id, type: 'getChainId', payload: {} }, '*')
  parent.frames[0].postMessage({ id: id + '-user', type: 'isConnected', payload: {} }, ${JSON.stringify(frameOrigin)})
  window.__posted = true
</script></body></html>`
  // `/wrap?src=URL`: this origin framing another page (an app framed by whoever wraps it).
  const wrapPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wrapper</title><link rel="icon" href="data:,"></head>
<body><iframe id="app" title="App" style="width:600px;height:720px;border:0"></iframe>
<script>document.getElementById('app').src = new URLSearchParams(location.search).get('src')</script>
</body></html>`
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage)
    else if (path === '/wrap')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(wrapPage)
    else if (path === '/foreign')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(foreignPage)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

function request(page: Page, type: string, payload?: unknown, id?: string): Promise<Reply> {
  return page.evaluate(
    ([t, p, i]) => (window as unknown as HostWindow).__request(t as string, p, i as string | undefined),
    [type, payload, id] as const,
  )
}

function messages(page: Page): Promise<Message[]> {
  return page.evaluate(() => (window as unknown as HostWindow).__messages)
}

function waitForEvent(page: Page, type: string, count = 1): Promise<unknown> {
  return page.waitForFunction(
    ([t, n]) =>
      (window as unknown as HostWindow).__messages.filter((m) => m.type === t).length >= (n as number),
    [type, count] as const,
    { timeout: 15_000 },
  )
}

/** Signs in by e-mail through the frame (the code from the mailbox) and answers the user. */
async function logIn(page: Page, email: string): Promise<v.InferOutput<typeof FrameUserSchema>> {
  expect(await request(page, 'connectEmail', { email })).toEqual({
    ok: true,
    result: { action: 'VERIFY_OTP' },
  })
  const mails = (await (
    await fetch(`${site.origin}/mailbox?to=${encodeURIComponent(email)}`)
  ).json()) as Array<{
    code: string
  }>
  expect((await request(page, 'connectOtp', { otp: mails[0]?.code ?? '' })).ok).toBe(true)
  return v.parse(FrameUserSchema, (await request(page, 'getUser', {})).result)
}

async function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

// Registered before the setup runs: whatever started is stopped, even when a start fails (no Chromium).
const stops = new Stops()
afterAll(() => stops.close())

beforeAll(async () => {
  ;[chain, solana, listing, browser] = await Promise.all([
    stops.track(startChain()),
    stops.track(startSolana()),
    stops.track(startListingApi()),
    stops.track(chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })),
  ])
  site = await stops.track(
    startSecureSite({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      originsUrl: listing.origin,
      solana: { rpcUrl: solana.rpcUrl },
    }),
  )
  const query = new URLSearchParams({
    projectId: PROJECT_ID,
    chainId: String(chain.chainId),
    version: 'test-1',
  })
  const frameSrc = `${site.frameUrl}?${query.toString()}&enableLogger=true`
  ;[host, stranger] = await Promise.all([startHost(frameSrc, site.origin), startHost(frameSrc, site.origin)])
  // Exactly one allowed app origin: the stranger is on 127.0.0.1 too, but another port.
  listing.setAllowedOrigins([host.origin])
}, 90_000)

afterAll(async () => {
  await Promise.all([closeServer(host?.server), closeServer(stranger?.server)])
})

describe('the login frame in Chromium, embedded by an app on another origin', () => {
  it('logs in by e-mail, survives a reload, signs on Approve and refuses on Decline', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    try {
      await page.goto(`${host.origin}/`)
      await waitForEvent(page, 'frame.ready')
      expect((await messages(page))[0]).toEqual({ type: 'frame.ready', payload: { version: 1 } })

      expect(await request(page, 'isConnected', {})).toEqual({ ok: true, result: { isConnected: false } })
      expect(await request(page, 'syncTheme', { themeMode: 'light' })).toEqual({ ok: true })
      expect(
        await request(page, 'syncDappData', {
          projectId: PROJECT_ID,
          sdkVersion: 'test-1',
          metadata: { name: 'Host app', description: 'A test host', url: host.origin, icons: [] },
        }),
      ).toEqual({ ok: true })
      expect(await request(page, 'connectEmail', { email: 'not-an-email' })).toMatchObject({
        ok: false,
        error: { code: -32602 },
      })

      const email = 'browser@example.com'
      expect(await request(page, 'connectEmail', { email })).toEqual({
        ok: true,
        result: { action: 'VERIFY_OTP' },
      })
      const mails = (await (
        await fetch(`${site.origin}/mailbox?to=${encodeURIComponent(email)}`)
      ).json()) as Array<{
        code: string
      }>
      const code = mails[0]?.code ?? ''
      const wrong = code === '000000' ? '111111' : '000000'
      expect(await request(page, 'connectOtp', { otp: wrong })).toEqual({
        ok: false,
        error: { message: 'Invalid code' },
      })
      const connected = await request(page, 'connectOtp', { otp: code })
      expect(connected.ok).toBe(true)

      const user = v.parse(FrameUserSchema, (await request(page, 'getUser', {})).result)
      expect(user).toMatchObject({
        email,
        chainId: chain.chainId,
        preferredAccountType: 'smartAccount',
        smartAccountDeployed: false,
      })
      expect(user.accounts.map((account) => account.type)).toEqual(['eoa', 'smartAccount'])
      expect(user.address).toBe(user.accounts[1]?.address)

      // The session lives in the frame origin's storage, not the app's: a reload of the app keeps it.
      expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([])
      await page.reload()
      await waitForEvent(page, 'frame.ready')
      expect(await request(page, 'isConnected', {})).toEqual({ ok: true, result: { isConnected: true } })
      expect((await request(page, 'getUser', {})).result).toEqual(user)

      // Signing waits for the visitor, in the frame.
      const message = 'Sign in to Host app'
      const signing = request(
        page,
        'rpcRequest',
        { method: 'personal_sign', params: [toHex(message), user.address] },
        'sign-1',
      )
      await waitForEvent(page, 'frame.approvalNeeded')
      const frame = page.frameLocator('iframe#secure')
      // Approve is inert for its first 500 ms on screen: a click at once (a double-click's second half)
      // approves nothing (issue 13).
      const approve = frame.getByRole('button', { name: 'Approve' })
      expect(await approve.evaluate((button) => (button as HTMLButtonElement).disabled)).toBe(true)
      await approve.evaluate((button) => (button as HTMLButtonElement).click())
      expect((await messages(page)).some((m) => m.type === 'frame.approvalSettled')).toBe(false)
      await expect.poll(() => frame.getByRole('dialog').textContent()).toContain(message)
      await frame.getByRole('button', { name: 'Approve' }).click()
      const signed = await signing
      expect(signed.ok).toBe(true)
      const client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
      expect(
        await client.verifyMessage({
          address: user.address as Hex,
          message,
          signature: signed.result as Hex,
        }),
      ).toBe(true)
      const events = (await messages(page)).filter((m) => m.type.startsWith('frame.approval'))
      expect(events).toEqual([
        { type: 'frame.approvalNeeded', payload: { requestId: 'sign-1', method: 'personal_sign' } },
        { type: 'frame.approvalSettled', payload: { requestId: 'sign-1', approved: true } },
      ])

      const declining = request(page, 'rpcRequest', {
        method: 'personal_sign',
        params: [toHex('no'), user.address],
      })
      await waitForEvent(page, 'frame.approvalNeeded', 2)
      await frame.getByRole('button', { name: 'Decline' }).click()
      expect(await declining).toEqual({ ok: false, error: { message: 'Signature declined', code: 4001 } })

      expect(await request(page, 'rpcRequest', { method: 'eth_sign', params: [] })).toEqual({
        ok: false,
        error: { message: 'Requested RPC call is not allowed', code: 4200 },
      })

      // rejectRpcRequests aborts the open signing request; a read-only one carries on.
      const open = request(page, 'rpcRequest', {
        method: 'personal_sign',
        params: [toHex('later'), user.address],
      })
      await waitForEvent(page, 'frame.approvalNeeded', 3)
      const [aborted, block, rejected] = await Promise.all([
        open,
        request(page, 'rpcRequest', { method: 'eth_blockNumber' }),
        request(page, 'rejectRpcRequests', {}),
      ])
      expect(aborted).toEqual({ ok: false, error: { message: 'Request was aborted' } })
      expect(block.result).toMatch(/^0x[0-9a-f]+$/)
      expect(rejected).toEqual({ ok: true })
      await expect.poll(() => frame.getByRole('dialog').isHidden()).toBe(true)

      expect(await request(page, 'signOut', {})).toEqual({ ok: true })
      expect(await request(page, 'isConnected', {})).toEqual({ ok: true, result: { isConnected: false } })
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('runs the other commands: network, social and Farcaster stand-ins, device approval, e-mail change, reload', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    try {
      await page.goto(`${host.origin}/`)
      await waitForEvent(page, 'frame.ready')
      expect(await request(page, 'switchNetwork', { chainId: 1 })).toEqual({
        ok: false,
        error: { message: 'Chain is not supported', code: 4902 },
      })
      expect(await request(page, 'switchNetwork', { chainId: `eip155:${chain.chainId}` })).toEqual({
        ok: true,
        result: { chainId: chain.chainId },
      })
      await request(page, 'syncDappData', {
        projectId: PROJECT_ID,
        sdkVersion: 'test-1',
        metadata: { name: 'Host app', description: '', url: `${host.origin}/`, icons: [] },
      })

      // Social: the stand-in page (a popup, as the kit opens it) redirects back to the app with a one-time token.
      const social = await request(page, 'getSocialRedirectUri', { provider: 'google' })
      const uri = (social.result as { uri: string }).uri
      expect(uri.startsWith(`${site.origin}/social/google?state=`)).toBe(true)
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        page.evaluate((url) => void window.open(url, 'social', 'width=480,height=640'), uri),
      ])
      await popup.getByRole('textbox', { name: 'Email' }).fill('social-frame@example.com')
      await popup.getByRole('button', { name: 'Continue' }).click()
      await popup.waitForURL((url) => url.searchParams.has('walletstate_social'))
      const socialUser = await request(page, 'connectSocial', { uri: popup.url() })
      await popup.close()
      expect(socialUser.result).toMatchObject({
        email: 'social-frame@example.com',
        preferredAccountType: 'smartAccount',
      })

      const eoaUser = await request(page, 'setPreferredAccount', { type: 'eoa' })
      const accounts = (eoaUser.result as { accounts: Array<{ address: string; type: string }> }).accounts
      expect(eoaUser.result).toMatchObject({ preferredAccountType: 'eoa', address: accounts[0]?.address })
      expect(await request(page, 'initSmartAccount', {})).toEqual({
        ok: true,
        result: { address: accounts[1]?.address, isDeployed: false },
      })

      // E-mail change: a code to the current address, then one to the new.
      expect(await request(page, 'updateEmail', { email: 'renamed@example.com' })).toEqual({
        ok: true,
        result: { action: 'VERIFY_PRIMARY_OTP' },
      })
      const [primary] = await site.mailbox('social-frame@example.com')
      expect(await request(page, 'updateEmailPrimaryOtp', { otp: primary?.code })).toEqual({
        ok: true,
        result: { action: 'VERIFY_SECONDARY_OTP' },
      })
      const [secondary] = await site.mailbox('renamed@example.com')
      expect(await request(page, 'updateEmailSecondaryOtp', { otp: secondary?.code })).toEqual({
        ok: true,
        result: { newEmail: 'renamed@example.com' },
      })

      // reload: the frame reloads itself, announces itself again and keeps session and chain.
      expect(await request(page, 'reload', {})).toEqual({ ok: true })
      await waitForEvent(page, 'frame.ready', 2)
      expect((await request(page, 'getUser', {})).result).toMatchObject({
        email: 'renamed@example.com',
        chainId: chain.chainId,
        preferredAccountType: 'eoa',
      })

      // Farcaster: the frame polls until the stand-in page is submitted.
      const farcaster = await request(page, 'getFarcasterUri', {})
      const url = (farcaster.result as { url: string }).url
      const connecting = request(page, 'connectFarcaster', {})
      const phone = await context.newPage()
      await phone.goto(url)
      await phone.getByRole('textbox', { name: 'Username' }).fill('frame-fc')
      await phone.getByRole('button', { name: 'Continue' }).click()
      await expect.poll(() => phone.getByRole('status').textContent()).toContain('Signed in as @frame-fc')
      await phone.close()
      expect((await connecting).result).toMatchObject({
        userName: 'frame-fc',
        preferredAccountType: 'smartAccount',
      })
    } finally {
      await context.close()
    }

    // Another browser is another device: the account asks it to approve by the e-mailed link first.
    const other = await browser.newContext()
    const second = await other.newPage()
    try {
      await second.goto(`${host.origin}/`)
      await waitForEvent(second, 'frame.ready')
      expect(await request(second, 'connectEmail', { email: 'renamed@example.com' })).toEqual({
        ok: true,
        result: { action: 'VERIFY_DEVICE' },
      })
      const waiting = request(second, 'connectDevice', {})
      const [linkMail] = await site.mailbox('renamed@example.com')
      const opened = await other.newPage()
      await opened.goto(linkMail?.link ?? '')
      await expect.poll(() => opened.getByRole('status').textContent()).toContain('approved')
      expect(await waiting).toEqual({ ok: true, result: { action: 'VERIFY_OTP' } })
      const [codeMail] = await site.mailbox('renamed@example.com')
      expect((await request(second, 'connectOtp', { otp: codeMail?.code })).result).toMatchObject({
        email: 'renamed@example.com',
      })
    } finally {
      await other.close()
    }
  })

  it('switches to Solana: a funded base58 account that signs and sends after Approve, and refuses on Decline', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    const connection = new Connection(solana.rpcUrl, 'confirmed')
    try {
      await page.goto(`${host.origin}/`)
      await waitForEvent(page, 'frame.ready')
      // Signed out, the switch answers the chain alone.
      expect(await request(page, 'switchNetwork', { chainId: SANDBOX_SOLANA_CHAIN_ID })).toEqual({
        ok: true,
        result: { chainId: SANDBOX_SOLANA_CHAIN_ID },
      })
      expect(await request(page, 'getChainId', {})).toEqual({
        ok: true,
        result: { chainId: SANDBOX_SOLANA_CHAIN_ID },
      })
      expect(await request(page, 'switchNetwork', { chainId: `eip155:${chain.chainId}` })).toEqual({
        ok: true,
        result: { chainId: chain.chainId },
      })
      // Solana mainnet is not served.
      expect(
        await request(page, 'switchNetwork', { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }),
      ).toEqual({ ok: false, error: { message: 'Chain is not supported', code: 4902 } })

      const email = 'solana-frame@example.com'
      expect(await request(page, 'connectEmail', { email })).toEqual({
        ok: true,
        result: { action: 'VERIFY_OTP' },
      })
      const [mail] = await site.mailbox(email)
      const evmUser = v.parse(
        FrameUserSchema,
        (await request(page, 'connectOtp', { otp: mail?.code })).result,
      )
      expect(evmUser).toMatchObject({ email, chainId: chain.chainId, preferredAccountType: 'smartAccount' })

      const switched = await request(page, 'switchNetwork', { chainId: SANDBOX_SOLANA_CHAIN_ID })
      const { address } = switched.result as { address: string }
      expect(switched).toEqual({ ok: true, result: { chainId: SANDBOX_SOLANA_CHAIN_ID, address } })
      const owner = new PublicKey(address)
      expect(owner.toBase58()).toBe(address)
      expect(await request(page, 'getUser', {})).toEqual({
        ok: true,
        result: {
          email,
          address,
          chainId: SANDBOX_SOLANA_CHAIN_ID,
          accounts: [{ address, type: 'eoa' }],
          preferredAccountType: 'eoa',
        },
      })
      // Funded on the sandbox Solana chain: 10 SOL by its airdrop.
      await expect.poll(() => connection.getBalance(owner)).toBe(Number(SOLANA_AIRDROP_LAMPORTS))

      // A message, signed once the visitor approves in the frame.
      const frame = page.frameLocator('iframe#secure')
      const text = 'Sign in to Host app on Solana'
      const message = new TextEncoder().encode(text)
      const signing = request(
        page,
        'rpcRequest',
        { method: 'solana_signMessage', params: [{ message: bs58.encode(message) }] },
        'sol-sign-1',
      )
      await waitForEvent(page, 'frame.approvalNeeded')
      await expect.poll(() => frame.getByRole('dialog').textContent()).toContain(text)
      expect(await frame.getByRole('dialog').textContent()).toContain(address)
      await frame.getByRole('button', { name: 'Approve' }).click()
      const signed = await signing
      expect(signed.ok).toBe(true)
      const { signature } = signed.result as { signature: string }
      expect(nacl.sign.detached.verify(message, bs58.decode(signature), owner.toBytes())).toBe(true)

      // A SOL transfer built with web3.js, signed and sent after Approve: it lands on the sandbox chain.
      const recipient = Keypair.generate().publicKey
      const transfer = async (lamports: number) => {
        const { blockhash } = await connection.getLatestBlockhash()
        return new Transaction({ feePayer: owner, recentBlockhash: blockhash })
          .add(SystemProgram.transfer({ fromPubkey: owner, toPubkey: recipient, lamports }))
          .serialize({ requireAllSignatures: false })
          .toString('base64')
      }
      const sending = request(
        page,
        'rpcRequest',
        {
          method: 'solana_signAndSendTransaction',
          params: [{ transaction: await transfer(LAMPORTS_PER_SOL), options: { skipPreflight: false } }],
          chainId: SANDBOX_SOLANA_CHAIN_ID,
        },
        'sol-send-1',
      )
      await waitForEvent(page, 'frame.approvalNeeded', 2)
      await expect
        .poll(() => frame.getByRole('dialog').textContent())
        .toContain(`transfer 1 SOL to ${recipient.toBase58()}`)
      expect(await connection.getBalance(recipient)).toBe(0)
      await frame.getByRole('button', { name: 'Approve' }).click()
      const sent = await sending
      expect(sent.ok).toBe(true)
      const sentSignature = (sent.result as { signature: string }).signature
      expect(bs58.decode(sentSignature)).toHaveLength(64)
      expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL)
      expect((await connection.getSignatureStatus(sentSignature)).value?.err).toBeNull()

      // Declined: the same user-rejected error as on eip155, and nothing is sent.
      const declining = request(page, 'rpcRequest', {
        method: 'solana_signAndSendTransaction',
        params: [{ transaction: await transfer(LAMPORTS_PER_SOL) }],
      })
      await waitForEvent(page, 'frame.approvalNeeded', 3)
      await frame.getByRole('button', { name: 'Decline' }).click()
      expect(await declining).toEqual({ ok: false, error: { message: 'Signature declined', code: 4001 } })
      expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL)
      const events = (await messages(page)).filter((m) => m.type === 'frame.approvalSettled')
      expect(events.map((m) => (m.payload as { approved: boolean }).approved)).toEqual([true, true, false])

      // Wrong-shaped params are answered at once, with no approval asked.
      expect(
        await request(page, 'rpcRequest', { method: 'solana_signMessage', params: [{ message: 'O0Il' }] }),
      ).toEqual({ ok: false, error: { message: 'solana_signMessage: message must be base58', code: -32602 } })
      expect(
        await request(page, 'rpcRequest', { method: 'solana_signTransaction', params: ['AAAA'] }),
      ).toEqual({
        ok: false,
        error: { message: 'solana_signTransaction needs params [{ transaction: base64 }]', code: -32602 },
      })
      expect(await request(page, 'rpcRequest', { method: 'solana_signTransaction' })).toMatchObject({
        ok: false,
        error: { code: -32602 },
      })
      // Methods of the other namespace are refused on each chain.
      expect(await request(page, 'rpcRequest', { method: 'eth_blockNumber' })).toEqual({
        ok: false,
        error: { message: `eth_blockNumber is not available on ${SANDBOX_SOLANA_CHAIN_ID}`, code: 4200 },
      })
      expect((await messages(page)).filter((m) => m.type === 'frame.approvalNeeded')).toHaveLength(3)

      // The chain survives a reload of the frame.
      expect(await request(page, 'reload', {})).toEqual({ ok: true })
      await waitForEvent(page, 'frame.ready', 2)
      expect(await request(page, 'getChainId', {})).toEqual({
        ok: true,
        result: { chainId: SANDBOX_SOLANA_CHAIN_ID },
      })

      // Back on eip155: the EVM address again, and the EVM user exactly as before.
      expect(await request(page, 'switchNetwork', { chainId: chain.chainId })).toEqual({
        ok: true,
        result: { chainId: chain.chainId, address: evmUser.address },
      })
      expect((await request(page, 'getUser', {})).result).toEqual(evmUser)
      expect(
        await request(page, 'rpcRequest', {
          method: 'solana_signMessage',
          params: [{ message: bs58.encode(message) }],
        }),
      ).toEqual({
        ok: false,
        error: { message: `solana_signMessage is not available on eip155:${chain.chainId}`, code: 4200 },
      })
      // getUser for the Solana chain answers its user whatever the current chain.
      expect((await request(page, 'getUser', { chainId: SANDBOX_SOLANA_CHAIN_ID })).result).toMatchObject({
        address,
        chainId: SANDBOX_SOLANA_CHAIN_ID,
      })
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('ignores requests posted from any other window, whatever its origin', async () => {
    const page = await browser.newPage()
    const logs: string[] = []
    page.on('console', (entry) => logs.push(entry.text()))
    try {
      await page.goto(`${host.origin}/`)
      await waitForEvent(page, 'frame.ready')
      // A sibling frame on the app's own origin and one on another origin both post into the secure frame.
      await page.evaluate(
        ([sameOrigin, otherOrigin]) => {
          for (const [src, id] of [
            [`${sameOrigin}/foreign?id=evil-sibling`, 'sibling'],
            [`${otherOrigin}/foreign?id=evil-stranger`, 'stranger'],
          ]) {
            const frame = document.createElement('iframe')
            frame.src = src as string
            frame.id = id as string
            document.body.append(frame)
          }
        },
        [host.origin, stranger.origin] as const,
      )
      await page.waitForFunction(() => document.querySelectorAll('iframe').length === 3)
      await expect.poll(() => page.frames().filter((f) => f.url().includes('/foreign')).length).toBe(2)
      for (const foreign of page.frames().filter((f) => f.url().includes('/foreign'))) {
        await foreign.waitForLoadState('load')
      }
      // A request of the app itself is answered; by then the foreign ones would have been too.
      expect(await request(page, 'getChainId', {})).toEqual({ ok: true, result: { chainId: chain.chainId } })
      await new Promise((resolve) => setTimeout(resolve, 500))
      const replies = (await messages(page)).filter((m) => m.type === 'frame.reply').map((m) => m.id)
      expect(replies).toEqual(['req-1'])
      for (const foreign of page.frames().filter((f) => f.url().includes('/foreign'))) {
        const seen = await foreign.evaluate(() => {
          const w = window as unknown as { __posted?: boolean; __received: unknown[] }
          return { __posted: w.__posted, __received: w.__received }
        })
        expect(seen).toEqual({ __posted: true, __received: [] })
      }
      // The frame saw them (its logger is on) and dropped them: two from each foreign window.
      const dropped = logs.filter((line) => line.includes('dropped a message from'))
      expect(dropped.filter((line) => line.endsWith(host.origin))).toHaveLength(2)
      expect(dropped.filter((line) => line.endsWith(stranger.origin))).toHaveLength(2)
    } finally {
      await page.close()
    }
  })

  /*
   * Clickjacking: an allowed app (or a script on it) lays a transparent layer over the frame, or makes the frame
   * transparent, so the visitor clicks Approve without seeing it. The frame watches its own visibility
   * (IntersectionObserver v2) and keeps Approve disabled while anything covers it. Guards updateApprove and
   * watchVisibility in frame/main.ts; before them, Approve stayed enabled under both.
   */
  it('keeps Approve disabled while the frame is covered or transparent, and names the checked origin', async () => {
    const page = await browser.newPage()
    try {
      await page.goto(`${host.origin}/`)
      await waitForEvent(page, 'frame.ready')
      // The app calls itself a bank: the approval screen names the origin the frame checked instead.
      await request(page, 'syncDappData', {
        projectId: PROJECT_ID,
        sdkVersion: 'test-1',
        metadata: { name: 'Trusted Bank', description: '', url: host.origin, icons: [] },
      })
      const user = await logIn(page, 'covered@example.com')
      const signing = request(
        page,
        'rpcRequest',
        { method: 'personal_sign', params: [toHex('covered'), user.address] },
        'covered-1',
      )
      await waitForEvent(page, 'frame.approvalNeeded')
      const frame = page.frameLocator('iframe#secure')
      const approve = frame.getByRole('button', { name: 'Approve' })
      const from = await frame.locator('#approval-from').textContent()
      expect(from).toContain(`${host.origin} asks you`)
      expect(from).not.toContain('Trusted Bank')
      // Uncovered, Approve becomes usable once the inert time is over.
      await expect.poll(() => approve.isEnabled()).toBe(true)

      const settled = async () =>
        (await messages(page)).filter((m) => m.type === 'frame.approvalSettled').length
      const box = await page.locator('iframe#secure').boundingBox()
      const button = await approve.boundingBox()
      if (!box || !button) throw new Error('no layout for the frame')
      const covers = [
        // A near-transparent layer that lets clicks through (pointer-events: none): the clickjacking layer.
        `const layer = document.createElement('div'); layer.id = 'cover';
         Object.assign(layer.style, { position: 'fixed', inset: '0', background: 'rgba(255,255,255,0.02)',
           pointerEvents: 'none', zIndex: '10' }); document.body.append(layer)`,
        // A small element over a corner of the frame only.
        `const layer = document.createElement('div'); layer.id = 'cover';
         Object.assign(layer.style, { position: 'absolute', left: '${box.x + 4}px', top: '${box.y + 4}px',
           width: '12px', height: '12px', pointerEvents: 'none' }); document.body.append(layer)`,
        // The frame itself made (almost) transparent.
        `document.getElementById('secure').style.opacity = '0.3'`,
      ]
      for (const cover of covers) {
        await page.evaluate(cover)
        await expect.poll(() => approve.isDisabled(), { message: cover }).toBe(true)
        await expect.poll(() => frame.locator('#approval-covered').isVisible()).toBe(true)
        // The visitor's click, where Approve is, goes through the layer to the disabled button: nothing settles.
        await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2)
        expect(await request(page, 'getChainId', {})).toMatchObject({ ok: true })
        expect(await settled()).toBe(0)
        expect(await approve.isDisabled()).toBe(true)
        await page.evaluate(() => {
          document.getElementById('cover')?.remove()
          ;(document.getElementById('secure') as HTMLElement).style.opacity = ''
        })
        await expect.poll(() => approve.isEnabled(), { message: cover }).toBe(true)
        await expect.poll(() => frame.locator('#approval-covered').isHidden()).toBe(true)
      }

      // Fully visible again: the visitor's click approves.
      await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2)
      expect((await signing).ok).toBe(true)
      expect(await settled()).toBe(1)
    } finally {
      await page.close()
    }
  })

  it('checks every page around the frame: an allowed app framed by a stranger gets nothing', async () => {
    const page = await browser.newPage()
    try {
      // The allowed app inside the stranger's page: the frame's parent is allowed, its top page is not.
      await page.goto(`${stranger.origin}/wrap?src=${encodeURIComponent(`${host.origin}/`)}`)
      const app = page.frameLocator('iframe#app')
      await expect
        .poll(() => app.locator('body').evaluate(() => (window as unknown as HostWindow).__messages), {
          timeout: 15_000,
        })
        .toEqual([{ type: 'frame.originNotAllowed', payload: { origin: stranger.origin } }])
      await expect
        .poll(() => app.frameLocator('iframe#secure').getByRole('status').first().textContent())
        .toContain(`framed by ${stranger.origin}`)

      // Framed by a page of its own (allowed) origin, it starts as usual.
      await page.goto(`${host.origin}/wrap?src=${encodeURIComponent(`${host.origin}/`)}`)
      await expect
        .poll(() => app.locator('body').evaluate(() => (window as unknown as HostWindow).__messages), {
          timeout: 15_000,
        })
        .toEqual([{ type: 'frame.ready', payload: { version: 1 } }])
    } finally {
      await page.close()
    }
  })

  it('tells a page whose origin is not allowed, and answers nothing else', async () => {
    const page = await browser.newPage()
    try {
      await page.goto(`${stranger.origin}/`)
      await waitForEvent(page, 'frame.originNotAllowed')
      const unanswered = await Promise.race([
        request(page, 'isConnected', {}),
        new Promise<'no reply'>((resolve) => setTimeout(() => resolve('no reply'), 1_000)),
      ])
      expect(unanswered).toBe('no reply')
      expect(await messages(page)).toEqual([
        { type: 'frame.originNotAllowed', payload: { origin: stranger.origin } },
      ])
    } finally {
      await page.close()
    }
  })
})
