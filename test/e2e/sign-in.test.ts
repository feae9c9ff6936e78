import type { Page } from 'playwright-core'
import { createPublicClient, http, isErc6492Signature, verifyMessage } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { liveSession } from '../../sandbox/api/sessions.ts'
import { SANDBOX_CHAIN_ID } from '../../sandbox/chain/chain.ts'
import {
  approveInFrame,
  type E2eContext,
  freshEmail,
  hostButton,
  logInByEmail,
  startE2e,
  truncated,
  walletPrompt,
} from './support.ts'

/**
 * Sign-in with the wallet (issue 15) in the demo (`?siwx=1`, the SIWE preset, sessions in the page's storage),
 * with the injected dev wallet, which asks before it connects and before it signs.
 */
let e2e: E2eContext
let page: Page

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

const session = (p: Page) => p.getByTestId('demo-session')
const siwe = (p: Page) => p.locator('[data-view="ConnectingSiwe"]')

async function connectInjected(p: Page) {
  await hostButton(p).getByText('Connect Wallet').click()
  await p
    .getByRole('dialog', { name: 'Connect Wallet' })
    .getByRole('button', { name: /Walletstate Dev Wallet/ })
    .click()
  await walletPrompt(p).getByRole('button', { name: 'Approve' }).click()
}

describe('sign-in with the injected dev wallet (SIWE preset), in Chromium', () => {
  it('connect → ConnectingSiwe → the wallet signs an EIP-4361 message for this page → signed in', async () => {
    page = await e2e.newPage('?siwx=1')
    const address = e2e.sandbox.wallets.injectedAddress
    expect(await session(page).textContent()).toBe('')
    await connectInjected(page)
    await siwe(page).waitFor({ timeout: 15_000 })
    expect(await page.getByRole('dialog', { name: 'Sign In' }).count()).toBe(1)
    await siwe(page).getByRole('button', { name: 'Sign in' }).click()
    // The wallet shows the message; the test reads it there and checks what the kit asked to sign.
    const prompt = walletPrompt(page)
    await prompt.waitFor()
    const shown = (await prompt.textContent()) ?? ''
    expect(shown).toContain('wants you to sign in with your Ethereum account')
    await prompt.getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => session(page).textContent(), { timeout: 15_000 }).toBe(address)
    expect(await page.getByRole('dialog', { name: 'Sign In' }).count()).toBe(0)
    expect(await hostButton(page).textContent()).toBe(truncated(address))

    // The stored session: an EIP-4361 message for this page's host, signed by the account.
    const stored = await page.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))
    const [kept] = JSON.parse(stored ?? '[]') as { message: string; signature: `0x${string}` }[]
    const fields = parseSiweMessage(kept!.message)
    expect(fields.domain).toBe(new URL(page.url()).host)
    expect(fields.uri).toBe(new URL(page.url()).origin)
    expect(fields.address).toBe(address)
    expect(fields.chainId).toBe(SANDBOX_CHAIN_ID)
    expect(fields.nonce).toMatch(/^[A-Za-z0-9]{8,}$/)
    expect(fields.expirationTime!.getTime()).toBeGreaterThan(Date.now())
    expect(await verifyMessage({ address, message: kept!.message, signature: kept!.signature })).toBe(true)
  })

  it('a reload keeps the session without a new signature', async () => {
    await page.reload()
    await expect
      .poll(() => session(page).textContent(), { timeout: 15_000 })
      .toBe(e2e.sandbox.wallets.injectedAddress)
    expect(await walletPrompt(page).count()).toBe(0)
    expect(await siwe(page).count()).toBe(0)
  })

  it('a tampered stored session is refused: the visitor is asked to sign again', async () => {
    await page.evaluate(() => {
      const list = JSON.parse(localStorage.getItem('walletstate.siwe.sessions') ?? '[]')
      list[0].signature = `0x${'12'.repeat(65)}`
      localStorage.setItem('walletstate.siwe.sessions', JSON.stringify(list))
    })
    await page.reload()
    await siwe(page).waitFor({ timeout: 15_000 })
    expect(await session(page).textContent()).toBe('')
    await siwe(page).getByRole('button', { name: 'Sign in' }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect
      .poll(() => session(page).textContent(), { timeout: 15_000 })
      .toBe(e2e.sandbox.wallets.injectedAddress)
  })

  it('disconnect signs out: the session is revoked from storage', async () => {
    await hostButton(page).click()
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent()).toBe('Connect Wallet')
    await expect.poll(() => session(page).textContent()).toBe('')
    expect(await page.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))).toBeNull()
    await page.close()
  })

  it('declining while sign-in is required leaves the visitor disconnected, with a clear message', async () => {
    const p = await e2e.newPage('?siwx=1&siwxRequired=1')
    await connectInjected(p)
    await siwe(p).waitFor({ timeout: 15_000 })
    await siwe(p).getByText('Signing in is required to stay connected.').waitFor()
    await siwe(p).getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => hostButton(p).textContent(), { timeout: 15_000 }).toBe('Connect Wallet')
    await expect
      .poll(() => p.getByRole('alert').allTextContents())
      .toContain('This app requires you to sign in with your wallet. You were disconnected.')
    expect(await session(p).textContent()).toBe('')
    await p.close()
  })
})

