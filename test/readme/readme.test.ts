import { beforeAll, describe, expect, it } from 'vitest'
import { readAllBlocks, writeBlocks } from './blocks'
import { readExamples } from './jsdoc'
import { runBlocks } from './run'
import { typecheckBlocks } from './typecheck'

// Every ```ts block of README.md, CONTRIBUTING.md and docs/*.md runs here, in Node (the ```tsx blocks run in
// readme.dom.test.tsx), and every ts and tsx block is type-checked here, with every `@example` of the package's
// public API (jsdoc.ts). See blocks.ts for how the copies are made.
const blocks = readAllBlocks()
const examples = readExamples()
writeBlocks([...blocks, ...examples])

describe('README code blocks', () => {
  it('has blocks to run (the extraction still finds them)', () => {
    expect(blocks.length).toBeGreaterThan(0)
  })

  describe('type-check', () => {
    let diagnostics: ReturnType<typeof typecheckBlocks>
    // One program for all the blocks (~10 s: it loads the types of React, viem, wagmi…), given room on a busy
    // machine while the rest of the unit tier runs beside it.
    beforeAll(() => {
      diagnostics = typecheckBlocks([...blocks, ...examples])
    }, 180_000)
    it("finds the public API's @examples", () => {
      expect(examples.map((e) => e.section)).toEqual(
        expect.arrayContaining([
          '@example of createKitMachine',
          '@example of useKit',
          '@example of KitConfig.rpcMap',
        ]),
      )
    })
    for (const block of [...blocks, ...examples]) {
      it(`${block.name} type-checks`, () => {
        expect(diagnostics.get(block)).toEqual([])
      })
    }
  })

  describe('run (ts)', () => {
    runBlocks(blocks.filter((b) => b.lang === 'ts'))
  })
})
