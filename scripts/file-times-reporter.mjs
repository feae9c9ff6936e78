// A vitest reporter that writes each test file's whole time, for the runner's "slowest files" lines
// (scripts/test-runner.mjs). vitest's JSON report cannot say it: a file's startTime/endTime there span its
// tests only (from the first test's start to the last test's end), so what a file does before its first test
// is missing: importing the file and running its describe callbacks (a model test that builds its graph
// there shows 2 s for 20 minutes) and its beforeAll hooks (an e2e file's sandbox and browser start).
// Here a file's time is vitest's own accounting of it: environment, harness, setup files, import and describe
// callbacks, then every test and hook.
//
//   npx vitest run --reporter=default --reporter=./scripts/file-times-reporter.mjs \
//     --outputFile.file-times=.tmp/test-results/unit.files.json
//
// Writes `{ files: [{ file, seconds }] }` (paths relative to the root, slowest first) to
// `outputFile['file-times']`; without that option it writes nothing.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'

/** The key of vitest's `outputFile` option that names this report's path. */
export const FILE_TIMES_KEY = 'file-times'

export default class FileTimesReporter {
  onInit(vitest) {
    this.vitest = vitest
  }

  onTestRunEnd(testModules) {
    const outputFile = this.vitest?.config?.outputFile
    const path = typeof outputFile === 'object' ? outputFile?.[FILE_TIMES_KEY] : undefined
    if (!path) return
    const root = this.vitest.config.root
    const files = testModules
      .map((module) => ({ file: relative(root, module.moduleId), seconds: moduleSeconds(module) }))
      .sort((a, b) => b.seconds - a.seconds)
    const target = resolve(root, path)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, `${JSON.stringify({ files }, null, 2)}\n`)
  }
}

/** A test module's time, everything vitest counts for it, in seconds (0 when it never ran). */
function moduleSeconds(module) {
  const d = module.diagnostic()
  const ms =
    (d.environmentSetupDuration ?? 0) +
    (d.prepareDuration ?? 0) +
    (d.setupDuration ?? 0) +
    (d.collectDuration ?? 0) +
    (d.duration ?? 0)
  return Math.round(ms / 100) / 10
}
