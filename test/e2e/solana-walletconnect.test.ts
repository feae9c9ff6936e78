import { PublicKey } from '@solana/web3.js'
import bs58 from 'bs58'
import type { Page } from 'playwright-core'
import nacl from 'tweetnacl'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bip122Address } from '../../sandbox/wallets/wc/bip122.ts'
import { recoveredBitcoinAddress } from '../../sandbox/wallets/wc/bitcoinMessage.test-support.ts'
import {
  closeModal,
  type E2eContext,
  hostButton,
  openWalletConnectQr,
  SOLANA_WALLET,
  solanaPrompt,
  startE2e,
  truncated,
  view,
} from './support.ts'

/**
 * Issue 17's acceptance in Chromium: connect by WalletConnect on the solana namespace and sign a message. The
 * demo's modal, switched to "Solana Sandbox" in Networks, pairs with the sandbox WalletConnect wallet page
 * through the sandbox relay (the pairing URI read from the QR view, pasted into the wallet page); the host button
 * shows the wallet page's Solana key; the demo's "Sign message" is approved on the wallet page and its base58
 * signature verifies (ed25519); a reload reconnects from the stored session; a session the wallet deletes
 * disconnects the kit.
 */
let e2e: E2eContext
let page: Page
let wallet: Page | undefined
let evmWallet: Page | undefined
/** Requests of the demo page that leave loopback (WalletConnect's hosted Verify, telemetry, ...): none. */
const outside: string[] = []

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
  page.on('request', (request) => {
    if (!/^(data:|blob:|https?:\/\/127\.0\.0\.1[:/]|wss?:\/\/127\.0\.0\.1[:/])/.test(request.url()))
      outside.push(request.url())
  })
})
afterAll(async () => {
  await e2e?.close()
})

/** Opens the modal, switches to Solana in Networks, picks WalletConnect and reads the QR code's pairing URI. */
async function solanaPairingUri(p: Page): Promise<string> {
  await hostButton(p).getByText('Connect Wallet').click()
  const connect = p.getByRole('dialog', { name: 'Connect Wallet' })
  await connect.getByRole('button', { name: 'Supported networks' }).click()
  await view(p, 'Networks')
    .getByRole('button', { name: /Solana Sandbox/ })
    .click()
  await view(p, 'Connect').waitFor()
  await p
    .getByRole('dialog')
    .getByRole('button', { name: /WalletConnect/ })
    .first()
    .click()
  await view(p, 'ConnectingWalletConnectBasic').waitFor()
  const qr = p.getByRole('img', { name: 'WalletConnect QR code' })
  await qr.waitFor({ timeout: 60_000 })
  const uri = await qr.getAttribute('data-uri')
  if (!uri?.startsWith('wc:')) throw new Error(`no pairing URI: ${uri}`)
  return uri
}

async function openWallet(uri: string): Promise<Page> {
  const opened = await e2e.browser.newPage()
  await opened.goto(`${e2e.sandbox.wallets.wcWalletUrl}?uri=${encodeURIComponent(uri)}`)
  return opened
}

