import { describe, expect, it } from 'vitest'
import { kitAssetsOf } from './assetsRead'

const USDC = '0x5fbdb2315678afecb367f032d93f642f64180aa3'

describe("useKitAssets' reading of a wallet_getAssets answer", () => {
  it('assets by chain id, amounts as bigints, contracts checksummed, types in either case', () => {
    expect(
      kitAssetsOf({
        '0x7a69': [
          {
            address: 'native',
            balance: '0xde0b6b3a7640000',
            type: 'native',
            metadata: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          },
          { address: USDC, balance: '0x989680', type: 'ERC20', metadata: { symbol: 'USDC', decimals: 6 } },
        ],
        '0x1': [],
      }),
    ).toEqual({
      31337: [
        {
          address: 'native',
          type: 'native',
          balance: 10n ** 18n,
          name: 'Ether',
          symbol: 'ETH',
          decimals: 18,
        },
        {
          address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
          type: 'erc20',
          balance: 10_000_000n,
          name: '',
          symbol: 'USDC',
          decimals: 6,
        },
      ],
      1: [],
    })
  })

  it('refuses what is not EIP-7811: a decimal amount, a type it does not know, a chain that is no hex id, a list', () => {
    const asset = { address: USDC, balance: '0x1', type: 'erc20', metadata: { symbol: 'USDC', decimals: 6 } }
    for (const bad of [
      { '0x7a69': [{ ...asset, balance: '10' }] },
      { '0x7a69': [{ ...asset, type: 'erc721' }] },
      { '0x7a69': [{ ...asset, metadata: { symbol: 'USDC', decimals: -1 } }] },
      { 31337: [asset] },
      [asset],
      null,
    ])
      expect(() => kitAssetsOf(bad)).toThrow("The wallet's assets could not be read")
  })
})
