import { describe, expect, it } from 'vitest'
import type { SessionError } from '../errors/session'
import { createRecentlyDeleted, rememberDeleted } from './recentlyDeleted'
import type { Namespaces } from './types'
import { validateApprove } from './validateApprove'
import { validateAuthenticate, validateAuthResponse } from './validateAuthenticate'
import { validateConnect, validateProposal } from './validateConnect'
import { validateEmit } from './validateEmit'
import { validateReject } from './validateReject'
import { validateIncomingRequest, validateRequest } from './validateRequest'
import { validateRespond } from './validateRespond'
import { validateSettle } from './validateSettle'
import { type RecordsView, validateProposalId, validateSessionTopic } from './validateTopic'
import { isUpdateInOrder, validateUpdate } from './validateUpdate'

/**
 * SPEC §5 "Remote session rules": each rule is broken once and answers with its SPEC §8 text (or, where the
 * SPEC names none, the reference client's category and the rule), and holds for valid input.
 */
const NOW = 1_700_000_000_000
const FUTURE = NOW + 60_000
const PAST = NOW - 1
const TOPIC = 'a'.repeat(64)
const ACCOUNT = `eip155:1:0x${'1'.repeat(40)}`

const namespaces: Namespaces = {
  eip155: {
    accounts: [ACCOUNT, `eip155:10:0x${'1'.repeat(40)}`],
    methods: ['personal_sign'],
    events: ['chainChanged'],
  },
}

function view(overrides: Partial<RecordsView> = {}): RecordsView {
  return {
    now: NOW,
    recentlyDeleted: createRecentlyDeleted(),
    sessions: { [TOPIC]: { expiry: FUTURE, namespaces, requiredNamespaces: {} } },
    proposals: {
      '1': {
        expiry: FUTURE,
        requiredNamespaces: {
          eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: ['chainChanged'] },
        },
      },
      '2': { expiry: PAST, requiredNamespaces: {} },
    },
    pairings: { p: { expiry: FUTURE }, old: { expiry: PAST } },
    ...overrides,
  }
}

const message = (error: SessionError | undefined) => error?.shortMessage

describe('topics are existing strings', () => {
  it('refuses a topic that is not a string, unknown, expired or recently deleted', () => {
    expect(message(validateSessionTopic(42, view()))).toBe(
      'Missing or invalid. A session topic must be a non-empty string',
    )
    expect(message(validateSessionTopic('nope', view()))).toBe("session topic doesn't exist")
    const expired = view({ sessions: { [TOPIC]: { expiry: PAST, namespaces, requiredNamespaces: {} } } })
    expect(validateSessionTopic(TOPIC, expired)).toMatchObject({ name: 'SessionExpiredError', code: 6 })
    const deleted = view({ recentlyDeleted: rememberDeleted(createRecentlyDeleted(), TOPIC, 'session') })
    expect(validateSessionTopic(TOPIC, deleted)).toMatchObject({
      shortMessage: 'Record was recently deleted',
      details: `session: ${TOPIC}`,
    })
    expect(validateSessionTopic(TOPIC, view())).toBeUndefined()
  })

  it('refuses a proposal id that is not a number, unknown or expired', () => {
    expect(message(validateProposalId('1', view()))).toBe(
      'Missing or invalid. A proposal id must be a number',
    )
    expect(message(validateProposalId(3, view()))).toBe("proposal id doesn't exist")
    expect(message(validateProposalId(2, view()))).toBe('proposal expired')
    expect(validateProposalId(1, view())).toBeUndefined()
  })
})

