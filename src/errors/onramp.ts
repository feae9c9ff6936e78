import { BaseError, type BaseErrorParameters, type ErrorInfo, findCode } from './base'

/**
 * Errors of the Buy (onramp) flow (SPEC §7 onramp calls, §8, §9; issue 19). SPEC §8 names no text for them
 * (its fallbacks keep the options and quotes from failing in view); the texts are ours and say what the visitor
 * can do.
 */
export class OnrampError extends BaseError {
  override name = 'OnrampError'
}

/**
 * A limit as people read it: thousands grouped, two decimals (`7500` → `7,500.00`). Decimal strings only; anything
 * else is returned as it is.
 *
 * @example
 * formatFiatLimit('25000.00') // '25,000.00'
 */
export function formatFiatLimit(decimal: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(decimal.trim())
  if (!match) return decimal
  const whole = match[1]!.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const fraction = (match[2] ?? '').padEnd(2, '0')
  return `${whole}.${fraction}`
}

/**
 * The amount is not one the payment method takes in the payment currency (SPEC §9: card 10.00 to 7500.00, bank
 * account 10.00 to 25000.00, USD and EUR; or the Data API's own limits). Also for an amount that is not a
 * positive number with at most two decimals: the limits say what is wanted.
 */
export class OnrampAmountOutOfRangeError extends OnrampError {
  override name = 'OnrampAmountOutOfRangeError'
  /** Decimal strings in `currency`. */
  readonly min: string
  readonly max: string
  readonly currency: string

  constructor(parameters: BaseErrorParameters & { min: string; max: string; currency: string }) {
    super(
      `Enter an amount between ${formatFiatLimit(parameters.min)} and ${formatFiatLimit(parameters.max)} ${parameters.currency}`,
      parameters,
    )
    this.min = parameters.min
    this.max = parameters.max
    this.currency = parameters.currency
  }
}

/** `GET /v1/onramp/options` failed (the flow then shows the built-in samples, SPEC §8). */
export class OnrampOptionsError extends OnrampError {
  override name = 'OnrampOptionsError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to load what you can buy.', parameters)
  }
}

/** `POST /v1/onramp/quote` failed (the flow then shows an estimate, SPEC §8). */
export class OnrampQuoteError extends OnrampError {
  override name = 'OnrampQuoteError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to get a quote.', parameters)
  }
}

/** `POST /v1/generators/onrampurl` failed, or answered a link the kit will not open. */
export class OnrampUrlError extends OnrampError {
  override name = 'OnrampUrlError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to open the payment page. Try again.', parameters)
  }
}

/** The browser did not open the partner window (a pop-up blocker). */
export class OnrampPopupBlockedError extends OnrampError {
  override name = 'OnrampPopupBlockedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super(
      'The payment page was blocked by the browser. Allow pop-ups for this site and try again.',
      parameters,
    )
  }
}

/** The provider's orders could not be read (before the partner page opens, or while waiting). */
export class OnrampPurchasesError extends OnrampError {
  override name = 'OnrampPurchasesError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('Unable to check your purchases. Try again.', parameters)
  }
}

/** The partner marked the order failed. */
export class OnrampPurchaseFailedError extends OnrampError {
  override name = 'OnrampPurchaseFailedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The purchase failed', parameters)
  }
}

/** The partner window was closed with no completed order. */
export class OnrampAbandonedError extends OnrampError {
  override name = 'OnrampAbandonedError'
  constructor(parameters: BaseErrorParameters = {}) {
    super('The purchase was not completed', parameters)
  }
}

/** No completed order within `ONRAMP_PURCHASE_TIMEOUT_MS` (src/constants.ts). */
export class OnrampTimeoutError extends OnrampError {
  override name = 'OnrampTimeoutError'
  constructor(parameters: BaseErrorParameters & { timeoutMs?: number } = {}) {
    super('The purchase did not complete in time. Check your activity before trying again.', {
      ...parameters,
      details:
        parameters.details ??
        (parameters.timeoutMs === undefined
          ? undefined
          : `No completed order after ${Math.round(parameters.timeoutMs / 60_000)} min`),
    })
  }
}

/**
 * The partner URL the Data API answered is not on one of the chosen provider's origins (the config's allow-list,
 * `ONRAMP_PARTNER_ORIGINS` by default): the kit does not send the visitor there.
 */
export class OnrampPartnerOriginError extends OnrampError {
  override name = 'OnrampPartnerOriginError'
  /** The origin refused. */
  readonly origin: string
  readonly provider: string

  constructor(parameters: BaseErrorParameters & { origin: string; provider: string }) {
    super("The payment page is not on the provider's own site, so it was not opened.", {
      ...parameters,
      details: parameters.details ?? `${parameters.origin} is not an origin of ${parameters.provider}`,
    })
    this.origin = parameters.origin
    this.provider = parameters.provider
  }
}

/**
 * The order was still pending with the partner when the kit stopped watching it
 * (`ONRAMP_PROCESSING_TIMEOUT_MS`): the purchase may still complete; the text says where to look.
 */
export class OnrampStillProcessingError extends OnrampError {
  override name = 'OnrampStillProcessingError'
  constructor(parameters: BaseErrorParameters & { timeoutMs?: number } = {}) {
    super(
      "Your purchase is still being processed and may still complete. Check Activity in a few minutes, or your order on the provider's site, before buying again.",
      {
        ...parameters,
        details:
          parameters.details ??
          (parameters.timeoutMs === undefined
            ? undefined
            : `The order was still pending after ${Math.round(parameters.timeoutMs / 60_000)} min`),
      },
    )
  }
}

/** Where in the flow an error happened: decides the error when nothing more specific is known. */
export type OnrampStage = 'options' | 'quote' | 'url' | 'open' | 'purchases'

/**
 * Maps anything an onramp slot throws onto the kit's error family, keeping the cause (the kit's own errors,
 * the Data API's included, are kept as they are).
 *
 * @example
 * try { await client.url(request) } catch (error) { throw toOnrampError(error, 'url') }
 */
export function toOnrampError(error: unknown, stage: OnrampStage): BaseError {
  if (error instanceof BaseError) return error
  const parameters = { cause: error }
  switch (stage) {
    case 'options':
      return new OnrampOptionsError(parameters)
    case 'quote':
      return new OnrampQuoteError(parameters)
    case 'url':
    case 'open':
      return new OnrampUrlError(parameters)
    case 'purchases':
      return new OnrampPurchasesError(parameters)
  }
}

/** What a snapshot keeps of an onramp error: plain data, for the inspector and the views. */
export function onrampErrorInfo(error: unknown, stage: OnrampStage): ErrorInfo {
  const kit = toOnrampError(error, stage)
  const code = findCode(kit)
  return {
    name: kit.name,
    message: kit.shortMessage,
    ...(code === undefined ? {} : { code }),
    ...(kit.details === undefined ? {} : { details: kit.details }),
  }
}
