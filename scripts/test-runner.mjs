// The stage runner behind `npm test` (scripts/test.mjs): runs stages in order, tier by tier, prints the
// totals, and ends by checking that no process the run started is still alive (scripts/leftovers.mjs):
// every stage gets WALLETSTATE_TEST_RUN=<run id>, and a marked process still running after the last stage
// fails the run (it is listed, then stopped, so nothing outlives the run either way).
// Each tier's closing line gives its wall time, and under it its five slowest files with their times (from the
// tier's `${tier}.files.json`, scripts/file-times-reporter.mjs; without it, from the JSON report).
import { spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { relative } from 'node:path'
import { ensureChromium } from './ensure-chromium.mjs'
import { leftoverProcesses, RUN_MARKER, stopProcesses } from './leftovers.mjs'

/**
 * Runs `stages` (each `{ name, run: [command, ...args], tier?, chromium?, always?, beside? }`; a tier's JSON
 * report is read from `${out}/${tier}.json`) and answers the exit code: 1 when a stage failed, a test failed, no
 * test ran, or a process of the run outlived it.
 *
 * A stage with `beside: true` (one without a report, e.g. tsc, which keeps one core busy) runs beside the stages
 * after it instead of before them: its output is held and printed, with its wall time, once it ends, at the
 * latest before the first stage that launches Chromium (`chromium: true`), whose timeouts it must not crowd.
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
  /** The stages without a report (types, lint), with their wall time. */
  const plain = []
  const runStarted = Date.now()
  const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`
  /** The `beside` stages under way: each a promise of its status, output and wall time. */
  let besides = []
  const joinBesides = async () => {
    for (const { stage, done } of besides) {
      const { status, output, took } = await done
      log(`\n◀ ${stage.name} (ran beside the stages after it): ${status === 0 ? 'ok' : 'failed'}`)
      if (output.trim() !== '') log(output.trimEnd())
      if (status !== 0) failedStages.push(stage.name)
      plain.push(`  ${stage.name}: ${status === 0 ? 'ok' : 'failed'} (wall ${took}, beside the next stages)`)
    }
    besides = []
  }

  for (const stage of stages) {
    if (stage.chromium) await joinBesides()
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
    log(`\n▶ ${stage.name}: ${stage.run.join(' ')}${stage.beside ? ' (beside the next stages)' : ''}`)
    const started = Date.now()
    if (stage.beside) {
      besides.push({
        stage,
        done: runBeside(command, args, env).then((r) => ({ ...r, took: seconds(started) })),
      })
      continue
    }
    const result = spawnSync(command, args, { stdio: 'inherit', env })
    // Without types or lint the tests still run, so one run shows every problem.
    if (result.status !== 0) failedStages.push(stage.name)
    if (stage.tier) ran.push({ stage, took: seconds(started) })
    else plain.push(`  ${stage.name}: ${result.status === 0 ? 'ok' : 'failed'} (wall ${seconds(started)})`)
  }

  await joinBesides()
  let passed = 0
  let failed = 0
  let skipped = 0
  const lines = [...plain]
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
      `  ${stage.name}: ${tierPassed} passed, ${tierFailed} failed, ${tierSkipped} skipped (wall ${took})`,
    )
    if (tierPassed + tierFailed === 0 && !failedStages.includes(stage.name)) {
      lines[lines.length - 1] += ' — no tests ran'
      failedStages.push(stage.name)
    }
    lines.push(...slowestLines(fileTimes(`${out}/${stage.tier}.files.json`, report)))
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

  if (lines.length > 0) log(`\nStages:\n${lines.join('\n')}`)
  if (failures.length > 0) log(`\nFailed:\n${failures.join('\n')}`)
  if (failedStages.length > 0) log(`\nFailed stages: ${failedStages.join(', ')}`)
  log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped (wall ${seconds(runStarted)} in all)`)
  // Zero tests is a failure too (a glob gone wrong), unless only stages without tests were asked for.
  return failedStages.length > 0 || failed > 0 || (ran.length > 0 && passed === 0) ? 1 : 0
}

/** Runs a `beside` stage's command with its output held: answers its exit status and what it printed. */
function runBeside(command, args, env) {
  return new Promise((resolve) => {
    const chunks = []
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk) => chunks.push(chunk))
    child.stderr.on('data', (chunk) => chunks.push(chunk))
    child.on('error', (cause) => resolve({ status: 1, output: `${command}: ${cause.message}` }))
    child.on('close', (status) =>
      resolve({ status: status ?? 1, output: Buffer.concat(chunks).toString('utf8') }),
    )
  })
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

/** How many of a tier's slowest files the closing lines name. */
export const SLOWEST_FILES = 5
/** No test file should take longer than this (seconds); the closing lines flag one that does. */
export const FILE_SECONDS_LIMIT = 120

/**
 * Each file of a tier with its time in seconds, slowest first: from `filesPath` (scripts/file-times-reporter.mjs,
 * everything vitest counts for the file) when it is there, else from the JSON report, where a file's
 * startTime/endTime span its tests only: the longer of that span and the sum of its tests' durations, which
 * leaves out the file's import and its beforeAll hooks (so it says "tests only").
 */
export function fileTimes(filesPath, report) {
  if (existsSync(filesPath)) {
    const { files } = JSON.parse(readFileSync(filesPath, 'utf8'))
    return {
      whole: true,
      files: (files ?? []).map((f) => ({ file: f.file, seconds: Number(f.seconds) || 0 })),
    }
  }
  const files = (report.testResults ?? []).map((file) => {
    const span = Number(file.endTime) - Number(file.startTime)
    const sum = (file.assertionResults ?? []).reduce((total, test) => total + (Number(test.duration) || 0), 0)
    return {
      file: relative(process.cwd(), String(file.name ?? '')),
      seconds: Math.max(Number.isFinite(span) ? span : 0, sum) / 1000,
    }
  })
  return { whole: false, files }
}

/** The closing lines under a tier: its slowest files, the time first, one over the limit flagged. */
export function slowestLines({ whole, files }) {
  const slowest = files
    .filter((f) => f.seconds > 0)
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_FILES)
  if (slowest.length === 0) return []
  const width = Math.max(...slowest.map((f) => formatSeconds(f.seconds).length))
  return [
    `    slowest files${whole ? '' : ' (tests only: no file-times report)'}:`,
    ...slowest.map(
      (f) =>
        `      ${formatSeconds(f.seconds).padStart(width)}  ${f.file}${
          f.seconds > FILE_SECONDS_LIMIT ? `  — over ${FILE_SECONDS_LIMIT} s` : ''
        }`,
    ),
  ]
}

const formatSeconds = (seconds) => `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`
