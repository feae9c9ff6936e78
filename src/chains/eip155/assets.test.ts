import {
  type Address,
  custom,
  decodeFunctionData,
  defineChain,
  encodeFunctionResult,
  erc20Abi,
  type Hex,
  numberToHex,
  toHex,
} from 'viem'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig } from 'wagmi'
import { createDataApiClient } from '../../api/dataApi'
import { resolveConfig } from '../../config'
import { DataApiError } from '../../errors/api'
import { AssetsError } from '../../errors/assets'
import { parseAssetsRequest, WALLET_ASSETS_MAX_FILTER, walletAssets } from './assets'

const ACCOUNT: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const OTHER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const USDC: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const STK: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
/** A contract address where nothing answers (no ERC-20 there). */
const NOTHING: Address = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
const second = defineChain({
  id: 31_338,
  name: 'Second',
  nativeCurrency: { name: 'Second Ether', symbol: 'SETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
})

/**
 * Two chains' state, as a node answers it: ACCOUNT's native balances, and two ERC-20s (USDC with 6 decimals,
 * STK of which ACCOUNT holds none). Counts what it was asked.
 */
function chainNode() {
  const asked: string[] = []
  const native: Record<number, bigint> = { [foundry.id]: 1_500_000_000_000_000_000n, [second.id]: 7n }
  const tokens: Record<string, { name: string; symbol: string; decimals: number; balance: bigint }> = {
    [USDC.toLowerCase()]: { name: 'Sandbox USD Coin', symbol: 'USDC', decimals: 6, balance: 12_345_678n },
    [STK.toLowerCase()]: { name: 'Stake', symbol: 'STK', decimals: 18, balance: 0n },
  }
  const transportOf = (chainId: number) =>
    custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          if (method === 'eth_chainId') return toHex(chainId)
          if (method === 'eth_getBalance') {
            const [address] = params as [Address]
            asked.push(`${chainId}:balance:${address.toLowerCase()}`)
            return numberToHex(address.toLowerCase() === ACCOUNT.toLowerCase() ? native[chainId]! : 0n)
          }
          if (method !== 'eth_call') throw new Error(`unexpected ${method}`)
          const [{ to, data }] = params as [{ to: Address; data: Hex }]
          const call = decodeFunctionData({ abi: erc20Abi, data })
          asked.push(`${chainId}:${to.toLowerCase()}.${call.functionName}`)
          const token = chainId === foundry.id ? tokens[to.toLowerCase()] : undefined
          if (!token) throw new Error('execution reverted')
          switch (call.functionName) {
            case 'balanceOf':
              return encodeFunctionResult({
                abi: erc20Abi,
                functionName: 'balanceOf',
                result:
                  (call.args[0] as Address).toLowerCase() === ACCOUNT.toLowerCase() ? token.balance : 0n,
              })
            case 'decimals':
              return encodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', result: token.decimals })
            case 'symbol':
              return encodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', result: token.symbol })
            case 'name':
              return encodeFunctionResult({ abi: erc20Abi, functionName: 'name', result: token.name })
            default:
              throw new Error('execution reverted')
          }
        },
      },
      { retryCount: 0 },
    )
  const wagmi = createConfig({
    chains: [foundry, second],
    transports: { [foundry.id]: transportOf(foundry.id), [second.id]: transportOf(second.id) },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  return { wagmi, asked }
}

/** The Data API as a server answers it: `balances` by CAIP-2 chain id, as JSON bodies (any body, even hostile). */
function dataApi(balances: Record<string, unknown>, status = 200) {
  const asked: string[] = []
  const client = createDataApiClient({
    api: 'http://api.test',
    projectId: 'p',
    fetch: async (input) => {
      const url = new URL(String(input))
      asked.push(`${url.pathname}?chainId=${url.searchParams.get('chainId') ?? ''}`)
      if (url.pathname === '/v1/supported-chains') {
        return Response.json({ http: [`eip155:${foundry.id}`, `eip155:${second.id}`], ws: [] })
      }
      const body = balances[url.searchParams.get('chainId') ?? '']
      return new Response(typeof body === 'string' ? body : JSON.stringify(body ?? { balances: [] }), {
        status,
        headers: { 'content-type': 'application/json' },
      })
    },
  })
  return { client, asked, balanceCalls: () => asked.filter((path) => path.includes('/balance')) }
}

const item = (symbol: string, decimals: number, numeric: string, address?: string) => ({
  name: symbol,
  symbol,
  chainId: `eip155:${foundry.id}`,
  ...(address ? { address } : {}),
  value: 0,
  price: 0,
  quantity: { decimals: String(decimals), numeric },
  iconUrl: '',
})

const sources = (wagmi: ReturnType<typeof chainNode>['wagmi']) => ({
  config: resolveConfig({ projectId: 'p', networks: [foundry] }),
  wagmi: () => wagmi,
})

async function ask(
  params: unknown,
  options: {
    api?: ReturnType<typeof dataApi>['client']
    node?: ReturnType<typeof chainNode>
    connected?: string | undefined
  } = {},
) {
  const { api = dataApi({}).client, node = chainNode() } = options
  // `connected: undefined` says nobody is connected; no `connected` at all, ACCOUNT is.
  const connected = 'connected' in options ? options.connected : ACCOUNT
  return walletAssets(sources(node.wagmi), { params, connected, chains: node.wagmi.chains, api })
}

async function failure(promise: Promise<unknown>): Promise<AssetsError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AssetsError)
  return error as AssetsError
}

