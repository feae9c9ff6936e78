import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { describe, expect, it, vi } from 'vitest'
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

  it('a program that ignores SIGTERM is killed (SIGKILL after the grace time)', async () => {
    // The program says when its trap is in place: stopping it before that would test nothing (a plain SIGTERM).
    const marker = join(tmpdir(), `walletstate-tied-${process.pid}-${Date.now()}`)
    const tied = await spawnTied('sh', ['-c', `trap "" TERM; : > ${marker}; while :; do sleep 0.1; done`], {
      graceMs: 300,
    })
    try {
      await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 5_000, interval: 20 })
      await tied.stop()
      expect(await gone(tied.pid)).toBe(true)
    } finally {
      rmSync(marker, { force: true })
    }
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