describe('connect', () => {
  const requested = { optionalNamespaces: { eip155: { chains: ['eip155:1'], methods: [], events: [] } } }

  it('needs an object', () => {
    expect(message(validateConnect('eip155:1', view()))).toBe(
      'Missing or invalid. connect() params must be an object',
    )
    expect(message(validateConnect(null, view()))).toBe(
      'Missing or invalid. connect() params must be an object',
    )
    expect(validateConnect(requested, view())).toBeUndefined()
  })

  it('needs a given pairing topic to exist and be unexpired', () => {
    expect(message(validateConnect({ ...requested, pairingTopic: 'unknown' }, view()))).toBe(
      "pairing topic doesn't exist",
    )
    expect(message(validateConnect({ ...requested, pairingTopic: 'old' }, view()))).toBe(
      'pairing topic expired',
    )
    expect(validateConnect({ ...requested, pairingTopic: 'p' }, view())).toBeUndefined()
  })

  it('needs chains written namespace:chainId, as the key or listed', () => {
    const chains = 'Unsupported chains. Chains must be written namespace:chainId'
    expect(
      message(
        validateConnect(
          { requiredNamespaces: { eip155: { chains: ['1'], methods: [], events: [] } } },
          view(),
        ),
      ),
    ).toBe(chains)
    expect(
      message(validateConnect({ optionalNamespaces: { eip155: { methods: [], events: [] } } }, view())),
    ).toBe(chains)
    expect(
      message(validateConnect({ optionalNamespaces: { 'eip155:1:x': { methods: [], events: [] } } }, view())),
    ).toBe(chains)
    expect(
      validateConnect({ optionalNamespaces: { 'eip155:1': { methods: [], events: [] } } }, view()),
    ).toBeUndefined()
    expect(
      validateConnect(
        { optionalNamespaces: { eip155: { chains: ['eip155:1'], methods: [1], events: [] } } },
        view(),
      ),
    ).toMatchObject({ name: 'InvalidMethodsError', code: 5101 })
  })

  it('needs property values that are not null', () => {
    expect(message(validateConnect({ ...requested, sessionProperties: { caip154: null } }, view()))).toBe(
      'Missing or invalid. Property values must not be null',
    )
    expect(message(validateConnect({ ...requested, scopedProperties: { eip155: undefined } }, view()))).toBe(
      'Missing or invalid. Property values must not be null',
    )
  })

  it('needs scoped properties to be a subset of the namespaces', () => {
    expect(message(validateConnect({ ...requested, scopedProperties: { solana: { a: 1 } } }, view()))).toBe(
      'Missing or invalid. Scoped properties must be a subset of the namespaces',
    )
    expect(
      validateConnect({ ...requested, scopedProperties: { 'eip155:1': { a: 1 } } }, view()),
    ).toBeUndefined()
  })

  it('applies the same rules to a proposal a wallet receives', () => {
    expect(
      message(
        validateProposal({ requiredNamespaces: { eip155: { chains: ['one'], methods: [], events: [] } } }),
      ),
    ).toBe('Unsupported chains. Chains must be written namespace:chainId')
    expect(
      validateProposal({ requiredNamespaces: {}, optionalNamespaces: requested.optionalNamespaces }),
    ).toBeUndefined()
  })
})

describe('approve', () => {
  const approved = { id: 1, namespaces }

  it('needs an existing, unexpired proposal', () => {
    expect(message(validateApprove({ ...approved, id: 9 }, view()))).toBe("proposal id doesn't exist")
    expect(message(validateApprove({ ...approved, id: 2 }, view()))).toBe('proposal expired')
    const deleted = view({ recentlyDeleted: rememberDeleted(createRecentlyDeleted(), 1, 'proposal') })
    expect(message(validateApprove(approved, deleted))).toBe('Record was recently deleted')
  })

  it('needs namespaces that satisfy the required ones', () => {
    const nonConforming = "Non conforming namespaces. The approved namespaces don't satisfy the required ones"
    const noMethod: Namespaces = { eip155: { accounts: [ACCOUNT], methods: [], events: ['chainChanged'] } }
    expect(message(validateApprove({ id: 1, namespaces: noMethod }, view()))).toBe(nonConforming)
    const otherChain: Namespaces = {
      eip155: {
        accounts: [`eip155:5:0x${'1'.repeat(40)}`],
        methods: ['personal_sign'],
        events: ['chainChanged'],
      },
    }
    expect(message(validateApprove({ id: 1, namespaces: otherChain }, view()))).toBe(nonConforming)
    expect(validateApprove(approved, view())).toBeUndefined()
  })

  it('needs well-formed namespaces and properties', () => {
    expect(message(validateApprove({ id: 1, namespaces: {} }, view()))).toBe(
      'Missing or invalid. Namespaces must be an object with data',
    )
    expect(
      message(
        validateApprove(
          { id: 1, namespaces: { eip155: { ...namespaces.eip155!, accounts: ['0xabc'] } } },
          view(),
        ),
      ),
    ).toBe('Unsupported accounts. Accounts must be written namespace:chainId:address')
    expect(message(validateApprove({ ...approved, sessionProperties: { a: null } }, view()))).toBe(
      'Missing or invalid. Property values must not be null',
    )
    expect(message(validateApprove({ ...approved, scopedProperties: { solana: 'x' } }, view()))).toBe(
      'Missing or invalid. Scoped properties must be a subset of the namespaces',
    )
  })
})