const USDC_ASSET = {
  address: USDC,
  balance: numberToHex(12_345_678n),
  type: 'erc20',
  metadata: { name: 'Sandbox USD Coin', symbol: 'USDC', decimals: 6 },
}
const ETH_ASSET = {
  address: 'native',
  balance: numberToHex(1_500_000_000_000_000_000n),
  type: 'native',
  metadata: { name: 'Ether', symbol: 'ETH', decimals: 18 },
}

describe('wallet_getAssets: every number from the chain', () => {
  it('the tokens the Data API lists, with the balances, decimals and symbols the chain answers', async () => {
    // The API claims 18 decimals and a million for USDC, and a symbol that is not the contract's.
    const api = dataApi({
      [`eip155:${foundry.id}`]: {
        balances: [item('ETH', 18, '99'), { ...item('USDT', 18, '1000000', `eip155:${foundry.id}:${USDC}`) }],
      },
    })
    const assets = await ask([{ account: ACCOUNT }], { api: api.client })
    expect(assets).toEqual({
      [numberToHex(foundry.id)]: [ETH_ASSET, USDC_ASSET],
      [numberToHex(second.id)]: [
        { address: 'native', balance: '0x7', type: 'native', metadata: second.nativeCurrency },
      ],
    })
  })

  it('a token the chain does not confirm is left out: none held, or no ERC-20 at the address', async () => {
    const api = dataApi({
      [`eip155:${foundry.id}`]: {
        balances: [
          item('STK', 18, '50', `eip155:${foundry.id}:${STK}`),
          item('FAKE', 6, '50', `eip155:${foundry.id}:${NOTHING}`),
          item('USDC', 6, '12.345678', `eip155:${foundry.id}:${USDC.toLowerCase()}`),
          // The same token twice, and the native placeholder some APIs use: read once, natively.
          item('USDC', 6, '12.345678', `eip155:${foundry.id}:${USDC}`),
          item('ETH', 18, '1.5', `eip155:${foundry.id}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`),
        ],
      },
    })
    const node = chainNode()
    const assets = await ask([{ account: ACCOUNT, chainFilter: [numberToHex(foundry.id)] }], {
      api: api.client,
      node,
    })
    expect(assets).toEqual({ [numberToHex(foundry.id)]: [ETH_ASSET, USDC_ASSET] })
    expect(node.asked.filter((a) => a.endsWith('.balanceOf'))).toHaveLength(3)
  })

  it('a zero native balance is no asset', async () => {
    const node = chainNode()
    const assets = await ask([{ account: ACCOUNT, chainFilter: ['0x7a6a'] }], { node })
    expect(assets).toEqual({
      '0x7a6a': [{ address: 'native', balance: '0x7', type: 'native', metadata: second.nativeCurrency }],
    })
  })
})

