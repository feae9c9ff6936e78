import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'

/**
 * A program the sandbox runs (anvil), tied to the Node process that started it: it runs in a process group
 * of its own under a small `sh` guard that holds a pipe from this process. When this process goes away in
 * any way (a clean exit, an uncaught error, SIGTERM from a test runner, SIGKILL) the pipe closes and the guard
 * kills the program, so nothing is left behind holding a port. `stop()` ends the whole group.
 */
export interface TiedProcess {
  /** The program's own process id (not the guard's). */
  pid: number
  /** The guard's process id, which is also the id of the group (the guard, the program and its children). */
  group: number
  stdout: Readable
  stderr: Readable
  /** Resolves when the program has exited (and the guard with it). */
  exited: Promise<void>
  /** TERM to the group, KILL after `graceMs`; resolves once everything in it has exited. Safe to call twice. */
  stop(): Promise<void>
}

/** Ours: how long a stopped program gets to exit after SIGTERM before the group gets SIGKILL. */
export const STOP_GRACE_MS = 5_000

/*
 * $0 is the guard's name; "$@" the program and its arguments. The program's pid goes out on fd 3, the
 * watcher (builtins only, so killing the guard's group leaves no helper behind) waits for EOF on stdin, i.e.
 * for the Node process to go away, then kills the program; TERM to the guard is passed on.
 */
const GUARD = [
  // A background list's stdin is /dev/null in sh unless redirected: keep the pipe on fd 4 for the watcher.
  // Trapped before anything starts, so a stop() at once is passed on, not fatal to the guard alone.
  `trap 'kill -TERM "$child" 2>/dev/null' TERM INT HUP`,
  'exec 4<&0',
  '"$@" </dev/null 3>&- 4<&- &',
  'child=$!',
  'echo "$child" >&3',
  'exec 3>&-',
  '(while read -r _ <&4; do :; done; kill -KILL "$child" 2>/dev/null) &',
  'exec 4<&-',
  'watcher=$!',
  'status=0',
  'while kill -0 "$child" 2>/dev/null; do wait "$child"; status=$?; done',
  'kill -KILL "$watcher" 2>/dev/null',
  'exit "$status"',
].join('\n')

/**
 * Spawns `command` tied to this process (see {@link TiedProcess}); resolves once its pid is known.
 *
 * @example
 * const anvil = await spawnTied(anvilBinary(), ['--port', '0'])
 * createInterface({ input: anvil.stdout }).on('line', console.log)
 * await anvil.stop()
 */
export async function spawnTied(
  command: string,
  args: readonly string[],
  options: { graceMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<TiedProcess> {
  const guard = spawn('/bin/sh', ['-c', GUARD, 'walletstate-guard', command, ...args], {
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    detached: true,
    ...(options.env ? { env: options.env } : {}),
  })
  const group = guard.pid
  if (group === undefined) {
    const error = await new Promise<Error>((resolve) => guard.once('error', resolve))
    throw new Error(`Could not start ${command}: ${error.message}`)
  }
  // Registered at once: even if this process dies before anything else below runs, the group goes with it.
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-group, signal)
    } catch {
      // already gone
    }
  }
  const onExit = () => killGroup('SIGKILL')
  process.once('exit', onExit)
  // A failed kill() is reported as an 'error' event, which would crash the process if nobody listened.
  guard.on('error', () => undefined)
  guard.stdin?.on('error', () => undefined)

  const guardExited = new Promise<void>((resolve) => {
    if (guard.exitCode !== null || guard.signalCode !== null) resolve()
    else guard.once('exit', () => resolve())
  })
  void guardExited.then(() => process.removeListener('exit', onExit))

  const pidPipe = guard.stdio[3] as Readable
  const pid = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: pidPipe })
    lines.once('line', (line) => {
      lines.close()
      const value = Number(line.trim())
      if (Number.isInteger(value) && value > 0) resolve(value)
      else reject(new Error(`${command}: the guard answered "${line}" for a pid`))
    })
    void guardExited.then(() => reject(new Error(`${command}: the guard exited before starting it`)))
  }).catch((error: unknown) => {
    killGroup('SIGKILL')
    throw error
  })

  const graceMs = options.graceMs ?? STOP_GRACE_MS
  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      killGroup('SIGTERM')
      const timedOut = await Promise.race([
        guardExited.then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
      ])
      if (timedOut) killGroup('SIGKILL')
      await guardExited
      // The guard waits for the program; a KILL of the group still leaves nothing to wait for.
      killGroup('SIGKILL')
      guard.stdin?.destroy()
    })()
    return stopping
  }

  return {
    pid,
    group,
    stdout: guard.stdout as Readable,
    stderr: guard.stderr as Readable,
    exited: guardExited,
    stop,
  }
}

/** Whether a process is alive (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}
