import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_FILE_BYTES, MAX_TOTAL_BYTES, measure, prune } from './declarations.mjs'

// scripts/declarations.mjs over a package laid out as `npm run build` leaves it: entries in package.json's exports.

const work = mkdtempSync(join(tmpdir(), 'walletstate-declarations-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const SCRIPT = join(import.meta.dirname, 'declarations.mjs')
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' })

function fixture(name: string, files: Record<string, string>) {
  const dir = join(work, name)
  const all: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'fx',
      exports: {
        '.': { types: './dist/types/index.d.ts', import: './dist/index.js' },
        './extra': { types: './dist/types/extra/index.d.ts', import: './dist/extra.js' },
        './package.json': './package.json',
      },
    }),
    ...files,
  }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

describe('declarations', () => {
  it('--prune keeps what the entries reach (imports, re-exports, import() types) and deletes the rest', () => {
    const dir = fixture('prune', {
      'dist/types/index.d.ts': "export { a } from './a'\nexport type B = import('./b').B\n",
      'dist/types/a.d.ts': "import type { C } from './c/index.js'\nexport declare const a: C\n",
      'dist/types/b.d.ts': 'export type B = string\n',
      'dist/types/c/index.d.ts': 'export type C = number\n',
      'dist/types/extra/index.d.ts': "export * from '../b'\n",
      'dist/types/lazy/chunk.d.ts': 'export declare const unreachable: 1\n',
      'dist/types/harness.d.ts': "import type { C } from './c'\nexport declare const h: C\n",
    })
    expect(prune(dir)).toEqual({ kept: 5, removed: 2 })
    expect(existsSync(join(dir, 'dist/types/lazy'))).toBe(false)
    expect(existsSync(join(dir, 'dist/types/harness.d.ts'))).toBe(false)
    expect(existsSync(join(dir, 'dist/types/c/index.d.ts'))).toBe(true)
    const sizes = measure(dir)
    expect(sizes.files).toBe(5)
    expect(sizes.perEntry.map((e) => [e.entry, e.files])).toEqual([
      ['dist/types/index.d.ts', 4],
      ['dist/types/extra/index.d.ts', 2],
    ])
    expect(run(dir).status).toBe(0)
  })

  it('a file over the budget, or all of them together: exit 1, and the line says which', () => {
    const big = `export type Big = ${'{ a: 1 } | '.repeat(Math.ceil(MAX_FILE_BYTES / 11))}never\n`
    const dir = fixture('over', { 'dist/types/index.d.ts': big, 'dist/types/extra/index.d.ts': '' })
    const sizes = measure(dir)
    expect(sizes.overFile.map((f) => f.path)).toEqual(['dist/types/index.d.ts'])
    expect(sizes.overTotal).toBe(sizes.total > MAX_TOTAL_BYTES)
    const result = run(dir)
    expect(result.status).toBe(1)
    expect(result.stdout).toMatch(/✗ dist\/types\/index\.d\.ts is over 150\.0 kB/)
  })

  it('no declarations built, or a bad option: exit 2 and one line on stderr', () => {
    for (const args of [[fixture('unbuilt', {})], ['--nope']]) {
      const result = run(...args)
      expect(result.status, args.join(' ')).toBe(2)
      expect(result.stderr).toMatch(/^declarations: [^\n]+\n$/)
    }
  })
})
