import { randomBytes } from 'node:crypto'
import { type Address, createPublicClient, getAddress, type Hex, http, parseEther, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type SandboxDb } from '../api/db.ts'
import { type ListingApi, startListingApi } from '../api/listing.ts'
import {
  type Chain,
  SANDBOX_CHAIN_2_ID,
  SANDBOX_CHAIN_2_NAME,
  SANDBOX_CHAIN_NAME,
  startChain,
} from '../chain/chain.ts'
import { rpcEndpoint, startRpcService } from '../chain/rpc.ts'
import type { SandboxService } from '../shared/http.ts'
import { FRAME_EVM_NETWORKS, FRAME_SOLANA_NETWORKS, type FrameNetwork, frameNetworks } from './networks.ts'
import { SECURE_SITE_MIGRATIONS, type SecureSite, startSecureSite } from './server.ts'

/*
 * The login frame's networks: SPEC §1's list with the sandbox's chains, and the second sandbox chain served by
 * the secure site's API with the EOA only.
 */

describe('frameNetworks', () => {
  it("lists SPEC §1's 23 EVM chains and 3 Solana networks, unreachable unless served, then the site's own", () => {
    expect(FRAME_EVM_NETWORKS).toHaveLength(23)
    expect(FRAME_SOLANA_NETWORKS).toHaveLength(3)
    const list = frameNetworks([
      { caipNetworkId: 'eip155:31337', name: 'Walletstate Sandbox', namespace: 'eip155' },
      { caipNetworkId: 'eip155:11155111', name: 'Sepolia here', namespace: 'eip155' },
    ])
    expect(new Set(list.map((n) => n.caipNetworkId)).size).toBe(list.length)
    expect(list).toHaveLength(27)
    expect(list.filter((n) => n.reachable).map((n) => n.caipNetworkId)).toEqual([
      'eip155:11155111',
      'eip155:31337',
    ])
    expect(list.at(-1)).toEqual({
      caipNetworkId: 'eip155:31337',
      name: 'Walletstate Sandbox',
      namespace: 'eip155',
      testnet: true,
      reachable: true,
    })
    for (const network of list) {
      expect(network.caipNetworkId.startsWith(`${network.namespace}:`)).toBe(true)
    }
  })
})

