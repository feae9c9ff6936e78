/*
 * The Solana adapter: the one entry the kit loads on demand (`import('./chains/solana')`) once a Solana
 * network is configured and used. Nothing of the first-click bundle imports it.
 */
export {
  fromWalletStandardChain,
  isLocalEndpoint,
  isSolanaChainId,
  SOLANA_DEVNET_CHAIN_ID,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_SANDBOX_CHAIN_ID,
  SOLANA_TESTNET_CHAIN_ID,
  type SolanaChainId,
  type SolanaCluster,
  supportsChain,
  toWalletStandardChain,
} from './chains'
export { checkPreflightCommitment, isPreflightCommitment, type PreflightCommitment } from './commitment'
export {
  findSolanaWallet,
  listSolanaWallets,
  type SolanaWalletInfo,
  safeWalletIcon,
  subscribeSolanaWallets,
} from './discovery'
export {
  createEmbeddedSolanaWallet,
  EMBEDDED_SOLANA_CONNECTOR_ID,
  EMBEDDED_SOLANA_WALLET,
  type EmbeddedSolanaParameters,
  watchEmbeddedSolana,
} from './embedded'
export {
  createSolanaWallet,
  type SendSolParameters,
  type SendSplParameters,
  type SolanaAccount,
  type SolanaSendOptions,
  type SolanaWalletClient,
} from './wallet'
