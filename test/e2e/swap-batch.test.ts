import type { Page } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseAbiItem,
  parseEther,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approveInFrame,
  type E2eContext,
  frame,
  freshEmail,
  hostButton,
  logInByEmail,
  startE2e,
  view,
} from './support.ts'

/*
 * The embedded wallet's smart account batches atomically (issue 36 acceptance), in Chromium against the sandbox
 * and its real bundler (alto), one e-mail login for both cases:
 * - Swap 100 USDC → ETH asks for ONE approval in the frame, not two: the kit answers wallet_getCapabilities
 *   locally, the preview's "Approve" sends the checked approval and swap as one `wallet_sendCalls`
 *   (atomicRequired) to the secure site, which executes them as one user operation through the bundler; the kit
 *   follows it with `wallet_getCallsStatus`, which it answers itself from the bundler (eth_getUserOperationReceipt).
 * - The demo's "Send batch" (0.001 ETH and 1 USDC to the second dev account): one approval in the frame, both
 *   transfers in one user operation (one transaction to the EntryPoint), wagmi's getCallsStatus reports success
 *   with the one receipt, and the page itself POSTed eth_getUserOperationReceipt to the sandbox's bundler endpoint.
 * The injected dev wallet's two steps / sequential batch are test/e2e/swap.test.ts's and send-calls.test.ts's.
 */
let e2e: E2eContext
let page: Page
let me: Address
let client: ReturnType<typeof createPublicClient>
/** The JSON-RPC methods the page (not the frame, not the secure site's server) POSTed to the bundler endpoint. */
const bundlerCalls: { method: string; params: unknown[]; url: string }[] = []
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const USER_OPERATION_EVENT = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)

beforeAll(async () => {
  e2e = await startE2e()
  client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
  page = await e2e.newPage()
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (request.method() !== 'POST' || url.pathname !== '/v1/bundler') return
    if (request.frame() !== page.mainFrame()) return
    const body = JSON.parse(request.postData() ?? '{}') as { method: string; params: unknown[] }
    bundlerCalls.push({ method: body.method, params: body.params, url: request.url() })
  })
})
afterAll(async () => {
  await e2e?.close()
})

const token = (symbol: string) => e2e.sandbox.chain.tokens.find((t) => t.symbol === symbol)!
const caip10 = (address: string) => `eip155:${e2e.sandbox.chain.chainId}:${address}`
const usdcOf = (holder: Address) =>
  client.readContract({
    address: token('USDC').address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  })

/** The account's deposit at the EntryPoint (what prefunds its operations' gas). */
const depositOf = (holder: Address) =>
  client.readContract({
    address: entryPoint07Address,
    abi: [parseAbiItem('function balanceOf(address account) view returns (uint256)')],
    functionName: 'balanceOf',
    args: [holder],
  })

/** The smart account's user operations mined after `block`: their hashes and gas. */
async function userOperationsSince(block: bigint) {
  const logs = await client.getLogs({
    address: entryPoint07Address,
    event: USER_OPERATION_EVENT,
    args: { sender: me },
    fromBlock: block + 1n,
  })
  return logs.map((log) => ({
    hash: log.args.userOpHash!,
    success: log.args.success!,
    gas: log.args.actualGasCost!,
    transaction: log.transactionHash,
  }))
}

/** The convert API's quote for the swap, asked by the test itself (the pool's state now). */
async function quoted(amount: bigint): Promise<bigint> {
  const url = new URL('/v1/convert/quotes', e2e.sandbox.api.origin)
  url.search = new URLSearchParams({
    projectId: e2e.sandbox.projectId,
    st: 'appkit',
    sv: 'html-wagmi-e2e',
    amount: amount.toString(),
    userAddress: caip10(me),
    from: caip10(token('USDC').address),
    to: caip10(NATIVE),
    gasPrice: '1000000000',
  }).toString()
  const res = await fetch(url)
  const body = (await res.json()) as { quotes: Array<{ toAmount: string }> }
  expect(res.status, JSON.stringify(body)).toBe(200)
  return BigInt(body.quotes[0]!.toAmount)
}

