/** Types of scripts/leftovers.mjs (the end check of `npm test`). */
export declare const RUN_MARKER: 'WALLETSTATE_TEST_RUN'
export declare const SETTLE_MS: number
export interface MarkedProcess {
  pid: number
  command: string
}
export declare function markedProcesses(value: string, options?: { exclude?: number[] }): MarkedProcess[]
export declare function leftoverProcesses(
  value: string,
  options?: { settleMs?: number; exclude?: number[] },
): Promise<MarkedProcess[]>
export declare function stopProcesses(processes: readonly MarkedProcess[]): Promise<number[]>
