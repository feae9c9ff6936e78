import type { ErrorInfo } from './base'

/*
 * The part of the login frame's errors the kit root needs (its error telemetry), apart from the frame's error
 * classes (frame.ts), which load with the frame: a module the first click imports brings every statement of it
 * that any chunk uses.
 */

/**
 * SPEC §9: the text of a login frame that did not load (FrameLoadError's, and the connectors' without a frame).
 * @internal
 */
export const FRAME_NOT_LOADED = 'Unable to load email login dependency'

/**
 * SPEC §7: what the error event of a login frame that failed to load carries (`errorType`, `errorMessage`), from
 * the failure's plain data; a notice without it (a stand-in frame) is reported as the load failure it stands for.
 *
 * @example
 * frameFailureReport(undefined) // { errorType: 'FrameLoadError', errorMessage: 'Unable to load email login dependency' }
 * @internal
 */
export function frameFailureReport(error: ErrorInfo | undefined): {
  errorType: string
  errorMessage: string
} {
  return {
    errorType: error?.name ?? 'FrameLoadError',
    errorMessage: error?.message ?? FRAME_NOT_LOADED,
  }
}
