import type { KitEndpoints } from '../config'
import { assetImageUrl } from './images'

/*
 * SPEC §7: a network's icon is the provider's asset image (`GET /public/getAssetImage/{id}`), by the image id the
 * provider gives each network it knows. Kept out of src/constants.ts: only the views that show networks (loaded
 * after the first click) need the table, and the constants module is in the code every page loads.
 */

/** The provider's image ids of the networks it knows, by CAIP-2 id; a network not here shows its initial. */
export const NETWORK_IMAGE_IDS: Readonly<Record<string, string>> = {
  'eip155:1': '62867bab-7bc6-c17b-ebd2-d35dc54fac00',
  'eip155:10': 'f699da15-2dd1-3f8a-5e0e-b5ae31bc4600',
  'eip155:56': '5a9159ea-2f42-cf6a-7231-1984f2e91b00',
  'eip155:137': '734af7c2-082f-346b-13b5-a770a49dde00',
  'eip155:8453': '2742a6df-24ee-6371-7076-5c48ba42b300',
  'eip155:42161': 'd59dea5a-9d35-3e8c-688a-e38dcedae400',
  'eip155:11155111': 'cfc4e88f-2bee-a211-e511-bf6c00919900',
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': '58533ec8-7049-37d2-fcbb-ae576e72a400',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': '0f1e1608-eda2-a312-ccf4-606b18881900',
  // The local chains this repository's sandbox runs (anvil's 31337, the second sandbox chain, its Solana).
  'eip155:31337': 'ef0fd865-bb27-c0f5-a5c6-9bdf74220f00',
  'eip155:31338': 'a9818f66-ef23-da8b-cc01-ffc0e6ac3300',
  'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZxJRRevfEkSSoW': '2569a3e3-08c9-897a-a497-73f1a39fe200',
}

/**
 * A network's icon (SPEC §7 `getAssetImage`) by its CAIP-2 id; `undefined` for a network the provider has no
 * image of (the view shows the network's initial instead).
 *
 * @example
 * networkImageUrl({ walletsApi: 'https://wallets.walletstate.io' }, 'p1', 'eip155:1')
 * // 'https://wallets.walletstate.io/public/getAssetImage/62867bab-…?projectId=p1&st=…&sv=…'
 */
export function networkImageUrl(
  endpoints: Pick<KitEndpoints, 'walletsApi'>,
  projectId: string,
  caipNetworkId: string,
): string | undefined {
  const imageId = Object.hasOwn(NETWORK_IMAGE_IDS, caipNetworkId)
    ? NETWORK_IMAGE_IDS[caipNetworkId]
    : undefined
  return assetImageUrl(endpoints, projectId, imageId)
}
