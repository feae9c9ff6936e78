import { BaseError } from './base'

/** A file that is not a walletstate recording, or one of a version this kit cannot read. */
export class RecordingFormatError extends BaseError {
  override name = 'RecordingFormatError'
}
