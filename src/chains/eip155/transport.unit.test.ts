import { describe, expect, it } from 'vitest'
import { RPC_RETRY_BASE_MS, RPC_RETRY_COUNT } from '../../constants'
import { rpcUrlFor } from './transport'
import { backoffDelay, parseRetryAfter } from './transportRequest'

// What needs no server; the transport against the sandbox RPC host is in test/integration/rpcTransport.test.ts.
describe('rpcUrlFor', () => {
  it('default: the provider host with chainId and projectId', () => {
    expect(rpcUrlFor({ chainId: 1, projectId: 'p1', rpc: 'https://rpc.example' })).toBe(
      'https://rpc.example/v1/?chainId=eip155%3A1&projectId=p1',
    )
    // A base with a path keeps it.
    expect(rpcUrlFor({ chainId: 10, projectId: 'p', rpc: 'https://host.example/rpc/' })).toBe(
      'https://host.example/rpc/v1/?chainId=eip155%3A10&projectId=p',
    )
  })

  it('parameters: an rpcMap entry, by CAIP-2 id or by chain id, wins', () => {
    const rpc = 'https://rpc.example'
    expect(
      rpcUrlFor({ chainId: 1, projectId: 'p', rpc, rpcMap: { 'eip155:1': 'https://mine.example/1' } }),
    ).toBe('https://mine.example/1')
    expect(rpcUrlFor({ chainId: 5, projectId: 'p', rpc, rpcMap: { '5': 'https://mine.example/5' } })).toBe(
      'https://mine.example/5',
    )
    expect(rpcUrlFor({ chainId: 7, projectId: 'p', rpc, rpcMap: { '5': 'https://mine.example/5' } })).toMatch(
      /^https:\/\/rpc\.example\/v1\//,
    )
  })
})

describe('parseRetryAfter and backoffDelay', () => {
  it('reads delay-seconds and HTTP dates; a past date asks for no wait; anything else is unreadable', () => {
    expect(parseRetryAfter('2')).toBe(2000)
    expect(parseRetryAfter(' 0 ')).toBe(0)
    expect(parseRetryAfter('1.5')).toBe(1500)
    const now = Date.parse('Wed, 21 Oct 2037 07:27:58 GMT')
    expect(parseRetryAfter('Wed, 21 Oct 2037 07:28:00 GMT', now)).toBe(2000)
    expect(parseRetryAfter('Wednesday, 21-Oct-37 07:28:03 GMT', now)).toBe(5000)
    expect(parseRetryAfter('Wed, 21 Oct 2037 07:27:00 GMT', now)).toBe(0)
    for (const bad of [null, undefined, '', 'soon', '-1', '1e3', '0x10']) {
      expect(parseRetryAfter(bad, now), String(bad)).toBeUndefined()
    }
  })

  it('backs off from 150 ms, doubling', () => {
    expect(RPC_RETRY_BASE_MS).toBe(150)
    expect(RPC_RETRY_COUNT).toBe(3)
    expect([0, 1, 2].map((retry) => backoffDelay(retry))).toEqual([150, 300, 600])
  })
})
