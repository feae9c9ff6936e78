import { BaseError, type BaseErrorParameters, type ErrorInfo, findCode } from './base'

/**
 * Errors of batched calls (EIP-5792: `wallet_getCapabilities`, `wallet_sendCalls`, `wallet_getCallsStatus`).
 * Where the SPEC names a rule, its text is the `shortMessage` exactly (§5: "Batched calls need a 'to' starting 0x;
 * data, if present, starts 0x"); the other texts are ours and say what happened.
 */
export class CallsError extends BaseError {
  override name = 'CallsError'
  /** An EIP-1193 / JSON-RPC code when there is one (4001 for a batch declined in the wallet). */
  readonly code: number | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

/** SPEC §5: the rule every call of a batch must meet before any wallet is asked. */
export const BATCHED_CALLS_RULE = "Batched calls need a 'to' starting 0x; data, if present, starts 0x."

/** A call of the batch breaks SPEC §5 (its details say which call and why): refused before the wallet is asked. */
export class InvalidBatchedCallError extends CallsError {
  override name = 'InvalidBatchedCallError'
  constructor(parameters: BaseErrorParameters = {}) {
    super(BATCHED_CALLS_RULE, parameters)
  }
}

/** The wallet answered `wallet_getCapabilities` with something that is not EIP-5792's shape. */
export class InvalidCapabilitiesError extends CallsError {
  override name = 'InvalidCapabilitiesError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet answered wallet_getCapabilities with an invalid result', parameters)
  }
}

/** The wallet answered `wallet_sendCalls` or `wallet_getCallsStatus` with something that is not EIP-5792's shape. */
export class InvalidCallsStatusError extends CallsError {
  override name = 'InvalidCallsStatusError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet answered with an invalid calls status', parameters)
  }
}

/** Sending calls needs a connected eip155 account. */
export class CallsNotConnectedError extends CallsError {
  override name = 'CallsNotConnectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connect a wallet to send calls', parameters)
  }
}

/** Another batch is being sent: one at a time. */
export class CallsBusyError extends CallsError {
  override name = 'CallsBusyError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('A batch of calls is already in progress', parameters)
  }
}

/** The batch did not land: the wallet declined it, or a call reverted (its details say which). */
export class CallsFailedError extends CallsError {
  override name = 'CallsFailedError'
  constructor(parameters: BaseErrorParameters & { code?: number } = {}) {
    super(
      parameters.code === 4001 ? 'The batch was declined in the wallet' : 'The batch of calls failed',
      parameters,
    )
  }
}

/** What a snapshot keeps of an error of batched calls (plain data); any other error as a failed batch. */
export function callsErrorInfo(error: unknown): ErrorInfo {
  const known =
    error instanceof CallsError
      ? error
      : new CallsFailedError({
          cause: error,
          ...(findCode(error) === undefined ? {} : { code: findCode(error)! }),
        })
  return {
    name: known.name,
    message: known.shortMessage,
    ...(known.code === undefined ? {} : { code: known.code }),
    ...(known.details ? { details: known.details } : {}),
  }
}

/**
 * The batch was sent (the wallet took it, its id known) but its final status could not be read before its
 * deadline: it may still land. Its details say the last read's problem. Not a failure to try again: a second batch
 * could pay twice; its status is read again first.
 */
export class CallsOutcomeUnknownError extends CallsError {
  override name = 'CallsOutcomeUnknownError'
  constructor(parameters: BaseErrorParameters = {}) {
    super(
      "The batch's outcome is unknown: it may still land. Check its status before sending it again",
      parameters,
    )
  }
}

/** The bundler answered `eth_getUserOperationReceipt` with something that is not ERC-4337's receipt. */
export class BundlerAnswerError extends CallsError {
  override name = 'BundlerAnswerError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The bundler answered eth_getUserOperationReceipt with an invalid result', parameters)
  }
}

/** No batch of this wallet has this id (EIP-5792's 5730). */
export class UnknownCallsIdError extends CallsError {
  override name = 'UnknownCallsIdError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unknown bundle id', { ...parameters, code: 5730 })
  }
}

/** The wallet has no `wallet_showCallsStatus` (EIP-5792): it cannot show a batch's status. */
export class ShowCallsStatusUnsupportedError extends CallsError {
  override name = 'ShowCallsStatusUnsupportedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super("The wallet cannot show a batch's status (no wallet_showCallsStatus)", parameters)
  }
}

/** The wallet (or the chain) did not answer within its time (its details say which step). */
export class CallsTimeoutError extends CallsError {
  override name = 'CallsTimeoutError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The wallet did not answer in time', parameters)
  }
}

const CALLS_ERRORS = {
  InvalidBatchedCallError,
  InvalidCapabilitiesError,
  InvalidCallsStatusError,
  CallsNotConnectedError,
  CallsBusyError,
  CallsOutcomeUnknownError,
  ShowCallsStatusUnsupportedError,
  CallsTimeoutError,
} as const

/**
 * The error a host gets for a batch that did not land, from the kit's snapshot: the kit's own by their name,
 * anything else (declined, reverted) as `CallsFailedError`.
 */
export function callsErrorOf(info: ErrorInfo): CallsError {
  const Known = CALLS_ERRORS[info.name as keyof typeof CALLS_ERRORS]
  if (Known) return new Known(info.details ? { details: info.details } : {})
  return new CallsFailedError({
    ...(info.details ? { details: info.details } : {}),
    ...(info.code === undefined ? {} : { code: info.code }),
  })
}
