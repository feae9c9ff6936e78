import { askFrame } from './requests'
import { frameSetup } from './setup'
import {
  ACCOUNT_IDLE,
  answers,
  codeRefused,
  REFRESHING_USER,
  submitCode,
  typedCode,
  updateAction,
} from './steps'

/**
 * Changing the account's e-mail (SPEC §4): the new address is sent (UpdateEmailWallet), then a code mailed
 * to the current address (UpdateEmailPrimaryOtp) and one to the new address (UpdateEmailSecondaryOtp).
 */
export const updateEmail = frameSetup.createStateConfig({
  tags: 'updatingEmail',
  on: { 'frame.cancel': { target: ACCOUNT_IDLE, actions: ['endFlow', 'clearError'] } },
  initial: 'submitting',
  states: {
    /** UpdateEmailWallet. */
    submitting: {
      tags: ['busy', 'sendingCode'],
      meta: { view: 'UpdateEmailWallet' },
      ...askFrame('updateEmail', ({ context }) => ({ email: context.newEmail })),
      on: {
        'frame.authDone': [
          { guard: updateAction('VERIFY_PRIMARY_OTP'), target: 'primaryOtp', actions: 'emailSent' },
          { guard: updateAction('VERIFY_SECONDARY_OTP'), target: 'secondaryOtp', actions: 'emailSent' },
          { guard: answers('updateEmail'), target: ACCOUNT_IDLE, actions: ['setBadReply', 'endFlow'] },
        ],
        'frame.authFailed': { target: ACCOUNT_IDLE, actions: ['setError', 'endFlow'] },
      },
    },
    /** UpdateEmailPrimaryOtp: the code sent to the current address. */
    primaryOtp: {
      tags: 'awaitingCode',
      meta: { view: 'UpdateEmailPrimaryOtp' },
      on: { 'frame.submitOtp': submitCode('submittingPrimary') },
    },
    submittingPrimary: {
      tags: ['busy', 'checkingCode'],
      meta: { view: 'UpdateEmailPrimaryOtp' },
      ...askFrame('updateEmailPrimaryOtp', typedCode),
      on: {
        'frame.authDone': { guard: answers('updateEmailPrimaryOtp'), target: 'secondaryOtp' },
        'frame.authFailed': { target: 'primaryOtp', actions: codeRefused },
      },
    },
    /** UpdateEmailSecondaryOtp: the code sent to the new address. */
    secondaryOtp: {
      tags: 'awaitingCode',
      meta: { view: 'UpdateEmailSecondaryOtp' },
      on: { 'frame.submitOtp': submitCode('submittingSecondary') },
    },
    submittingSecondary: {
      tags: ['busy', 'checkingCode'],
      meta: { view: 'UpdateEmailSecondaryOtp' },
      ...askFrame('updateEmailSecondaryOtp', typedCode),
      on: {
        'frame.authDone': {
          guard: answers('updateEmailSecondaryOtp'),
          target: REFRESHING_USER,
          actions: 'persistNewEmail',
        },
        'frame.authFailed': { target: 'secondaryOtp', actions: codeRefused },
      },
    },
  },
})
