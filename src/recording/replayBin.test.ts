import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { type ReplayCliHost, runReplayCli } from './cli'
import { lookup, recordSession } from './fixtures'

// bin/walletstate-replay.js, the command as npm installs it: Node's side of `runReplayCli` (files, modules, stdout
// and stderr) and its exit codes. Run here with the package's source machines instead of the built package's.

const BIN = resolve('bin/walletstate-replay.js')
const { createNodeReplayHost } = (await import(/* @vite-ignore */ BIN)) as {
  createNodeReplayHost(machines: Record<string, unknown>): ReplayCliHost
}

const work = mkdtempSync(join(tmpdir(), 'walletstate-replay-bin-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

async function saved(name: string) {
  const path = join(work, `${name}.json`)
  writeFileSync(path, JSON.stringify(await recordSession()))
  return path
}

/** The bin's host over the test machine, its stdout and stderr lines caught. */
function nodeHost(machines: Record<string, unknown> = { lookupMachine: lookup }) {
  const out: string[] = []
  const err: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line))
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line))
  const host = createNodeReplayHost(machines)
  const run = async (argv: string[]) => {
    try {
      return await runReplayCli(argv, host)
    } finally {
      log.mockRestore()
      error.mockRestore()
    }
  }
  return { run, out, err }
}

describe('walletstate-replay (bin/)', () => {
  it('--write-test into a folder that does not exist creates it and writes the test and the recording', async () => {
    const file = await saved('session')
    const test = join(work, 'replays', 'nested', 'session.test.ts')
    expect(existsSync(join(work, 'replays'))).toBe(false)
    const { run, out, err } = nodeHost()
    expect(await run([file, '--write-test', test])).toBe(0)
    expect(err).toEqual([])
    expect(out).toContain(`Wrote ${test} (and ${join(work, 'replays', 'nested', 'session.recording.json')})`)
    expect(readFileSync(test, 'utf8')).toContain("from 'walletstate/testing'")
    expect(
      JSON.parse(readFileSync(join(work, 'replays', 'nested', 'session.recording.json'), 'utf8')).format,
    ).toBe('walletstate-recording')
  })

  it('a bad command or file: exit code 2 and one line on stderr, nothing on stdout', async () => {
    const notRecording = join(work, 'not-a-recording.json')
    writeFileSync(notRecording, '{"hello":1}')
    const session = await saved('for-errors')
    for (const [argv, message] of [
      [[], 'walletstate-replay: Missing the recording file (walletstate-replay --help for the options)'],
      [['--nope', session], 'walletstate-replay: Unknown option --nope'],
      [['--write-test'], 'walletstate-replay: --write-test needs a value'],
      [
        [join(work, 'missing.json')],
        `walletstate-replay: ${join(work, 'missing.json')}: cannot read it (ENOENT`,
      ],
      [[notRecording], `walletstate-replay: ${notRecording}: Not a walletstate recording`],
      [[session, '--machine', join(work, 'nowhere.js#x')], 'walletstate-replay: --machine '],
    ] as const) {
      const { run, out, err } = nodeHost()
      expect(await run([...argv]), argv.join(' ')).toBe(2)
      expect(err, argv.join(' ')).toHaveLength(1)
      expect(err[0]).toContain(message)
      expect(out, argv.join(' ')).toEqual([])
    }
  })

  it('a test that cannot be written: exit code 2 and one line on stderr, after the replay', async () => {
    const session = await saved('unwritable')
    // A folder cannot be made where a file is.
    const blocked = join(work, 'blocked')
    writeFileSync(blocked, 'a file')
    const test = join(blocked, 'replay.test.ts')
    const { run, out, err } = nodeHost()
    expect(await run([session, '--write-test', test])).toBe(2)
    expect(err).toHaveLength(1)
    expect(err[0]).toContain(
      `walletstate-replay: --write-test ${test}: cannot write ${join(blocked, 'replay.recording.json')} (`,
    )
    expect(out).toContain('✓ lookup: 1 actor, 6 events replayed, no divergence')
    expect(out.some((line) => line.startsWith('Wrote'))).toBe(false)
  })

  it('a divergence keeps its own exit code, 1, and is printed on stdout', async () => {
    const file = await saved('diverges')
    // The recorded machine with its guard changed: the replay diverges at `submit`.
    const { run, out, err } = nodeHost({
      lookupMachine: lookup.provide({ guards: { queryValid: () => true } }),
    })
    expect(await run([file])).toBe(1)
    expect(err).toEqual([])
    expect(out.join('\n')).toMatch(/✗ lookup: After step 2 \(submit\)/)
  })

  it('run by Node, a failure to start is one line on stderr and exit code 2, never a stack trace', () => {
    // A copy of the bin where no `walletstate` package can be found: its imports fail.
    const copy = join(work, 'alone', 'walletstate-replay.js')
    mkdirSync(dirname(copy), { recursive: true })
    copyFileSync(BIN, copy)
    const result = spawnSync(process.execPath, [copy, 'session.json'], { cwd: work, encoding: 'utf8' })
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^walletstate-replay: Cannot find package 'walletstate'[^\n]*\n$/)
  })
})
