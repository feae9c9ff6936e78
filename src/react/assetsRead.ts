import * as v from 'valibot'
import { type Address, getAddress, type Hex } from 'viem'
import type { Config } from 'wagmi'
import { getConnectorClient } from 'wagmi/actions'
import { AssetsUnavailableError } from '../errors/assets'
import { hasCode } from '../errors/base'

/*
 * `useKitAssets`' code, loaded with its first read: `wallet_getAssets` (EIP-7811) asked of the connected wallet
 * through wagmi's connector (the embedded wallet's connector answers it itself, from the chain and the Data API),
 * its answer read through a schema: whatever a wallet answers is untrusted.
 */

/** One asset of the connected account (EIP-7811 `wallet_getAssets`), its amount as the chain has it. */
export interface KitAsset {
  /** The token's contract, or `'native'` for the chain's currency. */
  address: `0x${string}` | 'native'
  type: 'native' | 'erc20'
  /** In the token's smallest unit. */
  balance: bigint
  name: string
  symbol: string
  decimals: number
}

const MAX_ASSETS = 1024
const Asset = v.object({
  address: v.union([v.literal('native'), v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/))]),
  balance: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,64}$/)),
  type: v.pipe(v.string(), v.toLowerCase(), v.picklist(['native', 'erc20'])),
  metadata: v.looseObject({
    name: v.optional(v.pipe(v.string(), v.maxLength(200)), ''),
    symbol: v.pipe(v.string(), v.maxLength(64)),
    decimals: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255)),
  }),
})
const Answer = v.record(
  v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,13}$/)),
  v.pipe(v.array(Asset), v.maxLength(MAX_ASSETS)),
)
/** EIP-1193 4200 and JSON-RPC's -32601 / -32004: the wallet has no such method. */
const UNSUPPORTED = [4200, -32601, -32004]

/**
 * The connected account's assets by chain id, as its wallet answers `wallet_getAssets`.
 * @internal
 */
export async function readKitAssets(
  wagmi: Config,
  { address, chainId }: { address: Address; chainId: number },
): Promise<Record<number, KitAsset[]>> {
  const client = await getConnectorClient(wagmi, { chainId, account: address })
  let answer: unknown
  try {
    answer = await client.request({ method: 'wallet_getAssets', params: [{ account: address }] } as never, {
      retryCount: 0,
    })
  } catch (error) {
    if (UNSUPPORTED.some((code) => hasCode(error, code)))
      throw new AssetsUnavailableError({
        details: 'The wallet does not answer wallet_getAssets',
        cause: error as Error,
      })
    throw error
  }
  return kitAssetsOf(answer)
}

/**
 * A `wallet_getAssets` answer, checked (EIP-7811: assets by hex chain id), as the hook returns it: by chain id, each
 * amount a bigint. Anything else: `AssetsUnavailableError`.
 * @internal
 */
export function kitAssetsOf(answer: unknown): Record<number, KitAsset[]> {
  const parsed = v.safeParse(Answer, answer)
  if (!parsed.success) throw new AssetsUnavailableError({ details: v.summarize(parsed.issues) })
  return Object.fromEntries(
    Object.entries(parsed.output).map(([chain, assets]) => [
      Number(BigInt(chain)),
      assets.map(
        (asset): KitAsset => ({
          address: asset.address === 'native' ? 'native' : getAddress(asset.address.toLowerCase()),
          type: asset.type,
          balance: BigInt(asset.balance as Hex),
          name: asset.metadata.name,
          symbol: asset.metadata.symbol,
          decimals: asset.metadata.decimals,
        }),
      ),
    ]),
  )
}
