import { type Address, createPublicClient, erc20Abi, http, numberToHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DataApi, startDataApi } from '../../sandbox/api/data.ts'
import { type Chain, startChain } from '../../sandbox/chain/chain.ts'
import { rpcEndpoint, startRpcService } from '../../sandbox/chain/rpc.ts'
import type { SandboxService } from '../../sandbox/shared/http.ts'
import { EMBEDDED_CONNECTOR_ID } from '../../src/chains/eip155/embedded'
import type { EmbeddedFrame } from '../../src/chains/eip155/embeddedBridge'
import type { EmbeddedProvider } from '../../src/chains/eip155/embeddedConnector'
import { getEmbeddedBridge, getWagmiConfig } from '../../src/chains/eip155/wagmi'
import { defineEvmNetwork, resolveConfig } from '../../src/config'
import type { FrameEvmUser } from '../../src/frame/protocol'
import { fund } from './funding.ts'

/**
 * `wallet_getAssets` through the embedded wallet's wagmi connector, as a host's `provider.request` reaches it,
 * against the sandbox: anvil, its RPC host and the Data API. The account is a fresh one funded here with exact
 * amounts, so the answer can only be the chain's. The login frame is not what is tested: a stand-in in its
 * place only says who is logged in (the connector answers this method itself, the frame is never asked).
 */

const projectId = 'wallet-assets-test'
let chain: Chain
let rpc: SandboxService
let api: DataApi

const ETH_SENT = 1_234_567_000_000_000_001n
/** 12.345678 USDC (6 decimals). */
const USDC_MINTED = 12_345_678n
const holder = privateKeyToAccount(generatePrivateKey())

beforeAll(async () => {
  chain = await startChain()
  ;[rpc, api] = await Promise.all([
    startRpcService({ chain }),
    startDataApi({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokens: chain.tokens }),
  ])
  await fund(chain, holder.address, { wei: ETH_SENT, usdc: USDC_MINTED })
})
afterAll(async () => {
  await api?.close()
  await rpc?.close()
  await chain?.close()
})

/** The kit's wagmi config with the embedded wallet, its connector's provider, and a frame where `address` is logged in. */
async function embeddedProvider(address: Address): Promise<EmbeddedProvider> {
  const config = resolveConfig({
    projectId,
    features: { email: true, socials: false },
    endpoints: { rpc: rpc.origin, api: api.origin },
    networks: [
      defineEvmNetwork({
        id: chain.chainId,
        name: 'Walletstate Sandbox',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcEndpoint(rpc.origin, projectId)] } },
      }),
    ],
  })
  const wagmi = getWagmiConfig(config)
  const user: FrameEvmUser = {
    address,
    chainId: chain.chainId,
    accounts: [{ address, type: 'eoa' }],
    preferredAccountType: 'eoa',
  }
  const frame = {
    getSnapshot: () => ({ context: { user, chainId: chain.chainId, restoring: false }, hasTag: () => false }),
    on: () => ({ unsubscribe() {} }),
    subscribe: () => ({ unsubscribe() {} }),
    send() {},
  } as unknown as EmbeddedFrame
  getEmbeddedBridge(config).attach(frame)
  const connector = wagmi.connectors.find((c) => c.id === EMBEDDED_CONNECTOR_ID)!
  return (await connector.getProvider()) as EmbeddedProvider
}

describe('wallet_getAssets from the embedded wallet, against the sandbox', () => {
  it("a funded account's ETH and USDC, exactly as the chain holds them (USDC with 6 decimals)", async () => {
    const provider = await embeddedProvider(holder.address)
    const reader = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const usdc = chain.tokens.find((t) => t.symbol === 'USDC')!
    // What the chain holds, read beside the kit.
    expect(await reader.getBalance({ address: holder.address })).toBe(ETH_SENT)
    expect(
      await reader.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [holder.address],
      }),
    ).toBe(USDC_MINTED)

    const assets = await provider.request({
      method: 'wallet_getAssets',
      params: [{ account: holder.address }],
    })
    expect(assets).toEqual({
      [numberToHex(chain.chainId)]: [
        {
          address: 'native',
          balance: numberToHex(ETH_SENT),
          type: 'native',
          metadata: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        },
        {
          address: usdc.address,
          balance: numberToHex(USDC_MINTED),
          type: 'erc20',
          metadata: { name: usdc.name, symbol: 'USDC', decimals: 6 },
        },
      ],
    })

    // Filtered to ERC-20s: the USDC alone; and another account than the one logged in is refused.
    expect(
      await provider.request({
        method: 'wallet_getAssets',
        params: [{ account: holder.address, assetTypeFilter: ['erc20'] }],
      }),
    ).toEqual({ [numberToHex(chain.chainId)]: [expect.objectContaining({ address: usdc.address })] })
    await expect(
      provider.request({ method: 'wallet_getAssets', params: [{ account: chain.accounts[1]!.address }] }),
    ).rejects.toMatchObject({ name: 'AssetsAccountError', code: 4100 })
  })
})
