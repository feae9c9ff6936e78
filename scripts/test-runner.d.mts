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
