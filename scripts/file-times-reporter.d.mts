/** Types of scripts/file-times-reporter.mjs (a vitest reporter writing each test file's whole time). */
import type { Reporter } from 'vitest/reporters'
/** The key of vitest's `outputFile` option that names this report's path. */
export declare const FILE_TIMES_KEY: string
export default class FileTimesReporter implements Reporter {}
