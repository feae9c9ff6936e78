import { type Address, createPublicClient, erc20Abi, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, freshEmail, logInByEmail, startE2e } from './support.ts'

/*
 * `useKitAssets()` (EIP-7811 `wallet_getAssets`), in Chromium against the sandbox: an e-mail login (the smart
 * account, funded at sign-up) and the demo's "Assets" button. The embedded wallet's connector answers from the Data
 * API's list and the chain; the test reads the chain itself with viem, and each amount listed must equal it.
 */
let e2e: E2eContext

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

describe('useKitAssets, in Chromium against the sandbox', () => {
  it("the embedded login sees its USDC and ETH on the sandbox chain, in the chain's exact amounts", async () => {
    const client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
    const usdc = e2e.sandbox.chain.tokens.find((token) => token.symbol === 'USDC')!.address as Address
    const page = await e2e.newPage()
    const me = await logInByEmail(e2e, page, freshEmail('assets'))
    // Sign-up funds the account (ETH and USDC): wait until the chain has both, so what is listed can be compared.
    const usdcOf = () =>
      client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [me] })
    await expect.poll(usdcOf, { timeout: 30_000 }).toBeGreaterThan(0n)
    await expect.poll(() => client.getBalance({ address: me }), { timeout: 30_000 }).toBeGreaterThan(0n)

    await page.getByRole('button', { name: 'Assets', exact: true }).click()
    const list = page.getByTestId('demo-assets')
    await expect.poll(() => list.getAttribute('data-status'), { timeout: 30_000 }).toBe('success')
    const chain = String(e2e.sandbox.chain.chainId)
    const listed = (symbol: string) =>
      list.locator(`li[data-chain="${chain}"][data-symbol="${symbol}"]`).getAttribute('data-balance')
    const [eth, usdcBalance] = await Promise.all([client.getBalance({ address: me }), usdcOf()])
    expect(await listed('ETH')).toBe(eth.toString())
    expect(await listed('USDC')).toBe(usdcBalance.toString())
    expect(await list.locator(`li[data-chain="${chain}"][data-symbol="USDC"]`).textContent()).toMatch(
      /^USDC \d+(\.\d+)? \(chain \d+\)$/,
    )
    expect(e2e.pageErrors).toEqual([])
  })
})
