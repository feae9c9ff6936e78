import type { AnyStateMachine } from 'xstate'
import { RecordingFormatError } from '../errors/recording'
import type { Recording } from './format'
import { parseRecording } from './parse'
import { isStateMachine } from './recorder'
import { formatReplayResult, type ReplayFailure, type ReplayRecordingResult, replayRecording } from './replay'

/** What the command needs from its host: Node's file system and module loading, given by `bin/`. */
export interface ReplayCliHost {
  /** The package's machines module (`walletstate/machines`), tried for the ids `--machine` gives none of. */
  machines: Record<string, unknown>
  readFile(path: string): Promise<string>
  /** Writes a file, creating its folder when it is missing (`--write-test dir/file.test.ts`). */
  writeFile(path: string, text: string): Promise<void>
  /** Imports a module given on the command line (`--machine ./kit.js#kit`), relative to the working folder. */
  importModule(path: string): Promise<Record<string, unknown>>
  /** `path` relative to the folder of `from` (for the written test's imports), with `./` when needed. */
  relative(from: string, path: string): string
  out(line: string): void
  /**
   * Where a bad command or file is told, in one line (stderr in `bin/`; `out` when not given). The command then
   * returns 2, and a divergence 1.
   */
  err?(line: string): void
}

export const REPLAY_CLI_USAGE: string = `Usage: walletstate-replay <recording.json> [options]

Replays a recording saved by the inspector's "Save recording" (or createRecorder().recording()) in Node:
every recorded actor of each machine, its I/O slots answered from the recording, its state compared after
every event. Prints one line per machine and, for a divergence, the event and both state values.

Options:
  --machine <module>#<export>  A machine to replay with (e.g. your kit from createKitMachine(...)); repeatable.
                               Machines the package ships are used for the other ids.
  --write-test <file>          Also write a vitest file that replays the recording (saved beside it).
  --package <name>             The package name the written test imports (default: walletstate).
  --help                       This text.

Exit code: 0 when every machine replays with no divergence, 1 otherwise, 2 for a bad command or file (told in
one line on stderr).`

/**
 * `npx walletstate-replay recording.json`: replays every machine of the recording it can find and prints the
 * result; returns the exit code.
 *
 * @example
 * ```ts
 * import { mkdir, readFile, writeFile } from 'node:fs/promises'
 * import { dirname, relative } from 'node:path'
 * import { pathToFileURL } from 'node:url'
 * import * as machines from 'walletstate/machines'
 * import { runReplayCli } from 'walletstate/testing'
 *
 * // The command's own host is the package's bin/; this is the same over Node's files.
 * process.exitCode = await runReplayCli(process.argv.slice(2), {
 *   machines,
 *   readFile: (path) => readFile(path, 'utf8'),
 *   writeFile: async (path, text) => {
 *     await mkdir(dirname(path), { recursive: true })
 *     await writeFile(path, text)
 *   },
 *   importModule: (path) => import(pathToFileURL(path).href),
 *   relative: (from, path) => {
 *     const rel = relative(dirname(from), path)
 *     return rel.startsWith('.') ? rel : `./${rel}`
 *   },
 *   out: (line) => console.log(line),
 *   err: (line) => console.error(line),
 * })
 * ```
 */
