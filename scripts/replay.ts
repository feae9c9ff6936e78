/**
 * `npm run replay -- recording.json [--write-test test/replays/name.test.ts]`: the package's
 * `walletstate-replay` command run from this repo's sources (no build needed), for the QA loop in the README.
 * A written test imports the sources (`--package` defaults to this repo's `src`, relative to the test).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as machines from '../src/machines/index.ts'
import { runReplayCli } from '../src/testing/index.ts'

const rel = (from: string, path: string) => {
  const text = relative(dirname(resolve(from)), resolve(path))
    .split('\\')
    .join('/')
  return text.startsWith('.') ? text : `./${text}`
}
const argv = process.argv.slice(2)
const writeTest = argv[argv.indexOf('--write-test') + 1]
if (argv.includes('--write-test') && writeTest && !argv.includes('--package')) {
  argv.push('--package', rel(writeTest, 'src'))
}

process.exitCode = await runReplayCli(argv, {
  machines,
  readFile: (path) => readFile(path, 'utf8'),
  writeFile: (path, text) => writeFile(path, text),
  importModule: (path) => import(pathToFileURL(resolve(path)).href),
  relative: rel,
  out: (line) => console.log(line),
})
