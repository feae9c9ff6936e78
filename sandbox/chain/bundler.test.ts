import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
} from 'viem'
import {
  createBundlerClient,
  entryPoint07Abi,
  entryPoint07Address,
  type SmartAccount,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { smartAccountAbi } from '../secure-site/contracts/smart-account.gen.ts'
import {
  SMART_ACCOUNT_FACTORY,
  smartAccountAddress,
  toSandboxPermissionAccount,
  toSandboxSmartAccount,
} from '../secure-site/wallet.ts'
import type { SandboxService } from '../shared/http.ts'
import { isAlive } from '../shared/process.ts'
import { STACK_KEYS } from './account-abstraction.ts'
import { type Bundler, startBundler } from './bundler.ts'
import { type Chain, startChain } from './chain.ts'
import { bundlerEndpoint, startRpcService } from './rpc.ts'

const PROJECT_ID = 'bundler-test'

let chain: Chain
let bundler: Bundler
let rpc: SandboxService
let client: PublicClient

beforeAll(async () => {
  chain = await startChain()
  bundler = await startBundler({ chainRpcUrl: chain.rpcUrl })
  rpc = await startRpcService({ chain, projectId: PROJECT_ID, bundlerUrl: bundler.url })
  client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl), pollingInterval: 50 })
}, 90_000)

afterAll(async () => {
  await rpc?.close()
  await bundler?.close()
  await chain?.close()
})

