/**
 * A file that is not a walletstate recording, or one of a version this kit cannot read.
 *
 * It has the family's shape (`shortMessage`, `details`, a `cause`) but does not extend `BaseError`: the
 * recording code (`walletstate/testing`) imports nothing the kit's entries import, so the package's chunks,
 * and a host's first-click files (issue 14), stay as they are.
 */
export class RecordingFormatError extends Error {
  override name = 'RecordingFormatError'
  readonly shortMessage: string
  readonly details: string | undefined

  constructor(shortMessage: string, parameters: { cause?: unknown; details?: string } = {}) {
    super(
      parameters.details ? `${shortMessage}\n\nDetails: ${parameters.details}` : shortMessage,
      parameters.cause === undefined ? undefined : { cause: parameters.cause },
    )
    this.shortMessage = shortMessage
    this.details = parameters.details
  }
}
