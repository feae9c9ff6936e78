import { describe, expect, it } from 'vitest'
import { BundlerAnswerError, UnknownCallsIdError } from '../../errors/calls'
import { bundlerCallsStatus, bundlerUrlFor, userOperationStatusOf } from './bundler'
import { callsStatusOf } from './calls'

const OP = `0x${'ab'.repeat(32)}` as const
const TX = `0x${'cd'.repeat(32)}` as const
const BLOCK = `0x${'ef'.repeat(32)}` as const
const SENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const receiptOf = (success: boolean, userOpHash: string = OP) => ({
  userOpHash,
  entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  sender: SENDER,
  nonce: '0x0',
  actualGasCost: '0x1',
  actualGasUsed: '0x1',
  success,
  logs: [{ address: SENDER, data: '0x', topics: [OP] }],
  receipt: { transactionHash: TX, blockHash: BLOCK, blockNumber: '0x10', gasUsed: '0x5208', status: '0x1' },
})

describe('the bundler URL (SPEC §7: POST with projectId, chainId, bundler)', () => {
  it('is {bundler}/v1/bundler with the chain as CAIP-2, the project and the bundler', () => {
    const url = new URL(bundlerUrlFor({ chainId: 31337, projectId: 'p-1', bundler: 'http://127.0.0.1:9/' }))
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:9/v1/bundler')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      chainId: 'eip155:31337',
      projectId: 'p-1',
      bundler: 'pimlico',
    })
  })
})

describe("eth_getUserOperationReceipt's answer as EIP-5792's status", () => {
  it('null: pending (100); success: confirmed (200) with its one receipt; a reverted operation: 500', () => {
    expect(userOperationStatusOf(null, OP, 31337)).toEqual({
      version: '2.0.0',
      id: OP,
      chainId: '0x7a69',
      atomic: true,
      status: 100,
    })
    const confirmed = userOperationStatusOf(receiptOf(true), OP, 31337)
    expect(confirmed).toMatchObject({ status: 200, atomic: true })
    expect(confirmed.receipts).toEqual([
      {
        logs: [{ address: SENDER, data: '0x', topics: [OP] }],
        status: '0x1',
        blockHash: BLOCK,
        blockNumber: '0x10',
        gasUsed: '0x5208',
        transactionHash: TX,
      },
    ])
    // The kit's own reading of a wallet's status takes it as any wallet's.
    expect(callsStatusOf(confirmed)).toEqual({
      status: 'success',
      atomic: true,
      receipts: [{ transactionHash: TX, blockNumber: '16', status: 'success' }],
    })
    const reverted = userOperationStatusOf(receiptOf(false), OP, 31337)
    expect(reverted.status).toBe(500)
    expect(callsStatusOf(reverted).receipts[0]!.status).toBe('reverted')
  })

  it('refuses a hostile or malformed answer, or a receipt for another operation, with a clear error', () => {
    const hostile: unknown[] = [
      'mined',
      [],
      {},
      { ...receiptOf(true), success: 'yes' },
      { ...receiptOf(true), receipt: { ...receiptOf(true).receipt, transactionHash: '0x12' } },
      { ...receiptOf(true), logs: [{ address: SENDER, data: 'zz', topics: [] }] },
      receiptOf(true, `0x${'12'.repeat(32)}`),
    ]
    for (const answer of hostile) {
      const error = (() => {
        try {
          userOperationStatusOf(answer, OP, 31337)
        } catch (caught) {
          return caught
        }
      })()
      expect(error, JSON.stringify(answer)).toBeInstanceOf(BundlerAnswerError)
      expect((error as BundlerAnswerError).shortMessage).toBe(
        'The bundler answered eth_getUserOperationReceipt with an invalid result',
      )
    }
  })
})

describe('wallet_getCallsStatus answered from the bundler', () => {
  it('POSTs eth_getUserOperationReceipt(id) to the bundler URL, retried on HTTP 503 as the RPC transport is', async () => {
    const posts: { url: string; body: unknown }[] = []
    const answers = [
      new Response('busy', { status: 503 }),
      Response.json({ jsonrpc: '2.0', id: 0, result: receiptOf(true) }),
    ]
    const fetch = (async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { id: number }
      posts.push({ url: String(url), body })
      const answer = answers.shift()!
      if (answer.status !== 200) return answer
      return Response.json({ ...(await answer.json()), id: body.id })
    }) as unknown as typeof globalThis.fetch
    const url = bundlerUrlFor({ chainId: 31337, projectId: 'p1', bundler: 'http://127.0.0.1:9' })
    const status = await bundlerCallsStatus({
      params: [OP],
      chainId: 31337,
      url,
      transport: { fetch, retryDelayMs: 0 },
    })
    expect(status).toMatchObject({ id: OP, status: 200 })
    expect(posts).toHaveLength(2)
    for (const post of posts) {
      expect(post.url).toBe(url)
      expect(post.body).toMatchObject({ jsonrpc: '2.0', method: 'eth_getUserOperationReceipt', params: [OP] })
    }
  })

  it('an id that is no user operation hash: unknown bundle id (5730), the bundler not asked', async () => {
    let asked = 0
    const fetch = (async () => {
      asked++
      return new Response('')
    }) as unknown as typeof globalThis.fetch
    for (const params of [[], ['batch-1'], [`${OP}00`], 'x']) {
      await expect(
        bundlerCallsStatus({
          params,
          chainId: 31337,
          url: 'http://127.0.0.1:9/v1/bundler',
          transport: { fetch },
        }),
      ).rejects.toMatchObject({ name: 'UnknownCallsIdError', code: 5730 })
    }
    expect(asked).toBe(0)
    expect(new UnknownCallsIdError().shortMessage).toBe('Unknown bundle id')
  })
})