describe('reject', () => {
  it('needs a reason with a code and a message', () => {
    const needs = 'Missing or invalid. A rejection reason needs a code and a message'
    expect(message(validateReject({ id: 1 }, view()))).toBe(needs)
    expect(message(validateReject({ id: 1, reason: { message: 'no' } }, view()))).toBe(needs)
    expect(message(validateReject({ id: 1, reason: { code: 5000, message: '' } }, view()))).toBe(needs)
    expect(message(validateReject({ id: 9, reason: { code: 5000, message: 'no' } }, view()))).toBe(
      "proposal id doesn't exist",
    )
    expect(
      validateReject({ id: 1, reason: { code: 5000, message: 'User rejected.' } }, view()),
    ).toBeUndefined()
  })
})

describe('request', () => {
  const request = { topic: TOPIC, chainId: 'eip155:1', request: { method: 'personal_sign', params: [] } }

  it('needs a valid session', () => {
    expect(message(validateRequest({ ...request, topic: 'gone' }, view()))).toBe(
      "session topic doesn't exist",
    )
    const deleted = view({ recentlyDeleted: rememberDeleted(createRecentlyDeleted(), TOPIC, 'session') })
    expect(message(validateRequest(request, deleted))).toBe('Record was recently deleted')
  })

  it('needs an approved chainId', () => {
    expect(message(validateRequest({ ...request, chainId: 'eip155:5' }, view()))).toBe(
      'Unsupported chains. The chainId is not approved in the session',
    )
  })

  it("needs a method approved for the account's chain", () => {
    expect(message(validateRequest({ ...request, request: { method: 'eth_sendTransaction' } }, view()))).toBe(
      "Unauthorized method. The method is not approved for the account's chain",
    )
    expect(message(validateRequest({ ...request, request: {} }, view()))).toBe(
      'Missing or invalid. request() needs a method',
    )
  })

  it('needs a numeric expiry within the limits', () => {
    const limits = 'Missing or invalid. Request expiry must be a number of seconds from 300 to 604800'
    expect(message(validateRequest({ ...request, expiry: '600' }, view()))).toBe(limits)
    expect(message(validateRequest({ ...request, expiry: 299 }, view()))).toBe(limits)
    expect(message(validateRequest({ ...request, expiry: 604_801 }, view()))).toBe(limits)
    expect(validateRequest({ ...request, expiry: 300 }, view())).toBeUndefined()
    expect(validateRequest(request, view())).toBeUndefined()
  })

  it('holds a received request to the same rules, its expiry an absolute time', () => {
    expect(message(validateIncomingRequest({ ...request, expiry: 'soon' }, view()))).toBe(
      'Missing or invalid. Request expiry must be a number of seconds from 300 to 604800',
    )
    expect(message(validateIncomingRequest({ ...request, expiry: PAST }, view()))).toBe('request expired')
    expect(message(validateIncomingRequest({ ...request, expiry: NOW + 30 * 86_400_000 }, view()))).toBe(
      'Missing or invalid. Request expiry must be a number of seconds from 300 to 604800',
    )
    expect(
      message(validateIncomingRequest({ ...request, chainId: 'eip155:5', expiry: FUTURE }, view())),
    ).toBe('Unsupported chains. The chainId is not approved in the session')
    expect(validateIncomingRequest({ ...request, expiry: FUTURE }, view())).toBeUndefined()
  })
})

