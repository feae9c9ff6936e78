/*
 * The Solana dev wallet's account: a fixed, public dev keypair (like anvil's dev accounts, it is for the local
 * sandbox only and anyone may know it). The seed is sha256("walletstate solana dev wallet 0"); the address is
 * its ed25519 public key in base58, written out so the sandbox Solana chain and tests can fund and check it
 * without deriving it (solana-account.test.ts checks the two agree).
 */

/** The 32-byte ed25519 seed, hex. */
export const SOLANA_DEV_WALLET_SEED_HEX = 'af965ae04bb47e8c6931203f1a8a979c09041a6b009d2a091f2ab0667f5b840e'

/** The wallet's public key (base58): fund this on the sandbox Solana chain. */
export const SOLANA_DEV_WALLET_ADDRESS = '3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB'

/**
 * The chains the wallet serves. `solana:sandbox` names the sandbox chain; `solana:localnet` is what the Solana
 * wallet adapter (`getChainForEndpoint`) asks a Wallet Standard wallet for when its RPC endpoint is on
 * 127.0.0.1 or localhost, so the kit's sends reach this wallet as they would a real one on a local validator.
 */
export const SOLANA_DEV_WALLET_CHAINS = ['solana:sandbox', 'solana:localnet'] as const

/**
 * The WalletConnect wallet page's Solana account: the sandbox Solana chain's dev keypair 1 (seed
 * sha256("walletstate solana dev account 1"), funded at every start), so it differs from the injected Solana
 * wallet's and needs no extra funding. Written out for the same reason as above (wc-wallet.test.ts checks it is
 * the chain's `accounts[1]`).
 */
export const WC_SOLANA_SEED_HEX = 'f303cb596291f4d399fad20a5e41434b586fb29c52afb5133f075e80cbb39149'
export const WC_SOLANA_ADDRESS = 'GyVrnLoLbwrQENKb6aQQiL4KGTydk3DNMejeVsMSNRS3'

/** A hex seed as bytes (the wallet gets its seed as hex in its served config). */
export function seedBytes(hex: string = SOLANA_DEV_WALLET_SEED_HEX): Uint8Array {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error('a Solana dev seed is 32 bytes of hex')
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}
