import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { docFiles, entryMap, outDir, readBlocks, rewriteImports, root } from './blocks'

describe('README block extraction', () => {
  const text = [
    '# Title', //                                  1
    '```sh', //                                    2
    'npm test', //                                 3
    '```', //                                      4
    '## Quick start', //                           5
    '```tsx', //                                   6
    "import { KitRoot } from 'walletstate/react'", // 7
    '```', //                                      8
    '- a list item:', //                           9
    '', //                                         10
    '  ```ts', //                                  11
    '  const a = 1', //                            12
    '    const b = 2', //                          13
    '  ```', //                                    14
    '````text', //                                 15
    '```ts', //                                    16
    'not a block: inside a text fence', //         17
    '```', //                                      18
    '````', //                                     19
  ].join('\n')

  it('finds the ts and tsx blocks with the line of their fence and their section, and only them', () => {
    const blocks = readBlocks(text)
    expect(blocks.map(({ lang, line, section, code }) => ({ lang, line, section, code }))).toEqual([
      { lang: 'tsx', line: 6, section: 'Quick start', code: "import { KitRoot } from 'walletstate/react'\n" },
      { lang: 'ts', line: 11, section: 'Quick start', code: 'const a = 1\n  const b = 2\n' },
    ])
    expect(blocks[0]!.name).toBe('README.md:6 (tsx, Quick start)')
    expect(blocks[1]!.file).toBe(join(outDir, 'line-11.ts'))
  })

  it('maps the entries of package.json "exports" to their sources in src/', () => {
    expect(Object.fromEntries(entryMap())).toMatchObject({
      walletstate: join(root, 'src/index.ts'),
      'walletstate/machines': join(root, 'src/machines/index.ts'),
      'walletstate/react': join(root, 'src/react/index.ts'),
      'walletstate/testing': join(root, 'src/testing/index.ts'),
      'walletstate/siwx': join(root, 'src/siwx/index.ts'),
    })
  })

  it('points entry imports at src/ and relative imports at the repo root, and leaves the rest', () => {
    const file = join(outDir, 'line-1.ts')
    const code = [
      "import { createKitMachine } from 'walletstate'",
      "import { KitRoot } from 'walletstate/react'",
      "import type { SnapshotFrom } from 'xstate'",
      "import { onDemand } from './src/machines/kit/onDemand'",
      "const siwx = await import('walletstate/siwx')",
      "import 'walletstate/testing'",
      "import { nothing } from 'walletstate/nothing'",
    ].join('\n')
    expect(rewriteImports(code, file).split('\n')).toEqual([
      "import { createKitMachine } from '../../src/index'",
      "import { KitRoot } from '../../src/react/index'",
      "import type { SnapshotFrom } from 'xstate'",
      "import { onDemand } from '../../src/machines/kit/onDemand'",
      "const siwx = await import('../../src/siwx/index')",
      "import '../../src/testing/index'",
      "import { nothing } from 'walletstate/nothing'",
    ])
  })

  it('reads the README, CONTRIBUTING.md and every docs/*.md', () => {
    expect(docFiles()).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/security.md', 'docs/errors.md']),
    )
    expect(docFiles()[0]).toBe('README.md')
  })

  it("names a block of another doc by its file, and writes it apart from the README's", () => {
    const [block] = readBlocks(['## Check', '```ts', 'const a = 1', '```'].join('\n'), 'docs/security.md')
    expect(block!.name).toBe('docs/security.md:2 (ts, Check)')
    expect(block!.file).toBe(join(outDir, 'docs-security-line-2.ts'))
  })

  it('writes the blocks that name a file side by side, keeping their relative imports', () => {
    const text = [
      '## Quick start (Next.js App Router)', // 1
      '```tsx', //                             2
      '// app/providers.tsx', //               3
      "'use client'", //                       4
      '```', //                                5
      '```tsx', //                             6
      '// app/layout.tsx', //                  7
      "import { Providers } from './providers'", // 8
      '```', //                                9
    ].join('\n')
    const [providers, layout] = readBlocks(text)
    const app = join(outDir, 'app-quick-start-next-js-app-router')
    expect(providers!.file).toBe(join(app, 'app/providers.tsx'))
    expect(layout!.file).toBe(join(app, 'app/layout.tsx'))
    expect(layout!.named).toBe('app/layout.tsx')
    expect(rewriteImports(layout!.code, layout!.file, entryMap(), true)).toContain("from './providers'")
    expect(rewriteImports(layout!.code, layout!.file, entryMap(), false)).not.toContain("from './providers'")
  })
})
