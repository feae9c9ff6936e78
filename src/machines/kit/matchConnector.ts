import type { ChosenWallet, ConnectorInfo } from '../connection'

/*
 * A file of its own: the kit's public `matchConnector` is declared here, so a host's editor does not load the
 * declarations of every rule of the kit's root with it.
 */

/** A listing wallet matches an installed connector by rdns, else by id (an EIP-6963 connector's id is its rdns). */
export function matchConnector(
  connectors: readonly ConnectorInfo[],
  wallet: ChosenWallet,
): ConnectorInfo | undefined {
  return connectors.find(
    (c) =>
      c.type !== 'walletconnect' &&
      (c.id === wallet.id || (wallet.rdns !== undefined && (c.rdns === wallet.rdns || c.id === wallet.rdns))),
  )
}
