import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FrameCommand, FrameReply } from '../../../src/frame/protocol.ts'
import { createFrameHandler, type FrameCommands, REMEMBERED_IDS, type ReceivedMessage } from './handler.ts'

/**
 * Fuzzing that can fail (issue 13 item 12, "the frame page's own handler"): every case starts from a VALID
 * request of the app (the embedding page) for one of the frame's commands, then changes exactly one thing (the
 * origin, the source window, the id, the type, the envelope, one payload field) or nothing. Nothing may throw
 * out of the handler. A changed message never reaches a command and leaves the handler's state (the ids taken,
 * the requests dispatched) as it was: it is dropped unanswered, or answered with one error (-32601 for an
 * unknown command, -32602 for a bad payload), and the genuine request is still taken right after. The unchanged
 * message reaches its command exactly once, with its payload, and is answered once. 10,000 cases.
 *
 * It found three holes, closed in handler.ts: a request with a key besides id, type and payload (`__proto__`
 * among them) was taken, the key stripped; a request reusing the id of one already taken ran its command again;
 * a payload with a key its command does not know (or a record key valibot skips, such as `__proto__` in the theme
 * variables), or an array where the payload object belongs (valibot's `object` takes arrays), reached the
 * command instead of being answered -32602.
 *
 * Mutation note (each done by hand in sandbox/secure-site/frame/handler.ts, suite run, change undone):
 * - origin check removed (`event.origin !== parentOrigin`): an 'origin' case (from https://app.example.evil)
 *   reached syncTheme; the property failed after 26 cases (a command call where none was expected).
 * - source check removed (`event.source !== parent`): a 'source' case (another window) reached getChainId;
 *   failed after 3 cases.
 * - shape check removed (the envelope taken as sent, no EnvelopeSchema): a 'malformed id' case (id `''`) was
 *   answered with a reply for id `''` where none was expected; failed after 2 cases. Separately: the payload
 *   schema skipped (payload passed as sent): a 'payload field huge' case reached getSocialRedirectUri; the
 *   dropped-key check on the payload removed: a 'payload key' case (`extra`) reached connectSocial; the one on
 *   the envelope removed: an 'envelope key' case reached getFarcasterUri. Each failed within 8 cases.
 * - id check removed (`taken.has(id)`): a 'reused id' case ran connectEmail a second time (two calls, one
 *   expected); failed after 14 cases.
 */

const APP = 'https://app.example'
const RUNS = 10_000

const ORIGINS = [
  'https://app.example.evil',
  'http://app.example',
  'https://app.example:444',
  'https://evil.example',
  'HTTPS://APP.EXAMPLE',
  'https://app.example/',
  'null',
  '*',
  '',
]
/** Ids the protocol allows, prototype names among them: they must work like any other. */
const ODD_VALID_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '-', '_']
const BAD_IDS: unknown[] = [
  '',
  ' ',
  'r 1',
  'r1\n',
  'r.1',
  'r/1',
  'é',
  'x'.repeat(65),
  'x'.repeat(100_000),
  7,
  0,
  null,
  true,
  {},
  ['r1'],
]
const BAD_TYPES: unknown[] = [7, null, true, {}, ['getUser'], '', 'x'.repeat(65), 'x'.repeat(100_000)]
const UNKNOWN_COMMANDS = [
  'connectemail',
  'ConnectEmail',
  'rpcRequest ',
  ' getUser',
  'toString',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'valueOf',
  'frame.reply',
  'frame.ready',
  'x'.repeat(64),
]
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']
const EXTRA_KEYS = ['extra', 'payloads', 'ID', ...PROTOTYPE_KEYS]
/** Of the wrong type for every payload field (none takes a boolean, null, a non-integer or non-positive number). */
const WRONG_VALUES: unknown[] = [true, false, null, -1, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY]
const NOT_OBJECTS: unknown[] = ['{}', 7, true, [], ['x']]

/** A string this many characters long is over every field's limit. */
const HUGE = [4097, 10_000, 100_000]

const chainIdArb = fc.oneof(
  fc.integer({ min: 1, max: 2 ** 40 }),
  fc.constantFrom('eip155:1', 'eip155:31337', '31337', '0x7a69'),
)
const emailArb = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/), fc.stringMatching(/^[a-z]{1,12}$/))
  .map(([user, domain]) => `${user}@${domain}.example`)
const otpArb = fc.stringMatching(/^\d{6}$/)
const textArb = (max: number) => fc.string({ maxLength: Math.min(max, 40) })
const none = fc.constant({})

interface CommandSpec {
  payload: fc.Arbitrary<Record<string, unknown>>
  /** Fields the command cannot do without. */
  required: string[]
  /** Every field the command knows. */
  fields: string[]
}

