import { describe, expect, it } from 'vitest'
import { HTTP_BODY_MAX_BYTES, HTTP_ERROR_BODY_MAX_BYTES } from '../constants'
import { DataApiError } from '../errors/api'
import { createDataApiClient } from './dataApi'
import { formatBytes, type RequestFailure, requestBody, requestJson } from './http'

/**
 * A body served in 16 KiB pieces, generated as they are pulled: `pulled` says how much of it was ever asked for,
 * `cancelled` whether the reader gave up on the rest.
 */
function meteredBody(totalBytes: number, piece: (offset: number, size: number) => Uint8Array) {
  const meter = { pulled: 0, cancelled: false }
  const chunk = 16 * 1024
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (meter.pulled >= totalBytes) {
        controller.close()
        return
      }
      const size = Math.min(chunk, totalBytes - meter.pulled)
      controller.enqueue(piece(meter.pulled, size))
      meter.pulled += size
    },
    cancel() {
      meter.cancelled = true
    },
  })
  return { stream, meter }
}

const spaces = (_offset: number, size: number) => new Uint8Array(size).fill(0x20)

/** `"` then `a` forever: a JSON string that never ends within the body. */
const endlessString = (offset: number, size: number) => {
  const bytes = new Uint8Array(size).fill(0x61)
  if (offset === 0) bytes[0] = 0x22
  return bytes
}

const fakeFetch =
  (response: () => Response): typeof fetch =>
  async () =>
    response()

class TestFailure extends Error {
  constructor(readonly failure: RequestFailure) {
    super(failure.details)
  }
}
const fail = (failure: RequestFailure) => new TestFailure(failure)

const url = new URL('https://api.example/v1/thing')

async function failureOf(promise: Promise<unknown>): Promise<RequestFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(TestFailure)
  return (error as TestFailure).failure
}

describe('requestJson: the byte limit', () => {
  it('default: a body over 1 MiB fails as tooLarge, and the read stops at the limit', async () => {
    const { stream, meter } = meteredBody(10 * 1024 * 1024, endlessString)
    const failure = await failureOf(
      requestJson(
        url,
        { timeoutMs: 5_000, label: 'The API', fetch: fakeFetch(() => new Response(stream)) },
        fail,
      ),
    )
    expect(failure).toMatchObject({
      kind: 'tooLarge',
      status: 200,
      details: 'The API answered more than 1 MiB, the most the kit reads',
    })
    expect(HTTP_BODY_MAX_BYTES).toBe(1024 * 1024)
    // The rest of the 10 MiB was never downloaded: at most one piece of read-ahead past the limit.
    expect(meter.pulled).toBeLessThanOrEqual(HTTP_BODY_MAX_BYTES + 2 * 16 * 1024)
    expect(meter.cancelled).toBe(true)
  })

  it("parameters: maxBytes sets the caller's own limit; a body at the limit is read whole", async () => {
    const body = JSON.stringify({ ok: true, pad: 'x'.repeat(100) })
    const call = (maxBytes: number) =>
      requestJson(
        url,
        { timeoutMs: 5_000, label: 'The API', maxBytes, fetch: fakeFetch(() => new Response(body)) },
        fail,
      )
    await expect(call(body.length)).resolves.toEqual({ ok: true, pad: 'x'.repeat(100) })
    const failure = await failureOf(call(body.length - 1))
    expect(failure.kind).toBe('tooLarge')
    expect(failure.details).toBe(
      `The API answered more than ${body.length - 1} bytes, the most the kit reads`,
    )
  })

  it('behavior: an error answer is read only far enough for its message', async () => {
    const { stream, meter } = meteredBody(10 * 1024 * 1024, spaces)
    const failure = await failureOf(
      requestJson(
        url,
        {
          timeoutMs: 5_000,
          label: 'The API',
          fetch: fakeFetch(() => new Response(stream, { status: 500 })),
        },
        fail,
      ),
    )
    expect(failure).toMatchObject({ kind: 'http', status: 500, details: 'HTTP 500' })
    expect(meter.pulled).toBeLessThanOrEqual(HTTP_ERROR_BODY_MAX_BYTES + 2 * 16 * 1024)
    expect(meter.cancelled).toBe(true)
  })

  it('behavior: the Data API client gets the default limit too (DataApiError of kind tooLarge)', async () => {
    const { stream } = meteredBody(4 * 1024 * 1024, endlessString)
    const client = createDataApiClient({
      api: 'https://api.example',
      projectId: 'p',
      fetch: fakeFetch(() => new Response(stream)),
    })
    const error = await client.getSupportedChains().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DataApiError)
    expect((error as DataApiError).kind).toBe('tooLarge')
    expect((error as DataApiError).details).toContain('more than 1 MiB')
  })
})

describe('requestBody', () => {
  it('behavior: a sink that says stop ends the read and cancels the rest', async () => {
    const { stream, meter } = meteredBody(10 * 1024 * 1024, spaces)
    let seen = 0
    await requestBody(
      url,
      { timeoutMs: 5_000, label: 'The API', fetch: fakeFetch(() => new Response(stream)) },
      fail,
      (chunk) => {
        seen += chunk.byteLength
        return seen >= 40 * 1024 ? 'stop' : undefined
      },
    )
    expect(seen).toBeLessThan(80 * 1024)
    expect(meter.pulled).toBeLessThan(120 * 1024)
    expect(meter.cancelled).toBe(true)
  })
})

describe('formatBytes', () => {
  it('names whole MiB and KiB, else bytes', () => {
    expect([formatBytes(1024 * 1024), formatBytes(16 * 1024), formatBytes(1500)]).toEqual([
      '1 MiB',
      '16 KiB',
      '1500 bytes',
    ])
  })
})