/** The page's requests to anywhere but this machine, as they happen. */
function offMachine(p: Page): string[] {
  const urls: string[] = []
  p.on('request', (request) => {
    if (!/^(data:|blob:|https?:\/\/127\.0\.0\.1[:/])/.test(request.url())) urls.push(request.url())
  })
  return urls
}

/** Opens the QR view for WalletConnect and reads the pairing URI the QR code encodes. */
async function pairingUri(p: Page): Promise<string> {
  await hostButton(p).getByText('Connect Wallet').click()
  await p
    .getByRole('dialog')
    .getByRole('button', { name: /WalletConnect/ })
    .click()
  const qr = p.getByRole('img', { name: 'WalletConnect QR code' })
  await qr.waitFor({ timeout: 60_000 })
  const uri = await qr.getAttribute('data-uri')
  if (!uri?.startsWith('wc:')) throw new Error(`no pairing URI: ${uri}`)
  return uri
}

describe('one-click auth with the WalletConnect wallet page (wc_sessionAuthenticate), in Chromium', () => {
  it('signs in during pairing, with one approval: the session and the sign-in together', async () => {
    const p = await e2e.newPage('?siwx=1')
    const outside = offMachine(p)
    const address = e2e.sandbox.wallets.wcAddress
    const uri = await pairingUri(p)
    const wallet = await e2e.browser.newPage()
    await wallet.goto(`${e2e.sandbox.wallets.wcWalletUrl}?uri=${encodeURIComponent(uri)}`)
    // The wallet is asked to sign in (not for a bare session): it shows this page's domain.
    const request = wallet.getByRole('region', { name: 'Sign-in request' })
    await request.getByText(new URL(p.url()).host).first().waitFor({ timeout: 20_000 })
    await request.getByRole('button', { name: 'Approve', exact: true }).click()

    await expect.poll(() => session(p).textContent(), { timeout: 20_000 }).toBe(address)
    expect(await hostButton(p).textContent()).toBe(truncated(address))
    await expect.poll(() => p.getByRole('dialog').count()).toBe(0)
    // One approval: nothing else was asked of the wallet.
    expect(await wallet.getByRole('region', { name: 'Signature request' }).count()).toBe(0)
    expect(await wallet.getByRole('region', { name: 'Session proposal' }).count()).toBe(0)

    // The kept session is the message the wallet signed: this page's domain, the chain, an expiry, and a
    // signature by the account.
    const stored = await p.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))
    const [kept] = JSON.parse(stored ?? '[]') as { message: string; signature: `0x${string}` }[]
    const fields = parseSiweMessage(kept!.message)
    expect(fields.domain).toBe(new URL(p.url()).host)
    expect(fields.uri).toBe(new URL(p.url()).origin)
    expect(fields.address?.toLowerCase()).toBe(address.toLowerCase())
    expect(fields.chainId).toBe(SANDBOX_CHAIN_ID)
    expect(fields.expirationTime!.getTime()).toBeGreaterThan(Date.now())
    expect(await verifyMessage({ address, message: kept!.message, signature: kept!.signature })).toBe(true)

    // The session made is a working one: a later request reaches the wallet.
    await p.getByRole('button', { name: 'Sign message' }).click()
    await wallet
      .getByRole('region', { name: 'Signature request' })
      .getByRole('button', { name: 'Approve' })
      .click()
    await expect.poll(() => p.getByTestId('demo-result').textContent(), { timeout: 20_000 }).toMatch(/^0x/)

    // Nothing left the machine: WalletConnect's hosted Verify is not asked (the kit's own Verify is).
    expect(outside).toEqual([])

    // A reload keeps both, without asking the wallet again.
    await p.reload()
    await expect.poll(() => session(p).textContent(), { timeout: 20_000 }).toBe(address)
    expect(await siwe(p).count()).toBe(0)
    await wallet.close()
    await p.close()
  })
  it('a sign-in declined in the wallet is a declined connection: nothing kept, and "Try again" offers a fresh QR code', async () => {
    const p = await e2e.newPage('?siwx=1')
    const uri = await pairingUri(p)
    const wallet = await e2e.browser.newPage()
    await wallet.goto(`${e2e.sandbox.wallets.wcWalletUrl}?uri=${encodeURIComponent(uri)}`)
    const request = wallet.getByRole('region', { name: 'Sign-in request' })
    await request.getByRole('button', { name: 'Reject' }).click({ timeout: 20_000 })
    const view = p.locator('[data-view="ConnectingWalletConnectBasic"]')
    await view.getByRole('alert').waitFor({ timeout: 20_000 })
    expect(await view.getByRole('alert').textContent()).toMatch(/declined|rejected/i)
    expect(await hostButton(p).textContent()).toBe('Connect Wallet')
    expect(await session(p).textContent()).toBe('')
    expect(await p.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))).toBeNull()
    await view.getByRole('button', { name: 'Try again' }).click()
    const qr = p.getByRole('img', { name: 'WalletConnect QR code' })
    await expect
      .poll(async () => (await qr.count()) > 0 && (await qr.getAttribute('data-uri')) !== uri, {
        timeout: 30_000,
      })
      .toBe(true)
    await wallet.close()
    await p.close()
  })
  it('a wallet without one-click auth: the session alone, then ConnectingSiwe asks and the wallet signs', async () => {
    const p = await e2e.newPage('?siwx=1')
    const address = e2e.sandbox.wallets.wcAddress
    const uri = await pairingUri(p)
    const wallet = await e2e.browser.newPage()
    await wallet.goto(`${e2e.sandbox.wallets.wcWalletUrl}?oneClick=off&uri=${encodeURIComponent(uri)}`)
    // WalletConnect hands this wallet the app's fallback proposal: a plain session.
    await wallet
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Approve' })
      .click({ timeout: 20_000 })
    expect(await wallet.getByRole('region', { name: 'Sign-in request' }).count()).toBe(0)
    await siwe(p).waitFor({ timeout: 20_000 })
    await siwe(p).getByRole('button', { name: 'Sign in' }).click()
    const request = wallet.getByRole('region', { name: 'Signature request' })
    await request
      .getByText('wants you to sign in with your Ethereum account')
      .first()
      .waitFor({ timeout: 20_000 })
    await request.getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => session(p).textContent(), { timeout: 20_000 }).toBe(address)
    const stored = await p.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))
    const [kept] = JSON.parse(stored ?? '[]') as { message: string; signature: `0x${string}` }[]
    expect(await verifyMessage({ address, message: kept!.message, signature: kept!.signature })).toBe(true)
    await wallet.close()
    await p.close()
  })
})

