import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { isAlive, spawnTied } from './process.ts'

const gone = async (pid: number, withinMs = 3_000): Promise<boolean> => {
  const until = Date.now() + withinMs
  while (Date.now() < until) {
    if (!isAlive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return !isAlive(pid)
}

describe('spawnTied', () => {
  it('stop() ends the program and its guard; a second stop is harmless', async () => {
    const tied = await spawnTied('sleep', ['300'])
    expect(isAlive(tied.pid)).toBe(true)
    expect(isAlive(tied.group)).toBe(true)
    await tied.stop()
    expect(isAlive(tied.pid)).toBe(false)
    expect(isAlive(tied.group)).toBe(false)
    await tied.stop()
  })

  it('a program that ignores SIGTERM is killed after the grace time', async () => {
    const tied = await spawnTied('sh', ['-c', 'trap "" TERM; while :; do sleep 0.1; done'], { graceMs: 300 })
    const started = Date.now()
    await tied.stop()
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    expect(isAlive(tied.pid)).toBe(false)
  })

  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'the program dies with the Node process that started it (%s to that process)',
    async (signal) => {
      const parent = spawn(process.execPath, ['--import', 'tsx', 'sandbox/shared/fixtures/tied-child.ts'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: parent.stdout! }).once('line', resolve)
        parent.once('exit', (code) => reject(new Error(`fixture exited (${code})`)))
      })
      const { pid, group } = JSON.parse(line) as { pid: number; group: number }
      expect(isAlive(pid)).toBe(true)
      parent.kill(signal)
      expect(await gone(pid)).toBe(true)
      expect(await gone(group)).toBe(true)
    },
  )

  it('reports a program that cannot start', async () => {
    const tied = await spawnTied('/nonexistent/program', [])
    await tied.exited
    expect(isAlive(tied.pid)).toBe(false)
    await tied.stop()
  })
})