describe('wallet_getAssets: filters', () => {
  it('chainFilter: only the chains named that the kit configures', async () => {
    const api = dataApi({})
    const assets = await ask([{ account: ACCOUNT, chainFilter: ['0x7a6a', '0x1'] }], { api: api.client })
    expect(Object.keys(assets)).toEqual(['0x7a6a'])
    expect(api.balanceCalls()).toEqual([`/v1/account/${ACCOUNT}/balance?chainId=eip155:${second.id}`])
  })

  it('assetTypeFilter: native only asks the Data API nothing; erc20 only leaves the native currency out', async () => {
    const listing = {
      [`eip155:${foundry.id}`]: { balances: [item('USDC', 6, '1', `eip155:${foundry.id}:${USDC}`)] },
    }
    const nativeOnly = dataApi(listing)
    expect(
      await ask([{ account: ACCOUNT, assetTypeFilter: ['native'], chainFilter: ['0x7a69'] }], {
        api: nativeOnly.client,
      }),
    ).toEqual({ '0x7a69': [ETH_ASSET] })
    expect(nativeOnly.balanceCalls()).toEqual([])
    const erc20Only = dataApi(listing)
    expect(
      await ask([{ account: ACCOUNT, assetTypeFilter: ['erc20'], chainFilter: ['0x7a69'] }], {
        api: erc20Only.client,
      }),
    ).toEqual({ '0x7a69': [USDC_ASSET] })
    // The kit lists no NFTs: an erc721-only request answers nothing.
    expect(await ask([{ account: ACCOUNT, assetTypeFilter: ['erc721'] }])).toEqual({
      '0x7a69': [],
      '0x7a6a': [],
    })
  })

  it('assetFilter: the assets it names, read from the chain, the Data API not asked (keys hex or decimal)', async () => {
    const api = dataApi({})
    const assets = await ask(
      [
        {
          account: ACCOUNT.toLowerCase(),
          assetFilter: {
            '0x7a69': [
              { address: USDC.toLowerCase(), type: 'erc20' },
              { address: STK, type: 'erc20' },
            ],
            // viem's getAssets keys its filter by number.
            [String(second.id)]: [{ address: 'native', type: 'native' }],
          },
        },
      ],
      { api: api.client },
    )
    expect(assets).toEqual({
      '0x7a69': [USDC_ASSET],
      '0x7a6a': [{ address: 'native', balance: '0x7', type: 'native', metadata: second.nativeCurrency }],
    })
    expect(api.balanceCalls()).toEqual([])
  })
})

describe('wallet_getAssets: refusals', () => {
  it('an account other than the connected one: 4100', async () => {
    for (const connected of [OTHER, undefined]) {
      const error = await failure(ask([{ account: ACCOUNT }], { connected }))
      expect({ name: error.name, code: error.code, message: error.shortMessage }).toMatchInlineSnapshot(`
        {
          "code": 4100,
          "message": "wallet_getAssets answers for the connected account only",
          "name": "AssetsAccountError",
        }
      `)
    }
  })

  it('malformed params: -32602 saying what is wrong', async () => {
    const bad: unknown[] = [
      undefined,
      [],
      [{}],
      [{ account: 'nope' }],
      // A mixed-case address whose EIP-55 checksum is wrong.
      [{ account: ACCOUNT.replace('f39F', 'F39f') }],
      [{ account: ACCOUNT }, { extra: true }],
      [{ account: ACCOUNT, chainFilter: '0x1' }],
      [{ account: ACCOUNT, chainFilter: ['mainnet'] }],
      [{ account: ACCOUNT, chainFilter: ['0x0'] }],
      [{ account: ACCOUNT, chainFilter: Array.from({ length: WALLET_ASSETS_MAX_FILTER + 1 }, () => '0x1') }],
      [{ account: ACCOUNT, assetTypeFilter: [42] }],
      [{ account: ACCOUNT, assetFilter: { '0x1': [{ address: 'native' }] } }],
      [{ account: ACCOUNT, assetFilter: { 'eip155:1': [{ address: 'native', type: 'native' }] } }],
      [{ account: ACCOUNT, assetFilter: { '0x1': [{ address: '0x12', type: 'erc20' }] } }],
    ]
    for (const params of bad) {
      const error = await failure(ask(params))
      expect(error.code, JSON.stringify(params)).toBe(-32602)
      expect(error.name).toBe('InvalidAssetsRequestError')
      expect(error.details, JSON.stringify(params)).toBeTruthy()
    }
    expect(() => parseAssetsRequest([{ account: ACCOUNT, chainFilter: ['0x1'] }])).not.toThrow()
  })

  it('a Data API that lists a token of another chain, or no address: the whole list refused', async () => {
    for (const address of [`eip155:1:${USDC}`, `eip155:${foundry.id}:0x12345`]) {
      const api = dataApi({ [`eip155:${foundry.id}`]: { balances: [item('USDC', 6, '1', address)] } })
      const error = await failure(ask([{ account: ACCOUNT, chainFilter: ['0x7a69'] }], { api: api.client }))
      expect({ name: error.name, code: error.code, message: error.shortMessage }).toEqual({
        name: 'AssetsUnavailableError',
        code: -32603,
        message: "The wallet's assets could not be read",
      })
      expect(error.details).toContain('not on eip155:31337')
    }
  })

  it('a Data API that answers no list, or fails: AssetsUnavailableError with the cause', async () => {
    for (const api of [
      dataApi({ [`eip155:${foundry.id}`]: { balances: 'all of them' } }).client,
      dataApi({ [`eip155:${foundry.id}`]: '<html>' }).client,
      dataApi({}, 500).client,
    ]) {
      const error = await failure(ask([{ account: ACCOUNT, chainFilter: ['0x7a69'] }], { api }))
      expect(error.name).toBe('AssetsUnavailableError')
      expect(error.walk((e) => e instanceof DataApiError)).toBeInstanceOf(DataApiError)
    }
  })
})
