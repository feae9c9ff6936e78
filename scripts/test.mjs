// `npm test`: every check in order — types, lint, unit/model-based/sandbox tests, then end to end in Chromium —
// and one closing line with the totals. Exits non-zero when any stage fails.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'

const out = '.tmp/test-results'
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })

const stages = [
  ['walletconnect bundle', ['node', 'scripts/build-walletconnect.mjs', '--if-missing']],
  ['types', ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['lint', ['npx', 'biome', 'check', 'src', 'test', 'demo', 'bench', 'scripts', 'sandbox']],
  [
    'unit',
    ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}/unit.json`],
  ],
  ['chromium', ['node', 'scripts/ensure-chromium.mjs']],
  [
    'e2e',
    [
      'npx',
      'vitest',
      'run',
      '--config',
      'vitest.e2e.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}/e2e.json`,
    ],
  ],
]

const failedStages = []
for (const [name, [command, ...args]] of stages) {
  console.log(`\n▶ ${name}: ${[command, ...args].join(' ')}`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env })
  if (result.status !== 0) {
    failedStages.push(name)
    // Without types or lint the tests still run, so one run shows every problem; without Chromium e2e cannot.
    if (name === 'chromium') break
  }
}

let passed = 0
let failed = 0
let skipped = 0
for (const file of ['unit.json', 'e2e.json']) {
  const path = `${out}/${file}`
  if (!existsSync(path)) continue
  const report = JSON.parse(readFileSync(path, 'utf8'))
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
}
if (failedStages.length > 0) console.log(`\nFailed stages: ${failedStages.join(', ')}`)
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failedStages.length > 0 || failed > 0 || passed === 0 ? 1 : 0)
