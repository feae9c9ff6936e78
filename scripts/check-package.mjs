// What a host installs with the package, checked from the published files themselves:
//   - install scripts: the manifest's preinstall/install/postinstall/prepare (npm lists each for the host to
//     approve), or a binding.gyp (npm then runs node-gyp);
//   - imports: every package the published JavaScript and declarations import is a dependency or a peer, and every
//     dependency is imported (what is built into dist/ is a devDependency);
//   - engines: every package installed with it at run time (dependencies and required peers, transitively) accepts
//     every Node version the package's own `engines.node` accepts.
// Install scripts of the packages it pulls in are printed as notes.
//
//   node scripts/check-package.mjs                     the repo (after `npm run build`), its node_modules
//   node scripts/check-package.mjs <folder>            an installed copy, e.g. <host>/node_modules/walletstate,
//                                                      its dependencies resolved from there as Node would
//   node scripts/check-package.mjs <file.tgz>          an `npm pack` tarball; dependencies from --resolve-from
//   --resolve-from <folder>   where to resolve dependencies from (default: the package's folder, or the repo's)
//   --json                    one JSON object on stdout instead of lines
// Exits 0 when clean, 1 on a finding, 2 on a usage or file error (one line on stderr).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const repo = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(join(repo, 'package.json'))

/** Scripts npm runs (or lists for approval) when the package is installed. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare']
const BUILTINS = new Set(builtinModules)

class UsageError extends Error {}

/**
 * `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`; relative, absolute, URL and `node:` → undefined.
 * A bare built-in name (`buffer`, `events`) is a package too: a browser host's bundler resolves it to one.
 */
export function packageOf(specifier) {
  if (/^(\.|\/|[a-z]+:)/i.test(specifier)) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** Every module specifier a file imports (static, dynamic, re-exports, `import("x")` types), read by TypeScript. */
export function specifiersOf(text) {
  const ts = require('typescript')
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName)
}

function filesUnder(dir, test) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** The published files that import: dist's JavaScript and declarations and bin/ (the built demo is not published). */
function publishedSources(dir) {
  const dist = join(dir, 'dist')
  const inDist = filesUnder(dist, (name) => /\.(m?js|d\.m?ts)$/.test(name)).filter(
    (path) => !relative(dist, path).startsWith('demo'),
  )
  return [...inDist, ...filesUnder(join(dir, 'bin'), (name) => /\.m?js$/.test(name))]
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${error.code ?? error.message}`)
  }
}

/** The folder holding `name`'s package.json, looked up from `from` as Node does (node_modules up the tree). */
function locate(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

/** Runtime edges of a manifest: dependencies, optional dependencies (when installed) and peers that are required. */
function runtimeEdges(manifest) {
  const optionalPeers = manifest.peerDependenciesMeta ?? {}
  return [
    ...Object.keys(manifest.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ...Object.keys(manifest.peerDependencies ?? {})
      .filter((name) => !optionalPeers[name]?.optional)
      .map((name) => ({ name, optional: false, peer: true })),
  ]
}

/**
 * Walks the packages installed with `manifest` at run time, from `from`, and reports whose `engines.node` does not
 * accept every version `range` accepts, which have install scripts, and which were not found.
 */
function walkRuntime(manifest, from, range) {
  const semver = require('semver')
  const conflicts = []
  const scripts = []
  const missing = []
  const seen = new Set()
  const visit = (edges, at, path) => {
    for (const edge of edges) {
      const dir = locate(edge.name, at)
      if (!dir) {
        if (!edge.optional) missing.push([...path, edge.name].join(' > '))
        continue
      }
      const own = readJson(join(dir, 'package.json'))
      const id = `${own.name}@${own.version}`
      const chain = [...path, id].join(' > ')
      if (seen.has(dir)) continue
      seen.add(dir)
      const needs = own.engines?.node
      if (range && needs && !semver.subset(range, needs, { includePrerelease: false })) {
        conflicts.push({ package: id, node: needs, via: chain })
      }
      const install = INSTALL_SCRIPTS.filter((s) => s !== 'prepare' && own.scripts?.[s])
      if (install.length > 0 || existsSync(join(dir, 'binding.gyp'))) {
        scripts.push({ package: id, scripts: install.length > 0 ? install : ['binding.gyp'], via: chain })
      }
      visit(runtimeEdges(own), dir, [...path, id])
    }
  }
  visit(runtimeEdges(manifest), from, [`${manifest.name}@${manifest.version}`])
  return { conflicts, scripts, missing }
}

/** The whole check of the package in `dir` (its published files), its dependencies resolved from `from`. */
export function checkPackage(dir, from = dir) {
  const manifest = readJson(join(dir, 'package.json'))
  const sources = publishedSources(dir)
  if (!sources.some((path) => path.includes(`${join(dir, 'dist')}`))) {
    throw new UsageError(`No dist/ in ${dir}: run \`npm run build\` first`)
  }
  const installScripts = INSTALL_SCRIPTS.filter((name) => manifest.scripts?.[name]).map(
    (name) => `${name}: ${manifest.scripts[name]}`,
  )
  if (existsSync(join(dir, 'binding.gyp'))) installScripts.push('binding.gyp (npm runs node-gyp rebuild)')

  const dependencies = new Set(Object.keys(manifest.dependencies ?? {}))
  const declared = new Set([...dependencies, ...Object.keys(manifest.peerDependencies ?? {})])
  /** Package → the published files importing it. */
  const imported = new Map()
  for (const path of sources) {
    for (const specifier of specifiersOf(readFileSync(path, 'utf8'))) {
      const name = packageOf(specifier)
      if (!name || name === manifest.name) continue
      if (!imported.has(name)) imported.set(name, new Set())
      imported.get(name).add(relative(dir, path))
    }
  }
  const undeclared = [...imported]
    // A bare built-in name that is not declared is Node's own (bin/ runs in Node).
    .filter(([name]) => !declared.has(name) && !BUILTINS.has(name))
    .map(([name, files]) => ({ package: name, importedBy: [...files].sort() }))
    .sort((a, b) => a.package.localeCompare(b.package))
  const unused = [...dependencies].filter((name) => !imported.has(name)).sort()

  const range = manifest.engines?.node
  const runtime = walkRuntime(manifest, from, range)
  return {
    package: `${manifest.name}@${manifest.version}`,
    engines: range ?? null,
    installScripts,
    undeclared,
    unused,
    enginesConflicts: runtime.conflicts,
    notes: {
      dependencyInstallScripts: runtime.scripts,
      notFound: runtime.missing,
    },
  }
}

