#!/usr/bin/env node
// `npx walletstate-replay recording.json`: replays a saved recording in Node (see `walletstate-replay --help`).
// The command itself is `runReplayCli` in walletstate/testing; this file gives it Node's files, modules and output
// streams. Exit code: 0 replayed with no divergence, 1 a divergence, 2 a bad command or file (one line on stderr,
// never a stack trace).
import { realpathSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** The first line of an error's message. */
const oneLine = (error) =>
  String(error instanceof Error ? error.message : error)
    .split('\n', 1)[0]
    .trim()

/** Node's side of the command (`ReplayCliHost`): a written test's folder is created when it is missing. */
export function createNodeReplayHost(machines) {
  return {
    machines,
    readFile: (path) => readFile(path, 'utf8'),
    writeFile: async (path, text) => {
      await mkdir(dirname(resolve(path)), { recursive: true })
      await writeFile(path, text)
    },
    importModule: (path) => import(pathToFileURL(resolve(path)).href),
    relative: (from, path) => {
      const rel = relative(dirname(resolve(from)), resolve(path))
        .split('\\')
        .join('/')
      return rel.startsWith('.') ? rel : `./${rel}`
    },
    out: (line) => console.log(line),
    err: (line) => console.error(`walletstate-replay: ${line}`),
  }
}

/** Runs the command with the installed package's machines; resolves to the exit code. */
export async function main(argv) {
  try {
    const [machines, { runReplayCli }] = await Promise.all([
      import('walletstate/machines'),
      import('walletstate/testing'),
    ])
    return await runReplayCli(argv, createNodeReplayHost(machines))
  } catch (error) {
    console.error(`walletstate-replay: ${oneLine(error)}`)
    return 2
  }
}

/** Whether Node runs this file (`npx walletstate-replay`, through its symlink), not a test importing it. */
function isMain() {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
  } catch {
    return false
  }
}

if (isMain()) process.exitCode = await main(process.argv.slice(2))
