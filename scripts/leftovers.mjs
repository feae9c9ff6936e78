// Finds the processes a test run started that are still alive, by a marker in their environment: `npm test`
// gives every stage WALLETSTATE_TEST_RUN=<id of this run>, and every process started below a stage inherits
// it (anvil, Chromium, the sandbox's helper processes), even one orphaned and adopted by init, which a walk
// of the process tree would miss. Linux only (/proc).
import { readdirSync, readFileSync } from 'node:fs'

/** The environment variable that marks the processes of one run. */
export const RUN_MARKER = 'WALLETSTATE_TEST_RUN'

/** Ours: how long processes of a finished run get to exit on their own before they count as left behind. */
export const SETTLE_MS = 3_000

/** Ours: after SIGTERM, how long a leftover gets before SIGKILL. */
const KILL_GRACE_MS = 2_000

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether the process is gone or a zombie (exited, not yet reaped). */
function ended(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
  } catch {
    return true
  }
}

/**
 * Live processes whose environment holds `RUN_MARKER=value`, except `exclude` (the caller itself by default).
 *
 * @example
 * markedProcesses('run-1') // [{ pid: 4242, command: '/…/anvil --port 0 …' }]
 */
export function markedProcesses(value, { exclude = [process.pid] } = {}) {
  const needle = `${RUN_MARKER}=${value}`
  const found = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (exclude.includes(pid)) continue
    let environ
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8')
    } catch {
      continue // gone meanwhile, or another user's
    }
    if (!environ.split('\0').includes(needle) || ended(pid)) continue
    let command = ''
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
    } catch {}
    found.push({ pid, command })
  }
  return found
}

/** Waits up to `settleMs` for the run's processes to end by themselves; answers those still alive. */
export async function leftoverProcesses(value, { settleMs = SETTLE_MS, exclude } = {}) {
  const until = Date.now() + settleMs
  let left = markedProcesses(value, { exclude })
  while (left.length > 0 && Date.now() < until) {
    await sleep(100)
    left = markedProcesses(value, { exclude })
  }
  return left
}

/** SIGTERM, then SIGKILL to whatever is still alive after a grace time. Answers the pids that would not die. */
export async function stopProcesses(processes) {
  const signal = (pid, name) => {
    try {
      process.kill(pid, name)
    } catch {}
  }
  for (const { pid } of processes) signal(pid, 'SIGTERM')
  const alive = () => processes.filter(({ pid }) => !ended(pid))
  const until = Date.now() + KILL_GRACE_MS
  while (alive().length > 0 && Date.now() < until) await sleep(100)
  for (const { pid } of alive()) signal(pid, 'SIGKILL')
  await sleep(100)
  return alive().map(({ pid }) => pid)
}
