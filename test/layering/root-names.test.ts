import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/*
 * The kit's root names no capability (issue 34, the capability contract): the code (not the comments) of
 * src/machines/kit.ts and src/machines/kit/ holds none of the names below, the issue's own check
 * `grep -iE '\b(swap|onramp|buy|names?|signIn|siwx|solana|pay|sendFlow)'`. A capability's name, state, event or
 * rule lives in its descriptor (src/kit/capabilities/) and its code (src/kit/load/); a namespace other than the
 * default one (Solana) plugs in as a capability whose statechart is its connection (the contract's `connection`).
 */
const ROOT = fileURLToPath(new URL('../../src/machines/', import.meta.url))
const PATTERN = /\b(swap|onramp|buy|names?|signIn|siwx|solana|pay|sendFlow)\w*/gi

/** The code of a TypeScript source without its comments (parsed, then printed without them). */
function codeOf(source: string): string {
  const file = ts.createSourceFile('root.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  return ts.createPrinter({ removeComments: true }).printFile(file)
}

const rootFiles = () => [
  `${ROOT}kit.ts`,
  ...readdirSync(`${ROOT}kit`)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => `${ROOT}kit/${file}`),
]

const namesIn = (code: string) => [...code.matchAll(PATTERN)].map((match) => match[0])

describe("the kit's root names no capability", () => {
  it('reads code, not comments (the check itself)', () => {
    // A template literal with a substitution, built so the source text reads as the scanner would meet it.
    const template = ['`', '$', '{x}', '`'].join('')
    const source = `// swap here\n/** Pay's view */\nconst swapState = ${template} // onramp\n/* buy */ type T = 1\n`
    expect(namesIn(codeOf(source))).toEqual(['swapState'])
    expect(namesIn(codeOf("const label = 'signIn.asked'"))).toEqual(['signIn'])
  })

  it("holds no capability's name, state, event or rule", () => {
    const found = rootFiles().flatMap((file) =>
      namesIn(codeOf(readFileSync(file, 'utf8'))).map((word) => `${file.slice(ROOT.length)}: ${word}`),
    )
    expect(found).toEqual([])
  })
})