describe('WalletConnect on the solana namespace (issue 17), in Chromium through the sandbox relay', () => {
  it('pairs from the QR view of Solana’s Connect: the host button shows the wallet page’s Solana key', async () => {
    const address = e2e.sandbox.wallets.wcSolanaAddress
    const uri = await solanaPairingUri(page)
    expect(await page.getByText(/Expires in \d+:\d\d/).count()).toBe(1)
    wallet = await openWallet(uri)
    const proposal = wallet.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Walletstate demo').first().waitFor({ timeout: 20_000 })
    // Solana alone is proposed: the card offers the wallet's Solana account, not its eip155 one.
    expect(await proposal.textContent()).toContain(address)
    expect(await proposal.textContent()).not.toContain(e2e.sandbox.wallets.wcAddress)
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(address))
    expect(truncated(address)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{4}\.\.\.[1-9A-HJ-NP-Za-km-z]{6}$/)
  })

  it('signs the demo’s message on the wallet page: a base58 ed25519 signature by that key', async () => {
    const address = e2e.sandbox.wallets.wcSolanaAddress
    if (!wallet) throw new Error('not paired')
    await page.getByRole('button', { name: 'Sign message' }).click()
    const request = wallet.getByRole('region', { name: 'Signature request' })
    await request.getByText('solana_signMessage').first().waitFor({ timeout: 20_000 })
    await request.getByRole('button', { name: 'Approve', exact: true }).click()
    const result = page.getByTestId('demo-result')
    await expect
      .poll(() => result.textContent(), { timeout: 20_000 })
      .toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
    const signature = bs58.decode((await result.textContent()) ?? '')
    const message = new TextEncoder().encode(`Hello from the Walletstate demo to ${address}`)
    expect(nacl.sign.detached.verify(message, signature, new PublicKey(address).toBytes())).toBe(true)
  })

  it('reconnects after a reload from the stored session, and signs again without a new pairing', async () => {
    const address = e2e.sandbox.wallets.wcSolanaAddress
    if (!wallet) throw new Error('not paired')
    await page.reload()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(address))
    await page.getByRole('button', { name: 'Sign message' }).click()
    const request = wallet.getByRole('region', { name: 'Signature request' })
    await request.getByRole('button', { name: 'Approve', exact: true }).click({ timeout: 20_000 })
    const result = page.getByTestId('demo-result')
    await expect
      .poll(
        async () => {
          const text = (await result.textContent()) ?? ''
          if (!/^[1-9A-HJ-NP-Za-km-z]{80,90}$/.test(text)) return false
          const message = new TextEncoder().encode(`Hello from the Walletstate demo to ${address}`)
          return nacl.sign.detached.verify(message, bs58.decode(text), new PublicKey(address).toBytes())
        },
        { timeout: 20_000 },
      )
      .toBe(true)
  })

  it('eip155’s WalletConnect pairs beside it: two cores, each keeps its session through a reload', async () => {
    const sol = e2e.sandbox.wallets.wcSolanaAddress
    const evm = e2e.sandbox.wallets.wcAddress
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    await page.getByRole('button', { name: 'Solana Sandbox' }).click()
    await view(page, 'Networks')
      .getByRole('button', { name: /Walletstate Sandbox/ })
      .click()
    await view(page, 'Connect').waitFor()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /WalletConnect/ })
      .first()
      .click()
    const qr = page.getByRole('img', { name: 'WalletConnect QR code' })
    await qr.waitFor({ timeout: 60_000 })
    const uri = (await qr.getAttribute('data-uri')) ?? ''
    evmWallet = await openWallet(uri)
    const proposal = evmWallet.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Walletstate demo').first().waitFor({ timeout: 20_000 })
    expect(await proposal.textContent()).toContain(evm)
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(evm))

    await page.reload()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(evm))
    await hostButton(page).click()
    await view(page, 'Account').waitFor()
    await page.getByRole('button', { name: 'Walletstate Sandbox' }).click()
    await view(page, 'Networks')
      .getByRole('button', { name: /Solana Sandbox/ })
      .click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(sol))
    await closeModal(page)
  })

  it('a session deleted by the wallet page disconnects Solana; eip155’s WalletConnect session stays', async () => {
    if (!wallet || !evmWallet) throw new Error('not paired')
    await wallet.getByRole('button', { name: 'Disconnect' }).first().click()
    // Solana is gone; the eip155 account, still connected, is the one shown.
    await expect
      .poll(() => hostButton(page).textContent(), { timeout: 20_000 })
      .toBe(truncated(e2e.sandbox.wallets.wcAddress))
    expect(await evmWallet.locator('li[data-topic][data-state="active"]').count()).toBe(1)
    await wallet.close()
    await evmWallet.close()
    expect(e2e.pageErrors).toEqual([])
    expect(outside).toEqual([])
  })
})

/**
 * The sandbox WalletConnect wallet page opens `uri`, offering only `namespaces`; answers it and its proposal card
 * (shown once it names the app), not yet approved.
 */
async function proposalOnWalletPage(uri: string, namespaces: string) {
  const w = await e2e.browser.newPage()
  await w.goto(`${e2e.sandbox.wallets.wcWalletUrl}?namespaces=${namespaces}&uri=${encodeURIComponent(uri)}`)
  const proposal = w.getByRole('region', { name: 'Session proposal' })
  await proposal.getByText('Walletstate demo').first().waitFor({ timeout: 20_000 })
  return { w, proposal, card: (await proposal.textContent()) ?? '' }
}

