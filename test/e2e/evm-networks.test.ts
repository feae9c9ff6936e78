import type { Page } from 'playwright-core'
import { type Address, createPublicClient, createTestClient, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NETWORK_IMAGE_IDS } from '../../src/utils/networkImages'
import { shownQuantity } from './balances.ts'
import {
  approveInFrame,
  closeModal,
  connectInjected,
  type E2eContext,
  freshEmail,
  hostButton,
  logInByEmail,
  startE2e,
  truncated,
  view,
  walletPrompt,
} from './support.ts'

/**
 * The sandbox's two EVM chains (issue 37), in Chromium: with the injected dev wallet (`wallet_switchEthereumChain`,
 * asked in its prompt), with WalletConnect (both chains approved in the session, so the kit switches at once) and
 * with the embedded wallet (the login frame's switchNetwork), Networks moves the account to "Second Sandbox"
 * (31338): the balance shown is the one read here from that chain, and the demo's "Send transaction" (0.01 ETH
 * to dev account 1) is mined there, not on the first chain, whose balance of the sender does not move.
 */
let e2e: E2eContext
let first: ReturnType<typeof createPublicClient>
let second: ReturnType<typeof createPublicClient>
/** The demo's "Send transaction" recipient: the sandbox's dev account 1. */
let recipient: Address

beforeAll(async () => {
  e2e = await startE2e()
  first = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  second = createPublicClient({ transport: http(e2e.sandbox.chain2.rpcUrl) })
  recipient = e2e.sandbox.chain.accounts[1]!.address
})
afterAll(async () => {
  await e2e?.close()
})

/** Gives `address` a balance on the second chain that no account holds on the first, so the two cannot be confused. */
async function setSecondBalance(address: Address, ether: string) {
  const test = createTestClient({ mode: 'anvil', transport: http(e2e.sandbox.chain2.rpcUrl) })
  await test.setBalance({ address, value: parseEther(ether) })
}

/** From Account: the network button, "Second Sandbox" in Networks (`approve` answers the wallet if it asks), Back. */
async function switchToSecond(page: Page, approve: () => Promise<void> = async () => {}) {
  if ((await view(page, 'Account').count()) === 0) await hostButton(page).click()
  await view(page, 'Account').getByRole('button', { name: 'Walletstate Sandbox' }).click()
  const target = view(page, 'Networks').getByRole('button', { name: 'Second Sandbox' })
  await target.click()
  await approve()
  await expect.poll(() => target.textContent(), { timeout: 30_000 }).toContain('Connected')
  await page.getByRole('dialog').getByRole('button', { name: 'Back' }).click()
  await view(page, 'Account').getByRole('button', { name: 'Second Sandbox' }).waitFor({ timeout: 30_000 })
}

async function expectSecondBalanceShown(page: Page, address: Address, ether: string) {
  const onSecond = await second.getBalance({ address })
  expect(onSecond).toBe(parseEther(ether))
  expect(await first.getBalance({ address })).not.toBe(onSecond)
  await expect
    .poll(() => view(page, 'Account').getByTestId('account-balance').textContent(), { timeout: 30_000 })
    .toBe(`${shownQuantity(onSecond, 18)} ETH`)
}

/** The demo's "Send transaction", approved by `approve`: mined on the second chain only. */
async function sendLandsOnSecond(page: Page, from: Address, approve: () => Promise<void>) {
  const [firstBalance, firstNonce] = await Promise.all([
    first.getBalance({ address: from }),
    first.getTransactionCount({ address: from }),
  ])
  const recipientBefore = await second.getBalance({ address: recipient })
  await closeModal(page)
  const result = page.getByTestId('demo-result')
  await page.getByRole('button', { name: 'Send transaction' }).click()
  await approve()
  await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/^0x[0-9a-f]{64}$/)
  const hash = (await result.textContent()) as Hex
  const receipt = await second.waitForTransactionReceipt({ hash, pollingInterval: 100 })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(from.toLowerCase())
  const tx = await second.getTransaction({ hash })
  expect(tx.chainId).toBe(31338)
  expect(tx.to?.toLowerCase()).toBe(recipient.toLowerCase())
  expect(tx.value).toBe(parseEther('0.01'))
  if (from.toLowerCase() !== recipient.toLowerCase()) {
    expect((await second.getBalance({ address: recipient })) - recipientBefore).toBe(parseEther('0.01'))
  }
  // Nothing of it on the first chain: no such transaction, the sender's balance and nonce as they were.
  await expect(first.getTransactionReceipt({ hash })).rejects.toThrow(/could not be found/)
  expect(await first.getBalance({ address: from })).toBe(firstBalance)
  expect(await first.getTransactionCount({ address: from })).toBe(firstNonce)
}

