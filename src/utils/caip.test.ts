import { describe, expect, it } from 'vitest'
import {
  chainNamespaceOf,
  eip155ChainId,
  eip155Reference,
  evmAddressOf,
  isCaip2,
  isCaip10,
  parseAccountId,
  parseChainId,
} from './caip'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

describe('caip', () => {
  it('parses CAIP-2 chain ids and refuses anything else', () => {
    expect(parseChainId('eip155:1')).toEqual({ namespace: 'eip155', reference: '1' })
    expect(parseChainId('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')?.namespace).toBe('solana')
    for (const bad of [
      'eip155',
      'eip155:',
      ':1',
      'EIP155:1',
      'eip155:1:0x',
      'e:1',
      42,
      undefined,
      'eip155:1 ',
    ])
      expect(parseChainId(bad)).toBeUndefined()
    expect(isCaip2('eip155:11155111')).toBe(true)
  })

  it('parses CAIP-10 account ids into chain and address', () => {
    expect(parseAccountId(`eip155:1:${address}`)).toEqual({
      namespace: 'eip155',
      reference: '1',
      chainId: 'eip155:1',
      address,
    })
    expect(parseAccountId('eip155:1')).toBeUndefined()
    expect(isCaip10(`eip155:1:${address}`)).toBe(true)
    expect(chainNamespaceOf(`eip155:1:${address}`)).toBe('eip155')
    expect(chainNamespaceOf('solana:abc')).toBe('solana')
    expect(chainNamespaceOf('nope')).toBeUndefined()
  })

  it('maps eip155 references to numbers and back', () => {
    expect(eip155ChainId(11155111)).toBe('eip155:11155111')
    expect(eip155Reference('eip155:11155111')).toBe(11155111)
    expect(eip155Reference('solana:1')).toBeUndefined()
    expect(eip155Reference('eip155:01')).toBeUndefined()
    expect(eip155Reference('eip155:99999999999999999999')).toBeUndefined()
  })

  it('reads EVM addresses from CAIP-10 or plain text, checksummed', () => {
    expect(evmAddressOf(`eip155:1:${address.toLowerCase()}`)).toBe(address)
    expect(evmAddressOf(` ${address} `)).toBe(address)
    expect(evmAddressOf('0x1234')).toBeUndefined()
    // A mixed-case address with a wrong checksum is refused, as viem's isAddress does.
    expect(evmAddressOf('0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBeUndefined()
    expect(evmAddressOf(undefined)).toBeUndefined()
  })
})
