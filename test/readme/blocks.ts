import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The docs' code examples as files: every ```ts and ```tsx block of README.md, CONTRIBUTING.md and docs/*.md
 * (```sh, ```text and the others are prose), written under `.tmp/readme/` inside the repo (git-ignored; inside, so Vite and tsc resolve
 * `react`, `viem`, … from the repo's node_modules), with the package's entry names (`walletstate`,
 * `walletstate/react`, …) pointed at their sources in `src/`. The map is read from package.json's "exports":
 * each entry's `types` (`./dist/types/react/index.d.ts`) names its source (`src/react/index.ts`), so a new
 * entry needs no change here, and a README import of a name the package does not export fails.
 */

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const readmePath = join(root, 'README.md')
export const outDir = join(root, '.tmp/readme')

/** The Markdown files whose blocks are run and type-checked, relative to the repo root. */
export function docFiles(): string[] {
  const docs = join(root, 'docs')
  const inDocs = existsSync(docs)
    ? readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : []
  return ['README.md', 'CONTRIBUTING.md', ...inDocs].filter((doc) => existsSync(join(root, doc)))
}

/**
 * A block whose first line is a comment naming a file (`// app/layout.tsx`) is that file of a small app: the
 * blocks of one section that name files are written side by side, so they import each other (`./providers`).
 */
const NAMED_FILE = /^\/\/\s*((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.tsx?)\s*$/
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export interface Block {
  lang: 'ts' | 'tsx'
  /** The Markdown file it is in, relative to the repo root (`README.md`, `docs/security.md`). */
  doc: string
  /** The README line of the opening fence. */
  line: number
  /** The heading the block sits under. */
  section: string
  code: string
  /** `README.md:82 (tsx, Quick start for a host app)`, `docs/security.md:12 (ts, …)` */
  name: string
  /** Where the runnable copy is written. */
  file: string
  /** The file the block names on its first line (`app/layout.tsx`), if it names one. */
  named?: string
}

/** Every ts/tsx block of every doc file, in order. */
export function readAllBlocks(): Block[] {
  return docFiles().flatMap((doc) => readBlocks(readFileSync(join(root, doc), 'utf8'), doc))
}

/** Every ts/tsx block of one Markdown text (the README's by default), in order. */
export function readBlocks(text = readFileSync(readmePath, 'utf8'), doc = 'README.md'): Block[] {
  const lines = text.split('\n')
  const blocks: Block[] = []
  let section = '(top)'
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6}\s+(.*)$/.exec(lines[i]!)
    if (heading) section = heading[1]!.trim()
    // A fence may be indented (a block inside a list item): its lines lose that indent.
    const fence = /^( *)(`{3,})\s*([\w-]*)/.exec(lines[i]!)
    if (!fence) continue
    const [, indent, ticks, lang] = fence
    const start = i
    const body: string[] = []
    for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(ticks!); i++) {
      body.push(lines[i]!.startsWith(indent!) ? lines[i]!.slice(indent!.length) : lines[i]!.trimStart())
    }
    if (lang !== 'ts' && lang !== 'tsx') continue
    const line = start + 1
    const prefix = doc === 'README.md' ? '' : `${slug(doc.replace(/\.md$/, ''))}-`
    const named = NAMED_FILE.exec(body[0] ?? '')?.[1]
    blocks.push({
      lang,
      doc,
      line,
      section,
      code: `${body.join('\n')}\n`,
      name: `${doc}:${line} (${lang}, ${section})`,
      file: named
        ? join(outDir, `${prefix}app-${slug(section)}`, named)
        : join(outDir, `${prefix}line-${line}.${lang}`),
      ...(named ? { named } : {}),
    })
  }
  return blocks
}

/** The package's entry names and the source file each stands for, from package.json "exports". */
export function entryMap(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string
    exports: Record<string, string | { types?: string }>
  }
  const map = new Map<string, string>()
  for (const [key, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'string' ? undefined : target.types
    const source = types?.match(/^\.\/dist\/types\/(.+)\.d\.ts$/)?.[1]
    if (!source) continue
    map.set(key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, join(root, 'src', `${source}.ts`))
  }
  return map
}

/**
 * The block with each import of a package entry (`from 'walletstate/react'`, `import('walletstate')`) rewritten
 * to a relative path to its source, and each relative import (`./src/machines/kit/onDemand`, for contributors)
 * read as relative to README.md, the repo root. Other specifiers (`react`, `viem/chains`) are left alone, so an
 * entry the package lacks fails to resolve.
 */
export function rewriteImports(code: string, file: string, entries = entryMap(), named = false): string {
  return code.replace(
    /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bdeclare\s+module\s+)(['"])([^'"]+)\2/g,
    (all, head, quote, spec) => {
      // A named file's relative imports are its app's own files, written beside it.
      if (named && /^\.\.?\//.test(spec)) return all
      const source = /^\.\.?\//.test(spec) ? join(root, spec) : entries.get(spec)
      if (!source) return all
      let path = relative(dirname(file), source).replace(/\.ts$/, '')
      if (!path.startsWith('.')) path = `./${path}`
      return `${head}${quote}${path}${quote}`
    },
  )
}

/**
 * Writes the runnable copies of all the README's blocks (each test file calls it with all of them, so neither
 * removes a copy the other runs), atomically (the two test files may write the same copy at once), and removes
 * copies of blocks the README no longer has at that line.
 */
export function writeBlocks(blocks: Block[]): void {
  mkdirSync(outDir, { recursive: true })
  const entries = entryMap()
  for (const block of blocks) {
    mkdirSync(dirname(block.file), { recursive: true })
    const temp = `${block.file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`
    writeFileSync(temp, rewriteImports(block.code, block.file, entries, block.named !== undefined))
    renameSync(temp, block.file)
  }
  const current = new Set(blocks.map((b) => b.file))
  for (const name of readdirSync(outDir)) {
    const file = join(outDir, name)
    if (/^(?:[a-z0-9-]+-)?line-\d+\.tsx?$/.test(name) && !current.has(file)) rmSync(file, { force: true })
  }
}
