/**
 * The kit's one error family, in the style of viem and wagmi: a short message the UI shows (the SPEC's texts),
 * optional details, a cause chain you can walk, and a stable `name` to switch on.
 */
export interface BaseErrorParameters {
  cause?: unknown
  details?: string
  metaMessages?: string[]
}

/**
 * Root of every error the kit throws or puts in a snapshot.
 *
 * @example
 * ```ts
 * import { BaseError, createKitMachine } from 'walletstate'
 *
 * try {
 *   createKitMachine({ projectId: '', networks: [] as never })
 * } catch (error) {
 *   // The short message is the one to show; `details` says what exactly was wrong.
 *   if (error instanceof BaseError) console.error(error.shortMessage, error.details)
 * }
 * ```
 */
export class BaseError extends Error {
  override name = 'BaseError'
  readonly shortMessage: string
  readonly details: string | undefined
  readonly metaMessages: string[] | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const details =
      parameters.details ??
      (parameters.cause instanceof BaseError
        ? parameters.cause.details
        : parameters.cause instanceof Error
          ? parameters.cause.message
          : undefined)
    const message = [
      shortMessage,
      ...(parameters.metaMessages?.length ? ['', ...parameters.metaMessages] : []),
      ...(details && details !== shortMessage ? ['', `Details: ${details}`] : []),
    ].join('\n')
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.shortMessage = shortMessage
    this.details = details
    this.metaMessages = parameters.metaMessages
  }

  /**
   * Walks the cause chain: the deepest error without `fn`, or the first one `fn` accepts (else `null`).
   *
   * @example
   * ```ts
   * import { BaseError } from 'walletstate'
   *
   * const error = new BaseError('Transaction failed', { cause: new TypeError('fetch failed') })
   * const network = error.walk((e) => e instanceof TypeError) // the TypeError
   * ```
   */
  walk(fn?: (error: unknown) => boolean): unknown {
    return walkError(this, fn)
  }
}

/** How deep a cause chain is followed (a chain that loops back on itself stops here). */
const MAX_CAUSE_DEPTH = 16

/**
 * `BaseError.walk` for anything thrown: ours, viem's and wagmi's errors, a plain `Error` with a `cause`, or the
 * plain `{ code, message }` object some wallets reject with. The deepest cause without `fn`, or the first
 * error of the chain `fn` accepts (else `null`).
 *
 * @example
 * walkError(error, (e) => e instanceof UserRejectedRequestError) // viem's 4001, however deep
 */
export function walkError(error: unknown, fn?: (error: unknown) => boolean): unknown {
  let current = error
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth++) {
    if (fn?.(current)) return current
    const cause = current && typeof current === 'object' && 'cause' in current ? current.cause : undefined
    if (cause === undefined || cause === null) break
    current = cause
  }
  return fn ? null : current
}

/** The numeric `code` of an error (EIP-1193, JSON-RPC, WalletConnect), if it has one. */
export function codeOf(error: unknown): number | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'number'
    ? error.code
    : undefined
}

/** The first numeric `code` on the cause chain, if any (a wrapper's own code comes before the wallet's). */
export function findCode(error: unknown): number | undefined {
  return codeOf(walkError(error, (e) => codeOf(e) !== undefined))
}

/** Whether any error on the cause chain carries `code` (e.g. a wallet's 4001 under viem's InternalRpcError). */
export function hasCode(error: unknown, code: number): boolean {
  return walkError(error, (e) => codeOf(e) === code) !== null
}

/**
 * What a snapshot keeps of an error: plain, serialisable data, so the inspector, storage and the views can
 * carry it, and a provider can rebuild an error from it. The one form for every area (connection, send,
 * frame, session): `FrameErrorInfo` and `SessionErrorInfo` are this type.
 *
 * @example
 * { name: 'UserRejectedError', message: 'Connection declined in the wallet.', code: 4001 }
 */
export interface ErrorInfo {
  /** The error's class name, stable to switch on. */
  name: string
  /** The short message: the SPEC's text, as the UI shows it (`BaseError.shortMessage`). */
  message: string
  /** An EIP-1193, JSON-RPC or WalletConnect code, when there is one. */
  code?: number
  /** More about the cause, for the inspector and logs; not the text the UI shows. */
  details?: string
}

/**
 * What telemetry reports of an error (SPEC §7 props `errorType`, `errorMessage`, `stackTrace`): plain data a
 * machine can put in an event.
 */
