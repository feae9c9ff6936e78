/*
 * The page-side entry of solana-adapter.test.ts: the kit's Solana adapter as the kit will load it, bundled by
 * Vite for the browser, with the web3.js classes the page needs from the same copy (instanceof checks).
 */

export { Connection, Keypair, PublicKey } from '@solana/web3.js'
export * from '../../src/chains/solana'
