import { describe, expect, it } from 'vitest'
import { SANDBOX_SOLANA_CHAIN_ID } from '../../../sandbox/api/solana'
import {
  fromWalletStandardChain,
  isLocalEndpoint,
  isSolanaChainId,
  SOLANA_DEVNET_CHAIN_ID,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_SANDBOX_CHAIN_ID,
  SOLANA_TESTNET_CHAIN_ID,
  supportsChain,
  toWalletStandardChain,
} from './chains'

describe('Solana chain ids', () => {
  it('the sandbox id is the sandbox chain’s (genesis hash prefix)', () => {
    expect(SOLANA_SANDBOX_CHAIN_ID).toBe(SANDBOX_SOLANA_CHAIN_ID)
  })

  it('CAIP-2 → Wallet Standard: the public clusters by genesis hash', () => {
    expect(toWalletStandardChain(SOLANA_MAINNET_CHAIN_ID)).toBe('solana:mainnet')
    expect(toWalletStandardChain(SOLANA_DEVNET_CHAIN_ID)).toBe('solana:devnet')
    expect(toWalletStandardChain(SOLANA_TESTNET_CHAIN_ID)).toBe('solana:testnet')
    // The cluster does not depend on which RPC serves it.
    expect(toWalletStandardChain(SOLANA_MAINNET_CHAIN_ID, 'http://127.0.0.1:8899')).toBe('solana:mainnet')
  })

  it('CAIP-2 → Wallet Standard: a local network is solana:localnet, only through a loopback RPC', () => {
    expect(toWalletStandardChain(SOLANA_SANDBOX_CHAIN_ID)).toBe('solana:localnet')
    expect(toWalletStandardChain(SOLANA_SANDBOX_CHAIN_ID, 'http://127.0.0.1:40123')).toBe('solana:localnet')
    expect(toWalletStandardChain(SOLANA_SANDBOX_CHAIN_ID, 'https://rpc.example')).toBeUndefined()
    const other = 'solana:8E9rvCKLFQia2Y35HXjjpWzj8weVo44K'
    expect(toWalletStandardChain(other, 'http://localhost:8899')).toBe('solana:localnet')
    expect(toWalletStandardChain(other)).toBeUndefined()
    expect(toWalletStandardChain('eip155:1', 'http://127.0.0.1:8545')).toBeUndefined()
    expect(toWalletStandardChain('solana:mainnet')).toBeUndefined()
  })

  it('Wallet Standard → CAIP-2', () => {
    expect(fromWalletStandardChain('solana:mainnet')).toBe(SOLANA_MAINNET_CHAIN_ID)
    expect(fromWalletStandardChain('solana:devnet')).toBe(SOLANA_DEVNET_CHAIN_ID)
    expect(fromWalletStandardChain('solana:testnet')).toBe(SOLANA_TESTNET_CHAIN_ID)
    expect(fromWalletStandardChain('solana:localnet')).toBe(SOLANA_SANDBOX_CHAIN_ID)
    expect(fromWalletStandardChain('solana:sandbox')).toBe(SOLANA_SANDBOX_CHAIN_ID)
    const local = 'solana:8E9rvCKLFQia2Y35HXjjpWzj8weVo44K' as const
    expect(fromWalletStandardChain('solana:localnet', local)).toBe(local)
    expect(fromWalletStandardChain(SOLANA_DEVNET_CHAIN_ID)).toBe(SOLANA_DEVNET_CHAIN_ID)
    expect(fromWalletStandardChain('solana:moon')).toBeUndefined()
    expect(fromWalletStandardChain('eip155:1')).toBeUndefined()
  })

  it('round-trips the public clusters', () => {
    for (const id of [SOLANA_MAINNET_CHAIN_ID, SOLANA_DEVNET_CHAIN_ID, SOLANA_TESTNET_CHAIN_ID]) {
      const cluster = toWalletStandardChain(id)
      expect(cluster && fromWalletStandardChain(cluster)).toBe(id)
    }
  })

  it('recognises CAIP-2 Solana ids and loopback endpoints strictly', () => {
    expect(isSolanaChainId(SOLANA_SANDBOX_CHAIN_ID)).toBe(true)
    expect(isSolanaChainId('solana:localnet')).toBe(false)
    expect(isSolanaChainId('solana:0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl')).toBe(false)
    expect(isSolanaChainId(42)).toBe(false)
    expect(isLocalEndpoint('http://127.0.0.1:8899')).toBe(true)
    expect(isLocalEndpoint('http://localhost:8899/')).toBe(true)
    expect(isLocalEndpoint('http://[::1]:8899/')).toBe(true)
    expect(isLocalEndpoint('https://127.0.0.1.evil.example/')).toBe(false)
    expect(isLocalEndpoint('not a url')).toBe(false)
  })

  it('a wallet serves a chain it lists by CAIP-2 id or by cluster name', () => {
    const dev = ['solana:sandbox', 'solana:localnet']
    expect(supportsChain(dev, SOLANA_SANDBOX_CHAIN_ID)).toBe(true)
    expect(supportsChain(dev, SOLANA_MAINNET_CHAIN_ID)).toBe(false)
    expect(supportsChain(['solana:mainnet'], SOLANA_MAINNET_CHAIN_ID)).toBe(true)
    expect(supportsChain([SOLANA_DEVNET_CHAIN_ID], SOLANA_DEVNET_CHAIN_ID)).toBe(true)
  })
})
