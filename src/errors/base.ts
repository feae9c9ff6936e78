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
 * try { ... } catch (e) {
 *   if (e instanceof BaseError) toast(e.shortMessage)
 * }
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
   * const rpc = error.walk((e) => e instanceof RpcError)
   */
  walk(fn?: (error: unknown) => boolean): unknown {
    return walk(this, fn)
  }
}

function walk(error: unknown, fn?: (error: unknown) => boolean): unknown {
  if (fn?.(error)) return error
  if (error && typeof error === 'object' && 'cause' in error && error.cause !== undefined) {
    return walk(error.cause, fn)
  }
  return fn ? null : error
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
      'Set a projectId in the kit configuration: it identifies your app to the provider’s services.',
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
    longMessage: 'This page’s origin is not on the project’s allowed origins.',
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
    longMessage: 'The wallet could not verify this site’s domain. Proceed only if you trust it.',
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
