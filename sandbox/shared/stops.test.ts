import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { markedProcesses, RUN_MARKER } from '../../scripts/leftovers.mjs'
import { type Closable, Stops } from './stops.ts'

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms))
const failing = (ms: number) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Chromium not found')), ms))

function service(name: string, closed: string[]): Closable {
  return { close: async () => void closed.push(name) }
}

describe('Stops', () => {
  it('closes a start that finishes after another one failed the setup, last first', async () => {
    const closed: string[] = []
    const stops = new Stops()
    const setup = Promise.all([
      stops.track(later(10, service('db', closed))),
      stops.track(later(80, service('chain', closed))),
      stops.track(failing(20)),
    ])
    await expect(setup).rejects.toThrow('Chromium not found')
    expect(closed).toEqual([]) // the chain is still starting
    await stops.close()
    expect(closed).toEqual(['chain', 'db'])
    await stops.close() // twice is harmless
    expect(closed).toEqual(['chain', 'db'])
  })

  it('stops a start tracked after close() as soon as it is up, and logs a failing close', async () => {
    const closed: string[] = []
    const stops = new Stops()
    stops.track(Promise.resolve({ close: () => Promise.reject(new Error('stuck')) }))
    await stops.close()
    await stops.track(later(5, service('late', closed)))
    await later(5, undefined)
    expect(closed).toEqual(['late'])
  })
})

describe('test/integration/sandbox-services.ts', () => {
  it.each([300, 1_500])(
    'stops everything when told to stop %i ms into its start',
    async (afterMs) => {
      const marker = `stops-test-${process.pid}-${afterMs}-${Date.now()}`
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/integration/sandbox-services.ts'], {
        stdio: ['pipe', 'ignore', 'inherit'],
        env: { ...process.env, [RUN_MARKER]: marker },
      })
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      await later(afterMs, undefined)
      child.kill('SIGTERM')
      await exited
      const until = Date.now() + 5_000
      while (markedProcesses(marker).length > 0 && Date.now() < until) await later(100, undefined)
      expect(markedProcesses(marker)).toEqual([])
    },
    30_000,
  )
})
