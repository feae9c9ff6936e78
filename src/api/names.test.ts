import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type Asked,
  type ScriptedAnswer,
  type ScriptedServer,
  startScriptedServer,
} from '../../test/support/scriptedServer'
import { NameLabelError, NameRegistrationError, NameSuggestionsError } from '../errors/names'
import { createNamesClient, NAME_SUGGESTIONS_MAX } from './names'

/**
 * The names client at its boundary: a local HTTP server (port 0) answers what each test says, hostile answers
 * included, and records what the client asked.
 */

type Handler = (asked: Asked) => ScriptedAnswer

let server: ScriptedServer
let base: string
let handler: Handler
const asked: Asked[] = []

beforeAll(async () => {
  server = await startScriptedServer((entry) => handler(entry), asked)
  base = server.base
})

afterAll(() => server.close())

beforeEach(() => {
  asked.length = 0
  handler = () => ({ status: 404, body: { error: 'not found' } })
})

const client = () => createNamesClient({ api: base, projectId: 'p1' })

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the call to fail')
}

const FREE = [
  { name: 'alice.reown.id', registered: false },
  { name: 'alice1.reown.id', registered: false },
  { name: 'alice-wallet.reown.id', registered: false },
]

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const MESSAGE = `app.example.com asks you to register the name alice.reown.id for the account ${ADDRESS} on chain 31337 at 2023-11-14T22:13:20Z.`
const REQUEST = {
  address: ADDRESS,
  coinType: 2147514985,
  message: MESSAGE,
  signature: `0x${'ab'.repeat(65)}`,
} as const
const RECORD = {
  name: 'alice.reown.id',
  registered: 1_700_000_000_000,
  updated: 1_700_000_000_000,
  addresses: { '2147514985': { address: ADDRESS, created: 1_700_000_000_000 } },
  attributes: {},
}

describe('names client: suggestions', () => {
  it('asks for the label normalised in the zone, with the SDK parameters', async () => {
    handler = () => ({ body: { suggestions: FREE } })
    expect(await client().suggestions(' Alice.Reown.ID ')).toEqual(FREE)
    expect(asked).toEqual([
      {
        method: 'GET',
        path: '/api/v1/profile/suggestions/alice',
        query: { projectId: 'p1', st: 'walletstate', sv: expect.any(String), zone: 'reown.id' },
        body: undefined,
      },
    ])
  })

  it('keeps the name’s own entry first, drops entries that are not registrable names, duplicates, the excess', async () => {
    handler = () => ({
      body: {
        suggestions: [
          { name: 'alice1.reown.id', registered: false },
          { name: 'ALICE.reown.id', registered: true },
          { name: 'al.reown.id', registered: false },
          { name: 'alice.wcn.id', registered: false },
          { name: '<img src=x>.reown.id', registered: false },
          { name: 'alice2.reown.id', registered: 'no' },
          { name: 'alice1.reown.id', registered: true },
          'alice3.reown.id',
          null,
          ...Array.from({ length: 20 }, (_, i) => ({ name: `alice-${i}.reown.id`, registered: false })),
        ],
      },
    })
    const suggestions = await client().suggestions('alice')
    expect(suggestions.slice(0, 3)).toEqual([
      { name: 'alice.reown.id', registered: true },
      { name: 'alice1.reown.id', registered: false },
      { name: 'alice-0.reown.id', registered: false },
    ])
    expect(suggestions).toHaveLength(NAME_SUGGESTIONS_MAX)
  })

  it('refuses a name that cannot be registered before any request', async () => {
    for (const value of ['ali', 'al ice', 'alice.wcn.id', '', 'alice/../x']) {
      const error = await failure(client().suggestions(value))
      expect(error).toBeInstanceOf(NameSuggestionsError)
      expect((error as NameSuggestionsError).shortMessage).toBe('Error fetching name suggestions')
    }
    expect(asked).toEqual([])
  })

  // The LDH rules (src/utils/names.ts nameLabelRuleOf): a homograph's punycode, hyphens first, last, or 3rd-4th.
  it.each([
    ['xn--80ak6aa92e', 'punycode'],
    ['-alice-', 'hyphenEdge'],
    ['alice-', 'hyphenEdge'],
    ['al--ice', 'hyphen34'],
  ])('refuses %s (%s) before any request, the LDH rule as the cause', async (value, rule) => {
    const error = await failure(client().suggestions(value))
    expect(error).toBeInstanceOf(NameSuggestionsError)
    expect(error.cause).toBeInstanceOf(NameLabelError)
    expect((error.cause as NameLabelError).rule).toBe(rule)
    expect(asked).toEqual([])
  })

  it.each([
    ['not JSON', { raw: '<html>' }],
    ['not an object', { body: [FREE] }],
    ['no list', { body: { suggestions: 'alice.reown.id' } }],
    ['too long a list', { body: { suggestions: Array.from({ length: 101 }, () => FREE[1]) } }],
    ['without the name asked for', { body: { suggestions: FREE.slice(1) } }],
  ])('fails on a malformed answer (%s) with the SPEC text', async (_, answer) => {
    handler = () => answer
    const error = await failure(client().suggestions('alice'))
    expect(error).toBeInstanceOf(NameSuggestionsError)
    expect((error as NameSuggestionsError).shortMessage).toBe('Error fetching name suggestions')
  })

  it('fails on a 400 with what the API said in the details', async () => {
    handler = () => ({ status: 400, body: { error: 'Invalid name' } })
    const error = (await failure(client().suggestions('alice'))) as NameSuggestionsError
    expect(error).toBeInstanceOf(NameSuggestionsError)
    expect(error.status).toBe(400)
    expect(error.details).toBe('HTTP 400: Invalid name')
    expect(error.message).toMatchInlineSnapshot(`
      "Error fetching name suggestions

      Details: HTTP 400: Invalid name"
    `)
  })

  it('fails on a network failure', async () => {
    const closed = createNamesClient({ api: 'http://127.0.0.1:1/api', projectId: 'p1' })
    const error = (await failure(closed.suggestions('alice'))) as NameSuggestionsError
    expect(error).toBeInstanceOf(NameSuggestionsError)
    expect(error.details).toMatch(/^Network error/)
  })
})

