import type { Address, Hex } from 'viem'

/*
 * What the wallet pages are told at serve time. server.ts serves it as two virtual modules rather than with
 * Vite's `define`: in dev, Vite sets `define` values as globals from /@vite/env, which a foreign host page
 * loading only the injected script never runs. Only the public anvil dev accounts' keys ever travel here:
 * server.ts refuses any other key.
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
  /** Further chains it serves and switches to (the second sandbox chain); absent: `chain` alone. */
  moreChains?: WalletChain[]
  account: DevAccount
  /** The further accounts it shares after `account` (the first stays the one every connection starts on). */
  moreAccounts?: DevAccount[]
}

/** Config of the WalletConnect wallet page. */
export interface WcWalletConfig {
  chain: WalletChain
  /** Further eip155 chains it grants in a session and answers on (the second sandbox chain). */
  moreChains?: WalletChain[]
  account: DevAccount
  /** The further eip155 accounts its sessions carry after `account`. */
  moreAccounts?: DevAccount[]
  relayUrl: string
  projectId: string
  /** Its `solana` namespace: the sandbox Solana chain and the fixed public dev keypair of solana-account.ts. */
  solana: WcSolanaConfig
}

/** The WalletConnect wallet's Solana side. */
export interface WcSolanaConfig {
  /** The CAIP-2 id it approves and answers on (`SANDBOX_SOLANA_CHAIN_ID`). */
  chainId: `solana:${string}`
  /** Shown on the page and in requests, e.g. "Solana Sandbox". */
  chainName: string
  /** The sandbox Solana JSON-RPC URL solana_signAndSendTransaction submits to; null until a Solana chain is given. */
  rpcUrl: string | null
  /** The dev keypair: its base58 public key and 32-byte ed25519 seed (hex). */
  account: { address: string; seedHex: string }
}

/** The virtual modules the pages import their config from (typed in virtual-config.d.ts). */
export const CONFIG_MODULE_PREFIX = 'virtual:walletstate-wallets/'
export const INJECTED_CONFIG_MODULE = `${CONFIG_MODULE_PREFIX}injected-config`
export const WC_CONFIG_MODULE = `${CONFIG_MODULE_PREFIX}wc-config`

/**
 * Config of the injected Solana (Wallet Standard) dev wallet. server.ts only ever serves the fixed public dev
 * seed of solana-account.ts here.
 */
export interface SolanaWalletConfig {
  /** The sandbox Solana JSON-RPC URL signAndSendTransaction submits to; null until a Solana chain is given. */
  rpcUrl: string | null
  /** The Wallet Standard chain ids the wallet serves; the first is shown in prompts. */
  chains: Array<`solana:${string}`>
  /** Shown in prompts, e.g. "Solana Sandbox". */
  chainName: string
  /** The dev keypair: its base58 public key and 32-byte ed25519 seed (hex). */
  account: { address: string; seedHex: string }
}
export const SOLANA_CONFIG_MODULE = `${CONFIG_MODULE_PREFIX}solana-config`
