#!/usr/bin/env node
// `npx walletstate-replay recording.json`: replays a saved recording in Node (see `walletstate-replay --help`).
// The command itself is `runReplayCli` in walletstate/testing; this file gives it Node's files and modules.
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as machines from 'walletstate/machines'
import { runReplayCli } from 'walletstate/testing'

process.exitCode = await runReplayCli(process.argv.slice(2), {
  machines,
  readFile: (path) => readFile(path, 'utf8'),
  writeFile: (path, text) => writeFile(path, text),
  importModule: (path) => import(pathToFileURL(resolve(path)).href),
  relative: (from, path) => {
    const rel = relative(dirname(resolve(from)), resolve(path))
      .split('\\')
      .join('/')
    return rel.startsWith('.') ? rel : `./${rel}`
  },
  out: (line) => console.log(line),
})
