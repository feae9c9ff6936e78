import { describe, expect, it } from 'vitest'
import type { FrameUser } from '../../frame/protocol'
import { atomicStatusOf } from './calls'
import { embeddedCapabilities } from './embeddedConnector'

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
    expect(smart).toEqual({
      '0x7a69': { atomic: { status: 'supported' } },
      '0x7a6a': { atomic: { status: 'supported' } },
    })
    const eoa = embeddedCapabilities(user(EOA, 'eoa'), CHAINS, [EOA])
    expect(atomicStatusOf(eoa, 31337)).toBe('unsupported')
    // The account shown decides, whatever type is preferred.
    expect(atomicStatusOf(embeddedCapabilities(user(EOA, 'smartAccount'), CHAINS, [EOA]), 31337)).toBe(
      'unsupported',
    )
  })

  it('only the chains asked for (EIP-5792 v2 params), and nothing for a chain not configured', () => {
    expect(embeddedCapabilities(user(SMART, 'smartAccount'), CHAINS, [SMART, ['0x7a6a', '0x1', 7]])).toEqual({
      '0x7a6a': { atomic: { status: 'supported' } },
    })
  })

  it('without a logged-in user, no atomic batching', () => {
    expect(atomicStatusOf(embeddedCapabilities(undefined, CHAINS, []), 31337)).toBe('unsupported')
  })
})
