import { askFrame } from './requests'
import { frameSetup } from './setup'
import { AUTH_IDLE, answers, FETCHING_USER, result } from './steps'

/** The Farcaster login (SPEC §4, ConnectingFarcaster): a sign-in URI shown as a QR code, then the wait. */
export const farcasterLogin = frameSetup.createStateConfig({
  tags: 'farcaster',
  meta: { view: 'ConnectingFarcaster' },
  exit: 'endFlow',
  on: { 'frame.cancel': { target: AUTH_IDLE, actions: ['endFlow', 'clearError'] } },
  initial: 'requestingUri',
  states: {
    requestingUri: {
      tags: 'busy',
      ...askFrame('getFarcasterUri'),
      on: {
        'frame.authDone': [
          { guard: result('getFarcasterUri'), target: 'showingUri', actions: 'setFarcasterUrl' },
          { guard: answers('getFarcasterUri'), target: AUTH_IDLE, actions: 'setBadReply' },
        ],
        'frame.authFailed': { target: AUTH_IDLE, actions: 'setError' },
      },
    },
    /** The QR code is up; the wait on the login starts a moment later (SPEC §9). */
    showingUri: {
      after: { farcasterReload: 'connecting' },
    },
    /** Waits for the visitor's Farcaster app: no timeout. */
    connecting: {
      tags: 'awaitingApp',
      ...askFrame('connectFarcaster'),
      on: {
        'frame.authDone': { guard: answers('connectFarcaster'), target: FETCHING_USER },
        'frame.authFailed': { target: AUTH_IDLE, actions: 'setError' },
      },
    },
  },
})