describe('respond', () => {
  const queue = { active: '7', known: new Set(['7', '8']), recentlyDeleted: createRecentlyDeleted() }

  it('answers the active request with a result or an error with code and message', () => {
    expect(message(validateRespond({ id: 8, response: { result: '0x' } }, queue))).toBe(
      'Missing or invalid. Only the active request can be answered',
    )
    expect(message(validateRespond({ id: 9, response: { result: '0x' } }, queue))).toBe(
      "request id doesn't exist",
    )
    expect(message(validateRespond({ id: 7, response: { error: { code: 4001 } } }, queue))).toBe(
      'Missing or invalid. respond() needs a result or an error with code and message',
    )
    const deleted = { ...queue, recentlyDeleted: rememberDeleted(createRecentlyDeleted(), 9, 'request') }
    expect(message(validateRespond({ id: 9, response: { result: 1 } }, deleted))).toBe(
      'Record was recently deleted',
    )
    expect(validateRespond({ id: 7, response: { result: '0x' } }, queue)).toBeUndefined()
  })
})

describe('emit', () => {
  it('needs an approved event on an approved chain', () => {
    const event = { topic: TOPIC, chainId: 'eip155:1', event: { name: 'chainChanged', data: 10 } }
    expect(message(validateEmit({ ...event, event: { name: 'balanceChanged', data: 1 } }, view()))).toBe(
      'Unauthorized event. The event is not approved in the session',
    )
    expect(message(validateEmit({ ...event, chainId: 'eip155:5' }, view()))).toBe(
      'Unsupported chains. The chainId is not approved in the session',
    )
    expect(validateEmit(event, view())).toBeUndefined()
  })
})

describe('authenticate', () => {
  const params = {
    chains: ['eip155:1'],
    uri: 'https://app.example/login',
    domain: 'app.example',
    nonce: 'n0nce',
  }

  it('needs non-empty chains, a uri, a domain and a nonce', () => {
    expect(message(validateAuthenticate({ ...params, chains: [] }))).toBe(
      'Missing or invalid. authenticate() chains must be a non-empty list',
    )
    expect(message(validateAuthenticate({ ...params, uri: '' }))).toBe(
      'Missing or invalid. authenticate() uri is required',
    )
    expect(message(validateAuthenticate({ ...params, domain: undefined }))).toBe(
      'Missing or invalid. authenticate() domain is required',
    )
    expect(message(validateAuthenticate({ ...params, nonce: ' ' }))).toBe(
      'Missing or invalid. authenticate() nonce is required',
    )
  })

  it('asks for one namespace, eip155', () => {
    expect(
      message(
        validateAuthenticate({ ...params, chains: ['eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'] }),
      ),
    ).toBe('Multi-namespace requests are not supported')
    expect(
      message(validateAuthenticate({ ...params, chains: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'] })),
    ).toBe('Only eip155 namespace is supported for authenticated sessions')
    expect(validateAuthenticate(params)).toBeUndefined()
  })

  it('answers only a pending auth request', () => {
    expect(message(validateAuthResponse(12, { '11': {} }))).toBe(
      'Could not find pending auth request with id 12',
    )
    expect(validateAuthResponse(11, { '11': {} })).toBeUndefined()
  })
})

describe('settle', () => {
  const settle = {
    relay: { protocol: 'irn' },
    controller: { publicKey: 'ab'.repeat(32) },
    namespaces,
    expiry: Math.floor(FUTURE / 1000),
  }
  const needs = "Missing or invalid. A settlement needs a relay, the controller's public key and namespaces"

  it('needs a relay, the controller public key and namespaces, unexpired', () => {
    expect(message(validateSettle({ ...settle, relay: undefined }, NOW))).toBe(needs)
    expect(message(validateSettle({ ...settle, controller: {} }, NOW))).toBe(needs)
    expect(message(validateSettle({ ...settle, namespaces: undefined }, NOW))).toBe(needs)
    expect(message(validateSettle({ ...settle, expiry: Math.floor(PAST / 1000) }, NOW))).toBe(
      'session settlement expired',
    )
    expect(validateSettle(settle, NOW)).toBeUndefined()
  })
})

describe('update', () => {
  it('discards an update older than the last one', () => {
    const last = 1_700_000_000_100_123
    expect(isUpdateInOrder(undefined, last)).toBe(true)
    expect(isUpdateInOrder(last, last + 1_000)).toBe(true)
    expect(isUpdateInOrder(last, last - 5_000)).toBe(false)
    expect(message(validateUpdate({ topic: TOPIC, id: last - 5_000, namespaces }, last, view()))).toBe(
      'Invalid update request. It is older than the last update',
    )
    expect(validateUpdate({ topic: TOPIC, id: last + 1_000, namespaces }, last, view())).toBeUndefined()
  })
})