describe('switching between the two sandbox EVM chains, in Chromium', () => {
  it('the injected dev wallet: wallet_switchEthereumChain, the second chain’s balance, a send mined there', async () => {
    const page = await e2e.newPage()
    const me = e2e.sandbox.wallets.injectedAddress as Address
    await connectInjected(page, me)
    await setSecondBalance(me, '4321.5')
    const approve = () => walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await switchToSecond(page, approve)
    // SPEC §7 network icons use getAssetImage: the network button's icon, loaded from the sandbox's endpoint.
    const icon = view(page, 'Account').getByRole('button', { name: 'Second Sandbox' }).locator('img')
    await expect
      .poll(() =>
        icon.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.src : '')),
      )
      .toContain(`/public/getAssetImage/${NETWORK_IMAGE_IDS['eip155:31338']}?`)
    await expectSecondBalanceShown(page, me, '4321.5')
    await sendLandsOnSecond(page, me, approve)
    await page.close()
  })

  it('WalletConnect: the session holds both chains, the kit switches without a prompt; the send goes to 31338', async () => {
    const page = await e2e.newPage()
    const me = e2e.sandbox.wallets.wcAddress as Address
    await hostButton(page).getByText('Connect Wallet').click()
    await page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: /WalletConnect/ })
      .first()
      .click()
    const qr = page.getByRole('img', { name: 'WalletConnect QR code' })
    await qr.waitFor({ timeout: 60_000 })
    const uri = (await qr.getAttribute('data-uri')) ?? ''
    expect(uri).toMatch(/^wc:/)
    const wallet = await e2e.browser.newPage()
    await wallet.goto(`${e2e.sandbox.wallets.wcWalletUrl}?uri=${encodeURIComponent(uri)}`)
    const proposal = wallet.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText('Walletstate demo').first().waitFor({ timeout: 20_000 })
    expect(await proposal.textContent()).toContain('eip155:31338')
    await proposal.getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 20_000 }).toBe(truncated(me))

    await setSecondBalance(me, '1234.25')
    await switchToSecond(page)
    await expectSecondBalanceShown(page, me, '1234.25')
    await sendLandsOnSecond(page, me, async () => {
      const request = wallet.getByRole('region', { name: 'Transaction request' })
      await request.getByText('eip155:31338').first().waitFor({ timeout: 20_000 })
      await request.getByRole('button', { name: 'Approve', exact: true }).click()
    })
    await wallet.close()
    await page.close()
  })

  it('the embedded wallet: the frame switches network; the EOA signs there, the smart account is refused (SPEC §8)', async () => {
    const page = await e2e.newPage()
    const smart = await logInByEmail(e2e, page, freshEmail('networks'))
    // The EOA, found as a visitor does (Account's switch), so the second chain's balance can be set apart.
    await hostButton(page).click()
    const account = view(page, 'Account')
    const toEoa = account.getByRole('button', { name: 'Switch to your EOA' })
    await expect.poll(() => toEoa.isEnabled(), { timeout: 30_000 }).toBe(true)
    await toEoa.click()
    const address = page.getByTestId('demo-address')
    await expect.poll(() => address.textContent(), { timeout: 30_000 }).not.toBe(smart)
    const eoa = (await address.textContent()) as Address
    expect(eoa).toMatch(/^0x[0-9a-fA-F]{40}$/)

    await setSecondBalance(eoa, '3.25')
    await switchToSecond(page)
    expect(await hostButton(page).textContent()).toBe(truncated(eoa))
    await expectSecondBalanceShown(page, eoa, '3.25')
    expect(await account.getByTestId('account-type').textContent()).toBe('Account type: EOA')
    // No smart account on the second chain: asking for it is answered with SPEC §8's text, the EOA stays.
    await account.getByRole('button', { name: 'Switch to your smart account' }).click()
    await account
      .getByText('This application might not support Smart Accounts')
      .first()
      .waitFor({ timeout: 30_000 })
    expect(await address.textContent()).toBe(eoa)
    await sendLandsOnSecond(page, eoa, () => approveInFrame(page))
    await page.close()
    expect(e2e.pageErrors).toEqual([])
  })
})
