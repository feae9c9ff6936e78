import { describe, expect, it } from 'vitest'
import { markedProcesses } from './leftovers.mjs'
import { runStages } from './test-runner.mjs'

/*
 * The harness of `npm test`: a suite whose setup fails leaves no process behind, and the end check fails the
 * run when something is left (and stops it). Both run through the same runner `npm test` uses.
 */

const out = (name: string) => `.tmp/test-runner-test/${name}`
const noBrowser = () => {
  throw new Error('no browser stage here')
}

async function run(name: string, stages: Array<{ name: string; run: string[]; tier?: string }>) {
  const logged: string[] = []
  const runId = `harness-${name}-${process.pid}-${Date.now()}`
  const code = await runStages({
    stages,
    out: out(name),
    runId,
    settleMs: 1_000,
    ensureBrowser: noBrowser,
    log: (line: string) => logged.push(line),
    error: (line: string) => logged.push(line),
  })
  return { code, text: logged.join('\n'), runId }
}

describe('npm test harness (scripts/test-runner.mjs)', () => {
  it('a suite failing in setup while anvil runs leaves no process behind', async () => {
    const { code, text, runId } = await run('failing-setup', [
      {
        name: 'fixture',
        tier: 'fixture',
        run: [
          'npx',
          'vitest',
          'run',
          '-c',
          'scripts/fixtures/vitest.fixture.config.ts',
          '--reporter=json',
          `--outputFile.json=${out('failing-setup')}/fixture.json`,
        ],
      },
    ])
    expect(code).toBe(1) // the suite failed
    expect(text).toContain('Failed stages: fixture')
    // The closing lines name what failed, and why, so a CI log's tail is enough to start from.
    expect(text).toMatch(/Failed:\n {2}fixture: scripts\/fixtures\/failing-setup\.fixture\.ts.*\n {6}\S/)
    expect(text).not.toContain('Left behind')
    expect(markedProcesses(runId)).toEqual([])
  }, 120_000)

  it('fails the run when a process it started is still alive, lists it and stops it', async () => {
    const leave =
      "require('node:child_process').spawn('sleep', ['300'], { detached: true, stdio: 'ignore' }).unref()"
    const { code, text, runId } = await run('leftover', [
      { name: 'leaves sleep', run: ['node', '-e', leave] },
    ])
    expect(code).toBe(1)
    expect(text).toMatch(/Left behind by this run[^\n]*\n\s+\d+\s+sleep 300/)
    expect(text).toContain('Failed stages: leftover processes')
    expect(markedProcesses(runId)).toEqual([])
  }, 30_000)

  it('passes a clean run', async () => {
    const { code, text } = await run('clean', [{ name: 'quick', run: ['node', '-e', ''] }])
    expect(text).not.toContain('Left behind')
    expect(code).toBe(0)
  }, 30_000)
})
