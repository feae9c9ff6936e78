/** Types of scripts/test-runner.mjs (the stage runner of `npm test`). */
export interface Stage {
  name: string
  /** The command and its arguments. */
  run: string[]
  /** A vitest project whose JSON report is `${out}/${tier}.json`. */
  tier?: string
  /** Needs Chromium (ensured before the first such stage). */
  chromium?: boolean
  always?: boolean
  /**
   * Runs beside the stages after it (its output held, printed when it ends), joined at the latest before the
   * first `chromium` stage; for a stage without a report that keeps one core busy (tsc).
   */
  beside?: boolean
}
export declare function runStages(options: {
  stages: readonly Stage[]
  out: string
  env?: NodeJS.ProcessEnv
  log?: (line: string) => void
  error?: (line: string) => void
  /** How long the run's processes get to end by themselves after the last stage (default 3 s). */
  settleMs?: number
  ensureBrowser?: (env: NodeJS.ProcessEnv) => string
  /** The value of WALLETSTATE_TEST_RUN given to every stage (default: random). */
  runId?: string
}): Promise<number>

/** How many of a tier's slowest files the closing lines name. */
export declare const SLOWEST_FILES: number
/** No test file should take longer than this (seconds); the closing lines flag one that does. */
export declare const FILE_SECONDS_LIMIT: number
export interface FileTimes {
  /** The times are whole files' (the file-times report), not their tests' only (the JSON report). */
  whole: boolean
  files: Array<{ file: string; seconds: number }>
}
/** Each file of a tier with its time: from the file-times report at `filesPath`, else from the JSON `report`. */
export declare function fileTimes(filesPath: string, report: unknown): FileTimes
/** The closing lines under a tier: its five slowest files. */
export declare function slowestLines(times: FileTimes): string[]
