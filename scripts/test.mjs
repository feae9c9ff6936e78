// `npm test`: every check in order, tier by tier, and one closing line with the totals:
//   walletconnect bundle (when missing) → types (tsc) → lint → type tests → unit → model → Chromium (installed
//   when missing) → consumer (the packed package in a host app) → integration → e2e
// Each test tier is a vitest project (vitest.config.ts) with its own JSON report in .tmp/test-results/<tier>.json.
// Chromium is ensured just before the first tier that launches it, and the path it settled on is handed to the
// later tiers in CHROMIUM_PATH. Exits non-zero when any stage fails or no test ran.
//
//   npm test                      everything
//   npm test -- unit model        only the stages named (the bundle, and Chromium where needed, still first)
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { ensureChromium } from './ensure-chromium.mjs'

const out = '.tmp/test-results'

/** One vitest project, its report written where the totals are read from. */
const tier = (project) => [
  'npx',
  'vitest',
  'run',
  '--project',
  project,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}/${project}.json`,
]

const stages = [
  {
    name: 'walletconnect bundle',
    always: true,
    run: ['node', 'scripts/build-walletconnect.mjs', '--if-missing'],
  },
  { name: 'types', run: ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json'] },
  { name: 'lint', run: ['npm', 'run', 'lint'] },
  { name: 'type tests', tier: 'typecheck', run: tier('typecheck') },
  { name: 'unit', tier: 'unit', run: tier('unit') },
  { name: 'model', tier: 'model', run: tier('model') },
  { name: 'consumer', tier: 'consumer', chromium: true, run: tier('consumer') },
  { name: 'integration', tier: 'integration', chromium: true, run: tier('integration') },
  { name: 'e2e', tier: 'e2e', chromium: true, run: tier('e2e') },
]

const wanted = process.argv.slice(2)
const unknown = wanted.filter((name) => !stages.some((s) => s.name === name || s.tier === name))
if (unknown.length > 0) {
  console.error(
    `Unknown stage ${unknown.join(', ')}; stages: ${stages.map((s) => s.tier ?? s.name).join(', ')}`,
  )
  process.exit(2)
}
const selected = stages.filter(
  (s) => wanted.length === 0 || s.always || wanted.includes(s.name) || wanted.includes(s.tier),
)

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })

const env = { ...process.env }
/** undefined until ensured; false when it could not be. */
let chromium
const failedStages = []
const ran = []
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`

for (const stage of selected) {
  if (stage.chromium && chromium === undefined) {
    console.log(`\n▶ chromium: ensure it runs (scripts/ensure-chromium.mjs)`)
    try {
      chromium = ensureChromium(env)
      env.CHROMIUM_PATH = chromium
      console.log(`Chromium: ${chromium}`)
    } catch (error) {
      console.error(`ensure-chromium: ${error.message}`)
      chromium = false
      failedStages.push('chromium')
    }
  }
  if (stage.chromium && chromium === false) {
    console.log(`\n▷ ${stage.name}: skipped, no Chromium`)
    failedStages.push(stage.name)
    continue
  }
  const [command, ...args] = stage.run
  console.log(`\n▶ ${stage.name}: ${stage.run.join(' ')}`)
  const started = Date.now()
  const result = spawnSync(command, args, { stdio: 'inherit', env })
  // Without types or lint the tests still run, so one run shows every problem.
  if (result.status !== 0) failedStages.push(stage.name)
  if (stage.tier) ran.push({ stage, took: seconds(started) })
}

let passed = 0
let failed = 0
let skipped = 0
const lines = []
for (const { stage, took } of ran) {
  const path = `${out}/${stage.tier}.json`
  if (!existsSync(path)) {
    lines.push(`  ${stage.name}: no report`)
    continue
  }
  const report = JSON.parse(readFileSync(path, 'utf8'))
  const tierPassed = report.numPassedTests ?? 0
  const tierFailed = report.numFailedTests ?? 0
  const tierSkipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  passed += tierPassed
  failed += tierFailed
  skipped += tierSkipped
  lines.push(`  ${stage.name}: ${tierPassed} passed, ${tierFailed} failed, ${tierSkipped} skipped (${took})`)
  if (tierPassed + tierFailed === 0 && !failedStages.includes(stage.name)) {
    lines[lines.length - 1] += ' — no tests ran'
    failedStages.push(stage.name)
  }
}
if (lines.length > 0) console.log(`\nTiers:\n${lines.join('\n')}`)
if (failedStages.length > 0) console.log(`\nFailed stages: ${failedStages.join(', ')}`)
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
// Zero tests is a failure too (a glob gone wrong), unless only stages without tests were asked for.
process.exit(failedStages.length > 0 || failed > 0 || (ran.length > 0 && passed === 0) ? 1 : 0)
