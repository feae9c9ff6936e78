import { assertEvent } from 'xstate'
import type { FrameCommand } from '../../frame/protocol'
import type { FrameMachineEvent } from './types'

/*
 * The pieces the frame's flows (email.ts, social.ts, farcaster.ts, updateEmail.ts, ../frame.ts) build their states
 * from: the replies their guards take, the one-time code step, and the states where the login flows end.
 */

/** The reply answers `command`, whatever it carries. */
export function answers(command: FrameCommand): { type: 'answers'; params: { command: FrameCommand } } {
  return { type: 'answers', params: { command } }
}

/** The reply answers `command` with a result of the shape the kit reads. */
export function result(command: FrameCommand): { type: 'result'; params: { command: FrameCommand } } {
  return { type: 'result', params: { command } }
}

export function emailAction(action: 'VERIFY_DEVICE' | 'VERIFY_OTP' | 'CONNECT') {
  return {
    type: 'result' as const,
    params: { command: 'connectEmail' as const, check: (r: Record<string, unknown>) => r.action === action },
  }
}

export function updateAction(action: 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP') {
  return {
    type: 'result' as const,
    params: { command: 'updateEmail' as const, check: (r: Record<string, unknown>) => r.action === action },
  }
}

/**
 * A view waiting for a one-time code (e-mail login, and both steps of an e-mail update): a malformed code is
 * refused here; a well-formed one leads to `submitting`, the step that sends it to the frame.
 */
export function submitCode(submitting: string) {
  return [
    {
      guard: 'invalidOtp' as const,
      actions: ['setInvalidOtp' as const, { type: 'emitRefused' as const, params: 'code' as const }],
    },
    { target: submitting, actions: 'clearError' as const },
  ]
}

/** The frame refused the code (wrong, expired): its error is shown and the modal shakes (SPEC §2). */
export const codeRefused = ['setError' as const, { type: 'emitRefused' as const, params: 'code' as const }]

/** The code the visitor typed, as the submitting step sends it. */
export const typedCode = ({ event }: { event: FrameMachineEvent }) => {
  assertEvent(event, 'frame.submitOtp')
  return { otp: event.otp.trim() }
}

/** Where the login flows end: the auth region's idle, connecting, and the connected account's idle. */
export const AUTH_IDLE = '#frameAuth.idle'
export const FETCHING_USER = '#frameAuth.fetchingUser'
export const ACCOUNT_IDLE = '#frameAuth.connected.idle'
export const REFRESHING_USER = '#frameAuth.connected.refreshingUser'
