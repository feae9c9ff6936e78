import type { ViteDevServer } from 'vite'
import { describe, expect, it } from 'vitest'
import { listenOnFreePort } from './viteListen.ts'

/** A server whose first `taken` listens fail as Vite's do when the port it probed was taken meanwhile. */
function server(taken: number, other?: Error) {
  let calls = 0
  const listen = async () => {
    calls += 1
    if (other) throw other
    if (calls <= taken) throw new Error(`Port ${40_000 + calls} is already in use`)
  }
  return { server: { listen } as unknown as ViteDevServer, calls: () => calls }
}

describe('listenOnFreePort', () => {
  it('asks for a free port again when the one probed was taken, until it listens', async () => {
    const s = server(2)
    await listenOnFreePort(s.server, 0)
    expect(s.calls()).toBe(3)
  })

  it('gives up after five attempts with the last error', async () => {
    const s = server(10)
    await expect(listenOnFreePort(s.server, 0)).rejects.toThrow('Port 40005 is already in use')
    expect(s.calls()).toBe(5)
  })

  it('a fixed port that is taken, or any other error, fails at once', async () => {
    const fixed = server(1)
    await expect(listenOnFreePort(fixed.server, 5173)).rejects.toThrow('Port 40001 is already in use')
    expect(fixed.calls()).toBe(1)
    const other = server(0, new Error('EACCES'))
    await expect(listenOnFreePort(other.server, 0)).rejects.toThrow('EACCES')
    expect(other.calls()).toBe(1)
  })
})