export async function runReplayCli(argv: readonly string[], host: ReplayCliHost): Promise<number> {
  /** A bad command or file: one line where errors go, and exit code 2. */
  const fail = (line: string) => {
    if (host.err) host.err(oneLine(line))
    else host.out(oneLine(line))
    return 2
  }
  const args = parseArgs(argv)
  if ('error' in args) return fail(`${args.error} (walletstate-replay --help for the options)`)
  if (args.help) {
    host.out(REPLAY_CLI_USAGE)
    return 0
  }
  let recording: Recording
  try {
    recording = parseRecording(await host.readFile(args.file))
  } catch (error) {
    return fail(
      error instanceof RecordingFormatError
        ? `${args.file}: ${error.message}`
        : `${args.file}: cannot read it (${messageOf(error)})`,
    )
  }
  const given: { machine: AnyStateMachine; module: string; name: string }[] = []
  for (const spec of args.machines) {
    const [module = '', name = 'default'] = spec.split('#')
    let exports: Record<string, unknown>
    try {
      exports = await host.importModule(module)
    } catch (error) {
      return fail(`--machine ${spec}: cannot import it (${messageOf(error)})`)
    }
    const machine = exports[name]
    if (!isStateMachine(machine)) return fail(`--machine ${spec}: "${name}" is not a state machine`)
    given.push({ machine, module, name })
  }
  const shipped = Object.entries(host.machines).flatMap(([exportName, value]) =>
    isStateMachine(value) ? [{ exportName, machine: value }] : [],
  )
  const ids = [
    ...new Set(
      recording.records.flatMap((r) => (r.type === '@xstate.actor' && r.machine ? [r.machine.id] : [])),
    ),
  ]
  host.out(
    `${args.file}: ${recording.records.length} records, ${ids.length} machines${recording.redacted ? ', redacted' : ''}`,
  )
  const results: ReplayRecordingResult[] = []
  const replayed: { id: string; exportName?: string; given?: { module: string; name: string } }[] = []
  for (const id of ids) {
    const own = given.find((g) => g.machine.id === id)
    const fromPackage = shipped.find((m) => m.machine.id === id)
    const machine = own?.machine ?? fromPackage?.machine
    if (!machine) {
      host.out(`· ${id}: skipped (not a machine of the package; pass it with --machine <module>#<export>)`)
      continue
    }
    const result = replayRecording(recording, { machine })
    if (!own && !result.ok && cannotStart(recording, id, result)) {
      host.out(
        `· ${id}: skipped (started with a config the recording does not keep; pass your kit with --machine)`,
      )
      continue
    }
    results.push(result)
    replayed.push(
      own
        ? { id, given: { module: own.module, name: own.name } }
        : { id, exportName: fromPackage!.exportName },
    )
    host.out(formatReplayResult(result))
  }
  const { writeTest } = args
  if (writeTest) {
    const jsonPath = `${writeTest.replace(/(\.test)?\.[cm]?[jt]sx?$/, '')}.recording.json`
    for (const [path, text] of [
      [jsonPath, `${JSON.stringify(recording)}\n`],
      [writeTest, testFile({ package: args.package, writeTest }, replayed, host, jsonPath)],
    ] as const) {
      try {
        await host.writeFile(path, text)
      } catch (error) {
        return fail(`--write-test ${writeTest}: cannot write ${path} (${messageOf(error)})`)
      }
    }
    host.out(`Wrote ${writeTest} (and ${jsonPath})`)
  }
  return results.length > 0 && results.every((r) => r.ok) ? 0 : 1
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The first line of a message (Node's and the loader's errors can run on over several). */
const oneLine = (text: string) => text.split('\n', 1)[0]!.trim()

/**
 * The package's bare machine cannot start as the recorded one did: a root actor recorded without input (its
 * config was bound, as `createKitMachine` binds the kit's) fails at once without one.
 */
function cannotStart(recording: Recording, id: string, result: ReplayFailure): boolean {
  const unbound = recording.records.some(
    (r) =>
      r.type === '@xstate.actor' && r.machine?.id === id && r.parentId === undefined && r.input === undefined,
  )
  const actual = result.actual
  const failedAtStart =
    result.step === 0 &&
    !!actual &&
    typeof actual === 'object' &&
    !Array.isArray(actual) &&
    actual.status === 'error'
  return unbound && failedAtStart
}

function testFile(
  args: { package: string; writeTest: string },
  replayed: { id: string; exportName?: string; given?: { module: string; name: string } }[],
  host: ReplayCliHost,
  jsonPath: string,
): string {
  const shippedIds = replayed.filter((r) => !r.given).map((r) => r.id)
  const imports = [
    `import { readFileSync } from 'node:fs'`,
    `import { expect, it } from 'vitest'`,
    // In the order a formatter sorts them (machines before testing), so the file is committed as written.
    ...(shippedIds.length > 0 ? [`import * as machines from '${args.package}/machines'`] : []),
    `import { formatReplayResult, parseRecording, replayRecording } from '${args.package}/testing'`,
    ...replayed.flatMap((r, i) =>
      r.given
        ? [`import { ${r.given.name} as given${i} } from '${host.relative(args.writeTest, r.given.module)}'`]
        : [],
    ),
  ]
  const list = replayed.map((r, i) => (r.given ? `given${i}` : `machines.${r.exportName}`))
  return `${imports.join('\n')}

// Written by walletstate-replay from ${host.relative(args.writeTest, jsonPath)}: replays the recorded session
// machine by machine and fails with the first divergence (the event and both state values).
const recording = parseRecording(
  readFileSync(new URL('${host.relative(args.writeTest, jsonPath)}', import.meta.url), 'utf8'),
)

for (const machine of [
${list.map((item) => `  ${item},`).join('\n')}
]) {
  it(\`replays \${machine.id} as recorded\`, () => {
    const result = replayRecording(recording, { machine })
    expect(result.ok, formatReplayResult(result)).toBe(true)
  })
}
`
}

function parseArgs(
  argv: readonly string[],
):
  | { error: string }
  | { help: boolean; file: string; machines: string[]; writeTest?: string; package: string } {
  const machines: string[] = []
  let file: string | undefined
  let writeTest: string | undefined
  let pkg = 'walletstate'
  let help = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const value = () => {
      const next = argv[++i]
      if (next === undefined || next.startsWith('--')) throw new Error(`${arg} needs a value`)
      return next
    }
    try {
      if (arg === '--help' || arg === '-h') help = true
      else if (arg === '--machine') machines.push(value())
      else if (arg === '--write-test') writeTest = value()
      else if (arg === '--package') pkg = value()
      else if (arg.startsWith('--')) return { error: `Unknown option ${arg}` }
      else if (file === undefined) file = arg
      else return { error: `One recording at a time (got ${file} and ${arg})` }
    } catch (error) {
      return { error: (error as Error).message }
    }
  }
  if (help) return { help, file: '', machines, package: pkg }
  if (!file) return { error: 'Missing the recording file' }
  return { help, file, machines, ...(writeTest ? { writeTest } : {}), package: pkg }
}