export const isClean = (report) =>
  report.installScripts.length === 0 &&
  report.undeclared.length === 0 &&
  report.unused.length === 0 &&
  report.enginesConflicts.length === 0

export function formatReport(report) {
  const lines = [`${report.package} (engines.node ${report.engines ?? 'not set'})`]
  const section = (title, items) => {
    lines.push(`${items.length === 0 ? '✓' : '✗'} ${title}: ${items.length === 0 ? 'none' : items.length}`)
    for (const item of items) lines.push(`    ${item}`)
  }
  section('install scripts in the published manifest', report.installScripts)
  section(
    'imported but not a dependency or peer',
    report.undeclared.map(
      (u) => `${u.package} (${u.importedBy.slice(0, 3).join(', ')}${u.importedBy.length > 3 ? ', …' : ''})`,
    ),
  )
  section('dependencies nothing published imports', report.unused)
  section(
    `runtime packages whose engines.node does not accept all of ${report.engines ?? '*'}`,
    report.enginesConflicts.map((c) => `${c.package} needs node ${c.node}: ${c.via}`),
  )
  for (const s of report.notes.dependencyInstallScripts) {
    lines.push(`  note: ${s.package} has install scripts (${s.scripts.join(', ')}): ${s.via}`)
  }
  for (const m of report.notes.notFound) lines.push(`  note: not installed, not checked: ${m}`)
  return lines.join('\n')
}

/** Unpacks a tarball into a temporary folder (npm's tarballs hold one `package/` folder). */
function unpack(tarball) {
  const into = mkdtempSync(join(tmpdir(), 'walletstate-check-'))
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', into], { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (error) {
    rmSync(into, { recursive: true, force: true })
    throw new UsageError(`Cannot unpack ${tarball}: ${String(error.stderr ?? error.message).trim()}`)
  }
  return { dir: join(into, 'package'), cleanup: () => rmSync(into, { recursive: true, force: true }) }
}

export function main(argv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, 'resolve-from': { type: 'string' } },
    })
  } catch (error) {
    throw new UsageError(error.message)
  }
  if (parsed.positionals.length > 1) throw new UsageError('Give one package folder or tarball')
  const target = resolve(parsed.positionals[0] ?? repo)
  if (!existsSync(target)) throw new UsageError(`No such file or folder: ${target}`)
  const packed = target.endsWith('.tgz') ? unpack(target) : undefined
  try {
    const from = resolve(parsed.values['resolve-from'] ?? (packed ? repo : target))
    const report = checkPackage(packed?.dir ?? target, from)
    console.log(parsed.values.json ? JSON.stringify(report, null, 2) : formatReport(report))
    return isClean(report) ? 0 : 1
  } finally {
    packed?.cleanup()
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2))
  } catch (error) {
    console.error(
      `check-package: ${error instanceof UsageError ? error.message : String(error?.message ?? error)}`,
    )
    process.exitCode = 2
  }
}
