import * as v from 'valibot'
import {
  type Address,
  erc20Abi,
  getAddress,
  type Hex,
  hexToNumber,
  isAddress,
  isAddressEqual,
  numberToHex,
} from 'viem'
import type { Config } from 'wagmi'
import { getBalance, readContracts } from 'wagmi/actions'
import { type DataApiClient, getDataApiClient } from '../../api/dataApi'
import type { ResolvedKitConfig } from '../../config'
import {
  AssetsAccountError,
  AssetsError,
  AssetsUnavailableError,
  InvalidAssetsRequestError,
} from '../../errors/assets'
import { parseAccountId } from '../../utils/caip'
import { readTokenMetadata } from './tokenMetadata'

/**
 * `wallet_getAssets` (EIP-7811) as the embedded wallet answers it, in the kit. The Data API says which tokens
 * the account holds on a network; nothing else is taken from it: each token's balance, decimals and symbol are
 * read from the chain (decimals and symbol as the send flow reads them, `readTokenMetadata`), the native
 * balance too, and the native currency's metadata is the network's in the kit's config. A token the chain
 * does not confirm (its contract does not answer, or the account holds none of it) is left out. A request's
 * `assetFilter` names the tokens itself: for a network it names, the Data API is not asked.
 */

/**
 * Ours: how many chains, assets or types a request's filters may name, and how many tokens of the Data API's
 * list are read from the chain per network (each is a few contract reads: an API that lists thousands cannot
 * make the kit ask for thousands). Kept here, not in the public constants: they only bound this method.
 */
export const WALLET_ASSETS_MAX_FILTER = 100
export const WALLET_ASSETS_MAX_TOKENS = 100

/** One asset in the answer (EIP-7811's shape, as viem's `WalletGetAssetsReturnType` has it). */
export interface WalletAsset {
  address: Address | 'native'
  /** The chain's balance, a hex quantity in the token's smallest unit. */
  balance: Hex
  type: 'native' | 'erc20'
  metadata: { name: string; symbol: string; decimals: number }
}

/** The answer: assets by hex chain id, one entry per network asked about (empty when it holds nothing). */
export type WalletAssets = Record<Hex, WalletAsset[]>

/** Where the answer comes from: the kit's config (its Data API) and its wagmi config (every chain read). */
export interface WalletAssetsSources {
  config: Pick<ResolvedKitConfig, 'endpoints' | 'projectId'>
  /** The kit's wagmi config, once it is built. */
  wagmi(): Config | undefined
}

/** A request, parsed: the account, and per filter what it allows (`undefined`: no filter). */
export interface AssetsRequest {
  account: Address
  /** By chain id: the assets named (`'native'` or a checksummed contract) with their type. */
  assets?: Map<number, { address: Address | 'native'; type: string }[]>
  types?: readonly string[]
  chainIds?: readonly number[]
}

const bounded = <T extends v.GenericSchema>(item: T) =>
  v.pipe(v.array(item), v.maxLength(WALLET_ASSETS_MAX_FILTER))
/** A chain id: a hex quantity (EIP-7811) or decimal digits (viem's `getAssets` keys its filter by number). */
const CHAIN_ID = /^(0x[0-9a-fA-F]{1,13}|[0-9]{1,15})$/
const chainIdSchema = v.pipe(
  v.string(),
  v.regex(CHAIN_ID, 'is not a chain id'),
  v.transform((value) => (value.startsWith('0x') ? hexToNumber(value as Hex) : Number(value))),
  v.check((id) => Number.isSafeInteger(id) && id > 0, 'is not a chain id'),
)
const assetType = v.pipe(v.string(), v.minLength(1), v.maxLength(64))
const address = v.pipe(
  v.string(),
  v.check((value) => isAddress(value), 'is not an address (0x and 40 hex digits, EIP-55 if mixed case)'),
  v.transform((value) => getAddress(value)),
)
const RequestSchema = v.strictTuple([
  v.object({
    account: address,
    assetFilter: v.optional(
      v.pipe(
        v.record(
          v.string(),
          bounded(v.object({ address: v.union([v.literal('native'), address]), type: assetType })),
        ),
        v.check((filter) => Object.keys(filter).length <= WALLET_ASSETS_MAX_FILTER, 'names too many chains'),
      ),
    ),
    assetTypeFilter: v.optional(bounded(assetType)),
    chainFilter: v.optional(bounded(chainIdSchema)),
  }),
])