describe('the embedded smart account batches atomically, in Chromium against the sandbox (real bundler)', () => {
  it('swap 100 USDC → ETH asks for one approval in the frame: approval and swap in one user operation; balances exact', async () => {
    // The login both cases share (expect.poll runs only inside a test).
    me = getAddress(await logInByEmail(e2e, page, freshEmail('batch-swap')))
    // Sign-up funds the account with 10 USDC: a dev account sends it enough for the swap.
    const faucet = e2e.sandbox.chain.accounts[7]!
    const wallet = createWalletClient({
      account: privateKeyToAccount(faucet.privateKey),
      chain: e2e.sandbox.chain.viemChain,
      transport: http(e2e.sandbox.chain.rpcUrl),
    })
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: token('USDC').address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [me, parseUnits('150', 6)],
      }),
    })
    const start = await client.getBlockNumber({ cacheTime: 0 })
    const before = {
      USDC: await usdcOf(me),
      ETH: await client.getBalance({ address: me }),
      deposit: await depositOf(me),
    }
    await hostButton(page).click()
    await view(page, 'Account').getByRole('button', { name: 'Swap', exact: true }).click()
    const swap = view(page, 'Swap')
    await swap.waitFor()
    // The pair picked as the visitor does (test/e2e/swap.test.ts's fillSwap).
    await swap.getByRole('button', { name: /^Select token to pay/ }).click()
    await view(page, 'SwapSelectToken').getByRole('button', { name: 'USDC', exact: true }).click()
    await swap.waitFor()
    await swap.getByRole('button', { name: /^Select token to receive/ }).click()
    await view(page, 'SwapSelectToken').getByRole('button', { name: 'ETH', exact: true }).click()
    await swap.waitFor()
    await swap.getByRole('textbox', { name: 'You pay' }).fill('100')
    const quote = await quoted(parseUnits('100', 6))
    await expect
      .poll(() => swap.getByRole('button', { name: 'Review swap' }).isEnabled(), { timeout: 30_000 })
      .toBe(true)

    await swap.getByRole('button', { name: 'Review swap' }).click()
    const preview = view(page, 'SwapPreview')
    const approve = preview.getByRole('button', { name: 'Approve', exact: true })
    await expect.poll(() => approve.isEnabled(), { timeout: 30_000 }).toBe(true)

    await approve.click()
    // One approval in the frame: the approval and the swap together.
    await approveInFrame(page)
    await expect
      .poll(() => page.locator('.ws-toast').textContent(), { timeout: 90_000 })
      .toMatch(/^Swapped 100 USDC for /)
    // Never a second prompt: the frame's approval is gone, the swap landed.
    expect(await view(page, 'ApproveTransaction').count()).toBe(0)
    expect(await frame(page).locator('#approval').isVisible()).toBe(false)

    // One user operation carried both (the approval and the swap), in one transaction to the EntryPoint.
    const operations = await userOperationsSince(start)
    expect(operations).toHaveLength(1)
    expect(operations[0]!.success).toBe(true)
    const tx = await client.getTransaction({ hash: operations[0]!.transaction })
    expect(getAddress(tx.to ?? '0x')).toBe(entryPoint07Address)
    // Balances exact: 100 USDC paid; the quote's ETH received, the operation's gas (paid by the account) aside.
    const after = {
      USDC: await usdcOf(me),
      ETH: await client.getBalance({ address: me }),
      deposit: await depositOf(me),
    }
    expect(before.USDC - after.USDC).toBe(parseUnits('100', 6))
    // The account prefunds its operation into its EntryPoint deposit; the gas is taken from there, the rest stays.
    expect(after.ETH - before.ETH + operations[0]!.gas + (after.deposit - before.deposit)).toBe(quote)
    // The kit read the batch's status itself, from the bundler (SPEC §7), for this operation.
    expect(bundlerCalls.map((call) => call.method)).toContain('eth_getUserOperationReceipt')
    expect(bundlerCalls.find((call) => call.method === 'eth_getUserOperationReceipt')?.params).toEqual([
      operations[0]!.hash,
    ])
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
  })

  it('"Send batch": one approval in the frame, both transfers in one user operation, getCallsStatus success from the bundler', async () => {
    const recipient = e2e.sandbox.chain.accounts[1]!.address
    const start = await client.getBlockNumber({ cacheTime: 0 })
    const [ethBefore, usdcBefore] = await Promise.all([
      client.getBalance({ address: recipient }),
      usdcOf(recipient),
    ])
    bundlerCalls.length = 0
    // The modal closed (the swap's case may have left it open).
    for (let attempt = 0; attempt < 3 && (await page.getByRole('dialog').count()) > 0; attempt++)
      await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
    await page.getByRole('button', { name: 'Send batch', exact: true }).click()
    await approveInFrame(page)
    const status = page.getByTestId('demo-calls-status')
    await expect.poll(() => status.textContent(), { timeout: 90_000 }).toBe('success (1 receipts)')
    expect(await view(page, 'ApproveTransaction').count()).toBe(0)

    const operations = await userOperationsSince(start)
    expect(operations).toHaveLength(1)
    expect(operations[0]!.success).toBe(true)
    const tx = await client.getTransaction({ hash: operations[0]!.transaction })
    expect(getAddress(tx.to ?? '0x')).toBe(entryPoint07Address)
    // The host got the batch's id: the user operation's hash.
    expect((await page.getByTestId('demo-result').textContent())?.toLowerCase()).toBe(operations[0]!.hash)
    expect((await client.getBalance({ address: recipient })) - ethBefore).toBe(parseEther('0.001'))
    expect((await usdcOf(recipient)) - usdcBefore).toBe(parseUnits('1', 6))
    // wallet_getCallsStatus answered by the kit: the page POSTed eth_getUserOperationReceipt to the bundler
    // endpoint (SPEC §7's query), for this operation.
    const reads = bundlerCalls.filter((call) => call.method === 'eth_getUserOperationReceipt')
    expect(reads.length).toBeGreaterThan(0)
    for (const read of reads) expect(read.params).toEqual([operations[0]!.hash])
    const query = Object.fromEntries(new URL(reads[0]!.url).searchParams)
    expect(query).toEqual({ chainId: 'eip155:31337', projectId: e2e.sandbox.projectId, bundler: 'pimlico' })
    await expect.poll(() => page.locator('.ws-toast').textContent()).toBe('Calls confirmed (2 calls)')

    // One user operation is one transaction, so an atomic batch has ONE receipt, and it carries BOTH transfers:
    // the receipt getCallsStatus reported (the demo writes it, logs included) is that transaction's, its logs hold
    // the USDC Transfer to the recipient, and the recipient's ETH rose by exactly 0.001 in its block, which holds
    // no other transaction (a native transfer from a contract leaves no log; the balance across the block shows it).
    const receipts = JSON.parse((await status.getAttribute('data-receipts')) ?? '[]') as Array<{
      transactionHash: Hex
      blockNumber: string
      logs: Array<{ address: Address; topics: [Hex, ...Hex[]]; data: Hex }>
    }>
    expect(receipts).toHaveLength(1)
    const [receipt] = receipts
    expect(receipt!.transactionHash).toBe(operations[0]!.transaction)
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt!.logs as never })
    expect(transfers.map((log) => ({ token: getAddress(log.address), ...log.args }))).toContainEqual({
      token: token('USDC').address,
      from: me,
      to: recipient,
      value: parseUnits('1', 6),
    })
    const block = BigInt(receipt!.blockNumber)
    expect((await client.getBlock({ blockNumber: block })).transactions).toEqual([receipt!.transactionHash])
    const [ethBeforeBlock, ethInBlock] = await Promise.all([
      client.getBalance({ address: recipient, blockNumber: block - 1n }),
      client.getBalance({ address: recipient, blockNumber: block }),
    ])
    expect(ethInBlock - ethBeforeBlock).toBe(parseEther('0.001'))

    // "Show batch status": the embedded wallet does not show it itself; the kit reads it (from the bundler) and
    // shows it in words.
    bundlerCalls.length = 0
    await page.getByRole('button', { name: 'Show batch status', exact: true }).click()
    await expect
      .poll(() => page.locator('.ws-toast').textContent(), { timeout: 30_000 })
      .toBe('Batch status: confirmed (1 receipt)')
    await expect.poll(() => page.getByTestId('demo-result').textContent()).toBe('Batch status shown')
    expect(
      bundlerCalls.filter((call) => call.method === 'eth_getUserOperationReceipt').length,
    ).toBeGreaterThan(0)
    expect(await frame(page).locator('#approval').isVisible()).toBe(false)
  })
})
