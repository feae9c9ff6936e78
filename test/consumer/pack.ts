// The `consumer` tier's global setup (vitest.config.ts): `npm pack` once per run, for every host app of the tier
// (consumer.test.ts builds a Vite host, next.test.ts a Next.js one; vitest may run them in parallel). The tarball
// and npm's report of it are handed to the test files with `inject('consumerPack')`; the folder is removed after
// the run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { repo, run } from './host.ts'

/** What `npm pack --json` reports of the tarball. */
export interface PackResult {
  filename: string
  size: number
  unpackedSize: number
  entryCount: number
  files: { path: string }[]
}

export interface ConsumerPack {
  /** The tarball's absolute path. */
  tarball: string
  result: PackResult
}

declare module 'vitest' {
  export interface ProvidedContext {
    consumerPack: ConsumerPack
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'walletstate-pack-'))
  try {
    // The build's own output (prepack, prepare) comes first on stdout; the JSON report is the last thing.
    const output = run('npm', ['pack', '--json', '--pack-destination', dir], repo)
    const result = (
      JSON.parse(output.slice(output.lastIndexOf('\n[\n') + 1)) as PackResult[]
    )[0] as PackResult
    console.log(
      `${result.filename}: ${(result.size / 1024).toFixed(1)} KiB packed, ${(result.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${result.entryCount} files`,
    )
    project.provide('consumerPack', { tarball: join(dir, result.filename), result })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return () => rmSync(dir, { recursive: true, force: true })
}