export interface ErrorReport {
  errorType: string
  errorMessage: string
  stackTrace?: string
}

/** Longest error message and stack reported: the telemetry sink's own limits. */
const MAX_REPORT_MESSAGE = 5_000
const MAX_REPORT_STACK = 20_000

/**
 * The SPEC §7 error props of anything thrown: its name, message (a kit error's short message first) and stack.
 *
 * @example
 * errorReportOf(new UserRejectedError()) // { errorType: 'UserRejectedError', errorMessage: 'Connection declined in the wallet.', stackTrace: '…' }
 */
export function errorReportOf(error: unknown): ErrorReport {
  if (error instanceof Error) {
    const short =
      'shortMessage' in error && typeof error.shortMessage === 'string' ? error.shortMessage : undefined
    return {
      errorType: error.name.slice(0, 200),
      errorMessage: (short ?? error.message).slice(0, MAX_REPORT_MESSAGE),
      ...(error.stack ? { stackTrace: error.stack.slice(0, MAX_REPORT_STACK) } : {}),
    }
  }
  return { errorType: typeof error, errorMessage: String(error).slice(0, MAX_REPORT_MESSAGE) }
}

/** A configuration the kit cannot run with (SPEC §5). */
export class ConfigError extends BaseError {
  override name = 'ConfigError'
}

/** Alerts of SPEC §8: shown in the modal, with a short and a long text. */
export type AlertCode =
  | 'PROJECT_ID_NOT_CONFIGURED'
  | 'INVALID_PROJECT_ID'
  | 'INVALID_APP_CONFIGURATION'
  | 'NETWORK_NOT_FOUND'
  | 'EMBEDDED_WALLET_LOAD_FAILED'
  | 'REQUEST_TIMED_OUT'
  | 'UNVERIFIED_DOMAIN'
  | 'SESSION_EXPIRED'
  | 'RPC_METHOD_NOT_ALLOWED'

export interface KitAlert {
  code: AlertCode
  shortMessage: string
  longMessage: string
}

/** The SPEC §8 alerts with their texts. */
export const ALERTS: Record<AlertCode, KitAlert> = {
  PROJECT_ID_NOT_CONFIGURED: {
    code: 'PROJECT_ID_NOT_CONFIGURED',
    shortMessage: 'Project ID Not Configured',
    longMessage:
      "Set a projectId in the kit configuration: it identifies your app to the provider's services.",
  },
  INVALID_PROJECT_ID: {
    code: 'INVALID_PROJECT_ID',
    shortMessage: 'Invalid Project ID',
    longMessage:
      'The configured projectId is not recognised by the provider. Check it in your project settings.',
  },
  INVALID_APP_CONFIGURATION: {
    code: 'INVALID_APP_CONFIGURATION',
    shortMessage: 'Invalid App Configuration',
    longMessage: "This page's origin is not on the project's allowed origins.",
  },
  NETWORK_NOT_FOUND: {
    code: 'NETWORK_NOT_FOUND',
    shortMessage: 'Network Not Found',
    longMessage: 'The requested network is not one of the networks the app configured.',
  },
  EMBEDDED_WALLET_LOAD_FAILED: {
    code: 'EMBEDDED_WALLET_LOAD_FAILED',
    shortMessage: 'Embedded Wallet Failed to Load',
    longMessage: 'The login frame could not be loaded. Check the network and try again.',
  },
  REQUEST_TIMED_OUT: {
    code: 'REQUEST_TIMED_OUT',
    shortMessage: 'Request Timed Out',
    longMessage: 'The wallet did not answer in time. Try again.',
  },
  UNVERIFIED_DOMAIN: {
    code: 'UNVERIFIED_DOMAIN',
    shortMessage: 'Unverified Domain',
    longMessage: "The wallet could not verify this site's domain. Proceed only if you trust it.",
  },
  SESSION_EXPIRED: {
    code: 'SESSION_EXPIRED',
    shortMessage: 'Session Expired',
    longMessage: 'The wallet session expired. Connect again.',
  },
  RPC_METHOD_NOT_ALLOWED: {
    code: 'RPC_METHOD_NOT_ALLOWED',
    shortMessage: 'RPC Method Not Allowed',
    longMessage: 'The wallet does not allow this request for the current session.',
  },
}
