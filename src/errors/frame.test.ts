import { describe, expect, it } from 'vitest'
import { ALERTS, BaseError } from './base'
import {
  ActionNotAllowedError,
  AuthInitError,
  EmailThrottledError,
  FrameError,
  FrameLoadError,
  FrameOriginNotAllowedError,
  FrameReplyError,
  FrameRequestAbortedError,
  FrameTimeoutError,
  frameErrorInfo,
  InvalidEmailError,
  InvalidOtpError,
  RpcNotAllowedError,
  replyError,
  SignatureDeclinedError,
  toFrameError,
} from './frame'

describe('frame errors', () => {
  it('default: the SPEC §8 texts, names and codes', () => {
    const errors = [
      new FrameLoadError(),
      new FrameTimeoutError(),
      new FrameRequestAbortedError(),
      new FrameReplyError(undefined),
      new FrameReplyError('  '),
      new SignatureDeclinedError(),
      new RpcNotAllowedError(),
      new ActionNotAllowedError(),
      new EmailThrottledError(18),
      new InvalidEmailError(),
      new InvalidOtpError(),
      new AuthInitError(),
      new FrameOriginNotAllowedError({ origin: 'https://app.example' }),
    ]
    expect(errors.map((e) => [e.name, e.shortMessage, e.code])).toMatchInlineSnapshot(`
      [
        [
          "FrameLoadError",
          "Unable to load email login dependency",
          undefined,
        ],
        [
          "FrameTimeoutError",
          "Something went wrong",
          undefined,
        ],
        [
          "FrameRequestAbortedError",
          "Request was aborted",
          4001,
        ],
        [
          "FrameReplyError",
          "An error occurred",
          undefined,
        ],
        [
          "FrameReplyError",
          "An error occurred",
          undefined,
        ],
        [
          "SignatureDeclinedError",
          "Signature declined",
          4001,
        ],
        [
          "RpcNotAllowedError",
          "Requested RPC call is not allowed",
          4200,
        ],
        [
          "ActionNotAllowedError",
          "Action not allowed",
          4100,
        ],
        [
          "EmailThrottledError",
          "Please try again after 18 seconds",
          undefined,
        ],
        [
          "InvalidEmailError",
          "Invalid email",
          undefined,
        ],
        [
          "InvalidOtpError",
          "Invalid code",
          undefined,
        ],
        [
          "AuthInitError",
          "A problem occurred while trying initialize authentication",
          undefined,
        ],
        [
          "FrameOriginNotAllowedError",
          "Invalid App Configuration",
          undefined,
        ],
      ]
    `)
    for (const error of errors) {
      expect(error).toBeInstanceOf(FrameError)
      expect(error).toBeInstanceOf(BaseError)
    }
  })

  it('default: the failures of the frame itself carry their alert', () => {
    expect(new FrameLoadError().alert).toEqual(ALERTS.EMBEDDED_WALLET_LOAD_FAILED)
    expect(new FrameOriginNotAllowedError().alert).toEqual(ALERTS.INVALID_APP_CONFIGURATION)
    expect(new FrameOriginNotAllowedError({ origin: 'https://app.example' }).message).toMatchInlineSnapshot(`
      "Invalid App Configuration

      Details: The origin https://app.example is not allowed."
    `)
  })

  it('behavior: a reply error keeps the frame text and code; a bare 4001 is a declined signature', () => {
    expect(replyError({ message: 'Chain is not supported', code: 4902 })).toMatchObject({
      name: 'FrameReplyError',
      shortMessage: 'Chain is not supported',
      code: 4902,
    })
    expect(replyError({ message: '', code: 4001 })).toBeInstanceOf(SignatureDeclinedError)
    expect(replyError({ message: '' }).shortMessage).toBe('An error occurred')
  })

  it('behavior: snapshot data and back, for a provider to throw', () => {
    const info = frameErrorInfo(new FrameRequestAbortedError())
    expect(info).toEqual({ name: 'FrameRequestAbortedError', message: 'Request was aborted', code: 4001 })
    const error = toFrameError(info)
    expect(error).toBeInstanceOf(FrameError)
    expect(error).toMatchObject({
      name: 'FrameRequestAbortedError',
      shortMessage: 'Request was aborted',
      code: 4001,
    })
    expect(frameErrorInfo(new Error('boom'))).toEqual({ name: 'FrameError', message: 'Something went wrong' })
  })
})