describe('names client: registration', () => {
  it('posts the signed message and reads the record', async () => {
    handler = () => ({ status: 201, body: RECORD })
    expect(await client().register(REQUEST)).toEqual({
      name: 'alice.reown.id',
      registered: 1_700_000_000_000,
    })
    expect(asked).toEqual([
      {
        method: 'POST',
        path: '/api/v1/profile/account',
        query: { projectId: 'p1', st: 'walletstate', sv: expect.any(String) },
        body: {
          coin_type: 2147514985,
          address: ADDRESS,
          message: MESSAGE,
          signature: REQUEST.signature,
        },
      },
    ])
  })

  // Nothing is posted for a message the kit did not build for this request (src/api/names.ts registrationProblem).
  it.each([
    [
      'the old JSON text, which names no app, account or chain',
      '{"name":"alice.reown.id","attributes":{},"timestamp":1700000000}',
      'The message is not a registration message',
    ],
    [
      'another account',
      MESSAGE.replace(ADDRESS, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'),
      'The message names another account',
    ],
    [
      'another chain than the coin type',
      MESSAGE.replace('chain 31337', 'chain 1'),
      'The message names another chain than the coin type',
    ],
    [
      'a punycode name',
      MESSAGE.replace('alice.reown.id', 'xn--80ak6aa92e.reown.id'),
      'Not a name the kit registers',
    ],
    [
      'a name with hyphens in the 3rd and 4th positions',
      MESSAGE.replace('alice.reown.id', 'al--ice.reown.id'),
      'Not a name the kit registers',
    ],
  ])('refuses %s before any request', async (_, message, details) => {
    const error = (await failure(client().register({ ...REQUEST, message }))) as NameRegistrationError
    expect(error).toBeInstanceOf(NameRegistrationError)
    expect(error.details).toBe(details)
    expect(asked).toEqual([])
  })

  it('names the LDH rule a refused name breaks', async () => {
    const message = MESSAGE.replace('alice.reown.id', '-alice-.reown.id')
    const error = (await failure(client().register({ ...REQUEST, message }))) as NameRegistrationError
    expect(error.cause).toBeInstanceOf(NameLabelError)
    expect((error.cause as NameLabelError).rule).toBe('hyphenEdge')
    expect((error.cause as NameLabelError).shortMessage).toBe('Start and end the name with a letter or digit')
  })

  it.each([
    [409, 'Name is already registered'],
    [400, 'Message expired'],
    [401, 'Invalid signature'],
    [500, 'boom'],
  ])('fails on a %i with the SPEC text and the API’s reason', async (status, reason) => {
    handler = () => ({ status, body: { error: reason } })
    const error = (await failure(client().register(REQUEST))) as NameRegistrationError
    expect(error).toBeInstanceOf(NameRegistrationError)
    expect(error.shortMessage).toBe('Error registering name alice.reown.id')
    expect(error.fullName).toBe('alice.reown.id')
    expect(error.status).toBe(status)
    expect(error.details).toBe(`HTTP ${status}: ${reason}`)
  })

  it.each([
    ['not JSON', { status: 201, raw: 'created' }],
    ['no name', { status: 201, body: { ...RECORD, name: undefined } }],
    ['another name', { status: 201, body: { ...RECORD, name: 'bob.reown.id' } }],
    ['a name that is not text', { status: 201, body: { ...RECORD, name: 42 } }],
  ])('fails on a malformed answer (%s)', async (_, answer) => {
    handler = () => answer
    const error = (await failure(client().register(REQUEST))) as NameRegistrationError
    expect(error).toBeInstanceOf(NameRegistrationError)
    expect(error.shortMessage).toBe('Error registering name alice.reown.id')
  })

  it('fails on a network failure', async () => {
    const closed = createNamesClient({ api: 'http://127.0.0.1:1/api', projectId: 'p1' })
    const error = (await failure(closed.register(REQUEST))) as NameRegistrationError
    expect(error).toBeInstanceOf(NameRegistrationError)
    expect(error.shortMessage).toBe('Error registering name alice.reown.id')
    expect(error.details).toMatch(/^Network error/)
  })
})
