import { type Address, createPublicClient, erc20Abi, formatUnits, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Config, createConfig } from 'wagmi'
import { connect, writeContract } from 'wagmi/actions'
import { mock } from 'wagmi/connectors'
import { createActor, waitFor } from 'xstate'
import { type DataApi, startDataApi } from '../../sandbox/api/data.ts'
import { openDatabase, type SandboxDb } from '../../sandbox/api/db.ts'
import { type Chain, startChain } from '../../sandbox/chain/chain.ts'
import { createSwapActors } from '../../src/actors/swap'
import { createConvertClient } from '../../src/api/convert'
import { NATIVE_TOKEN_ADDRESS } from '../../src/constants'
import {
  type SwapNotice,
  type SwapToken,
  swapMachine,
  swapSimulatedChanges,
  type TokenBalance,
} from '../../src/machines/swap'

/**
 * The swap machine with its real slots (src/actors/swap.ts: the convert client over the sandbox Data API, wagmi
 * for the transactions) against anvil's pools: approve, then swap, balances checked on the chain.
 */
let chain: Chain
let db: SandboxDb
let api: DataApi
let reader: ReturnType<typeof createPublicClient>
const CAIP2 = 'eip155:31337'

beforeAll(async () => {
  ;[chain, db] = await Promise.all([startChain(), openDatabase()])
  reader = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl), pollingInterval: 50 })
  api = await startDataApi({
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    tokens: chain.tokens,
    db,
    swapRouter: chain.contracts.router,
  })
})
afterAll(async () => {
  await api?.close()
  await db?.close()
  await chain?.close()
})

async function wagmiFor(sender: Address): Promise<Config> {
  const config = createConfig({
    chains: [chain.viemChain],
    connectors: [mock({ accounts: [sender] })],
    transports: { [chain.chainId]: http(chain.rpcUrl) },
    pollingInterval: 50,
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  await connect(config, { connector: config.connectors[0]! })
  return config
}

const tokenBalance = (token: Address, holder: Address) =>
  reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })

/** The account's balances, as the Data API would list them. */
async function balancesOf(holder: Address): Promise<TokenBalance[]> {
  const native = await reader.getBalance({ address: holder })
  const list: TokenBalance[] = [
    {
      name: 'Ether',
      symbol: 'ETH',
      chainId: CAIP2,
      price: 3000,
      quantity: { decimals: '18', numeric: formatUnits(native, 18) },
    },
  ]
  for (const t of chain.tokens)
    list.push({
      name: t.name,
      symbol: t.symbol,
      chainId: CAIP2,
      address: `${CAIP2}:${t.address}`,
      price: 1,
      quantity: {
        decimals: String(t.decimals),
        numeric: formatUnits(await tokenBalance(t.address, holder), t.decimals),
      },
    })
  return list
}

async function swapRunner(index: number) {
  const holder = chain.accounts[index]!.address
  const wagmi = await wagmiFor(holder)
  const convert = createConvertClient({ api: api.origin, projectId: 'swap-integration' })
  const machine = swapMachine.provide({
    actors: createSwapActors({
      wagmi,
      convert,
      pollIntervalMs: 50,
      routers: { [`eip155:${chain.chainId}`]: chain.contracts.router },
    }),
  })
  const actor = createActor(machine, {
    input: { chainId: chain.chainId, userAddress: holder, balances: await balancesOf(holder) },
  })
  const notices: SwapNotice[] = []
  actor.on('*', (notice) => notices.push(notice as SwapNotice))
  actor.start()
  await waitFor(actor, (s) => s.context.tokens.length > 0, { timeout: 10_000 })
  const token = (symbol: string) =>
    actor.getSnapshot().context.tokens.find((t) => t.symbol === symbol) as SwapToken
  return { actor, holder, token, notices }
}

