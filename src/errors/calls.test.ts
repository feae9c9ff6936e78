import { describe, expect, it } from 'vitest'
import {
  CallsFailedError,
  CallsOutcomeUnknownError,
  CallsTimeoutError,
  callsErrorInfo,
  callsErrorOf,
  ShowCallsStatusUnsupportedError,
} from './calls'

describe('callsErrorOf: a batch error read back from the kit’s snapshot', () => {
  it('the kit’s own errors come back as their class, with their details', () => {
    const timedOut = callsErrorOf(
      callsErrorInfo(new CallsTimeoutError({ details: 'wallet_showCallsStatus' })),
    )
    expect(timedOut).toBeInstanceOf(CallsTimeoutError)
    expect(timedOut.details).toBe('wallet_showCallsStatus')
    expect(callsErrorOf(callsErrorInfo(new CallsOutcomeUnknownError()))).toBeInstanceOf(
      CallsOutcomeUnknownError,
    )
    expect(callsErrorOf(callsErrorInfo(new ShowCallsStatusUnsupportedError()))).toBeInstanceOf(
      ShowCallsStatusUnsupportedError,
    )
  })

  it("anything else (the wallet's refusal) is CallsFailedError, its code kept", () => {
    const declined = callsErrorOf({ name: 'UserRejectedRequestError', message: 'declined', code: 4001 })
    expect(declined).toBeInstanceOf(CallsFailedError)
    expect(declined.code).toBe(4001)
  })
})
