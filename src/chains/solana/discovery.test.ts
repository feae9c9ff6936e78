import { describe, expect, it } from 'vitest'
import { WALLET_NAME_MAX_LENGTH } from '../../constants'
import {
  cleanWalletName,
  type StandardWallet,
  safeWalletIcon,
  toSolanaWalletInfos,
  walletSlug,
} from './discovery'

const SVG = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4='
const SOLANA_FEATURES = {
  'standard:connect': {},
  'standard:events': {},
  'solana:signAndSendTransaction': {},
}

function fakeWallet(overrides: Partial<Record<string, unknown>> = {}): StandardWallet {
  return {
    version: '1.0.0',
    name: 'Phantom',
    icon: SVG,
    chains: ['solana:mainnet', 'solana:devnet'],
    features: SOLANA_FEATURES,
    accounts: [],
    ...overrides,
  } as unknown as StandardWallet
}

describe('safeWalletIcon (hostile data)', () => {
  it('keeps data:image icons and https URLs', () => {
    expect(safeWalletIcon(SVG)).toBe(SVG)
    expect(safeWalletIcon('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(safeWalletIcon('https://wallet.example/icon.png')).toBe('https://wallet.example/icon.png')
  })

  it('drops everything else', () => {
    for (const icon of [
      'javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'data:application/javascript,alert(1)',
      'http://wallet.example/icon.png',
      'https://user:pw@wallet.example/icon.png',
      'blob:https://wallet.example/1',
      'file:///etc/passwd',
      '//wallet.example/icon.png',
      `data:image/png;base64,${'A'.repeat(200_001)}`,
      '',
      42,
      null,
      undefined,
    ]) {
      expect(safeWalletIcon(icon)).toBeUndefined()
    }
  })
})

describe('wallet names and ids', () => {
  it('slugs names', () => {
    expect(walletSlug('Walletstate Solana Dev Wallet')).toBe('walletstate-solana-dev-wallet')
    expect(walletSlug('  Solflare!! ')).toBe('solflare')
    expect(walletSlug('Café Wallet')).toBe('cafe-wallet')
    expect(walletSlug('👻')).toBe('wallet')
    expect(walletSlug('x'.repeat(200))).toHaveLength(48)
  })

  it('cleans names: control and bidi characters out, bounded', () => {
    expect(cleanWalletName('Pha\u0000ntom\u202e')).toBe('Phantom')
    expect(Array.from(cleanWalletName('a'.repeat(300)))).toHaveLength(WALLET_NAME_MAX_LENGTH)
    expect(cleanWalletName(7)).toBe('')
  })

  // Guards cleanWalletName's use of safeText: a Wallet Standard wallet's name is as untrusted as an EIP-6963 one.
  it('cleans names as the listing does: isolates, marks, invisible characters and lone surrogates out', () => {
    expect(cleanWalletName('\u2067motnahP\u2069')).toBe('motnahP')
    expect(cleanWalletName('Phan\u061ctom\u200e\u2060')).toBe('Phantom')
    expect(cleanWalletName('Phantom \ud83d')).toBe('Phantom')
    expect(cleanWalletName('\udc7b Phantom')).toBe('Phantom')
    expect(cleanWalletName('  Solflare \n Wallet ')).toBe('Solflare Wallet')
  })
})

describe('toSolanaWalletInfos', () => {
  it('lists wallets with Solana features, with cleaned fields', () => {
    const wallet = fakeWallet({ name: 'Backpack', chains: ['solana:mainnet', 'eip155:1', 7] })
    expect(toSolanaWalletInfos([wallet])).toEqual([
      { id: 'solana:backpack', name: 'Backpack', icon: SVG, chains: ['solana:mainnet'] },
    ])
  })

  it('leaves out wallets without the adapter’s features, without a name, or of a hostile shape', () => {
    const evmOnly = fakeWallet({
      name: 'EVM only',
      features: { 'standard:connect': {}, 'standard:events': {} },
    })
    const noName = fakeWallet({ name: '\u0000 ' })
    const hostile = fakeWallet({ name: 'Hostile', features: null })
    expect(toSolanaWalletInfos([evmOnly, noName, hostile])).toEqual([])
  })

  it('drops an unsafe icon but keeps the wallet', () => {
    const [info] = toSolanaWalletInfos([fakeWallet({ name: 'Icon Thief', icon: 'javascript:alert(1)' })])
    expect(info).toEqual({
      id: 'solana:icon-thief',
      name: 'Icon Thief',
      chains: ['solana:mainnet', 'solana:devnet'],
    })
  })

  it('gives wallets of one name unique ids that stay with each wallet', () => {
    const first = fakeWallet({ name: 'Twin' })
    const second = fakeWallet({ name: 'Twin!' })
    const ids = toSolanaWalletInfos([first, second]).map((w) => w.id)
    expect(ids).toEqual(['solana:twin', 'solana:twin-2'])
    // Listed again, alone or reordered: the same ids.
    expect(toSolanaWalletInfos([second]).map((w) => w.id)).toEqual(['solana:twin-2'])
    expect(toSolanaWalletInfos([second, first]).map((w) => w.id)).toEqual(['solana:twin-2', 'solana:twin'])
  })
})