/**
 * Reads a `wallet_getAssets` request's params; throws `InvalidAssetsRequestError` (-32602) saying what is wrong.
 *
 * @example
 * parseAssetsRequest([{ account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainFilter: ['0x1'] }])
 * // { account: '0xf39F…', chainIds: [1] }
 */
export function parseAssetsRequest(params: unknown): AssetsRequest {
  const parsed = v.safeParse(RequestSchema, params)
  if (!parsed.success) throw new InvalidAssetsRequestError({ details: v.summarize(parsed.issues) })
  const [{ account, assetFilter, assetTypeFilter, chainFilter }] = parsed.output
  const request: AssetsRequest = { account }
  if (assetFilter) {
    request.assets = new Map()
    for (const [key, assets] of Object.entries(assetFilter)) {
      const id = v.safeParse(chainIdSchema, key)
      if (!id.success) {
        throw new InvalidAssetsRequestError({ details: `assetFilter: ${key.slice(0, 40)} is not a chain id` })
      }
      request.assets.set(id.output, [...(request.assets.get(id.output) ?? []), ...assets])
    }
  }
  if (assetTypeFilter) request.types = assetTypeFilter
  if (chainFilter) request.chainIds = chainFilter
  return request
}

/** A network the kit configured: its id and native currency (from the kit's config, not from any API). */
export interface AssetsChain {
  id: number
  nativeCurrency: { name: string; symbol: string; decimals: number }
}

/**
 * The networks a request is answered for: the kit's, narrowed by `chainFilter` and by `assetFilter`'s keys.
 * A network the kit does not configure is left out (the kit cannot read it).
 */
export function chainsAsked(request: AssetsRequest, chains: readonly AssetsChain[]): AssetsChain[] {
  return chains.filter(
    (chain) =>
      (!request.chainIds || request.chainIds.includes(chain.id)) &&
      (!request.assets || request.assets.has(chain.id)),
  )
}

/** What to read on one network: the native balance or not, and which token contracts. */
export interface AssetsPlan {
  native: boolean
  tokens: Address[]
}

const typeAllowed = (request: AssetsRequest, type: 'native' | 'erc20') =>
  !request.types || request.types.includes(type)

/** The native currency as the Data API may name it in a token's place (the provider's convention). */
const NATIVE_PLACEHOLDER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/**
 * The token contracts of a Data API balance list on `chainId`: the native currency (no address, or the
 * `0xeee…` placeholder) is read from the chain anyway; duplicates once; at most {@link WALLET_ASSETS_MAX_TOKENS}.
 * A token on another network, or an address that is not an EVM address, makes the list untrustworthy as a
 * whole: `AssetsUnavailableError`.
 *
 * @example
 * heldTokens([{ address: 'eip155:1:0xa0b8…' }], 1) // ['0xA0b8…']
 */
export function heldTokens(
  balances: readonly { address?: string | undefined }[],
  chainId: number,
): Address[] {
  const tokens: Address[] = []
  for (const balance of balances) {
    if (balance.address === undefined) continue
    const parts = parseAccountId(balance.address)
    if (!parts || parts.chainId !== `eip155:${chainId}` || !isAddress(parts.address, { strict: false })) {
      throw new AssetsUnavailableError({
        details: `The Data API listed a token that is not on eip155:${chainId}: ${balance.address.slice(0, 120)}`,
      })
    }
    if (parts.address.toLowerCase() === NATIVE_PLACEHOLDER) continue
    const token = getAddress(parts.address)
    if (!tokens.includes(token)) tokens.push(token)
    if (tokens.length >= WALLET_ASSETS_MAX_TOKENS) break
  }
  return tokens
}

/**
 * What to read on one network. With an `assetFilter` for it, the assets it names (of the types allowed); else
 * the native currency and the tokens the Data API lists (`listTokens`, asked only when ERC-20s are allowed).
 */
