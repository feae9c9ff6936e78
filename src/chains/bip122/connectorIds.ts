/**
 * A multichain WalletConnect pairing's Bitcoin account (SPEC §1 `multichain`). Its own tiny module so the kit's
 * first-click code can name it without loading Bitcoin's.
 */
export const MULTICHAIN_BIP122_CONNECTOR_ID = 'bip122:walletconnect:multichain'