/** One JSON-RPC call to `url`: the HTTP status and the parsed body. */
async function post(url: string, method: string, params: unknown[] = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

const usdcOf = (address: Address) =>
  client.readContract({
    address: chain.contracts.usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  })

/** A fresh owner key whose smart account holds 1 ETH and `usdc` (from the last dev account), not deployed. */
async function fundedAccount(usdc: bigint) {
  const key = generatePrivateKey()
  const account = await toSandboxSmartAccount(client, key)
  const funder = createWalletClient({
    account: privateKeyToAccount(chain.accounts[9]!.privateKey),
    chain: chain.viemChain,
    transport: http(chain.rpcUrl),
  })
  await funder.sendTransaction({ to: account.address, value: parseEther('1') })
  const last = await funder.writeContract({
    address: chain.contracts.usdc,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [account.address, usdc],
  })
  await client.waitForTransactionReceipt({ hash: last })
  return { key, account }
}

describe('the ERC-4337 stack', () => {
  it('deploys EntryPoint v0.7 at its canonical address and the factory, and alto serves it on loopback', async () => {
    expect(await client.getCode({ address: entryPoint07Address })).toMatch(/^0x[0-9a-f]{100,}$/)
    expect(await client.getCode({ address: SMART_ACCOUNT_FACTORY })).toMatch(/^0x[0-9a-f]{100,}$/)
    expect(bundler.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(isAlive(bundler.pid)).toBe(true)
    const direct = await post(bundler.url, 'eth_supportedEntryPoints')
    expect((direct.json.result as string[]).map((a) => getAddress(a))).toEqual([entryPoint07Address])
    // The executor's and utility's keys are the stack's own: no dev account pays for bundles.
    const devAddresses = chain.accounts.map((a) => a.address)
    for (const key of Object.values(STACK_KEYS))
      expect(devAddresses).not.toContain(privateKeyToAccount(key).address)
  })

  it('fronts alto on the RPC host: projectId, chainId and bundler checked, JSON-RPC forwarded', async () => {
    const url = bundlerEndpoint(rpc.origin, PROJECT_ID)
    expect(url).toBe(
      `${rpc.origin}/v1/bundler?chainId=eip155%3A31337&projectId=${PROJECT_ID}&bundler=pimlico`,
    )
    const answered = await post(url, 'eth_supportedEntryPoints')
    expect(answered.status).toBe(200)
    expect(answered.json).toMatchObject({ jsonrpc: '2.0', id: 7 })
    expect((answered.json.result as string[]).map((a) => getAddress(a))).toEqual([entryPoint07Address])
    // An unknown user operation: alto's own answer (null), passed on.
    const unknown = await post(url, 'eth_getUserOperationReceipt', [`0x${'ab'.repeat(32)}`])
    expect(unknown.json).toMatchObject({ id: 7, result: null })

    const refusals: Array<[string, number, string]> = [
      [bundlerEndpoint(rpc.origin, 'someone-else'), 401, 'is not a known project'],
      [bundlerEndpoint(rpc.origin, PROJECT_ID, 'eip155:1'), 400, 'Unsupported chainId eip155:1'],
      [url.replace('bundler=pimlico', 'bundler=other'), 400, 'Unsupported bundler other'],
      [url.replace('&bundler=pimlico', ''), 400, 'Missing bundler query parameter'],
      [url.replace(`&projectId=${PROJECT_ID}`, ''), 400, 'Missing projectId'],
    ]
    for (const [refusedUrl, status, message] of refusals) {
      const refused = await post(refusedUrl, 'eth_supportedEntryPoints')
      expect(refused.status, refusedUrl).toBe(status)
      expect((refused.json.error as { message: string }).message).toContain(message)
    }
  })

  it('lands a user operation of the embedded smart account: the first deploys it, its receipt read back', async () => {
    const { key, account } = await fundedAccount(10_000_000n)
    expect(account.address).toBe(smartAccountAddress(privateKeyToAccount(key).address))
    expect(await client.getCode({ address: account.address })).toBeUndefined()
    const to = chain.accounts[4]!.address
    const before = await client.getBalance({ address: to })

    const bundlerClient = createBundlerClient({
      client,
      transport: http(bundlerEndpoint(rpc.origin, PROJECT_ID)),
      pollingInterval: 50,
    })
    const hash = await bundlerClient.sendUserOperation({
      account,
      calls: [{ to, value: parseEther('0.01') }],
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash })
    expect(receipt).toMatchObject({ success: true, userOpHash: hash, sender: account.address })
    expect(receipt.receipt.status).toBe('success')
    expect(await client.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
    expect(await client.getBalance({ address: to })).toBe(before + parseEther('0.01'))

    // The same receipt, asked of the host as any client would (eth_getUserOperationReceipt).
    const raw = await post(bundlerEndpoint(rpc.origin, PROJECT_ID), 'eth_getUserOperationReceipt', [hash])
    expect(raw.json.result).toMatchObject({
      userOpHash: hash,
      success: true,
      receipt: { transactionHash: receipt.receipt.transactionHash },
    })
  })

  it('lands two USDC transfers in one user operation, both exactly', async () => {
    const { account } = await fundedAccount(10_000_000n)
    const [first, second] = [chain.accounts[5]!.address, chain.accounts[6]!.address]
    const [firstBefore, secondBefore] = [await usdcOf(first), await usdcOf(second)]
    const bundlerClient = createBundlerClient({
      client,
      transport: http(bundlerEndpoint(rpc.origin, PROJECT_ID)),
      pollingInterval: 50,
    })
    const hash = await bundlerClient.sendUserOperation({
      account,
      calls: [
        { to: chain.contracts.usdc, abi: erc20Abi, functionName: 'transfer', args: [first, 1_250_000n] },
        { to: chain.contracts.usdc, abi: erc20Abi, functionName: 'transfer', args: [second, 2_500_000n] },
      ],
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash })
    expect(receipt.success).toBe(true)
    expect(await usdcOf(first)).toBe(firstBefore + 1_250_000n)
    expect(await usdcOf(second)).toBe(secondBefore + 2_500_000n)
    expect(await usdcOf(account.address)).toBe(10_000_000n - 3_750_000n)
    // One operation, one transaction: both transfers are in this operation's logs.
    const transfers = receipt.logs.filter((log) => getAddress(log.address) === chain.contracts.usdc)
    expect(transfers).toHaveLength(2)
  })

  it('refuses an operation not signed by the owner (the account answers "signature failed")', async () => {
    const { account } = await fundedAccount(1_000_000n)
    const stranger = await toSandboxSmartAccount(client, generatePrivateKey())
    const bundlerClient = createBundlerClient({
      client,
      transport: http(bundlerEndpoint(rpc.origin, PROJECT_ID)),
      pollingInterval: 50,
    })
    // The stranger's key signs for this account's address.
    const forged = { ...account, signUserOperation: stranger.signUserOperation }
    await expect(
      bundlerClient.sendUserOperation({
        account: forged,
        calls: [{ to: chain.accounts[4]!.address, value: 1n }],
      }),
    ).rejects.toThrow(/AA24|signature/i)
    expect(await client.getCode({ address: account.address })).toBeUndefined()
  })

  it('stops alto on close: its process is gone', async () => {
    const other = await startBundler({ chainRpcUrl: chain.rpcUrl })
    const pid = other.pid
    expect(isAlive(pid)).toBe(true)
    await other.close()
    expect(isAlive(pid)).toBe(false)
    await expect(fetch(other.url)).rejects.toThrow()
  })
})

describe('ERC-7715 permissions, enforced by the smart account on chain', () => {
  const bundlerClient = () =>
    createBundlerClient({
      client,
      transport: http(bundlerEndpoint(rpc.origin, PROJECT_ID)),
      pollingInterval: 50,
    })
  /** One user operation of `account`, mined; answers its receipt (throws what the bundler refuses). */
  const run = async (account: SmartAccount, calls: readonly object[]) => {
    const bundler = bundlerClient()
    const hash = await bundler.sendUserOperation({ account, calls } as never)
    return bundler.waitForUserOperationReceipt({ hash })
  }
  const transfer = (to: Address, amount: bigint) => ({
    to: chain.contracts.usdc,
    abi: erc20Abi,
    functionName: 'transfer' as const,
    args: [to, amount] as const,
  })

  it('grants a 10 USDC limit to a signer: 5 goes through without the owner, 20 reverts, nothing after revoke', async () => {
    const { key, account } = await fundedAccount(50_000_000n)
    const owner = privateKeyToAccount(key).address
    const signerKey = generatePrivateKey()
    const to = chain.accounts[3]!.address
    const now = (await client.getBlock()).timestamp
    const expiry = Number(now) + 3600

    // The owner grants (its first operation also deploys the account).
    const granted = await run(account, [
      {
        to: account.address,
        data: encodeFunctionData({
          abi: smartAccountAbi,
          functionName: 'grantPermission',
          args: [privateKeyToAccount(signerKey).address, chain.contracts.usdc, 10_000_000n, expiry],
        }),
      },
    ])
    expect(granted.success).toBe(true)
    const [event] = parseEventLogs({
      abi: smartAccountAbi,
      eventName: 'PermissionGranted',
      logs: granted.logs,
    })
    const permissionId = event!.args.id
    const session = await toSandboxPermissionAccount(client, { owner, signerKey, permissionId })
    expect(session.address).toBe(account.address)

    // 5 USDC signed by the granted signer alone: mined.
    const before = await usdcOf(to)
    expect((await run(session, [transfer(to, 5_000_000n)])).success).toBe(true)
    expect(await usdcOf(to)).toBe(before + 5_000_000n)
    const [, , limit, spent] = await client.readContract({
      address: account.address,
      abi: smartAccountAbi,
      functionName: 'permissions',
      args: [permissionId],
    })
    expect({ limit, spent }).toEqual({ limit: 10_000_000n, spent: 5_000_000n })

    // 20 USDC (over what is left, 5): the account refuses it. The bundler will not take it, and sent straight to
    // the EntryPoint it reverts there (AA24: the account's validation says no).
    await expect(run(session, [transfer(to, 20_000_000n)])).rejects.toThrow(/AA24|signature/i)
    const over = await bundlerClient().prepareUserOperation({
      account: session,
      calls: [transfer(to, 20_000_000n)],
    })
    const { account: _account, ...unsigned } = over
    const operation = unsigned as UserOperation<'0.7'>
    const signed = { ...operation, signature: await session.signUserOperation(operation) }
    await expect(
      client.simulateContract({
        account: chain.accounts[0]!.address,
        address: entryPoint07Address,
        abi: entryPoint07Abi,
        functionName: 'handleOps',
        args: [[toPackedUserOperation(signed)], chain.accounts[0]!.address],
      }),
    ).rejects.toThrow(/AA24/)
    // Anything but a transfer of the granted token is refused too, even within the limit.
    await expect(run(session, [{ to, value: 1n }])).rejects.toThrow(/AA24|signature/i)
    expect(await usdcOf(to)).toBe(before + 5_000_000n)

    // The owner revokes: the 5 that went through before is refused now.
    const revoked = await run(account, [
      {
        to: account.address,
        data: encodeFunctionData({
          abi: smartAccountAbi,
          functionName: 'revokePermission',
          args: [permissionId],
        }),
      },
    ])
    expect(revoked.success).toBe(true)
    await expect(run(session, [transfer(to, 5_000_000n)])).rejects.toThrow(/AA24|signature/i)
    expect(await usdcOf(to)).toBe(before + 5_000_000n)
  })

  it('ends a permission at its expiry, and only the owner grants', async () => {
    const { key, account } = await fundedAccount(10_000_000n)
    const owner = privateKeyToAccount(key).address
    const signerKey = generatePrivateKey()
    const expiry = Number((await client.getBlock()).timestamp) + 600
    const grant = encodeFunctionData({
      abi: smartAccountAbi,
      functionName: 'grantPermission',
      args: [privateKeyToAccount(signerKey).address, chain.contracts.usdc, 10_000_000n, expiry],
    })
    const granted = await run(account, [{ to: account.address, data: grant }])
    const [event] = parseEventLogs({
      abi: smartAccountAbi,
      eventName: 'PermissionGranted',
      logs: granted.logs,
    })
    const session = await toSandboxPermissionAccount(client, {
      owner,
      signerKey,
      permissionId: event!.args.id,
    })
    // Nobody but the owner (or the account itself) grants.
    await expect(
      client.simulateContract({
        account: chain.accounts[1]!.address,
        address: account.address,
        abi: smartAccountAbi,
        functionName: 'grantPermission',
        args: [chain.accounts[1]!.address, chain.contracts.usdc, 1n, expiry],
      }),
    ).rejects.toThrow(/NotOwner/)

    // Past the expiry (anvil's clock moved on): the signer's transfer is refused.
    const test = createTestClient({ mode: 'anvil', chain: chain.viemChain, transport: http(chain.rpcUrl) })
    await test.increaseTime({ seconds: 601 })
    await test.mine({ blocks: 1 })
    await expect(run(session, [transfer(chain.accounts[3]!.address, 1_000_000n)])).rejects.toThrow(
      /AA22|expire/i,
    )
    expect(await usdcOf(account.address)).toBe(10_000_000n)
  })
})
