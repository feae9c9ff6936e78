// `npm test`: every check in order, tier by tier, and one closing line with the totals:
//   walletconnect bundle (when missing) → types (tsc, beside the next stages up to Chromium's) → lint → type tests → unit → model → Chromium (installed
//   when missing) → consumer (the packed package in a host app) → integration → e2e
// Each test tier is a vitest project (vitest.config.ts) with its own JSON report in .tmp/test-results/<tier>.json,
// and each file's whole time in <tier>.files.json (scripts/file-times-reporter.mjs): the closing lines give every
// stage's wall time and each tier's five slowest files.
// Every process the run starts carries WALLETSTATE_TEST_RUN=<run id>; one still alive at the end fails the run
// (scripts/test-runner.mjs, scripts/leftovers.mjs).
// Chromium is ensured just before the first tier that launches it, and the path it settled on is handed to the
// later tiers in CHROMIUM_PATH. Exits non-zero when any stage fails or no test ran.
//
//   npm test                      everything
//   npm test -- unit model        only the stages named (the bundle, and Chromium where needed, still first)
import { FILE_TIMES_KEY } from './file-times-reporter.mjs'
import { runStages } from './test-runner.mjs'

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
  '--reporter=./scripts/file-times-reporter.mjs',
  `--outputFile.${FILE_TIMES_KEY}=${out}/${project}.files.json`,
]

const stages = [
  {
    name: 'walletconnect bundle',
    always: true,
    run: ['node', 'scripts/build-walletconnect.mjs', '--if-missing'],
  },
  // tsc keeps one core busy for minutes: it runs beside lint, the type tests, unit and model (which use both).
  { name: 'types', beside: true, run: ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json'] },
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

process.exit(await runStages({ stages: selected, out }))
