import { describe, expect, it } from 'vitest'
import type { FrameUser } from '../../frame/protocol'
import { atomicStatusOf } from './calls'
import { embeddedCapabilities } from './embeddedConnector'
import { grantsPermissionsOf } from './permissions'

const EOA = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const SMART = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const CHAINS = [{ id: 31337 }, { id: 31338 }]
const user = (address: string, preferredAccountType: 'eoa' | 'smartAccount'): FrameUser =>
  ({
    address,
    chainId: 'eip155:31337',
    accounts: [
      { address: EOA, type: 'eoa' },
      { address: SMART, type: 'smartAccount' },
    ],
    preferredAccountType,
  }) as FrameUser

describe("the embedded wallet's wallet_getCapabilities, answered locally", () => {
  it('atomic batching on every configured chain for the smart account, none for the EOA', () => {
    const smart = embeddedCapabilities(user(SMART, 'smartAccount'), CHAINS, [SMART])
    // ERC-7715 permissions beside atomic batching, for the smart account only (the secure site's answer).
    const permissions = {
      supported: true,
      signerTypes: ['key', 'keys', 'account'],
      permissionTypes: ['erc20-token-transfer'],
      policyTypes: ['token-allowance'],
    }
    expect(smart).toEqual({
      '0x7a69': { atomic: { status: 'supported' }, permissions },
      '0x7a6a': { atomic: { status: 'supported' }, permissions },
    })
    expect(grantsPermissionsOf(smart, 31337)).toBe(true)
    const eoa = embeddedCapabilities(user(EOA, 'eoa'), CHAINS, [EOA])
    expect(atomicStatusOf(eoa, 31337)).toBe('unsupported')
    expect(grantsPermissionsOf(eoa, 31337)).toBe(false)
    // The account shown decides, whatever type is preferred.
    expect(atomicStatusOf(embeddedCapabilities(user(EOA, 'smartAccount'), CHAINS, [EOA]), 31337)).toBe(
      'unsupported',
    )
  })

  it('per chain: none on a network the login frame has no smart account on', () => {
    const answer = embeddedCapabilities(user(SMART, 'smartAccount'), CHAINS, [SMART], ['eip155:31337'])
    expect(atomicStatusOf(answer, 31337)).toBe('supported')
    expect(grantsPermissionsOf(answer, 31337)).toBe(true)
    expect(atomicStatusOf(answer, 31338)).toBe('unsupported')
    expect(grantsPermissionsOf(answer, 31338)).toBe(false)
  })

  it('only the chains asked for (EIP-5792 v2 params), and nothing for a chain not configured', () => {
    const asked = embeddedCapabilities(user(SMART, 'smartAccount'), CHAINS, [SMART, ['0x7a6a', '0x1', 7]])
    expect(Object.keys(asked)).toEqual(['0x7a6a'])
    expect(asked['0x7a6a']?.atomic).toEqual({ status: 'supported' })
  })

  it('without a logged-in user, no atomic batching', () => {
    expect(atomicStatusOf(embeddedCapabilities(undefined, CHAINS, []), 31337)).toBe('unsupported')
  })
})

describe('ERC-7715 permissions in a wallet_getCapabilities answer (grantsPermissionsOf)', () => {
  const entry = (permissions: unknown) => ({ '0x7a69': { atomic: { status: 'supported' }, permissions } })
  const granting = { supported: true, signerTypes: ['key'], permissionTypes: ['erc20-token-transfer'] }

  it('yes only for a supported key signer and an erc20-token-transfer permission on the chain (or 0x0)', () => {
    expect(grantsPermissionsOf(entry(granting), 31337)).toBe(true)
    expect(grantsPermissionsOf(entry({ ...granting, signerTypes: ['keys'] }), 31337)).toBe(true)
    expect(grantsPermissionsOf({ '0x0': { permissions: granting } }, 31337)).toBe(true)
    expect(grantsPermissionsOf(entry(granting), 1)).toBe(false)
  })

  it('no when the wallet does not report it, reports it unsupported, for other signers or permissions, or malformed', () => {
    expect(grantsPermissionsOf({ '0x7a69': { atomic: { status: 'supported' } } }, 31337)).toBe(false)
    expect(grantsPermissionsOf(entry({ ...granting, supported: false }), 31337)).toBe(false)
    expect(grantsPermissionsOf(entry({ ...granting, signerTypes: ['account'] }), 31337)).toBe(false)
    expect(
      grantsPermissionsOf(entry({ ...granting, permissionTypes: ['native-token-transfer'] }), 31337),
    ).toBe(false)
    expect(grantsPermissionsOf(entry({ ...granting, supported: 'yes' }), 31337)).toBe(false)
    expect(grantsPermissionsOf([entry(granting)], 31337)).toBe(false)
    expect(grantsPermissionsOf(null, 31337)).toBe(false)
  })
})