const SPECS: Record<FrameCommand, CommandSpec> = {
  switchNetwork: { payload: fc.record({ chainId: chainIdArb }), required: ['chainId'], fields: ['chainId'] },
  connectEmail: { payload: fc.record({ email: emailArb }), required: ['email'], fields: ['email'] },
  connectDevice: { payload: none, required: [], fields: [] },
  connectOtp: { payload: fc.record({ otp: otpArb }), required: ['otp'], fields: ['otp'] },
  getSocialRedirectUri: {
    payload: fc.record({
      provider: fc.constantFrom('google', 'github', 'apple', 'facebook', 'x', 'discord'),
    }),
    required: ['provider'],
    fields: ['provider'],
  },
  connectSocial: { payload: fc.record({ uri: fc.webUrl() }), required: ['uri'], fields: ['uri'] },
  getFarcasterUri: { payload: none, required: [], fields: [] },
  connectFarcaster: { payload: none, required: [], fields: [] },
  getUser: {
    payload: fc.record({ chainId: chainIdArb }, { requiredKeys: [] }),
    required: [],
    fields: ['chainId'],
  },
  signOut: { payload: none, required: [], fields: [] },
  isConnected: { payload: none, required: [], fields: [] },
  getChainId: { payload: none, required: [], fields: [] },
  initSmartAccount: { payload: none, required: [], fields: [] },
  setPreferredAccount: {
    payload: fc.record({ type: fc.constantFrom('eoa', 'smartAccount') }),
    required: ['type'],
    fields: ['type'],
  },
  rpcRequest: {
    payload: fc.record(
      {
        method: fc.constantFrom(
          'personal_sign',
          'eth_sendTransaction',
          'eth_call',
          'eth_chainId',
          'eth_sign',
        ),
        params: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
        chainId: chainIdArb,
      },
      { requiredKeys: ['method'] },
    ),
    required: ['method'],
    fields: ['method', 'params', 'chainId'],
  },
  updateEmail: { payload: fc.record({ email: emailArb }), required: ['email'], fields: ['email'] },
  updateEmailPrimaryOtp: { payload: fc.record({ otp: otpArb }), required: ['otp'], fields: ['otp'] },
  updateEmailSecondaryOtp: { payload: fc.record({ otp: otpArb }), required: ['otp'], fields: ['otp'] },
  syncTheme: {
    payload: fc.record(
      {
        themeMode: fc.constantFrom('dark', 'light'),
        themeVariables: fc.dictionary(fc.stringMatching(/^--w3m-[a-z-]{1,12}$/), textArb(200), {
          maxKeys: 3,
        }),
      },
      { requiredKeys: ['themeMode'] },
    ),
    required: ['themeMode'],
    fields: ['themeMode', 'themeVariables'],
  },
  syncDappData: {
    payload: fc.record(
      {
        projectId: textArb(200),
        sdkVersion: textArb(50),
        metadata: fc.record({
          name: textArb(200),
          description: textArb(1000),
          url: fc.webUrl(),
          icons: fc.array(fc.webUrl(), { maxLength: 2 }),
        }),
      },
      { requiredKeys: ['projectId', 'sdkVersion'] },
    ),
    required: ['projectId', 'sdkVersion'],
    fields: ['projectId', 'sdkVersion', 'metadata'],
  },
  reload: { payload: none, required: [], fields: [] },
  rejectRpcRequests: { payload: none, required: [], fields: [] },
}
const COMMANDS = Object.keys(SPECS) as FrameCommand[]
const FIELDLESS = COMMANDS.filter((type) => SPECS[type].fields.length === 0)

interface Request {
  id: string
  type: FrameCommand
  /** As sent; `undefined`: no payload key at all (the commands without fields only). */
  payload: Record<string, unknown> | undefined
}

const requestArb: fc.Arbitrary<Request> = fc
  .tuple(
    fc.constantFrom(...COMMANDS),
    fc.oneof(fc.stringMatching(/^[\w-]{1,64}$/), fc.constantFrom(...ODD_VALID_IDS)),
    fc.boolean(),
  )
  .chain(([type, id, omitPayload]) =>
    SPECS[type].payload.map((payload) => ({
      id,
      type,
      // As posted: a structured clone (fast-check's records may have no prototype; a posted object has one).
      payload: omitPayload && SPECS[type].fields.length === 0 ? undefined : structuredClone(payload),
    })),
  )

/** What the handler must do with a case's message. */
type Outcome = 'take' | 'drop' | -32601 | -32602

interface Case {
  mutation: string
  request: Request
  event: ReceivedMessage
  outcome: Outcome
  /** Sent (and taken) before the case's message. */
  earlier?: ReceivedMessage
}

/** A copy of `record` with one more own key, `__proto__` included (as a posted message's copy has it). */
function withKey(record: object, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...record }
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true })
  return copy
}

function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = record
  return rest
}

