// What the consumer tier's host apps share: the repo's own manifest, the versions it tests with, running commands,
// installing the packed kit into a host and checking what npm said while doing it.
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repo = fileURLToPath(new URL('../../', import.meta.url))

export const own = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  name: string
  version: string
}

/** A package's version in this repo's node_modules: a host pins it, so the npm cache has it. */
export const installed = (name: string) =>
  (JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version

/** The environment of a host's production build: without vitest's NODE_ENV=test (React's development code). */
export function hostEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NODE_ENV: _test, ...env } = process.env
  return { ...env, ...extra }
}

const options = (cwd: string, env: NodeJS.ProcessEnv) => ({
  cwd,
  encoding: 'utf8' as const,
  env: { ...env, npm_config_update_notifier: 'false' },
  maxBuffer: 64 * 1024 * 1024,
})

/** Runs a command to its end; its stdout, or an error carrying stdout and stderr. */
export const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(command, args, { ...options(cwd, env), stdio: ['ignore', 'pipe', 'pipe'] })

/** The same, without blocking the test's process (so a sandbox can start meanwhile): stdout, then stderr. */
export const runAsync = (
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> =>
  new Promise((done, fail) => {
    execFile(command, args, options(cwd, env), (error, stdout, stderr) => {
      if (error) fail(Object.assign(error, { stdout, stderr }))
      else done(`${stdout}\n${stderr}`)
    })
  })

/**
 * `npm install <tarball>` in a host whose package.json lists its own packages, from the npm cache where it can;
 * everything npm printed (its warnings are on stderr). `--foreground-scripts` prints "> name@version script" for
 * every script npm runs.
 */
export const installPacked = (host: string, tarball: string) =>
  runAsync(
    'npm',
    ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--foreground-scripts'],
    host,
  )

/** Lifecycle scripts npm runs, or (npm 11) lists for approval, when a package is installed as a dependency. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare']

/** The installed kit's install-time scripts, by name (none is the goal: a host is asked to approve each). */
export function ownInstallScripts(host: string): string[] {
  const manifest = JSON.parse(readFileSync(join(host, 'node_modules', own.name, 'package.json'), 'utf8')) as {
    version: string
    scripts?: Record<string, string>
  }
  return Object.keys(manifest.scripts ?? {}).filter((s) => INSTALL_SCRIPTS.includes(s))
}

/** Lines of npm's install log that run or list for approval a script of the kit's. */
export function ownScriptLines(log: string): string[] {
  const ours = new RegExp(
    `(^|\\s)${own.name.replace(/[/.]/g, '\\$&')}@${own.version.replace(/\./g, '\\.')}\\b`,
  )
  return log
    .split('\n')
    .filter((line) => (line.startsWith('> ') || line.includes('install-scripts')) && ours.test(line))
}

interface Explained {
  name?: string
  version?: string
  dependents?: { from?: Explained }[]
}

/**
 * The packages npm warned EBADENGINE about (the Node version does not satisfy their `engines`) that the kit
 * brings into the host: the kit itself, or a package some chain of its dependencies leads to (`npm explain`).
 */
export function ownBadEngines(log: string, host: string): string[] {
  const flagged = [...log.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1] as string)
  if (flagged.length === 0) return []
  const explained = JSON.parse(run('npm', ['explain', ...flagged, '--json'], host)) as Explained[]
  const leadsToOwn = (node: Explained | undefined, depth = 0): boolean =>
    node !== undefined &&
    depth < 50 &&
    (node.name === own.name || (node.dependents ?? []).some((d) => leadsToOwn(d.from, depth + 1)))
  return flagged.filter((spec) =>
    explained.some((node) => spec === `${node.name}@${node.version}` && leadsToOwn(node)),
  )
}

/** The host's node_modules on disk (`du`), printed for the tier's log; in MiB. */
export function reportNodeModulesSize(host: string, label: string): number {
  const kib = Number(run('du', ['-sk', join(host, 'node_modules')], host).split('\t')[0])
  const mib = kib / 1024
  console.log(`${label}: node_modules ${mib.toFixed(0)} MiB (du)`)
  return mib
}
