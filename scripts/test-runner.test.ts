import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { markedProcesses } from './leftovers.mjs'
import { FILE_SECONDS_LIMIT, fileTimes, runStages, SLOWEST_FILES, slowestLines } from './test-runner.mjs'

/*
 * The harness of `npm test`: a suite whose setup fails leaves no process behind, and the end check fails the
 * run when something is left (and stops it). Both run through the same runner `npm test` uses.
 */

/** What scripts/fixtures/slow-setup.fixture.ts spends in its setup (not imported: that would run its test here). */
const SETUP_MS = 400
const out = (name: string) => `.tmp/test-runner-test/${name}`
const noBrowser = () => {
  throw new Error('no browser stage here')
}

async function run(
  name: string,
  stages: Array<{ name: string; run: string[]; tier?: string; beside?: boolean }>,
) {
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

  it('runs a `beside` stage alongside the next ones, prints its held output once it ends and counts its failure', async () => {
    const { code, text } = await run('beside', [
      {
        name: 'slow beside',
        beside: true,
        run: ['node', '-e', "setTimeout(() => { console.log('said late'); process.exit(3) }, 500)"],
      },
      { name: 'quick', run: ['node', '-e', ''] },
    ])
    expect(code).toBe(1)
    // The next stage started before the beside one ended; its output comes after, with its status.
    expect(text.indexOf('▶ quick')).toBeGreaterThan(-1)
    expect(text.indexOf('▶ quick')).toBeLessThan(text.indexOf('◀ slow beside'))
    expect(text).toMatch(/◀ slow beside \(ran beside the stages after it\): failed\nsaid late/)
    expect(text).toMatch(/slow beside: failed \(wall \d+ s, beside the next stages\)/)
    expect(text).toContain('Failed stages: slow beside')
  }, 30_000)

  it('passes a clean run', async () => {
    const { code, text } = await run('clean', [{ name: 'quick', run: ['node', '-e', ''] }])
    expect(text).not.toContain('Left behind')
    expect(code).toBe(0)
  }, 30_000)

  it("prints each stage's wall time and a tier's slowest files, timed whole (setup included)", async () => {
    const { code, text } = await run('times', [
      { name: 'quick', run: ['node', '-e', ''] },
      {
        name: 'slow setup',
        tier: 'slow',
        run: [
          'npx',
          'vitest',
          'run',
          '-c',
          'scripts/fixtures/vitest.fixture.config.ts',
          'scripts/fixtures/slow-setup.fixture.ts',
          '--reporter=json',
          `--outputFile.json=${out('times')}/slow.json`,
          '--reporter=./scripts/file-times-reporter.mjs',
          `--outputFile.file-times=${out('times')}/slow.files.json`,
        ],
      },
    ])
    expect(code).toBe(0)
    expect(text).toMatch(/\n {2}quick: ok \(wall \d+ s\)/)
    expect(text).toMatch(
      /\n {2}slow setup: 1 passed, 0 failed, 0 skipped \(wall \d+ s\)\n {4}slowest files:\n/,
    )
    const line = text.match(/\n {6}([\d.]+) s {2}scripts\/fixtures\/slow-setup\.fixture\.ts\n/)
    expect(line).not.toBeNull()
    // The file's time holds its setup ...
    expect(Number(line![1])).toBeGreaterThanOrEqual(SETUP_MS / 1000)
    // ... which vitest's JSON report leaves out of the file's span (its tests only).
    const report = JSON.parse(readFileSync(`${out('times')}/slow.json`, 'utf8'))
    const file = report.testResults[0]
    expect(file.endTime - file.startTime).toBeLessThan(SETUP_MS)
    expect(text).toMatch(/Tests: 1 passed, 0 failed, 0 skipped \(wall \d+ s in all\)/)
  }, 120_000)

  it('names the five slowest files, slowest first, and flags one over the limit', () => {
    const files = [3, 130, 0.25, 12, 7.5, 0, 45].map((seconds, i) => ({ file: `f${i}.test.ts`, seconds }))
    const lines = slowestLines({ whole: true, files })
    expect(lines).toEqual([
      '    slowest files:',
      `      130 s  f1.test.ts  — over ${FILE_SECONDS_LIMIT} s`,
      '       45 s  f6.test.ts',
      '       12 s  f3.test.ts',
      '      7.5 s  f4.test.ts',
      '      3.0 s  f0.test.ts',
    ])
    expect(lines).toHaveLength(SLOWEST_FILES + 1)
    expect(slowestLines({ whole: true, files: [] })).toEqual([])
  })

  it("without a file-times report, reads the JSON report: a file's test span or its tests' sum, the longer", () => {
    const report = {
      testResults: [
        // Tests run one after the other: the span is the time.
        {
          name: `${process.cwd()}/a.test.ts`,
          startTime: 1_000,
          endTime: 4_000,
          assertionResults: [{ duration: 1_000 }, { duration: 1_500 }],
        },
        // Concurrent tests, or a report whose span is wrong: their durations' sum is the time.
        {
          name: `${process.cwd()}/b.test.ts`,
          startTime: 1_000,
          endTime: 1_000,
          assertionResults: [{ duration: 2_000 }, { duration: 6_000 }],
        },
      ],
    }
    const times = fileTimes(out('no-such-dir/x.files.json'), report)
    expect(times).toEqual({
      whole: false,
      files: [
        { file: 'a.test.ts', seconds: 3 },
        { file: 'b.test.ts', seconds: 8 },
      ],
    })
    expect(slowestLines(times)).toEqual([
      '    slowest files (tests only: no file-times report):',
      '      8.0 s  b.test.ts',
      '      3.0 s  a.test.ts',
    ])
  })
})
