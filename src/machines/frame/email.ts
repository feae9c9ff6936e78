import { askFrame } from './requests'
import { frameSetup } from './setup'
import { AUTH_IDLE, answers, codeRefused, emailAction, FETCHING_USER, submitCode, typedCode } from './steps'

/**
 * The e-mail login (SPEC §4, §5): the address is sent; the frame asks for this device's approval by e-mail
 * (EmailVerifyDevice) or for the code it mailed (EmailVerifyOtp), or logs straight in. A resend is refused
 * within the cooldown; its failure keeps the visitor on the view they were on.
 */

const sendAddress = askFrame('connectEmail', ({ context }) => ({ email: context.email }))

/** Asking for another mail: its answer leads on as a first submit does; a failure returns to `from`. */
function resending(from: 'otp' | 'device') {
  return frameSetup.createStateConfig({
    tags: 'busy',
    meta: { view: from === 'otp' ? 'EmailVerifyOtp' : 'EmailVerifyDevice' },
    ...sendAddress,
    on: {
      'frame.authDone': [
        { guard: emailAction('VERIFY_DEVICE'), target: 'device', actions: 'emailSent' },
        { guard: emailAction('VERIFY_OTP'), target: 'otp', actions: 'emailSent' },
        { guard: emailAction('CONNECT'), target: FETCHING_USER },
        { guard: answers('connectEmail'), target: from, actions: 'setBadReply' },
      ],
      'frame.authFailed': { target: from, actions: 'setError' },
    },
  })
}

/** SPEC §5: a new mail waits for the cooldown. */
const resend = (target: 'resendingOtp' | 'resendingDevice') => [
  { guard: 'coolingDown' as const, actions: 'setThrottled' as const },
  { target, actions: 'clearError' as const },
]

export const emailLogin = frameSetup.createStateConfig({
  on: { 'frame.cancel': { target: AUTH_IDLE, actions: ['endFlow', 'clearError'] } },
  initial: 'submitting',
  states: {
    submitting: {
      tags: ['busy', 'sendingCode'],
      ...sendAddress,
      on: {
        'frame.authDone': [
          { guard: emailAction('VERIFY_DEVICE'), target: 'device', actions: 'emailSent' },
          { guard: emailAction('VERIFY_OTP'), target: 'otp', actions: 'emailSent' },
          { guard: emailAction('CONNECT'), target: FETCHING_USER },
          { guard: answers('connectEmail'), target: AUTH_IDLE, actions: 'setBadReply' },
        ],
        'frame.authFailed': { target: AUTH_IDLE, actions: 'setError' },
      },
    },
    /** EmailVerifyDevice: the frame waits for the visitor to approve this device by e-mail. */
    device: {
      tags: 'awaitingDevice',
      meta: { view: 'EmailVerifyDevice' },
      ...askFrame('connectDevice'),
      on: {
        'frame.resendCode': resend('resendingDevice'),
        'frame.authDone': { guard: answers('connectDevice'), target: 'otp', actions: 'clearError' },
        'frame.authFailed': { target: AUTH_IDLE, actions: 'setError' },
      },
    },
    /** EmailVerifyOtp: waiting for the code; a wrong one's error stays until the next try. */
    otp: {
      tags: 'awaitingCode',
      meta: { view: 'EmailVerifyOtp' },
      on: {
        'frame.submitOtp': submitCode('submittingOtp'),
        'frame.resendCode': resend('resendingOtp'),
      },
    },
    /** A new mail is asked for from the code view; the view stays, an error returns to it. */
    resendingOtp: resending('otp'),
    /** The same from the device view. */
    resendingDevice: resending('device'),
    submittingOtp: {
      tags: ['busy', 'checkingCode'],
      meta: { view: 'EmailVerifyOtp' },
      ...askFrame('connectOtp', typedCode),
      on: {
        'frame.authDone': { guard: answers('connectOtp'), target: FETCHING_USER },
        'frame.authFailed': { target: 'otp', actions: codeRefused },
      },
    },
  },
})
