import type { Page } from 'playwright-core'
import { type Address, createPublicClient, erc20Abi, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, hostButton, startE2e, truncated, walletPrompt } from './support.ts'

/**
 * Issue 33 "See before you sign", in Chromium against the sandbox: the send preview shows the balance changes the
 * kit found by simulating the send on the sandbox's anvil before the wallet is asked ("−5 USDC"), and once the
 * send is mined the changes read on chain equal them, to the base unit. Native deltas exclude gas by rule
 * (src/chains/eip155/simulate.ts): the preview shows no ETH line for an ERC-20 send, and on chain the account's
 * ETH changes by exactly the receipt's gas.
 */
let e2e: E2eContext
let page: Page
let client: ReturnType<typeof createPublicClient>
let me: Address
let recipient: Address

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
  client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  me = e2e.sandbox.wallets.injectedAddress
  recipient = e2e.sandbox.chain.accounts[1]!.address
})
afterAll(async () => {
  await e2e?.close()
})

const view = (name: string) => page.locator(`[data-view="${name}"]`)
const approveInWallet = () => walletPrompt(page).getByRole('button', { name: 'Approve' }).click()

/** "−5 USDC" / "+0.0331 ETH" read back: symbol → signed base units (computed here, not by the kit). */
function parseChange(text: string, decimalsOf: (symbol: string) => number): [string, bigint] {
  const match = /^([+\u2212])(\d+(?:\.\d+)?) (\S+)$/.exec(text.trim())
  if (!match) throw new Error(`not a balance change: ${JSON.stringify(text)}`)
  const [, sign, amount, symbol] = match as unknown as [string, string, string, string]
  const units = parseUnits(amount, decimalsOf(symbol))
  return [symbol, sign === '+' ? units : -units]
}

describe('see before you sign: the send preview, in Chromium against the sandbox', () => {
  it('connects with the injected dev wallet', async () => {
    await hostButton(page).getByText('Connect Wallet').click()
    await page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('button', { name: /Walletstate Dev Wallet/ })
      .click()
    await approveInWallet()
    await expect.poll(() => hostButton(page).textContent()).toBe(truncated(me))
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
  })

  it('send 5 USDC: the preview shows "−5 USDC", and the chain moves exactly that once it is mined', async () => {
    const usdc = e2e.sandbox.chain.tokens.find((t) => t.symbol === 'USDC')!
    const decimalsOf = (symbol: string) =>
      symbol === 'ETH' ? 18 : e2e.sandbox.chain.tokens.find((t) => t.symbol === symbol)!.decimals
    const usdcOf = (account: Address) =>
      client.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account],
      })

    await hostButton(page).click()
    await view('Account').waitFor()
    await expect.poll(() => view('Account').getByTestId('token-balance').count()).toBe(4)
    await view('Account').getByRole('button', { name: 'Send', exact: true }).click()
    await view('WalletSend')
      .getByRole('button', { name: /^(Select token|Token: )/ })
      .click()
    await view('WalletSendSelectToken').locator('button[data-symbol="USDC"]').click()
    const form = view('WalletSend')
    await form.getByRole('button', { name: 'Token: USDC' }).waitFor()
    await form.getByRole('textbox', { name: 'Amount' }).fill('5')
    await form.getByRole('textbox', { name: 'Receiver' }).fill(recipient)
    await form.getByRole('button', { name: 'Preview send' }).click()

    const preview = view('WalletSendPreview')
    const list = preview.getByRole('list', { name: 'Balance changes' })
    await list.waitFor()
    const shown = await list.getByRole('listitem').allTextContents()
    expect(shown).toEqual(['\u22125 USDC'])
    const send = preview.getByRole('button', { name: 'Send', exact: true })
    await expect.poll(() => send.isEnabled()).toBe(true)

    const [usdcBefore, ethBefore] = [await usdcOf(me), await client.getBalance({ address: me })]
    await send.click()
    await approveInWallet()
    // SPEC §2: an ERC-20 send returns to Account once its receipt arrived.
    await view('Account').waitFor()
    const [usdcAfter, ethAfter] = [await usdcOf(me), await client.getBalance({ address: me })]

    const block = await client.getBlock({ includeTransactions: true })
    const tx = block.transactions.find((t) => t.from.toLowerCase() === me.toLowerCase())!
    const receipt = await client.getTransactionReceipt({ hash: tx.hash })
    expect(receipt.status).toBe('success')

    // What the preview showed, read back, equals what the chain moved: to the base unit for USDC; ETH moved by
    // the gas alone, which the line leaves out (the fee has its own line).
    const previewed = Object.fromEntries(shown.map((text) => parseChange(text, decimalsOf)))
    expect(previewed).toEqual({ USDC: usdcAfter - usdcBefore })
    expect(ethAfter - ethBefore).toBe(-(receipt.gasUsed * receipt.effectiveGasPrice))
    expect(e2e.pageErrors).toEqual([])
  })
})
