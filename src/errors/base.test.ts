import { InternalRpcError, UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { BaseError, ConfigError, type ErrorInfo, findCode, hasCode, walkError } from './base'
import type { ErrorInfo as ConnectionErrorInfo } from './connection'
import type { FrameErrorInfo } from './frame'
import type { SessionErrorInfo } from './session'

describe('BaseError', () => {
  it('keeps the short message, details and cause chain', () => {
    const root = new Error('socket closed')
    const middle = new BaseError('Request failed', { cause: root })
    const top = new ConfigError('Could not load', { cause: middle, metaMessages: ['projectId: abc'] })
    expect(top.name).toBe('ConfigError')
    expect(top.shortMessage).toBe('Could not load')
    expect(top.message).toMatchInlineSnapshot(`
      "Could not load

      projectId: abc

      Details: socket closed"
    `)
    expect(top.walk()).toBe(root)
    expect(top.walk((e) => e instanceof BaseError && e.shortMessage === 'Request failed')).toBe(middle)
    expect(top.walk(() => false)).toBeNull()
  })
})

describe('walkError: the cause chain of anything thrown', () => {
  const wallet = { code: 4001, message: 'User rejected the request.' }
  const viem = new InternalRpcError(Object.assign(new Error('wrapped'), { cause: wallet }))

  it("walks viem's errors, plain errors and plain objects alike", () => {
    expect(walkError(viem)).toBe(wallet)
    expect(walkError(viem, (e) => e instanceof InternalRpcError)).toBe(viem)
    expect(walkError(viem, (e) => e instanceof UserRejectedRequestError)).toBeNull()
    expect(walkError('a string')).toBe('a string')
  })

  it("finds the first code (the wrapper's) and any code on the chain (the wallet's)", () => {
    expect(findCode(viem)).toBe(-32603)
    expect(hasCode(viem, 4001)).toBe(true)
    expect(hasCode(viem, 4100)).toBe(false)
    expect(findCode(new Error('no code'))).toBeUndefined()
  })

  it('stops on a cause chain that loops', () => {
    const a: { cause?: unknown } = {}
    a.cause = { cause: a }
    expect(walkError(a, () => false)).toBeNull()
    expect(hasCode(a, 1)).toBe(false)
  })
})

describe('ErrorInfo: one type for every area', () => {
  it('is what connection, frame and session snapshots carry', () => {
    const info: ErrorInfo = { name: 'RecentlyDeletedError', message: 'Record was recently deleted', code: 5 }
    const connection: ConnectionErrorInfo = info
    const frame: FrameErrorInfo = connection
    const session: SessionErrorInfo = { ...frame, code: 5 }
    const back: ErrorInfo = session
    expect(back).toEqual(info)
  })
})
