import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors/base'
import {
  RecentlyDeletedError,
  SessionError,
  sessionErrorFromInfo,
  sessionErrorInfo,
  toSessionError,
} from '../errors/session'

/** The reference client's texts differ from the SPEC's; `toSessionError` maps them (SPEC §8). */
describe('session errors', () => {
  it.each([
    [
      'Missing or invalid. Record was recently deleted - session: abc',
      'RecentlyDeletedError',
      'Record was recently deleted',
    ],
    [
      "No matching key. session topic doesn't exist: abc",
      'SessionTopicNotFoundError',
      "session topic doesn't exist",
    ],
    ["No matching key. proposal id doesn't exist: 1", 'ProposalNotFoundError', "proposal id doesn't exist"],
    [
      "No matching key. pairing topic doesn't exist: abc",
      'PairingTopicNotFoundError',
      "pairing topic doesn't exist",
    ],
    ['Expired. session topic: abc', 'SessionExpiredError', 'session topic expired'],
    ['Expired. proposal id: 1', 'ProposalExpiredError', 'proposal expired'],
    ['Proposal expired', 'ProposalExpiredError', 'proposal expired'],
    ['Request expired. Please try again.', 'RequestExpiredError', 'request expired'],
    [
      'Multi-namespace requests are not supported. Please request single namespace only.',
      'MultiNamespaceAuthError',
      'Multi-namespace requests are not supported',
    ],
    [
      'Only eip155 namespace is supported for authenticated sessions. Please use .connect() for non-eip155 chains.',
      'NonEip155AuthError',
      'Only eip155 namespace is supported for authenticated sessions',
    ],
    [
      'Could not find pending auth request with id 77',
      'AuthRequestNotFoundError',
      'Could not find pending auth request with id 77',
    ],
    [
      'Session settlement failed. Signature verification failed',
      'SignatureVerificationError',
      'Signature verification failed',
    ],
    ['Please call connect() before request()', 'NotConnectedError', 'Please call connect() before request()'],
    [
      "Failed to switch to chain 'eip155:5'. The chain is not approved",
      'SwitchChainFailedError',
      'Failed to switch to chain',
    ],
    [
      'Fetching call status not approved by the wallet.',
      'CallStatusNotApprovedError',
      'Fetching call status not approved by the wallet',
    ],
    ['No RPC url provided for chainId: 5', 'NoRpcUrlError', 'No RPC url provided for chainId'],
    [
      'Missing or invalid. request() method: eth_foo',
      'UnapprovedMethodError',
      "Unauthorized method. The method is not approved for the account's chain",
    ],
    [
      'Missing or invalid. request() chainId: eip155:5',
      'UnapprovedChainError',
      'Unsupported chains. The chainId is not approved in the session',
    ],
  ])('maps %j to %s', (message, name, shortMessage) => {
    const mapped = toSessionError(new Error(message))
    expect(mapped).toBeInstanceOf(SessionError)
    expect(mapped).toBeInstanceOf(BaseError)
    expect({ name: mapped.name, shortMessage: mapped.shortMessage }).toEqual({ name, shortMessage })
    expect(mapped.details).toBe(message)
  })

  it('keeps a peer error it does not know, with its code', () => {
    const mapped = toSessionError({ code: 4001, message: 'User rejected the request.' })
    expect(mapped).toMatchObject({
      name: 'RemoteError',
      code: 4001,
      shortMessage: 'User rejected the request.',
    })
  })

  it('maps its own texts back, so an error sent to a peer arrives as the same error', () => {
    const sent = new RecentlyDeletedError({ details: 'session: abc' }).reason
    expect(sent).toEqual({ code: 5, message: 'Record was recently deleted' })
    expect(toSessionError(sent)).toMatchObject({ name: 'RecentlyDeletedError' })
  })

  it('round-trips through snapshot data', () => {
    const info = sessionErrorInfo(new RecentlyDeletedError({ details: 'session: abc' }))
    expect(info).toEqual({
      name: 'RecentlyDeletedError',
      message: 'Record was recently deleted',
      code: 5,
      details: 'session: abc',
    })
    expect(sessionErrorFromInfo(info)).toMatchObject({
      name: 'RecentlyDeletedError',
      shortMessage: 'Record was recently deleted',
    })
  })
})
