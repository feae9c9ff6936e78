// The stage runner behind `npm test` (scripts/test.mjs): runs stages in order, tier by tier, prints the
// totals, and ends by checking that no process the run started is still alive (scripts/leftovers.mjs):
// every stage gets WALLETSTATE_TEST_RUN=<run id>, and a marked process still running after the last stage
// fails the run (it is listed, then stopped, so nothing outlives the run either way).
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { relative } from 'node:path'
import { ensureChromium } from './ensure-chromium.mjs'
import { leftoverProcesses, RUN_MARKER, stopProcesses } from './leftovers.mjs'

/**
 * Runs `stages` (each `{ name, run: [command, ...args], tier?, chromium?, always? }`; a tier's JSON report is
 * read from `${out}/${tier}.json`) and answers the exit code: 1 when a stage failed, a test failed, no test
 * ran, or a process of the run outlived it.
 *
 * @example
 * process.exit(await runStages({ stages, out: '.tmp/test-results' }))
 */
export async function runStages({
  stages,
  out,
  env: baseEnv = process.env,
  log = console.log,
  error = console.error,
  settleMs,
  ensureBrowser = ensureChromium,
  runId = `${Date.now()}-${randomUUID()}`,
}) {
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })

  const env = { ...baseEnv, [RUN_MARKER]: runId }
  /** undefined until ensured; false when it could not be. */
  let chromium
  const failedStages = []
  const ran = []
  const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`

  for (const stage of stages) {
    if (stage.chromium && chromium === undefined) {
      log(`\n▶ chromium: ensure it runs (scripts/ensure-chromium.mjs)`)
      try {
        chromium = ensureBrowser(env)
        env.CHROMIUM_PATH = chromium
        log(`Chromium: ${chromium}`)
      } catch (cause) {
        error(`ensure-chromium: ${cause.message}`)
        chromium = false
        failedStages.push('chromium')
      }
    }
    if (stage.chromium && chromium === false) {
      log(`\n▷ ${stage.name}: skipped, no Chromium`)
      failedStages.push(stage.name)
      continue
    }
    const [command, ...args] = stage.run
    log(`\n▶ ${stage.name}: ${stage.run.join(' ')}`)
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
  /** Each failed test (or file that failed to run), named, so the closing lines say what to look at. */
  const failures = []
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
    failures.push(...failuresOf(stage.name, report))
    skipped += tierSkipped
    lines.push(
      `  ${stage.name}: ${tierPassed} passed, ${tierFailed} failed, ${tierSkipped} skipped (${took})`,
    )
    if (tierPassed + tierFailed === 0 && !failedStages.includes(stage.name)) {
      lines[lines.length - 1] += ' — no tests ran'
      failedStages.push(stage.name)
    }
  }

  // The end check: nothing this run started may still be alive.
  const leftovers = await leftoverProcesses(runId, settleMs === undefined ? {} : { settleMs })
  if (leftovers.length > 0) {
    error(`\nLeft behind by this run (still alive after its last stage), now stopped:`)
    for (const { pid, command } of leftovers) error(`  ${pid}  ${command.slice(0, 200)}`)
    const stubborn = await stopProcesses(leftovers)
    if (stubborn.length > 0) error(`  would not stop: ${stubborn.join(', ')}`)
    failedStages.push('leftover processes')
  }

  if (lines.length > 0) log(`\nTiers:\n${lines.join('\n')}`)
  if (failures.length > 0) log(`\nFailed:\n${failures.join('\n')}`)
  if (failedStages.length > 0) log(`\nFailed stages: ${failedStages.join(', ')}`)
  log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
  // Zero tests is a failure too (a glob gone wrong), unless only stages without tests were asked for.
  return failedStages.length > 0 || failed > 0 || (ran.length > 0 && passed === 0) ? 1 : 0
}

/** The failed tests of a vitest JSON report, a line each: tier, file, test, the first line of its error. */
function failuresOf(tier, report) {
  const lines = []
  const firstLine = (text) =>
    String(text ?? '')
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? ''
  for (const file of report.testResults ?? []) {
    const name = relative(process.cwd(), String(file.name ?? ''))
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed')
    for (const test of failedTests) {
      lines.push(
        `  ${tier}: ${name} › ${test.fullName ?? test.title}\n      ${firstLine(test.failureMessages?.[0])}`,
      )
    }
    if (failedTests.length === 0 && file.status === 'failed') {
      lines.push(`  ${tier}: ${name}\n      ${firstLine(file.message)}`)
    }
  }
  return lines
}
