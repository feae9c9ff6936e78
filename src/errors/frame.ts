import { ALERTS, BaseError, type BaseErrorParameters, type ErrorInfo, type KitAlert } from './base'
import { FRAME_NOT_LOADED } from './frameReport'

/**
 * Errors of the login frame and the embedded wallet (SPEC §8). The SPEC's texts are the `shortMessage`s; a
 * snapshot keeps them as plain `FrameErrorInfo` so the inspector and the views can carry them.
 */
export class FrameError extends BaseError {
  override name = 'FrameError'
  /** An EIP-1193 / JSON-RPC code when there is one (4001 for a declined or aborted request). */
  readonly code: number | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

/** The frame did not announce itself in time (SPEC §9: 20 s). Comes with the embedded-wallet alert. */
export class FrameLoadError extends FrameError {
  override name = 'FrameLoadError'
  readonly alert: KitAlert = ALERTS.EMBEDDED_WALLET_LOAD_FAILED
  constructor(parameters: BaseErrorParameters = {}) {
    super(FRAME_NOT_LOADED, parameters)
  }
}

/** The frame refused this page's origin (SPEC §5): the invalid-app-configuration alert. */
export class FrameOriginNotAllowedError extends FrameError {
  override name = 'FrameOriginNotAllowedError'
  readonly alert: KitAlert = ALERTS.INVALID_APP_CONFIGURATION
  constructor(parameters: BaseErrorParameters & { origin?: string } = {}) {
    super(ALERTS.INVALID_APP_CONFIGURATION.shortMessage, {
      ...parameters,
      details: parameters.details ?? `The origin ${parameters.origin ?? 'of this page'} is not allowed.`,
    })
  }
}

/**
 * SPEC §8: the embedded wallet refused to switch the account to its smart account (the app's project or the
 * network has no smart-account support). `details` keeps the frame's own words.
 */
export class SmartAccountUnsupportedError extends FrameError {
  override name = 'SmartAccountUnsupportedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('This application might not support Smart Accounts', parameters)
  }
}

/** A request other than an RPC call got no answer in time (SPEC §9). */
export class FrameTimeoutError extends FrameError {
  override name = 'FrameTimeoutError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Something went wrong', parameters)
  }
}

/**
 * An RPC request was dropped before the frame answered (open requests rejected, sign-out, frame lost).
 * Code 4001: to a dapp it is the visitor walking away from the request.
 */
export class FrameRequestAbortedError extends FrameError {
  override name = 'FrameRequestAbortedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Request was aborted', { code: 4001, ...parameters })
  }
}

/** The frame answered with an error; its message, or the SPEC's default when it gave none. */
export class FrameReplyError extends FrameError {
  override name = 'FrameReplyError'
  constructor(message: string | undefined, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(message?.trim() ? message.trim() : 'An error occurred', parameters)
  }
}

/** The visitor declined a signature in the frame (EIP-1193 4001). */
export class SignatureDeclinedError extends FrameError {
  override name = 'SignatureDeclinedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Signature declined', { code: 4001, ...parameters })
  }
}

/** An RPC call the embedded wallet does not allow (EIP-1193 4200). */
export class RpcNotAllowedError extends FrameError {
  override name = 'RpcNotAllowedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Requested RPC call is not allowed', { code: 4200, ...parameters })
  }
}

/** An action the embedded wallet cannot take now, e.g. a request while signed out (EIP-1193 4100). */
export class ActionNotAllowedError extends FrameError {
  override name = 'ActionNotAllowedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Action not allowed', { code: 4100, ...parameters })
  }
}

/** A social login could not start, e.g. the browser blocked its popup (SPEC §8). */
export class AuthInitError extends FrameError {
  override name = 'AuthInitError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('A problem occurred while trying initialize authentication', parameters)
  }
}

/** SPEC §5: a new e-mail login within the cooldown. `seconds` is the time left, rounded up. */
export class EmailThrottledError extends FrameError {
  override name = 'EmailThrottledError'
  readonly seconds: number
  constructor(seconds: number, parameters: BaseErrorParameters = {}) {
    super(`Please try again after ${seconds} seconds`, parameters)
    this.seconds = seconds
  }
}

/** SPEC §5: the e-mail (or the new e-mail of an update) is not a valid address. */
export class InvalidEmailError extends FrameError {
  override name = 'InvalidEmailError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid email', parameters)
  }
}

/** A one-time code that cannot be one (blank, or longer than any code). Ours: SPEC names no text. */
export class InvalidOtpError extends FrameError {
  override name = 'InvalidOtpError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid code', parameters)
  }
}

/**
 * SPEC §5: an answer that should be a transaction hash (0x and 64 hex characters) is not one. Never shown or
 * kept as a hash. Ours: SPEC names no text.
 */
export class InvalidTransactionHashError extends FrameError {
  override name = 'InvalidTransactionHashError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid transaction hash', parameters)
  }
}

/**
 * SPEC §5: an answer that should be a signed message (0x and 62 or more hex characters) is not one. Never shown
 * or kept as a signature. Ours: SPEC names no text.
 */
export class InvalidSignatureError extends FrameError {
  override name = 'InvalidSignatureError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid signature', parameters)
  }
}

/** What a snapshot keeps of a frame error: the kit's one `ErrorInfo` (this name is kept for existing code). */
export type FrameErrorInfo = ErrorInfo

/**
 * The plain data a snapshot keeps of an error.
 *
 * @example
 * assign({ error: frameErrorInfo(new FrameTimeoutError()) }) // { name: 'FrameTimeoutError', message: 'Something went wrong' }
 */
export function frameErrorInfo(error: unknown): FrameErrorInfo {
  if (error instanceof FrameError) {
    return {
      name: error.name,
      message: error.shortMessage,
      ...(error.code === undefined ? {} : { code: error.code }),
    }
  }
  if (error instanceof BaseError) return { name: error.name, message: error.shortMessage }
  return { name: 'FrameError', message: 'Something went wrong' }
}

/**
 * Turns a reply error of the frame into the kit's error: the frame's text, 'Signature declined' for a bare
 * 4001, 'An error occurred' for anything else without a text.
 *
 * @example
 * replyError({ message: '', code: 4001 }).shortMessage // 'Signature declined'
 */
export function replyError(error: { message: string; code?: number }): FrameError {
  const parameters = error.code === undefined ? {} : { code: error.code }
  if (!error.message.trim() && error.code === 4001) return new SignatureDeclinedError()
  return new FrameReplyError(error.message, parameters)
}

/**
 * Rebuilds an error instance from the plain data a snapshot or an emitted event carries, so a provider can
 * throw it.
 *
 * @example
 * actor.on('embedded.rpcError', (e) => reject(toFrameError(e.error)))
 */
export function toFrameError(info: FrameErrorInfo): FrameError {
  const error = new FrameError(info.message, info.code === undefined ? {} : { code: info.code })
  error.name = info.name
  return error
}
