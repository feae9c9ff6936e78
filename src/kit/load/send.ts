import type { QueryClient } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { createSendActors } from '../../actors/send'
import { getDataApiClient } from '../../api/dataApi'
import type { ResolvedKitConfig } from '../../config'
import { sendMachine } from '../../machines/send'

/**
 * The send machine with its wagmi actors; a receiver's name resolves through the Data API. What the kit's
 * `loadSend` loads, in one `import()` (see ./account.ts). Solana's send (over @solana/web3.js, beside Solana's
 * connection) is a further `import()`, made on the first Solana send only.
 */
export function sendLogic(config: ResolvedKitConfig, queryClient: QueryClient, wagmi: Config) {
  const api = getDataApiClient(config, queryClient)
  const hasSolana = config.networks.some((n) => n.chainNamespace === 'solana')
  const solana = async () =>
    (await import('../../actors/solanaSend')).createSolanaSender(config.networks, config.rpcMap)
  return sendMachine.provide({
    actors: createSendActors({ wagmi, names: { api, queryClient }, ...(hasSolana ? { solana } : {}) }),
  })
}