const PARENT = { postMessage: () => {} }
const OTHER_WINDOWS: unknown[] = [{ postMessage: () => {} }, {}, null, undefined, globalThis]

function envelope(request: Request): Record<string, unknown> {
  const data: Record<string, unknown> = { id: request.id, type: request.type }
  if (request.payload !== undefined) data.payload = request.payload
  return data
}

/** A message from the app, as the frame receives it: a structured clone of what was posted. */
const sent = (data: unknown): ReceivedMessage => ({
  origin: APP,
  source: PARENT,
  data: structuredClone(data),
})

/** The near-valid messages one valid request gives: each differs from it in exactly one place. */
function casesFor(request: Request): fc.Arbitrary<Case> {
  const valid = envelope(request)
  const spec = SPECS[request.type]
  const payload = request.payload ?? {}
  const of = (mutation: string, outcome: Outcome, arb: fc.Arbitrary<unknown>) =>
    arb.map((data): Case => ({ mutation, request, event: sent(data), outcome }))
  const options: fc.Arbitrary<Case>[] = [
    fc.constant({ mutation: 'none', request, event: sent(valid), outcome: 'take' }),
    fc.constantFrom(...ORIGINS).map((origin) => ({
      mutation: 'origin',
      request,
      event: { ...sent(valid), origin },
      outcome: 'drop' as const,
    })),
    fc.constantFrom(...OTHER_WINDOWS).map((source) => ({
      mutation: 'source',
      request,
      event: { ...sent(valid), source },
      outcome: 'drop' as const,
    })),
    of(
      'malformed id',
      'drop',
      fc.constantFrom(...BAD_IDS).map((id) => ({ ...valid, id })),
    ),
    of('no id', 'drop', fc.constant(without(valid, 'id'))),
    // The same message again, or another command's with the same id.
    fc.option(fc.constantFrom(...FIELDLESS), { nil: undefined }).map(
      (other): Case => ({
        mutation: 'reused id',
        request,
        earlier: sent(other === undefined ? valid : { id: request.id, type: other, payload: {} }),
        event: sent(valid),
        outcome: 'drop',
      }),
    ),
    of(
      'type not a command name',
      'drop',
      fc.constantFrom(...BAD_TYPES).map((type) => ({ ...valid, type })),
    ),
    of('no type', 'drop', fc.constant(without(valid, 'type'))),
    of(
      'envelope key',
      'drop',
      fc
        .tuple(fc.constantFrom(...EXTRA_KEYS), fc.jsonValue({ maxDepth: 1 }))
        .map(([key, value]) => withKey(valid, key, value)),
    ),
    of('not an object', 'drop', fc.constantFrom(JSON.stringify(valid), null, 7, [valid], 'getUser')),
    of(
      'unknown command',
      -32601,
      fc.constantFrom(...UNKNOWN_COMMANDS).map((type) => ({ ...valid, type })),
    ),
    of(
      'payload key',
      -32602,
      fc
        .tuple(fc.constantFrom(...EXTRA_KEYS), fc.constantFrom<unknown>('x', { polluted: true }, 1, null))
        .map(([key, value]) => ({ ...valid, payload: withKey(payload, key, value) })),
    ),
    of(
      'payload not an object',
      -32602,
      fc.constantFrom(...NOT_OBJECTS).map((notObject) => ({ ...valid, payload: notObject })),
    ),
  ]
  if (spec.required.length > 0) {
    options.push(
      of(
        'payload field missing',
        -32602,
        fc.constantFrom(...spec.required).map((field) => ({ ...valid, payload: without(payload, field) })),
      ),
    )
  }
  if (spec.fields.length > 0) {
    options.push(
      of(
        'payload field wrong type',
        -32602,
        fc
          .tuple(fc.constantFrom(...spec.fields), fc.constantFrom(...WRONG_VALUES))
          .map(([field, value]) => ({ ...valid, payload: { ...payload, [field]: value } })),
      ),
      of(
        'payload field huge',
        -32602,
        fc
          .tuple(fc.constantFrom(...spec.fields.filter((f) => f !== 'params')), fc.constantFrom(...HUGE))
          .map(([field, length]) => ({ ...valid, payload: { ...payload, [field]: 'x'.repeat(length) } })),
      ),
    )
  }
  // Inside a nested object of the payload: the app metadata gets a key it does not have; the theme variables
  // (a record: any name is a variable, `toString` too) one the record refuses to hold.
  const nested = (['themeVariables', 'metadata'] as const).find(
    (field) => typeof payload[field] === 'object' && payload[field] !== null,
  )
  if (nested) {
    const keys =
      nested === 'metadata' ? [...PROTOTYPE_KEYS, 'extra'] : ['__proto__', 'constructor', 'prototype']
    options.push(
      of(
        'nested payload key',
        -32602,
        fc.constantFrom(...keys).map((key) => ({
          ...valid,
          payload: { ...payload, [nested]: withKey(payload[nested] as object, key, 'x') },
        })),
      ),
    )
  }
  return fc.oneof(...options)
}

