/**
 * The embedded wallet's Solana connector (issue 17): the login frame's account on Solana. Its own tiny module so
 * the kit's first-click code can name it without loading Solana's.
 */
export const EMBEDDED_SOLANA_CONNECTOR_ID = 'solana:embedded'

/**
 * A multichain WalletConnect pairing's Solana side (SPEC §1 `multichain`): the Solana account of the session
 * eip155's WalletConnect provider paired for both namespaces.
 */
export const MULTICHAIN_SOLANA_CONNECTOR_ID = 'solana:walletconnect:multichain'
