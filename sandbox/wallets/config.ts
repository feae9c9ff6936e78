import type { Address, Hex } from 'viem'

/*
 * What the wallet pages are told at serve time (server.ts injects it with Vite's `define`). Only the public
 * anvil dev accounts' keys ever travel here: server.ts refuses any other key.
 */

/** The chain a wallet serves: the sandbox chain and the RPC URL its reads and raw transactions go to. */
export interface WalletChain {
  id: number
  name: string
  rpcUrl: string
}

/** A public anvil dev account (Foundry's test mnemonic). */
export interface DevAccount {
  address: Address
  privateKey: Hex
}

/** Config of the injected (EIP-6963) dev wallet. */
export interface InjectedWalletConfig {
  chain: WalletChain
  account: DevAccount
}

/** Config of the WalletConnect wallet page. */
export interface WcWalletConfig {
  chain: WalletChain
  account: DevAccount
  relayUrl: string
  projectId: string
}

/** The names the two pages read; server.ts defines them. */
export const INJECTED_CONFIG_NAME = '__WALLETSTATE_INJECTED_WALLET__'
export const WC_CONFIG_NAME = '__WALLETSTATE_WC_WALLET__'