export async function planAssets(
  request: AssetsRequest,
  chainId: number,
  listTokens: () => Promise<Address[]>,
): Promise<AssetsPlan> {
  const named = request.assets?.get(chainId)
  if (named) {
    const allowed = named.filter((asset) => typeAllowed(request, asset.type as 'native' | 'erc20'))
    return {
      native: allowed.some((asset) => asset.type === 'native' && asset.address === 'native'),
      tokens: [
        ...new Set(
          allowed.flatMap((asset) =>
            asset.type === 'erc20' && asset.address !== 'native' ? [asset.address] : [],
          ),
        ),
      ],
    }
  }
  return {
    native: typeAllowed(request, 'native'),
    tokens: typeAllowed(request, 'erc20') ? await listTokens() : [],
  }
}

/** One network's assets, every number from the chain: the native balance, each token's balance and metadata. */
export async function readAssetsOnChain(
  wagmi: Config,
  account: Address,
  chain: AssetsChain,
  plan: AssetsPlan,
): Promise<WalletAsset[]> {
  const chainId = chain.id
  const [native, reads, metadata] = await Promise.all([
    plan.native ? getBalance(wagmi, { address: account, chainId }) : undefined,
    plan.tokens.length === 0
      ? []
      : readContracts(wagmi, {
          allowFailure: true,
          contracts: plan.tokens.flatMap((token) => [
            { chainId, address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] } as const,
            { chainId, address: token, abi: erc20Abi, functionName: 'name' } as const,
          ]),
        }),
    // decimals() and symbol() as the send flow reads them; a token whose decimals() does not answer is no ERC-20.
    Promise.all(
      plan.tokens.map((token) =>
        readTokenMetadata(wagmi, { chainId, address: token }).catch(() => undefined),
      ),
    ),
  ])
  const assets: WalletAsset[] = []
  if (native && native.value > 0n) {
    assets.push({
      address: 'native',
      balance: numberToHex(native.value),
      type: 'native',
      metadata: { ...chain.nativeCurrency },
    })
  }
  plan.tokens.forEach((token, i) => {
    const balance = reads[2 * i]
    const name = reads[2 * i + 1]
    const meta = metadata[i]
    if (!meta || balance?.status !== 'success' || typeof balance.result !== 'bigint' || balance.result <= 0n)
      return
    const symbol = meta.symbol ?? ''
    assets.push({
      address: token,
      balance: numberToHex(balance.result),
      type: 'erc20',
      metadata: {
        name: name?.status === 'success' && typeof name.result === 'string' ? name.result : symbol,
        symbol,
        decimals: meta.decimals,
      },
    })
  })
  return assets
}

/**
 * Answers `wallet_getAssets` for the connected account: the params read (-32602 when malformed), the account
 * checked (4100 for any other), then per network the Data API asked which tokens are held and the chain asked
 * for every number. A failed read (the API, the chain) rejects with `AssetsUnavailableError`.
 *
 * @example
 * const assets = await walletAssets(sources, { params: [{ account }], connected: account, chains: wagmi.chains })
 * // { '0x7a69': [{ address: 'native', balance: '0x…', type: 'native', metadata: { …, decimals: 18 } }, …] }
 */
export async function walletAssets(
  sources: WalletAssetsSources | undefined,
  {
    params,
    connected,
    chains,
    api: apiOverride,
  }: {
    params: unknown
    connected: string | undefined
    chains: readonly AssetsChain[]
    /** The Data API client (tests); the kit config's otherwise. */
    api?: Pick<DataApiClient, 'getBalances'>
  },
): Promise<WalletAssets> {
  const request = parseAssetsRequest(params)
  if (!connected || !isAddress(connected, { strict: false }) || !isAddressEqual(connected, request.account)) {
    throw new AssetsAccountError({ details: `${request.account} is not the connected account` })
  }
  const wagmi = sources?.wagmi()
  if (!sources || !wagmi)
    throw new AssetsUnavailableError({ details: 'The kit has no chain client for assets' })
  const api = apiOverride ?? getDataApiClient(sources.config)
  try {
    const answers = await Promise.all(
      chainsAsked(request, chains).map(async (chain) => {
        const plan = await planAssets(request, chain.id, async () => {
          const { balances } = await api.getBalances({
            address: request.account,
            chainId: `eip155:${chain.id}`,
          })
          return heldTokens(balances, chain.id)
        })
        return [numberToHex(chain.id), await readAssetsOnChain(wagmi, request.account, chain, plan)] as const
      }),
    )
    return Object.fromEntries(answers)
  } catch (error) {
    if (error instanceof AssetsError) throw error
    throw new AssetsUnavailableError({ cause: error })
  }
}
