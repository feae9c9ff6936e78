import type { Config } from 'wagmi'
import { WALLETCONNECT_CONNECTOR_ID } from '../../chains/eip155/walletConnect'
import type { SignClientLike } from '../../chains/solana/walletConnect'
import { ConnectorNotFoundError } from '../../errors/connection'

/**
 * eip155's WalletConnect connector's sign client (`sharedSignClient`, src/chains/eip155/walletConnect.ts): a
 * multichain pairing's other namespaces (Solana, Bitcoin) read their accounts of its session through it.
 */
export async function sharedSignClientOf(wagmi: Config): Promise<SignClientLike> {
  const connector = wagmi.connectors.find((c) => c.id === WALLETCONNECT_CONNECTOR_ID) as
    | { sharedSignClient?: () => Promise<unknown> }
    | undefined
  const client = await connector?.sharedSignClient?.()
  if (!client)
    throw new ConnectorNotFoundError({ details: 'No WalletConnect provider for a multichain pairing' })
  return client as SignClientLike
}
