import { createSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import { type FormatAuthMessage, ONE_CLICK_METHODS, oneClickParams, sessionsFromAuths } from './oneClick'
import { messageData } from './siwe'
import type { SiwxMessageData } from './types'

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const template: SiwxMessageData = {
  accountAddress: '0x0000000000000000000000000000000000000000',
  chainId: 'eip155:31337',
  domain: 'app.example',
  uri: 'https://app.example',
  version: '1',
  nonce: 'a1b2c3d4e5f6',
  issuedAt: '2026-11-26T10:00:00.000Z',
  expirationTime: '2026-11-27T10:00:00.000Z',
  statement: 'Sign in to Example',
}
const asked = oneClickParams(template, ['eip155:1', 'eip155:31337'])

/** Formats a CAIP-122 payload as an EIP-4361 message, as the WalletConnect client does for eip155. */
const format: FormatAuthMessage = (p, iss) => {
  const [, , , chain, address] = iss.split(':')
  return createSiweMessage({
    address: address as `0x${string}`,
    chainId: Number(chain),
    domain: p.domain as string,
    uri: p.aud as string,
    version: '1',
    nonce: p.nonce as string,
    issuedAt: new Date(p.iat as string),
    ...(p.exp ? { expirationTime: new Date(p.exp as string) } : {}),
    ...(p.statement ? { statement: p.statement as string } : {}),
  })
}

/** A CACAO as a wallet that signs what it was asked returns it; `change` alters the payload. */
function cacao(change: Record<string, unknown> = {}, chain = 'eip155:31337') {
  return {
    h: { t: 'caip122' },
    p: {
      iss: `did:pkh:${chain}:${ACCOUNT}`,
      domain: asked.domain,
      aud: asked.uri,
      version: '1',
      nonce: asked.nonce,
      iat: '2026-11-26T10:00:05.000Z',
      exp: asked.exp,
      statement: asked.statement,
      ...change,
    },
    s: { t: 'eip191', s: `0x${'ab'.repeat(65)}` },
  }
}

describe('oneClickParams', () => {
  it('asks with the template’s fields, its chain first, and the methods the kit uses', () => {
    expect(asked).toEqual({
      chains: ['eip155:31337', 'eip155:1'],
      domain: 'app.example',
      uri: 'https://app.example',
      nonce: 'a1b2c3d4e5f6',
      iat: '2026-11-26T10:00:00.000Z',
      exp: '2026-11-27T10:00:00.000Z',
      statement: 'Sign in to Example',
      methods: [...ONE_CLICK_METHODS],
    })
    expect(asked.methods).toContain('eth_sendTransaction')
  })

  it('asks for the methods SPEC §7 names beside the sign-in (batched calls, their status, assets, permissions)', () => {
    for (const method of [
      'wallet_sendCalls',
      'wallet_getCallsStatus',
      'wallet_showCallsStatus',
      'wallet_getAssets',
      'wallet_grantPermissions',
      'wallet_revokePermissions',
    ])
      expect(asked.methods).toContain(method)
  })
})

describe('sessionsFromAuths', () => {
  it('turns a CACAO that says what was asked into a session for the account and chain it names', () => {
    const [session, ...rest] = sessionsFromAuths([cacao()], asked, format)
    expect(rest).toEqual([])
    expect(session?.signature).toBe(`0x${'ab'.repeat(65)}`)
    expect(session?.data).toEqual(messageData(session?.message))
    expect(session?.data).toMatchObject({
      accountAddress: ACCOUNT,
      chainId: 'eip155:31337',
      domain: 'app.example',
      nonce: 'a1b2c3d4e5f6',
      expirationTime: '2026-11-27T10:00:00.000Z',
    })
  })

  it('accepts a chain that was asked for other than the first', () => {
    expect(sessionsFromAuths([cacao({}, 'eip155:1')], asked, format)).toHaveLength(1)
  })

  it('leaves out a CACAO that says something else than what was asked', () => {
    const others = [
      cacao({ nonce: 'ffffffffffff' }),
      cacao({ domain: 'evil.example' }),
      cacao({ aud: 'https://evil.example' }),
      cacao({ exp: undefined }),
      cacao({ exp: '2030-01-01T00:00:00.000Z' }),
      cacao({}, 'eip155:10'),
    ]
    for (const other of others) expect(sessionsFromAuths([other], asked, format)).toEqual([])
  })

  it('leaves out malformed CACAOs, and reads nothing from what is not a list', () => {
    const malformed = [
      null,
      42,
      { p: cacao().p },
      { ...cacao(), s: { t: 'eip191', s: 'not hex' } },
      cacao({ iss: 'did:pkh:eip155:31337:not-an-address' }),
      cacao({ iss: 42 }),
    ]
    expect(sessionsFromAuths(malformed, asked, format)).toEqual([])
    expect(sessionsFromAuths({ 0: cacao() }, asked, format)).toEqual([])
    expect(sessionsFromAuths(undefined, asked, format)).toEqual([])
  })

  it('a formatter that throws leaves that CACAO out, not the others', () => {
    let calls = 0
    const flaky: FormatAuthMessage = (p, iss) => {
      calls += 1
      if (calls === 1) throw new Error('cannot format')
      return format(p, iss)
    }
    expect(sessionsFromAuths([cacao(), cacao()], asked, flaky)).toHaveLength(1)
  })
})
