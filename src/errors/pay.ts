import { BaseError, type BaseErrorParameters, type ErrorInfo } from './base'

/**
 * Errors of Pay (SPEC §1 `pay`, issue 18): the host asks the connected wallet to pay a fixed amount to a fixed
 * recipient. The texts are ours and say what happened; a failure of the transfer itself keeps the send flow's
 * error (`PayFailedError.reason`).
 */
export class PayError extends BaseError {
  override name = 'PayError'
  /** An EIP-1193 / JSON-RPC code when there is one (4001 for a payment declined in the wallet). */
  readonly code: number | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: number } = {}) {
    super(shortMessage, parameters)
    this.code = parameters.code
  }
}

/** `features.pay` is off (the default): Pay does not open, and its code is not fetched. */
export class PayDisabledError extends PayError {
  override name = 'PayDisabledError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Pay is not enabled (features.pay is off)', parameters)
  }
}

/** Paying needs a connected wallet on the payment's network namespace. */
export class PayNotConnectedError extends PayError {
  override name = 'PayNotConnectedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Connect a wallet to pay', parameters)
  }
}

/** The host's payment request is not one the kit can pay (its details say which part). */
export class PayRequestInvalidError extends PayError {
  override name = 'PayRequestInvalidError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Invalid payment request', parameters)
  }
}

/** Another payment is open: one at a time. */
export class PayBusyError extends PayError {
  override name = 'PayBusyError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('A payment is already in progress', parameters)
  }
}

/** The visitor left Pay (closed it, went back, disconnected) before paying. */
export class PayCancelledError extends PayError {
  override name = 'PayCancelledError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Payment cancelled', parameters)
  }
}

/** The visitor left Pay after the transfer failed: `reason` is the send flow's error (declined, reverted, …). */
export class PayFailedError extends PayError {
  override name = 'PayFailedError'
  readonly reason: ErrorInfo
  constructor(reason: ErrorInfo) {
    super(reason.message, {
      ...(reason.details ? { details: reason.details } : {}),
      ...(reason.code === undefined ? {} : { code: reason.code }),
    })
    this.reason = reason
  }
}

const PAY_ERRORS = {
  PayDisabledError,
  PayNotConnectedError,
  PayRequestInvalidError,
  PayBusyError,
  PayCancelledError,
} as const

/** Pay, or the send flow it waits for, could not load its code: the payment is refused (it can be asked again). */
export const PAY_UNAVAILABLE: ErrorInfo = {
  name: 'PayFailedError',
  message: 'Pay could not load. Try again.',
}

/** What a snapshot keeps of a pay error (plain data). */
export function payErrorInfo(error: PayError): ErrorInfo {
  return {
    name: error.name,
    message: error.shortMessage,
    ...(error.details ? { details: error.details } : {}),
  }
}

/**
 * The error a host gets for a payment that did not happen, from the kit's snapshot: Pay's own errors by their
 * name, anything else (the wallet declined, the transfer reverted) as `PayFailedError`.
 *
 * @example
 * if (state.status === 'failed') throw payErrorOf(state.error)
 */
export function payErrorOf(info: ErrorInfo): PayError {
  const Known = PAY_ERRORS[info.name as keyof typeof PAY_ERRORS]
  return Known ? new Known(info.details ? { details: info.details } : {}) : new PayFailedError(info)
}