/** From the host button: Account, its network button (`from`), then the network `to` in Networks. */
async function toNetwork(p: Page, from: string, to: RegExp) {
  await hostButton(p).click()
  await view(p, 'Account').waitFor()
  await p.getByRole('button', { name: from }).click()
  await view(p, 'Networks').getByRole('button', { name: to }).click()
}

describe('a multichain WalletConnect wallet (issue 37): one entry, one approval, an account on each namespace', () => {
  it('the wallet page with both namespaces is one wallet in Connect; one approval gives an EVM and a Solana account; Networks switches between them without a prompt; a reload keeps both', async () => {
    const evm = e2e.sandbox.wallets.wcAddress
    const sol = e2e.sandbox.wallets.wcSolanaAddress
    const p = await e2e.newPage()
    const leaving: string[] = []
    p.on('request', (request) => {
      if (!/^(data:|blob:|https?:\/\/127\.0\.0\.1[:/]|wss?:\/\/127\.0\.0\.1[:/])/.test(request.url()))
        leaving.push(request.url())
    })
    await hostButton(p).getByText('Connect Wallet').click()
    const entries = p.getByRole('dialog').getByRole('button', { name: /Walletstate WC Wallet/ })
    await entries.first().waitFor({ timeout: 20_000 })
    expect(await entries.count()).toBe(1)
    await entries.click()
    await view(p, 'ConnectingWalletConnect').waitFor()
    const qr = p.getByRole('img', { name: 'WalletConnect QR code' })
    await qr.waitFor({ timeout: 60_000 })
    const uri = (await qr.getAttribute('data-uri')) ?? ''
    // One proposal for both namespaces (and Bitcoin, optional): the card offers an account on each.
    const { w, proposal, card } = await proposalOnWalletPage(uri, 'eip155,solana,bip122')
    expect(card).toContain(evm)
    expect(card).toContain(sol)
    expect(card).toContain(bip122Address)
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(evm))

    // Solana's account is there already: Networks shows it, and the wallet is asked nothing.
    await toNetwork(p, 'Walletstate Sandbox', /Solana Sandbox/)
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(sol))
    await view(p, 'Account').waitFor()
    await closeModal(p)
    await toNetwork(p, 'Solana Sandbox', /Walletstate Sandbox/)
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(evm))
    await closeModal(p)
    expect(await proposal.count()).toBe(0)
    expect(await w.locator('li[data-topic][data-state="active"]').count()).toBe(1)

    // A reload keeps both: the EVM account, and Solana's from the same session, which signs.
    await p.reload()
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(evm))
    await toNetwork(p, 'Walletstate Sandbox', /Solana Sandbox/)
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(sol))
    await closeModal(p)
    await p.getByRole('button', { name: 'Sign message' }).click()
    const request = w.getByRole('region', { name: 'Signature request' })
    await request.getByText('solana_signMessage').first().waitFor({ timeout: 20_000 })
    await request.getByRole('button', { name: 'Approve', exact: true }).click()
    const result = p.getByTestId('demo-result')
    await expect
      .poll(() => result.textContent(), { timeout: 20_000 })
      .toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
    const message = new TextEncoder().encode(`Hello from the Walletstate demo to ${sol}`)
    const signature = bs58.decode((await result.textContent()) ?? '')
    expect(nacl.sign.detached.verify(message, signature, new PublicKey(sol).toBytes())).toBe(true)
    // Still one session on the wallet page: nothing paired again.
    expect(await w.locator('li[data-topic][data-state="active"]').count()).toBe(1)
    expect(leaving).toEqual([])
    await w.close()
    await p.close()
  })

  it("Connect's own WalletConnect entry proposes Solana too: a wallet approving both gives both accounts, Networks switches without a prompt", async () => {
    const evm = e2e.sandbox.wallets.wcAddress
    const sol = e2e.sandbox.wallets.wcSolanaAddress
    const p = await e2e.newPage()
    const uri = await openWalletConnectQr(p, 'ConnectingWalletConnectBasic')
    const { w, proposal, card } = await proposalOnWalletPage(uri, 'eip155,solana')
    expect(card).toContain(evm)
    expect(card).toContain(sol)
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(evm))
    await toNetwork(p, 'Walletstate Sandbox', /Solana Sandbox/)
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(sol))
    await view(p, 'Account').waitFor()
    await closeModal(p)
    // One approval: the wallet page was asked nothing more, and holds one session.
    expect(await proposal.count()).toBe(0)
    expect(await w.locator('li[data-topic][data-state="active"]').count()).toBe(1)
    await w.close()
    await p.close()
  })

  it("a wallet approving only EVM on Connect's own WalletConnect entry: EVM connects, Solana is left as it was, and another Solana wallet connects there", async () => {
    const evm = e2e.sandbox.wallets.wcAddress
    const p = await e2e.newPage()
    const uri = await openWalletConnectQr(p, 'ConnectingWalletConnectBasic')
    const { w, proposal, card } = await proposalOnWalletPage(uri, 'eip155')
    expect(card).toContain(evm)
    expect(card).not.toContain(e2e.sandbox.wallets.wcSolanaAddress)
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(evm))
    // Solana holds no account: Networks leads to Connect, where the injected Solana wallet connects as usual.
    await toNetwork(p, 'Walletstate Sandbox', /Solana Sandbox/)
    await view(p, 'Connect').waitFor()
    await p
      .getByRole('dialog')
      .getByRole('button', { name: new RegExp(SOLANA_WALLET) })
      .click()
    await view(p, 'ConnectingExternal').waitFor()
    await solanaPrompt(p).getByRole('button', { name: 'Approve' }).click()
    await expect
      .poll(() => hostButton(p).textContent(), { timeout: 20_000 })
      .toBe(truncated(e2e.sandbox.wallets.solanaAddress))
    expect(e2e.pageErrors).toEqual([])
    await w.close()
    await p.close()
  })

  it('Bitcoin (bip122): the wallet page’s regtest account shows, with its address and QR in Receive, no balance claimed; the demo signs through useKitBitcoin and the signature verifies', async () => {
    const evm = e2e.sandbox.wallets.wcAddress
    const p = await e2e.newPage('?bitcoin=1')
    await hostButton(p).getByText('Connect Wallet').click()
    const entry = p.getByRole('dialog').getByRole('button', { name: /Walletstate WC Wallet/ })
    await entry.click({ timeout: 20_000 })
    const qr = p.getByRole('img', { name: 'WalletConnect QR code' })
    await qr.waitFor({ timeout: 60_000 })
    const uri = (await qr.getAttribute('data-uri')) ?? ''
    const w = await e2e.browser.newPage()
    await w.goto(`${e2e.sandbox.wallets.wcWalletUrl}?namespaces=eip155,bip122&uri=${encodeURIComponent(uri)}`)
    const proposal = w.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Walletstate demo').first().waitFor({ timeout: 20_000 })
    expect(await proposal.textContent()).toContain(bip122Address)
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(evm))

    await hostButton(p).click()
    await view(p, 'Account').waitFor()
    await p.getByRole('button', { name: 'Walletstate Sandbox' }).click()
    await view(p, 'Networks')
      .getByRole('button', { name: /Bitcoin Regtest/ })
      .click()
    await expect.poll(() => hostButton(p).textContent(), { timeout: 20_000 }).toBe(truncated(bip122Address))
    await expect.poll(() => p.getByTestId('account-balance').textContent()).not.toMatch(/\d.*BTC/)
    await view(p, 'Account').getByRole('button', { name: 'Receive' }).click()
    await view(p, 'WalletReceive').waitFor()
    expect(await p.getByTestId('receive-address').textContent()).toBe(bip122Address)
    expect(await view(p, 'WalletReceive').getByRole('img').count()).toBeGreaterThan(0)
    await closeModal(p)

    await p.getByRole('button', { name: 'Sign message' }).click()
    const request = w.getByRole('region', { name: 'Signature request' })
    await request.getByText('signMessage').first().waitFor({ timeout: 20_000 })
    await request.getByRole('button', { name: 'Approve', exact: true }).click()
    const result = p.getByTestId('demo-result')
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toMatch(/^[A-Za-z0-9+/]{87}=$/)
    const message = `Hello from the Walletstate demo to ${bip122Address}`
    expect(await recoveredBitcoinAddress(message, (await result.textContent()) ?? '')).toBe(bip122Address)
    expect(await recoveredBitcoinAddress(`${message}.`, (await result.textContent()) ?? '')).not.toBe(
      bip122Address,
    )
    await w.close()
    await p.close()
  })
})
