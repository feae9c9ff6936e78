import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { isSolanaAddress } from '../chains/solana/address'
import {
  CommandPayloads,
  CommandResults,
  FrameUserSchema,
  isSolanaFrameUser,
  malformedRpcResult,
} from './protocol'

/** The sandbox's Solana chain and a real ed25519 public key (base58, 32 bytes). */
const SOLANA_CHAIN = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx'
const SOL_ADDRESS = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const evmUser = {
  email: 'alice@example.com',
  address: EVM,
  chainId: 31337,
  accounts: [
    { address: EVM, type: 'eoa' },
    { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', type: 'smartAccount' },
  ],
  preferredAccountType: 'eoa',
  smartAccountDeployed: false,
}
const solanaUser = {
  email: 'alice@example.com',
  address: SOL_ADDRESS,
  chainId: SOLANA_CHAIN,
  accounts: [{ address: SOL_ADDRESS, type: 'eoa' }],
  preferredAccountType: 'eoa',
}
const parses = (schema: v.GenericSchema, value: unknown) => v.safeParse(schema, value).success

describe('isSolanaAddress', () => {
  it('takes base58 that decodes to 32 bytes, nothing else', () => {
    expect(isSolanaAddress(SOL_ADDRESS)).toBe(true)
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true)
    expect(isSolanaAddress('So11111111111111111111111111111111111111112')).toBe(true)
    expect(isSolanaAddress(EVM)).toBe(false)
    // Base58 has no 0, O, I or l.
    expect(isSolanaAddress(`${SOL_ADDRESS.slice(0, -1)}0`)).toBe(false)
    // 44 characters whose number needs 33 bytes; 31 characters too few.
    expect(isSolanaAddress('z'.repeat(44))).toBe(false)
    expect(isSolanaAddress('2'.repeat(31))).toBe(false)
    expect(isSolanaAddress(undefined)).toBe(false)
  })
})

describe('FrameUserSchema (issue 17: eip155 and Solana users)', () => {
  it('keeps the eip155 user as it was', () => {
    expect(v.parse(FrameUserSchema, evmUser)).toEqual(evmUser)
    expect(parses(FrameUserSchema, { ...evmUser, address: SOL_ADDRESS })).toBe(false)
    expect(parses(FrameUserSchema, { ...evmUser, address: '0x1234' })).toBe(false)
    expect(isSolanaFrameUser(v.parse(FrameUserSchema, evmUser))).toBe(false)
  })

  it('takes a Solana user: base58 address and account, an EOA, on a solana: chain', () => {
    const user = v.parse(FrameUserSchema, solanaUser)
    expect(user).toEqual(solanaUser)
    expect(isSolanaFrameUser(user)).toBe(true)
  })

  it('refuses a Solana chain with an EVM address, and an eip155 chain with a base58 one', () => {
    expect(parses(FrameUserSchema, { ...solanaUser, address: EVM })).toBe(false)
    expect(parses(FrameUserSchema, { ...solanaUser, accounts: [{ address: EVM, type: 'eoa' }] })).toBe(false)
    expect(parses(FrameUserSchema, { ...solanaUser, chainId: 31337 })).toBe(false)
    expect(parses(FrameUserSchema, { ...evmUser, chainId: SOLANA_CHAIN })).toBe(false)
  })

  it('refuses a malformed Solana user: a cluster name, a smart account, a bad key', () => {
    expect(parses(FrameUserSchema, { ...solanaUser, chainId: 'solana:mainnet' })).toBe(false)
    expect(parses(FrameUserSchema, { ...solanaUser, preferredAccountType: 'smartAccount' })).toBe(false)
    expect(
      parses(FrameUserSchema, { ...solanaUser, accounts: [{ address: SOL_ADDRESS, type: 'smartAccount' }] }),
    ).toBe(false)
    expect(parses(FrameUserSchema, { ...solanaUser, address: 'z'.repeat(44) })).toBe(false)
    expect(parses(FrameUserSchema, { ...solanaUser, address: `${SOL_ADDRESS}0` })).toBe(false)
  })
})

describe('switchNetwork result', () => {
  const schema = CommandResults.switchNetwork
  it('eip155: the chain, and the EVM address when signed in', () => {
    expect(v.parse(schema, { chainId: 31337 })).toEqual({ chainId: 31337 })
    expect(v.parse(schema, { chainId: 31337, address: EVM })).toEqual({ chainId: 31337, address: EVM })
    expect(parses(schema, { chainId: 31337, address: SOL_ADDRESS })).toBe(false)
  })

  it('Solana: the CAIP-2 chain, and the base58 address when signed in', () => {
    expect(v.parse(schema, { chainId: SOLANA_CHAIN })).toEqual({ chainId: SOLANA_CHAIN })
    expect(v.parse(schema, { chainId: SOLANA_CHAIN, address: SOL_ADDRESS })).toEqual({
      chainId: SOLANA_CHAIN,
      address: SOL_ADDRESS,
    })
    expect(parses(schema, { chainId: SOLANA_CHAIN, address: EVM })).toBe(false)
    expect(parses(schema, { chainId: 'solana:devnet', address: SOL_ADDRESS })).toBe(false)
    expect(parses(schema, { chainId: SOLANA_CHAIN, address: 42 })).toBe(false)
  })
})

describe('SPEC §5 one-time code', () => {
  it('one-time code is a string: any non-blank code is sent as typed (trimmed), not six digits only', () => {
    for (const otp of ['123456', '12', 'AB-12cd', ' 9876543210 '])
      expect(v.parse(CommandPayloads.connectOtp, { otp })).toEqual({ otp: otp.trim() })
    expect(v.parse(CommandPayloads.updateEmailPrimaryOtp, { otp: 'x7' })).toEqual({ otp: 'x7' })
  })

  it('refuses no code at all: blank, not a string, or longer than any code', () => {
    for (const otp of ['', '   ', 123456, undefined, 'x'.repeat(65)])
      expect(parses(CommandPayloads.connectOtp, { otp })).toBe(false)
  })
})

describe('SPEC §5 transaction hash and signed message', () => {
  it('transaction hash: 0x plus 64 hex characters; signed message: 0x plus 62 or more hex characters', () => {
    expect(malformedRpcResult('eth_sendTransaction', `0x${'ab'.repeat(32)}`)).toBeUndefined()
    for (const bad of [
      '0x12',
      `0x${'ab'.repeat(33)}`,
      `0x${'zz'.repeat(32)}`,
      42,
      null,
      `${'ab'.repeat(32)}`,
    ])
      expect(malformedRpcResult('eth_sendTransaction', bad)).toBe('hash')
    expect(malformedRpcResult('personal_sign', `0x${'5'.repeat(62)}`)).toBeUndefined()
    expect(malformedRpcResult('eth_signTypedData_v4', `0x${'5'.repeat(130)}`)).toBeUndefined()
    for (const bad of [`0x${'5'.repeat(61)}`, '0x', 'signed', `0x${'g'.repeat(130)}`, {}])
      expect(malformedRpcResult('personal_sign', bad)).toBe('signature')
    // Reads are not checked here.
    expect(malformedRpcResult('eth_getBalance', '0x10')).toBeUndefined()
  })
})
