import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type ReplayCliHost, runReplayCli } from './cli'
import { lookup, recordSession } from './fixtures'

// Inside the repo, so the test file the command writes can be imported here (Vite resolves its imports).
const DIR = resolve('.tmp/replay-cli')
mkdirSync(`${DIR}/pkg`, { recursive: true })
// What `--package ./pkg` stands for: the package's two entries the written test imports.
writeFileSync(`${DIR}/pkg/testing.ts`, `export * from '${resolve('src/testing/index.ts')}'\n`)
writeFileSync(`${DIR}/pkg/machines.ts`, `export * from '${resolve('src/machines/index.ts')}'\n`)
writeFileSync(`${DIR}/lookup.ts`, `export { lookup } from '${resolve('src/recording/fixtures.ts')}'\n`)

function host(modules: Record<string, Record<string, unknown>> = {}) {
  const lines: string[] = []
  const value: ReplayCliHost = {
    machines: { lookupMachine: lookup },
    readFile: (path) => readFile(path, 'utf8'),
    writeFile: (path, text) => writeFile(path, text),
    importModule: async (path) => modules[path] ?? import(/* @vite-ignore */ resolve(path)),
    relative: (from, path) => {
      const rel = relative(dirname(resolve(from)), resolve(path))
      return rel.startsWith('.') ? rel : `./${rel}`
    },
    out: (line) => lines.push(line),
  }
  return { host: value, output: () => lines.join('\n') }
}

async function saved(name: string) {
  const path = `${DIR}/${name}.json`
  writeFileSync(path, JSON.stringify(await recordSession()))
  return path
}

describe('walletstate-replay', () => {
  it('replays each machine of the recording and exits 0 when none diverges', async () => {
    const file = await saved('ok')
    const { host: h, output } = host()
    expect(await runReplayCli([file], h)).toBe(0)
    expect(output()).toContain('✓ lookup: 1 actor, 6 events replayed, no divergence')
  })

  it('prints the first divergence (event, expected, actual) and exits 1', async () => {
    const file = await saved('diverges')
    const changed = lookup.provide({ guards: { queryValid: () => true } })
    const { host: h, output } = host({ './changed.js': { changed } })
    expect(await runReplayCli([file, '--machine', './changed.js#changed'], h)).toBe(1)
    expect(output()).toMatch(
      /✗ lookup: After step 2 \(submit\)[\s\S]*event:\s+{"type":"submit"}[\s\S]*expected:\s+"editing"[\s\S]*actual:\s+"searching"/,
    )
  })

  it('says what is wrong with the command or the file, and exits 2', async () => {
    const bad = `${DIR}/bad.json`
    writeFileSync(bad, '{"format":"other"}')
    for (const [argv, message] of [
      [[], 'Missing the recording file'],
      [['a.json', 'b.json'], 'One recording at a time'],
      [['--machine'], '--machine needs a value'],
      [['--nope', 'a.json'], 'Unknown option --nope'],
      [[bad], 'Not a walletstate recording'],
      [[`${DIR}/missing.json`], 'cannot read it'],
    ] as const) {
      const { host: h, output } = host()
      expect(await runReplayCli(argv, h)).toBe(2)
      expect(output()).toContain(message)
    }
    const { host: h, output } = host({ './x.js': { notAMachine: 1 } })
    expect(await runReplayCli([await saved('x'), '--machine', './x.js#notAMachine'], h)).toBe(2)
    expect(output()).toContain('"notAMachine" is not a state machine')
  })

  it('--write-test writes a vitest file (and the recording beside it) that replays the session', async () => {
    const file = await saved('written')
    const test = `${DIR}/written.test.ts`
    const { host: h, output } = host()
    expect(
      await runReplayCli(
        [file, '--machine', `${DIR}/lookup.ts#lookup`, '--write-test', test, '--package', './pkg'],
        h,
      ),
    ).toBe(0)
    expect(output()).toContain(`Wrote ${test}`)
    const text = readFileSync(test, 'utf8')
    expect(text).toContain("from './pkg/testing'")
    expect(text).toContain("import { lookup as given0 } from './lookup.ts'")
    expect(JSON.parse(readFileSync(`${DIR}/written.recording.json`, 'utf8')).format).toBe(
      'walletstate-recording',
    )
  })
})

// The written file, run as the test it is: its `it`s join this suite.
describe('the written test', async () => {
  const file = await saved('written-run')
  const test = `${DIR}/written-run.test.ts`
  await runReplayCli(
    [file, '--machine', `${DIR}/lookup.ts#lookup`, '--write-test', test, '--package', './pkg'],
    host().host,
  )
  await import(/* @vite-ignore */ test)
})