describe('sign-in with sessions on the sandbox Data API (`?siwx=api`), in Chromium', () => {
  it('keeps the session on the API, which verified it; the page keeps only its id; disconnect revokes it', async () => {
    const p = await e2e.newPage('?siwx=api')
    const address = e2e.sandbox.wallets.injectedAddress
    await connectInjected(p)
    await siwe(p).getByRole('button', { name: 'Sign in' }).click()
    await walletPrompt(p).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => session(p).textContent(), { timeout: 15_000 }).toBe(address)

    // The page keeps a reference; the API keeps the session, verified when it was posted.
    const refs = JSON.parse(
      (await p.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))) ?? '[]',
    ) as { id: string; chainId: string; address: string }[]
    expect(refs).toHaveLength(1)
    const [ref] = refs
    expect(ref).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      chainId: `eip155:${SANDBOX_CHAIN_ID}`,
      address,
    })
    expect(JSON.stringify(refs)).not.toContain('signature')
    const kept = await liveSession(e2e.sandbox.api.db, ref!.id)
    expect(kept?.address.toLowerCase()).toBe(address.toLowerCase())
    expect(await verifyMessage({ address, message: kept!.message, signature: kept!.signature })).toBe(true)

    await p.reload()
    await expect.poll(() => session(p).textContent(), { timeout: 15_000 }).toBe(address)
    expect(await siwe(p).count()).toBe(0)

    await hostButton(p).click()
    await p.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => session(p).textContent()).toBe('')
    await expect.poll(() => liveSession(e2e.sandbox.api.db, ref!.id), { timeout: 10_000 }).toBeUndefined()
    await p.close()
  })
})

describe('sign-in with the embedded wallet (a smart account, through the login frame), in Chromium', () => {
  it('approved in the frame; the smart account’s signature is verified on chain (ERC-6492 / 1271)', async () => {
    const p = await e2e.newPage('?siwx=1')
    const address = await logInByEmail(e2e, p, freshEmail('siwx'))
    await siwe(p).waitFor({ timeout: 30_000 })
    await siwe(p).getByRole('button', { name: 'Sign in' }).click()
    // The frame asks the visitor, inside the modal, as for any signature.
    await approveInFrame(p)
    await expect.poll(() => session(p).textContent(), { timeout: 30_000 }).toBe(address)
    await expect.poll(() => p.getByRole('dialog').count(), { timeout: 10_000 }).toBe(0)

    const stored = await p.evaluate(() => localStorage.getItem('walletstate.siwe.sessions'))
    const [kept] = JSON.parse(stored ?? '[]') as { message: string; signature: `0x${string}` }[]
    const fields = parseSiweMessage(kept!.message)
    expect(fields.address?.toLowerCase()).toBe(address.toLowerCase())
    expect(fields.domain).toBe(new URL(p.url()).host)
    // A smart account: no EOA signature; the chain's RPC checks it (the account's code, or its factory).
    const client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
    expect(await client.getCode({ address }).then((code) => code !== undefined && code !== '0x')).toBe(
      !isErc6492Signature(kept!.signature),
    )
    expect(await client.verifyMessage({ address, message: kept!.message, signature: kept!.signature })).toBe(
      true,
    )
    const tampered = `${kept!.signature.slice(0, -8)}00000000` as `0x${string}`
    expect(await client.verifyMessage({ address, message: kept!.message, signature: tampered })).toBe(false)
    await p.close()
  })
})