describe('swap machine with its real slots, against the sandbox pools', () => {
  it('lists the swappable tokens, native ETH among them', async () => {
    const { actor, token } = await swapRunner(3)
    expect(token('ETH').address).toBe(NATIVE_TOKEN_ADDRESS)
    expect(
      actor
        .getSnapshot()
        .context.tokens.map((t) => t.symbol)
        .sort(),
    ).toEqual(['ETH', 'STK', 'USDC', 'USDT'])
    actor.stop()
  })

  it('100 USDC → ETH: approve, then swap; the balances move by the quote, within the slippage', async () => {
    const { actor, holder, token, notices } = await swapRunner(4)
    const usdc = chain.tokens.find((t) => t.symbol === 'USDC')!
    const usdcBefore = await tokenBalance(usdc.address, holder)
    const ethBefore = await reader.getBalance({ address: holder })
    actor.send({ type: 'swap.selectFrom', token: token('USDC') })
    actor.send({ type: 'swap.selectTo', token: token('ETH') })
    actor.send({ type: 'swap.setAmount', amount: '100' })
    await waitFor(actor, (s) => s.context.quote !== undefined, { timeout: 10_000 })
    const quoted = BigInt(actor.getSnapshot().context.quote!.toAmount)
    expect(quoted).toBeGreaterThan(0n)
    actor.send({ type: 'swap.review' })
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }) || s.hasTag('failed'), { timeout: 10_000 })
    actor.send({ type: 'swap.confirm' })
    await waitFor(actor, (s) => s.matches('done') || s.hasTag('failed'), { timeout: 30_000 })
    expect(actor.getSnapshot().context.error).toBeUndefined()
    expect(actor.getSnapshot().value).toBe('done')
    expect(await tokenBalance(usdc.address, holder)).toBe(usdcBefore - parseUnits('100', 6))
    // ETH received, less the gas of two transactions: at least the least the slippage allows, less the gas.
    const ethAfter = await reader.getBalance({ address: holder })
    const gasAllowance = parseUnits('0.01', 18)
    expect(ethAfter - ethBefore).toBeGreaterThan((quoted * 99n) / 100n - gasAllowance)
    expect(ethAfter - ethBefore).toBeLessThanOrEqual(quoted)
    expect(notices.map((n) => n.type)).toContain('swap.succeeded')
    actor.stop()
  })

  it('USDT → USDC over a smaller allowance already there: approve to zero first, then the amount, then swap', async () => {
    const { actor, holder, token } = await swapRunner(5)
    const usdt = chain.tokens.find((t) => t.symbol === 'USDT')!
    const usdc = chain.tokens.find((t) => t.symbol === 'USDC')!
    // A smaller allowance left by an earlier swap: USDT-style tokens refuse to change it without zero first.
    const wagmi = await wagmiFor(holder)
    const approve = await writeContract(wagmi, {
      address: usdt.address,
      abi: [
        {
          type: 'function',
          name: 'approve',
          stateMutability: 'nonpayable',
          inputs: [
            { name: 'spender', type: 'address' },
            { name: 'value', type: 'uint256' },
          ],
          outputs: [],
        },
      ] as const,
      functionName: 'approve',
      args: [chain.contracts.router, 1_000_000n],
    })
    await reader.waitForTransactionReceipt({ hash: approve })
    const usdcBefore = await tokenBalance(usdc.address, holder)
    const sent: string[] = []
    actor.subscribe((s) => {
      const kind = s.context.hashKind
      if (s.context.hash && kind && sent.at(-1) !== `${kind}:${s.context.hash}`)
        sent.push(`${kind}:${s.context.hash}`)
    })
    actor.send({ type: 'swap.selectFrom', token: token('USDT') })
    actor.send({ type: 'swap.selectTo', token: token('USDC') })
    actor.send({ type: 'swap.setAmount', amount: '50' })
    await waitFor(actor, (s) => s.context.quote !== undefined, { timeout: 10_000 })
    const quoted = BigInt(actor.getSnapshot().context.quote!.toAmount)
    actor.send({ type: 'swap.review' })
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }) || s.hasTag('failed'), { timeout: 10_000 })
    expect(actor.getSnapshot().context.allowance).toBe('1000000')
    actor.send({ type: 'swap.confirm' })
    await waitFor(actor, (s) => s.matches('done') || s.hasTag('failed'), { timeout: 30_000 })
    expect(actor.getSnapshot().context.error).toBeUndefined()
    expect(actor.getSnapshot().value).toBe('done')
    // Three transactions: approve 0, approve 50 USDT, the swap.
    expect(sent.map((s) => s.split(':')[0])).toEqual(['approve', 'approve', 'swap'])
    const received = (await tokenBalance(usdc.address, holder)) - usdcBefore
    expect(received).toBeGreaterThanOrEqual((quoted * 99n) / 100n)
    expect(received).toBeLessThanOrEqual(quoted)
    actor.stop()
  })

  // Guards "see before you sign": the preview's balance changes are the chain's own, to the wei (gas aside: the
  // network fee has its own line).
  it('100 USDC → ETH: the simulated balance changes equal what the chain then moved, to the wei', async () => {
    const { actor, holder, token, notices } = await swapRunner(7)
    const usdc = chain.tokens.find((t) => t.symbol === 'USDC')!
    const [usdcBefore, ethBefore] = [
      await tokenBalance(usdc.address, holder),
      await reader.getBalance({ address: holder }),
    ]
    actor.send({ type: 'swap.selectFrom', token: token('USDC') })
    actor.send({ type: 'swap.selectTo', token: token('ETH') })
    actor.send({ type: 'swap.setAmount', amount: '100' })
    await waitFor(actor, (s) => s.context.quote !== undefined, { timeout: 10_000 })
    actor.send({ type: 'swap.review' })
    const ready = await waitFor(actor, (s) => s.matches({ preview: 'ready' }) || s.hasTag('failed'), {
      timeout: 10_000,
    })
    const simulated = swapSimulatedChanges(ready.context.simulation)!
    expect(simulated.map((c) => c.symbol)).toEqual(['ETH', 'USDC'])
    actor.send({ type: 'swap.confirm' })
    await waitFor(actor, (s) => s.matches('done') || s.hasTag('failed'), { timeout: 30_000 })
    expect(actor.getSnapshot().value).toBe('done')
    let gas = 0n
    for (const notice of notices)
      if (notice.type === 'swap.submitted') {
        const receipt = await reader.getTransactionReceipt({ hash: notice.hash })
        gas += receipt.gasUsed * receipt.effectiveGasPrice
      }
    const usdcMoved = (await tokenBalance(usdc.address, holder)) - usdcBefore
    const ethMoved = (await reader.getBalance({ address: holder })) - ethBefore + gas
    expect(simulated.find((c) => c.symbol === 'USDC')!.delta).toBe(usdcMoved)
    expect(simulated.find((c) => c.symbol === 'ETH')!.delta).toBe(ethMoved)
    actor.stop()
  })
})

