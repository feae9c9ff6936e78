import { describe, expect, it } from 'vitest'
import { answerLocally, isLocalEip155Method, type LocalEip155Context, toHexChainId } from './eip155'
import type { Namespaces } from './types'

const A = `0x${'a'.repeat(40)}`
const B = `0x${'b'.repeat(40)}`
const namespaces: Namespaces = {
  eip155: {
    accounts: [`eip155:1:${A}`, `eip155:1:${B}`, `eip155:10:${A}`, `eip155:1:${A}`],
    methods: ['personal_sign', 'eth_sendTransaction'],
    events: ['chainChanged'],
  },
}
const context: LocalEip155Context = {
  session: { namespaces },
  chainId: 'eip155:1',
  rpcMap: { 'eip155:1': 'http://127.0.0.1:8545', 'eip155:10': 'http://127.0.0.1:9545' },
}
const withMethods = (methods: string[]): LocalEip155Context => ({
  ...context,
  session: { namespaces: { eip155: { ...namespaces.eip155!, methods } } },
})

describe('locally answered eip155 methods (SPEC §7)', () => {
  it('names the six methods and nothing else', () => {
    expect(isLocalEip155Method('eth_chainId')).toBe(true)
    expect(isLocalEip155Method('personal_sign')).toBe(false)
    expect(answerLocally({ method: 'personal_sign' }, context)).toBeUndefined()
  })

  it("refuses without a session: 'Please call connect() before request()'", () => {
    const answer = answerLocally({ method: 'eth_accounts' }, { ...context, session: undefined })
    expect(answer).toMatchObject({
      kind: 'error',
      error: { shortMessage: 'Please call connect() before request()', code: 4900 },
    })
  })

  it('answers accounts and the chain from the session, without the wallet', () => {
    expect(answerLocally({ method: 'eth_accounts' }, context)).toEqual({ kind: 'result', result: [A, B] })
    expect(answerLocally({ method: 'eth_requestAccounts' }, { ...context, chainId: 'eip155:10' })).toEqual({
      kind: 'result',
      result: [A],
    })
    expect(answerLocally({ method: 'eth_chainId' }, { ...context, chainId: 'eip155:10' })).toEqual({
      kind: 'result',
      result: '0xa',
    })
    expect(toHexChainId('eip155:8453')).toBe('0x2105')
  })

  it('switches to an approved chain locally, and needs its RPC url', () => {
    expect(
      answerLocally({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] }, context),
    ).toEqual({
      kind: 'result',
      result: null,
      chainId: 'eip155:10',
    })
    expect(
      answerLocally(
        { method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] },
        { ...context, rpcMap: {} },
      ),
    ).toMatchObject({ kind: 'error', error: { shortMessage: 'No RPC url provided for chainId', code: 4901 } })
  })

  it("asks the wallet for a chain the session lacks, or fails: 'Failed to switch to chain'", () => {
    const params = [{ chainId: '0x89' }]
    expect(
      answerLocally(
        { method: 'wallet_switchEthereumChain', params },
        withMethods(['wallet_switchEthereumChain']),
      ),
    ).toEqual({ kind: 'wallet', chainId: 'eip155:1' })
    expect(answerLocally({ method: 'wallet_switchEthereumChain', params }, context)).toMatchObject({
      kind: 'error',
      error: { shortMessage: 'Failed to switch to chain', code: 4902, details: 'eip155:137' },
    })
    expect(answerLocally({ method: 'wallet_switchEthereumChain', params: [] }, context)).toMatchObject({
      kind: 'error',
      error: { name: 'InvalidParamsError' },
    })
  })

  it("asks the wallet for call status only when it approved it: 'Fetching call status not approved by the wallet'", () => {
    expect(answerLocally({ method: 'wallet_getCallsStatus', params: ['0x1'] }, context)).toMatchObject({
      kind: 'error',
      error: { shortMessage: 'Fetching call status not approved by the wallet' },
    })
    expect(
      answerLocally(
        { method: 'wallet_getCallsStatus', params: ['0x1'] },
        withMethods(['wallet_getCallsStatus']),
      ),
    ).toEqual({ kind: 'wallet', chainId: 'eip155:1' })
  })

  it('answers capabilities the session announced; asks the wallet otherwise', () => {
    const announced: LocalEip155Context = {
      ...context,
      session: {
        namespaces,
        sessionProperties: { capabilities: JSON.stringify({ atomic: { status: 'supported' } }) },
        scopedProperties: { 'eip155:10': { capabilities: { paymasterService: { supported: true } } } },
      },
    }
    expect(
      answerLocally({ method: 'wallet_getCapabilities', params: [A, ['0x1', '0xa']] }, announced),
    ).toEqual({
      kind: 'result',
      result: {
        '0x1': { atomic: { status: 'supported' } },
        '0xa': { atomic: { status: 'supported' }, paymasterService: { supported: true } },
      },
    })
    expect(
      answerLocally(
        { method: 'wallet_getCapabilities', params: [A] },
        withMethods(['wallet_getCapabilities']),
      ),
    ).toEqual({ kind: 'wallet', chainId: 'eip155:1' })
    expect(answerLocally({ method: 'wallet_getCapabilities', params: [A] }, context)).toMatchObject({
      kind: 'error',
      error: { name: 'UnapprovedMethodError' },
    })
  })
})
