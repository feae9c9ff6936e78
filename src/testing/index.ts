/**
 * `walletstate/testing`: replay a machine's paths in your own tests (model-based testing over xstate/graph),
 * record a session (`createRecorder`) and replay it in Node (`replayRecording`, `npx walletstate-replay`).
 * The README's "Replaying paths in tests" and "Recording a session and replaying it (QA)" sections show both in full.
 *
 * @example
 * const recorder = createRecorder()
 * createRoot(el).render(<KitRoot machine={kit} inspect={recorder.inspect} />)
 * // later, in a test:
 * const result = replayRecording(recorder.recording(), { machine: sendMachine })
 * expect(result.ok, formatReplayResult(result)).toBe(true)
 */

export { RecordingFormatError } from '../errors/recording'
export { REPLAY_CLI_USAGE, type ReplayCliHost, runReplayCli } from '../recording/cli'
export { activeStatePaths, describeMachine } from '../recording/describe'
export type {
  ActorKind,
  ActorRecord,
  EventRecord,
  Json,
  MachineDescription,
  MachineRecord,
  RecordEntry,
  Recording,
  RecordingHeader,
  SnapshotRecord,
  StateDescription,
  TransitionDescription,
} from '../recording/format'
export { RECORDING_FORMAT, RECORDING_VERSION } from '../recording/format'
export { parseRecording } from '../recording/parse'
export { createRecorder, type Recorder, type RecorderOptions } from '../recording/recorder'
export { REDACTION_RULES } from '../recording/redact'
export {
  formatReplayResult,
  type ReplayedActor,
  type ReplayFailure,
  type ReplayRecordingOptions,
  type ReplayRecordingResult,
  replayRecording,
} from '../recording/replay'
export {
  assertCoverage,
  createModel,
  delayOf,
  describe as describePath,
  describeEvent,
  isDelayEvent,
  type Model,
  type ModelOptions,
  type ModelPath,
  type ModelStep,
  type ReplayOptions,
  type ReplayResult,
  replayPath,
  type TransitionInfo,
} from './model'