describe('the secure site on two EVM chains', () => {
  const PROJECT_ID = 'secure-site-networks'
  let first: Chain
  let second: Chain
  let rpc: SandboxService
  let listing: ListingApi
  let db: SandboxDb
  let site: SecureSite

  beforeAll(async () => {
    const firstP = startChain()
    const secondP = startChain({
      chainId: SANDBOX_CHAIN_2_ID,
      name: SANDBOX_CHAIN_2_NAME,
      accountAbstraction: false,
      copyOf: firstP,
    })
    await Promise.all([
      firstP.then((chain) => (first = chain)),
      secondP.then((chain) => (second = chain)),
      openDatabase({ migrations: SECURE_SITE_MIGRATIONS }).then((opened) => (db = opened)),
      startListingApi({ allowedOrigins: ['http://127.0.0.1:*'] }).then((api) => (listing = api)),
    ])
    rpc = await startRpcService({ chain: first, moreChains: [second] })
    const faucet = (chain: Chain) => ({
      privateKey: chain.accounts[9]!.privateKey,
      wei: parseEther('2'),
    })
    site = await startSecureSite({
      rpcUrl: rpcEndpoint(rpc.origin, PROJECT_ID),
      chainId: first.chainId,
      chainName: SANDBOX_CHAIN_NAME,
      moreChains: [
        {
          chainId: second.chainId,
          name: SANDBOX_CHAIN_2_NAME,
          rpcUrl: rpcEndpoint(rpc.origin, PROJECT_ID, `eip155:${second.chainId}`),
          faucet: faucet(second),
        },
      ],
      originsUrl: listing.origin,
      db,
      keySecret: randomBytes(32),
      faucet: faucet(first),
    })
  }, 90_000)
  afterAll(async () => {
    await site?.close()
    await Promise.all([rpc?.close(), listing?.close(), db?.close()])
    await Promise.all([second?.close(), first?.close()])
  })

  const call = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${site.origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    })
    return { status: response.status, json: (await response.json()) as Record<string, unknown> }
  }
  const signIn = async (email: string) => {
    const deviceId = randomBytes(18).toString('base64url')
    const start = await call('/api/login/email', { email, deviceId })
    const [mail] = await site.mailbox(email)
    const done = await call('/api/login/otp', { loginId: start.json.loginId, otp: mail?.code })
    expect(done.status).toBe(200)
    return {
      token: done.json.token as string,
      account: done.json.account as { eoa: Address; smartAccount: Address },
    }
  }

  it('answers GET /networks: the SPEC networks marked unreachable, both sandbox chains reachable', async () => {
    const response = await fetch(`${site.origin}/networks`)
    expect(response.status).toBe(200)
    const { networks } = (await response.json()) as { networks: FrameNetwork[] }
    expect(networks.filter((n) => n.namespace === 'eip155' && !n.reachable)).toHaveLength(23)
    expect(networks.filter((n) => n.namespace === 'solana' && !n.reachable)).toHaveLength(3)
    expect(networks.filter((n) => n.reachable).map((n) => [n.caipNetworkId, n.name])).toEqual([
      ['eip155:31337', 'Walletstate Sandbox'],
      ['eip155:31338', 'Second Sandbox'],
    ])
  })

  it('tells the frame of the second chain, and serves it with the EOA alone', async () => {
    const check = await call('/api/origin-check', {
      projectId: PROJECT_ID,
      sdkVersion: 'test',
      origin: 'http://127.0.0.1:1',
    })
    expect(check.json).toMatchObject({ allowed: true, chainId: 31337, moreChainIds: [31338] })

    const { token, account } = await signIn('two-chains@example.com')
    const chainId = await call('/api/rpc', { method: 'eth_chainId', chainId: 31338 }, token)
    expect(chainId.json.result).toBe(toHex(31338))
    const accounts = await call('/api/rpc', { method: 'eth_accounts', chainId: 31338 }, token)
    expect(accounts.json.result).toEqual([account.eoa])
    const refused = await call('/api/rpc', { method: 'eth_chainId', chainId: 31339 }, token)
    expect(refused.json).toMatchObject({ error: 'Chain is not supported', code: 4902 })

    // The new account's EOA was paid on both chains.
    const onSecond = createPublicClient({ transport: http(second.rpcUrl) })
    const onFirst = createPublicClient({ transport: http(first.rpcUrl) })
    expect(await onSecond.getBalance({ address: account.eoa })).toBe(parseEther('2'))

    const to = second.accounts[2]!.address
    const [firstBefore, secondBefore] = await Promise.all([
      onFirst.getBalance({ address: to }),
      onSecond.getBalance({ address: to }),
    ])
    const sent = await call(
      '/api/sign',
      {
        method: 'eth_sendTransaction',
        params: [{ from: account.eoa, to, value: toHex(parseEther('0.5')) }],
        chainId: 31338,
      },
      token,
    )
    expect(sent.status).toBe(200)
    const receipt = await onSecond.waitForTransactionReceipt({
      hash: sent.json.result as Hex,
      pollingInterval: 50,
    })
    expect(getAddress(receipt.from)).toBe(account.eoa)
    expect(await onSecond.getBalance({ address: to })).toBe(secondBefore + parseEther('0.5'))
    expect(await onFirst.getBalance({ address: to })).toBe(firstBefore)

    // The smart account has no stack here: SPEC §8's text, before anything is shown or signed.
    const smart = await call(
      '/api/sign/prepare',
      {
        method: 'eth_sendTransaction',
        params: [{ from: account.smartAccount, to, value: toHex(1n) }],
        chainId: 31338,
      },
      token,
    )
    expect(smart.json).toMatchObject({
      error: 'This application might not support Smart Accounts',
      code: 4200,
    })
  })
})
