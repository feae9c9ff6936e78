import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/*
 * The kit's root names no capability (issue 34, the capability contract): the code (not the comments) of
 * src/machines/kit.ts and src/machines/kit/ holds none of the names below, the issue's own check
 * `grep -iE '\b(swap|onramp|buy|names?|signIn|siwx|solana|pay|sendFlow)'`. A capability's name, state, event or
 * rule lives in its descriptor (src/kit/capabilities/) and its code (src/kit/load/).
 *
 * Pending: the namespaces' own contract. The root still holds Solana's connection and says "namespace" (which
 * the issue's pattern matches through `names?`); those words are listed in PENDING, counted, and may only
 * shrink.
 */
const ROOT = fileURLToPath(new URL('../../src/machines/', import.meta.url))
const PATTERN = /\b(swap|onramp|buy|names?|signIn|siwx|solana|pay|sendFlow)\w*/gi
/** Words the pattern matches that wait for the namespaces' contract (the root's connections, not a capability). */
const PENDING = /^(namespace\w*|solana\w*)$/i
/** How many pending words the root holds at most (lower it as the namespaces' contract lands). */
const PENDING_MAX = 102

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
    const source =
      "// swap here\n/** Pay's view */\nconst swapState = `${x}` // onramp\n/* buy */ type T = 1\n"
    expect(namesIn(codeOf(source))).toEqual(['swapState'])
    expect(namesIn(codeOf("const label = 'signIn.asked'"))).toEqual(['signIn'])
  })

  it("holds no capability's name, state, event or rule", () => {
    const found = rootFiles().flatMap((file) =>
      namesIn(codeOf(readFileSync(file, 'utf8'))).map((word) => `${file.slice(ROOT.length)}: ${word}`),
    )
    const capabilities = found.filter((entry) => !PENDING.test(entry.split(': ')[1]!))
    expect(capabilities).toEqual([])
    expect(found.length).toBeLessThanOrEqual(PENDING_MAX)
  })
})