// Guards "every transaction the kit builds from the convert API's answer is checked before a wallet sees it":
// the Data API's hostile fault mode answers well-formed builds for another spender and another router.
describe('swap machine against a hostile convert API (the fault switch in hostile mode)', () => {
  const fault = async (body: unknown) => {
    const res = await fetch(`${api.origin}/__fault`, { method: 'POST', body: JSON.stringify(body) })
    expect(res.status).toBe(200)
  }

  for (const [pair, amount] of [
    [['USDC', 'ETH'], '10'],
    [['ETH', 'USDC'], '0.01'],
  ] as const) {
    it(`${pair.join(' → ')}: refused with a named error before any wallet request; nothing sent`, async () => {
      const { actor, holder, token } = await swapRunner(8)
      const nonce = await reader.getTransactionCount({ address: holder, blockTag: 'pending' })
      actor.send({ type: 'swap.selectFrom', token: token(pair[0]) })
      actor.send({ type: 'swap.selectTo', token: token(pair[1]) })
      actor.send({ type: 'swap.setAmount', amount })
      await waitFor(actor, (s) => s.context.quote !== undefined, { timeout: 10_000 })
      await fault({ mode: 'hostile' })
      try {
        actor.send({ type: 'swap.review' })
        const refused = await waitFor(actor, (s) => s.matches('failed') || s.matches({ preview: 'ready' }), {
          timeout: 10_000,
        })
        expect(refused.value).toEqual({ failed: 'refused' })
        expect(refused.context.error?.name).toBe('SwapBuildMismatchError')
        expect(refused.context.prepared).toBeUndefined()
        expect(refused.can({ type: 'swap.confirm' })).toBe(false)
      } finally {
        await fault({ mode: 'off' })
      }
      expect(await reader.getTransactionCount({ address: holder, blockTag: 'pending' })).toBe(nonce)
      actor.stop()
    })
  }
})