/** A handler with recording commands; each command answers its own name. */
function setup() {
  const calls: { type: FrameCommand; payload: unknown; id: string }[] = []
  const replies: FrameReply[] = []
  const commands = Object.fromEntries(
    COMMANDS.map((type) => [
      type,
      (payload: unknown, id: string) => {
        calls.push({ type, payload, id })
        return Promise.resolve({ answered: type })
      },
    ]),
  ) as unknown as FrameCommands
  const handler = createFrameHandler({
    parentOrigin: APP,
    parent: PARENT,
    reply: (message) => replies.push(message),
    commands,
  })
  return { handler, calls, replies }
}

/** Every reply the handler will post for what it has received so far is posted (the commands answer at once). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve))

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort()

describe('fuzz: requests into the login frame page', () => {
  it(`${RUNS} near-valid requests: nothing throws; a changed one never reaches a command and changes nothing; a valid one is taken once`, async () => {
    await fc.assert(
      fc.asyncProperty(requestArb.chain(casesFor), async (c) => {
        const { handler, calls, replies } = setup()
        if (c.earlier) {
          handler(c.earlier)
          await settled()
          expect(calls).toHaveLength(1)
        }
        const ids = handler.ids()
        const dispatched = handler.stats.dispatched
        const callCount = calls.length
        const replyCount = replies.length
        expect(() => handler(c.event)).not.toThrow()
        await settled()
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames)
        const newReplies = replies.slice(replyCount)
        if (c.outcome === 'take') {
          expect(calls.slice(callCount)).toEqual([
            { type: c.request.type, payload: c.request.payload ?? {}, id: c.request.id },
          ])
          expect(newReplies).toEqual([
            {
              id: c.request.id,
              type: 'frame.reply',
              payload: { ok: true, result: { answered: c.request.type } },
            },
          ])
          expect(handler.ids()).toEqual([...ids, c.request.id])
          expect(handler.stats.dispatched).toBe(dispatched + 1)
          return
        }
        expect(calls).toHaveLength(callCount)
        expect(handler.ids()).toEqual(ids)
        expect(handler.stats.dispatched).toBe(dispatched)
        if (c.outcome === 'drop') {
          expect(newReplies).toEqual([])
        } else {
          expect(newReplies).toHaveLength(1)
          expect(newReplies[0]).toMatchObject({
            id: c.request.id,
            type: 'frame.reply',
            payload: { ok: false, error: { code: c.outcome } },
          })
        }
        if (c.earlier) return
        // Nothing was taken: the genuine request is, now.
        handler(sent(envelope(c.request)))
        await settled()
        expect(calls.slice(callCount)).toEqual([
          { type: c.request.type, payload: c.request.payload ?? {}, id: c.request.id },
        ])
      }),
      { numRuns: RUNS },
    )
  })

  it(`remembers every id in flight and the last ${REMEMBERED_IDS} answered ones`, async () => {
    const { handler, calls, replies } = setup()
    for (let n = 0; n <= REMEMBERED_IDS; n++) handler(sent({ id: `a${n}`, type: 'isConnected' }))
    await settled()
    expect(replies).toHaveLength(REMEMBERED_IDS + 1)
    // The oldest answered id is forgotten, the others are not.
    expect(handler.ids()).toHaveLength(REMEMBERED_IDS)
    expect(handler.ids()[0]).toBe('a1')
    handler(sent({ id: 'a1', type: 'isConnected' }))
    handler(sent({ id: 'a0', type: 'isConnected' }))
    await settled()
    expect(calls.slice(REMEMBERED_IDS + 1).map((call) => call.id)).toEqual(['a0'])
    // One still in flight is never forgotten, however many are answered meanwhile.
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const busy = createFrameHandler({
      parentOrigin: APP,
      parent: PARENT,
      reply: () => {},
      commands: { getChainId: () => held, isConnected: async () => undefined } as unknown as FrameCommands,
    })
    busy(sent({ id: 'held', type: 'getChainId' }))
    for (let n = 0; n <= REMEMBERED_IDS; n++) busy(sent({ id: `b${n}`, type: 'isConnected' }))
    await settled()
    expect(busy.ids()).toHaveLength(REMEMBERED_IDS)
    expect(busy.ids()[0]).toBe('held')
    expect(busy.ids()).not.toContain('b0')
    busy(sent({ id: 'held', type: 'getChainId' }))
    expect(busy.stats.dispatched).toBe(REMEMBERED_IDS + 2)
    expect(busy.stats.dropped.reusedId).toBe(1)
    release()
  })
})
