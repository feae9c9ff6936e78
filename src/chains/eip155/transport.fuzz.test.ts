import fc from 'fast-check'
import { BaseError, HttpRequestError, RpcRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { RPC_INTERNAL_ERROR_CODE } from '../../constants'
import { kitTransport } from './transport'

/**
 * Fuzzing the RPC transport's reading of answers (issue 13 item 4) with near-valid JSON-RPC answers: a valid
 * result or error answer to the request that was sent, with exactly one thing wrong (a member of the wrong type,
 * a member missing, an `error` beside the result, another id, a batch, prototype keys). The transport resolves
 * only for an answer that is a JSON-RPC 2.0 object with the request's id, a `result` member and no error, and
 * then with exactly that result; anything else rejects with an `RpcRequestError` (the answer's code when it is a
 * safe integer, else -32603) or, for an answer to another request, an `HttpRequestError`. Nothing else escapes.
 *
 * Mutation note (each check removed by hand, the suite run, the check restored):
 * - `if (!('result' in answer))` in `readAnswer` made `if (false)`: the suite failed (an answer whose `result`
 *   was removed resolved with undefined, the bug of issue 13 item 4).
 * - the id comparison `answer.id !== id && ...` in `readAnswer` made `false && ...`: the suite failed (a result
 *   answer with id null resolved).
 * - `Number.isSafeInteger(error.code) ? ... : RPC_INTERNAL_ERROR_CODE` replaced by `error.code as number`: the
 *   suite failed (an RpcRequestError whose code was an object).
 */

const RUNS = 10_000
type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

const ID = Symbol('the id of the request sent')
type Template = { [key: string]: Json | typeof ID }

const VALID_RESULT: Template = { jsonrpc: '2.0', id: ID, result: '0x1' }
const VALID_ERROR: Template = {
  jsonrpc: '2.0',
  id: ID,
  error: { code: -32000, message: 'execution reverted', data: '0x08c379a0' },
}

const wrongValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, '', '2.0 ', '1.0', '-32000', 'x', [], {}, [null]),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 16 }),
  fc.record({
    code: fc.oneof(fc.integer(), fc.string({ maxLength: 6 })),
    message: fc.string({ maxLength: 8 }),
  }),
)

type Mutation =
  | { kind: 'none' }
  | { kind: 'replace'; field: string; with: Json }
  | { kind: 'remove'; field: string }
  | { kind: 'errorMember'; field: string; with: Json }
  | { kind: 'removeErrorMember'; field: string }
  | { kind: 'addError'; with: Json }
  | { kind: 'otherId'; id: Json }
  | { kind: 'batch' }
  | { kind: 'protoKey'; key: string }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constant('replace' as const),
    field: fc.constantFrom('jsonrpc', 'id', 'result', 'error'),
    with: wrongValue,
  }),
  fc.record({
    kind: fc.constant('remove' as const),
    field: fc.constantFrom('jsonrpc', 'id', 'result', 'error'),
  }),
  fc.record({
    kind: fc.constant('errorMember' as const),
    field: fc.constantFrom('code', 'message', 'data'),
    with: wrongValue,
  }),
  fc.record({ kind: fc.constant('removeErrorMember' as const), field: fc.constantFrom('code', 'message') }),
  fc.record({ kind: fc.constant('addError' as const), with: wrongValue }),
  fc.record({
    kind: fc.constant('otherId' as const),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)),
  }),
  fc.constant({ kind: 'batch' as const }),
  fc.record({ kind: fc.constant('protoKey' as const), key: fc.constantFrom('__proto__', 'constructor') }),
)

/** The answer body to the request with id `id`: the template with the mutation applied. */
function answerFor(template: Template, m: Mutation, id: number): unknown {
  const base: Record<string, unknown> = Object.fromEntries(
    Object.entries(template).map(([key, value]) => [key, value === ID ? id : structuredClone(value)]),
  )
  switch (m.kind) {
    case 'none':
      return base
    case 'replace':
      return { ...base, [m.field]: m.with }
    case 'remove': {
      const { [m.field]: _removed, ...rest } = base
      return rest
    }
    case 'errorMember': {
      const error = (base.error ?? {}) as Record<string, unknown>
      return { ...base, error: { ...error, [m.field]: m.with } }
    }
    case 'removeErrorMember': {
      const { [m.field]: _removed, ...error } = (base.error ?? {}) as Record<string, unknown>
      return { ...base, error }
    }
    case 'addError':
      return { ...base, error: m.with }
    case 'otherId':
      // Another id than the one sent (never the same number).
      return { ...base, id: m.id === id ? id + 1 : m.id }
    case 'batch':
      return [base]
    case 'protoKey':
      return { ...base, [m.key]: { result: '0xbad', error: null } }
  }
}

const own = (value: object, key: string) => Object.hasOwn(value, key)

describe('JSON-RPC answers into the transport (fuzz, near-valid answers)', () => {
  it('resolves only with the result of a well-formed answer to the request sent; else an RPC or HTTP error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(VALID_RESULT, VALID_ERROR), mutation, async (template, m) => {
        let answered: unknown
        let sentId: number | undefined
        const transport = kitTransport({
          urls: ['https://rpc.fuzz.invalid/'],
          retryCount: 0,
          fetch: async (_input, init) => {
            sentId = (JSON.parse(String(init?.body)) as { id: number }).id
            answered = answerFor(template, m, sentId)
            return new Response(JSON.stringify(answered), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            })
          },
        })({})
        const outcome = await transport.request({ method: 'eth_chainId' }).then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        )
        // What JSON-RPC 2.0 says the answer is, written out independently of the transport's code.
        // As it arrived: through JSON (-0 is 0 there).
        const answer = JSON.parse(JSON.stringify(answered)) as Record<string, unknown>
        const isObject = answer !== null && typeof answer === 'object' && !Array.isArray(answer)
        const hasError = isObject && answer.error !== null && answer.error !== undefined
        const forThisRequest =
          isObject && answer.jsonrpc === '2.0' && (answer.id === sentId || (answer.id === null && hasError))
        const wellFormed = forThisRequest && !hasError && own(answer, 'result')
        if (wellFormed) expect(outcome).toEqual({ ok: true, value: answer.result })
        if (outcome.ok) {
          expect(wellFormed).toBe(true)
        } else {
          // viem wraps the transport's error in its typed RPC errors (InternalRpcError, ...): find it inside.
          expect(outcome.error).toBeInstanceOf(BaseError)
          const rpc = (outcome.error as BaseError).walk((e) => e instanceof RpcRequestError)
          const http = (outcome.error as BaseError).walk((e) => e instanceof HttpRequestError)
          if (rpc instanceof RpcRequestError) {
            expect(forThisRequest).toBe(true)
            const given = (answer.error as { code?: unknown } | null | undefined)?.code
            expect(rpc.code).toBe(Number.isSafeInteger(given) ? given : RPC_INTERNAL_ERROR_CODE)
          } else {
            expect(http).toBeInstanceOf(HttpRequestError)
            expect(forThisRequest).toBe(false)
          }
        }
        if (m.kind === 'none') {
          if (template === VALID_RESULT) expect(outcome).toEqual({ ok: true, value: '0x1' })
          else
            expect(
              (
                (outcome as { error: BaseError }).error.walk(
                  (e) => e instanceof RpcRequestError,
                ) as RpcRequestError
              ).code,
            ).toBe(-32000)
        }
        expect(Object.prototype).not.toHaveProperty('result')
      }),
      { numRuns: RUNS },
    )
  }, 60_000)
})
