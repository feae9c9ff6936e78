import { type Address, createPublicClient, createWalletClient, erc20Abi, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { smartAccountAbi } from '../../sandbox/secure-site/contracts/smart-account.gen'
import {
  approveInFrame,
  connectInjected,
  type E2eContext,
  frame,
  freshEmail,
  logInByEmail,
  startE2e,
  view,
  walletPrompt,
} from './support.ts'

/*
 * ERC-7715 permissions (`features.smartSessions`), in Chromium against the sandbox and its real bundler (alto):
 * an e-mail login (the smart account) grants the demo's own signer a 10 USDC limit, approved once in the login
 * frame; the signer then spends 5 with no prompt (the recipient gets exactly 5), 20 is refused (nothing moves).
 * The page is reloaded: the kit lists the permission again (its public record kept in the kit's storage, no key),
 * and the revoke (approved in the frame) works from that listed one: the permission is inactive on chain, gone
 * from the list and from storage, and the 5 is refused too. The kit asks only a wallet whose wallet_getCapabilities
 * reports what it asks for (the embedded smart account reports ERC-7715 `permissions`); the injected dev wallet
 * (no smart account, no permissions) is refused with a clear error before it is asked anything.
 */
let e2e: E2eContext
let usdc: Address

beforeAll(async () => {
  e2e = await startE2e()
  usdc = e2e.sandbox.chain.tokens.find((token) => token.symbol === 'USDC')!.address as Address
})
afterAll(async () => {
  await e2e?.close()
})

describe('smart sessions (ERC-7715), in Chromium against the sandbox', () => {
  it('grants 10 USDC to the app signer, which spends 5 without a prompt; 20 is refused; after revoke 5 is too', async () => {
    const client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
    const usdcOf = (address: Address) =>
      client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
    const page = await e2e.newPage('?smartSessions=1')
    const smart = await logInByEmail(e2e, page, freshEmail('sessions'))
    const result = page.getByTestId('demo-sessions-result')
    const recipient = (await page.getByTestId('demo-sessions-recipient').textContent()) as Address
    expect(recipient).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const outcome = () => result.textContent()
    // 50 USDC more for the smart account (sign-up gives 10): 20 is then within its balance, so only the
    // permission's limit can refuse it.
    const funder = createWalletClient({
      account: privateKeyToAccount(e2e.sandbox.chain.accounts[8]!.privateKey),
      chain: e2e.sandbox.chain.viemChain,
      transport: http(e2e.sandbox.chain.rpcUrl),
    })
    await client.waitForTransactionReceipt({
      hash: await funder.writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [smart, 50_000_000n],
      }),
    })

    // The grant: one approval in the frame, showing what is granted.
    await page.getByRole('button', { name: 'Grant 10 USDC' }).click()
    await expect
      .poll(() => frame(page).locator('#approval-title').textContent(), { timeout: 30_000 })
      .toBe('Grant a spend permission')
    await approveInFrame(page)
    await expect.poll(outcome, { timeout: 60_000 }).toMatch(/^granted 0x[0-9a-f]{64}$/)
    const id = ((await outcome()) ?? '').slice('granted '.length) as Hex
    const listed = page.getByTestId('demo-sessions-granted').getByRole('listitem')
    const active = async () =>
      (
        await client.readContract({
          address: smart,
          abi: smartAccountAbi,
          functionName: 'permissions',
          args: [id],
        })
      )[5]
    expect(await active()).toBe(true)
    const smartBefore = await usdcOf(smart)

    // 5 by the app's signer alone: no prompt; exactly 5 arrives.
    await page.getByRole('button', { name: 'Spend 5 as the app' }).click()
    await expect.poll(outcome, { timeout: 60_000 }).toMatch(/^spent 5 USDC \(0x[0-9a-f]{64}\)$/)
    // No prompt: nothing was approved, and neither the kit's approval view nor the frame's approval screen is up.
    expect(await view(page, 'ApproveTransaction').count()).toBe(0)
    expect(await frame(page).locator('#approval').isHidden()).toBe(true)
    expect(await usdcOf(recipient)).toBe(5_000_000n)
    expect(await usdcOf(smart)).toBe(smartBefore - 5_000_000n)

    // 20 (over the 5 left): refused, nothing moves.
    await page.getByRole('button', { name: 'Spend 20 as the app' }).click()
    await expect.poll(outcome, { timeout: 60_000 }).toMatch(/^failed: .*(AA24|signature)/i)
    expect(await usdcOf(recipient)).toBe(5_000_000n)

    // The kit's storage holds the permission's public record, and nothing more (no key).
    const stored = () => page.evaluate(() => window.localStorage.getItem('walletstate.grantedPermissions'))
    const records = JSON.parse((await stored()) ?? '[]') as Array<Record<string, unknown>>
    expect(records).toHaveLength(1)
    expect(Object.keys(records[0]!).sort()).toEqual(
      ['address', 'chainId', 'expiry', 'id', 'limit', 'signer', 'token'].sort(),
    )
    expect(records[0]).toMatchObject({ id, address: smart, limit: '10000000' })

    // A reload: the login comes back, and the kit lists the permission again (granted in the page before).
    await page.reload()
    await expect.poll(() => page.getByTestId('demo-address').textContent(), { timeout: 40_000 }).toBe(smart)
    await expect.poll(() => listed.count(), { timeout: 30_000 }).toBe(1)
    expect(await listed.first().textContent()).toMatch(
      new RegExp(`^${id}: 10000000 of ${usdc} for 0x[0-9a-fA-F]{40} until `),
    )
    expect(await outcome()).toBe('')

    // Revoke, from the listed permission (approved in the frame): the 5 that went through before is refused now.
    await page.getByRole('button', { name: 'Revoke' }).click()
    await expect
      .poll(() => frame(page).locator('#approval-title').textContent(), { timeout: 30_000 })
      .toBe('Revoke a permission')
    await approveInFrame(page)
    await expect.poll(outcome, { timeout: 60_000 }).toBe(`revoked ${id}`)
    expect(await active()).toBe(false)
    await expect.poll(() => listed.count()).toBe(0)
    expect(await stored()).toBeNull()
    await page.getByRole('button', { name: 'Spend 5 as the app' }).click()
    await expect.poll(outcome, { timeout: 60_000 }).toMatch(/^failed: .*(AA24|signature)/i)
    expect(await usdcOf(recipient)).toBe(5_000_000n)
    expect(await usdcOf(smart)).toBe(smartBefore - 5_000_000n)

    // Another reload: nothing is listed again (the revoked record left the storage).
    await page.reload()
    await expect.poll(() => page.getByTestId('demo-address').textContent(), { timeout: 40_000 }).toBe(smart)
    expect(await stored()).toBeNull()
    expect(await listed.count()).toBe(0)
    expect(e2e.pageErrors).toEqual([])
  })

  it('a wallet that is no smart account and reports no permissions: refused with a clear error, no prompt', async () => {
    const page = await e2e.newPage('?smartSessions=1')
    await connectInjected(page, e2e.sandbox.wallets.injectedAddress)
    const result = page.getByTestId('demo-sessions-result')
    await page.getByRole('button', { name: 'Grant 10 USDC' }).click()
    await expect
      .poll(() => result.textContent(), { timeout: 30_000 })
      .toBe('failed: Permissions need a smart account: switch to your smart account')
    expect(await walletPrompt(page).count()).toBe(0)
    expect(await page.getByTestId('demo-sessions-granted').getByRole('listitem').count()).toBe(0)
    await page.close()
  })
})
