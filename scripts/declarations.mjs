// The package's type declarations (dist/types/, from `tsc -p tsconfig.build.json`), as a host's editor loads them.
//
//   node scripts/declarations.mjs --prune        deletes the declarations no entry point reaches (part of `npm run
//                                                build`): tsc emits one per source file, the lazy chunks' and the
//                                                test harnesses' too, which no host can import
//   node scripts/declarations.mjs [folder]       prints the size of each entry's declarations and the largest files,
//                                                and exits 1 when a file is over 150 KB or all together over 600 KB
//                                                (folder: the package, the repo by default, or an installed copy)
//   --json                                       the same as one JSON object
// Exit code 2 on a usage or file error (one line on stderr).
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const repo = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(join(repo, 'package.json'))

/** A host's editor loads every declaration an entry reaches; the budget is for any one file and for them all. */
export const MAX_FILE_BYTES = 150_000
export const MAX_TOTAL_BYTES = 600_000

class UsageError extends Error {}

/** The declaration files of the package's entry points (`exports[*].types`). */
function entryDeclarations(dir) {
  let manifest
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  } catch (error) {
    throw new UsageError(`Cannot read ${join(dir, 'package.json')}: ${error.code ?? error.message}`)
  }
  const entries = Object.values(manifest.exports ?? {})
    .map((target) => (typeof target === 'object' && target ? target.types : undefined))
    .filter((types) => typeof types === 'string')
    .map((types) => resolve(dir, types))
  const missing = entries.filter((path) => !existsSync(path))
  if (entries.length === 0 || missing.length > 0) {
    throw new UsageError(
      `No declarations at ${missing.map((p) => relative(dir, p)).join(', ') || 'exports[*].types'}: run \`npm run build\` first`,
    )
  }
  return entries
}

/** Where a relative specifier in a declaration file points: `x.d.ts` or `x/index.d.ts`. */
function declarationAt(from, specifier) {
  const base = resolve(dirname(from), specifier).replace(/\.(js|mjs|ts|d\.ts)$/, '')
  return [`${base}.d.ts`, join(base, 'index.d.ts')].find((path) => existsSync(path))
}

/** Every declaration file the entries reach through relative imports, `import("…")` types and references. */
export function reachable(entries) {
  const ts = require('typescript')
  const seen = new Set()
  const visit = (path) => {
    if (seen.has(path)) return
    seen.add(path)
    const info = ts.preProcessFile(readFileSync(path, 'utf8'), true, true)
    for (const { fileName } of [...info.importedFiles, ...info.referencedFiles]) {
      if (!fileName.startsWith('.')) continue
      const target = declarationAt(path, fileName)
      if (target) visit(target)
    }
  }
  for (const entry of entries) visit(entry)
  return seen
}

const declarationsUnder = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name))

/** Deletes the declaration files under `typesDir` that no entry reaches, then the folders left empty. */
export function prune(dir) {
  const keep = reachable(entryDeclarations(dir))
  const typesDir = dirname([...entryDeclarations(dir)].sort((a, b) => a.length - b.length)[0])
  const removed = declarationsUnder(typesDir).filter((path) => !keep.has(path))
  for (const path of removed) rmSync(path)
  const folders = readdirSync(typesDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => b.length - a.length)
  for (const folder of folders) if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true })
  return { kept: keep.size, removed: removed.length }
}

/** Sizes of the declarations a host gets: every .d.ts under the entries' folder, and what each entry reaches. */
export function measure(dir) {
  const entries = entryDeclarations(dir)
  const typesDir = dirname([...entries].sort((a, b) => a.length - b.length)[0])
  const files = declarationsUnder(typesDir).map((path) => ({
    path: relative(dir, path),
    bytes: statSync(path).size,
  }))
  const bytesOf = new Map(files.map((f) => [resolve(dir, f.path), f.bytes]))
  const total = files.reduce((sum, f) => sum + f.bytes, 0)
  const perEntry = entries.map((entry) => {
    const reached = [...reachable([entry])]
    return {
      entry: relative(dir, entry),
      files: reached.length,
      bytes: reached.reduce((sum, path) => sum + (bytesOf.get(path) ?? statSync(path).size), 0),
    }
  })
  const largest = [...files].sort((a, b) => b.bytes - a.bytes)
  return {
    folder: relative(dir, typesDir),
    files: files.length,
    total,
    perEntry,
    largest: largest.slice(0, 10),
    overFile: largest.filter((f) => f.bytes > MAX_FILE_BYTES),
    overTotal: total > MAX_TOTAL_BYTES,
  }
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`

export function formatSizes(m) {
  return [
    `${m.folder}: ${m.files} files, ${kb(m.total)} (budget ${kb(MAX_TOTAL_BYTES)}, any one file ${kb(MAX_FILE_BYTES)})`,
    ...m.perEntry.map((e) => `  ${e.entry} reaches ${e.files} files, ${kb(e.bytes)}`),
    '  largest:',
    ...m.largest.map((f) => `    ${kb(f.bytes).padStart(9)}  ${f.path}`),
    ...(m.overTotal ? [`✗ over the total budget by ${kb(m.total - MAX_TOTAL_BYTES)}`] : []),
    ...m.overFile.map((f) => `✗ ${f.path} is over ${kb(MAX_FILE_BYTES)}: ${kb(f.bytes)}`),
  ].join('\n')
}

export function main(argv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { prune: { type: 'boolean' }, json: { type: 'boolean' } },
    })
  } catch (error) {
    throw new UsageError(error.message)
  }
  if (parsed.positionals.length > 1) throw new UsageError('Give one package folder')
  const dir = resolve(parsed.positionals[0] ?? repo)
  if (parsed.values.prune) {
    const { kept, removed } = prune(dir)
    console.log(`Declarations: kept the ${kept} files the entry points reach, removed ${removed}`)
    return 0
  }
  const sizes = measure(dir)
  console.log(parsed.values.json ? JSON.stringify(sizes, null, 2) : formatSizes(sizes))
  return sizes.overTotal || sizes.overFile.length > 0 ? 1 : 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2))
  } catch (error) {
    console.error(
      `declarations: ${error instanceof UsageError ? error.message : String(error?.message ?? error)}`,
    )
    process.exitCode = 2
  }
}
