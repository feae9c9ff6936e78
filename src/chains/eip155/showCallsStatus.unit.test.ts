import { http } from 'viem'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig, createConnector } from 'wagmi'
import { connect } from 'wagmi/actions'
import { WALLET_CAPABILITIES_FRESH_MS } from '../../constants'
import {
  InvalidCallsStatusError,
  ShowCallsStatusUnsupportedError,
  UnknownCallsIdError,
} from '../../errors/calls'
import { createCallsClient, walletCapabilitiesOf } from './calls'
import { EMBEDDED_CONNECTOR_ID } from './embedded'
import { createPermissionsClient } from './permissions'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const HASH = `0x${'ab'.repeat(32)}`

/**
 * A wallet connected through wagmi: its EIP-1193 provider answers the account and chain, and every other method
 * with `answer` (what a real wallet would: an error for a method it does not have, or whatever it sends back).
 */
async function walletWith(id: string, answer: (method: string, params: unknown) => unknown) {
  const asked: { method: string; params: unknown }[] = []
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [ALICE]
      if (method === 'eth_chainId') return '0x7a69'
      asked.push({ method, params })
      return answer(method, params)
    },
  }
  const connector = createConnector(() => ({
    id,
    name: id,
    type: 'test',
    async connect() {
      return { accounts: [ALICE], chainId: foundry.id } as never
    },
    async disconnect() {},
    async getAccounts() {
      return [ALICE]
    },
    async getChainId() {
      return foundry.id
    },
    async getProvider() {
      return provider
    },
    async isAuthorized() {
      return true
    },
    onAccountsChanged() {},
    onChainChanged() {},
    onDisconnect() {},
  }))
  const wagmi = createConfig({
    chains: [foundry],
    transports: { [foundry.id]: http('http://127.0.0.1:1') },
    connectors: [connector],
  })
  await connect(wagmi, { connector: wagmi.connectors[0]! } as never)
  return { client: createCallsClient(wagmi), wagmi, asked }
}

const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code })

describe('wallet_showCallsStatus', () => {
  it('an external wallet is asked to show the batch itself, with its id', async () => {
    const { client, asked } = await walletWith('injected', () => null)
    await expect(client.showStatus({ id: 'batch-1', chainId: foundry.id })).resolves.toBeNull()
    expect(asked).toEqual([{ method: 'wallet_showCallsStatus', params: ['batch-1'] }])
  })

  it('an external wallet without the method: a clear CallsError, not a crash', async () => {
    for (const code of [4200, -32601]) {
      const { client } = await walletWith('injected', () => {
        throw rpcError(code, 'Method not found')
      })
      const shown = client.showStatus({ id: 'batch-1', chainId: foundry.id })
      await expect(shown).rejects.toBeInstanceOf(ShowCallsStatusUnsupportedError)
      await expect(shown).rejects.toMatchObject({
        shortMessage: "The wallet cannot show a batch's status (no wallet_showCallsStatus)",
      })
    }
  })

  it('the embedded wallet: its status is read (wallet_getCallsStatus), never forwarded, for the kit to show', async () => {
    const { client, asked } = await walletWith(EMBEDDED_CONNECTOR_ID, (method) =>
      method === 'wallet_getCallsStatus'
        ? {
            status: 200,
            atomic: true,
            receipts: [{ transactionHash: HASH, blockNumber: '0x10', status: '0x1' }],
          }
        : (() => {
            throw rpcError(4200, 'Method not supported')
          })(),
    )
    await expect(client.showStatus({ id: HASH, chainId: foundry.id })).resolves.toEqual({
      status: 'success',
      atomic: true,
      receipts: [{ transactionHash: HASH, blockNumber: '16', status: 'success' }],
    })
    expect(asked.map((each) => each.method)).toEqual(['wallet_getCallsStatus'])
  })

  it('a hostile status answer is refused with a clear error', async () => {
    for (const hostile of [
      { status: 'all good' },
      'confirmed',
      { status: 200, receipts: [{ status: '0x1' }] },
    ]) {
      const { client } = await walletWith(EMBEDDED_CONNECTOR_ID, () => hostile)
      const shown = client.showStatus({ id: HASH, chainId: foundry.id })
      await expect(shown).rejects.toBeInstanceOf(InvalidCallsStatusError)
      await expect(shown).rejects.toMatchObject({
        shortMessage: 'The wallet answered with an invalid calls status',
      })
    }
  })

  it('an id that is no batch id is refused before any wallet is asked', async () => {
    const { client, asked } = await walletWith('injected', () => null)
    await expect(client.showStatus({ id: '', chainId: foundry.id })).rejects.toBeInstanceOf(
      UnknownCallsIdError,
    )
    await expect(client.showStatus({ id: 'x'.repeat(9000), chainId: foundry.id })).rejects.toBeInstanceOf(
      UnknownCallsIdError,
    )
    expect(asked).toEqual([])
  })
})

describe("the wallet's wallet_getCapabilities answer, asked once for a while", () => {
  const SMART = { '0x7a69': { atomic: { status: 'supported' } } }

  it('a batch check then a permission check for the same account and chain ask the wallet once', async () => {
    const { client, wagmi, asked } = await walletWith('injected', () => SMART)
    await expect(client.capabilities({ address: ALICE, chainId: foundry.id })).resolves.toBe('supported')
    await expect(
      createPermissionsClient(wagmi).accountKind({ address: ALICE, chainId: foundry.id }),
    ).resolves.toEqual({ kind: 'smartAccount', permissions: false })
    expect(asked.map((each) => each.method)).toEqual(['wallet_getCapabilities'])
  })

  it('asks again for another account, once the answer is older than WALLET_CAPABILITIES_FRESH_MS, and after a failure', async () => {
    let fail = true
    const { wagmi, asked } = await walletWith('injected', () => {
      if (fail) throw rpcError(-32603, 'Internal error')
      return SMART
    })
    let clock = 1_000
    const now = () => clock
    const ask = (address: string, chainId: number) => walletCapabilitiesOf(wagmi, { address, chainId }, now)
    await expect(ask(ALICE, foundry.id)).rejects.toMatchObject({ code: -32603 })
    fail = false
    await expect(ask(ALICE, foundry.id)).resolves.toEqual(SMART) // the failure was not kept
    await expect(ask(ALICE.toLowerCase(), foundry.id)).resolves.toEqual(SMART) // the same account
    expect(asked).toHaveLength(2)
    await ask('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', foundry.id)
    expect(asked).toHaveLength(3)
    clock += WALLET_CAPABILITIES_FRESH_MS - 1
    await ask(ALICE, foundry.id)
    expect(asked).toHaveLength(3)
    clock += 1
    await ask(ALICE, foundry.id)
    expect(asked).toHaveLength(4)
  })
})
