import { askFrame } from './requests'
import { frameSetup } from './setup'
import { AUTH_IDLE, answers, FETCHING_USER, result } from './steps'

/**
 * The Farcaster login (SPEC §4, ConnectingFarcaster): a sign-in URI shown as a QR code, and at once the wait on
 * the visitor's Farcaster app. The frame's wait has no end of its own: the visitor leaving it (cancel) has the
 * frame reloaded 100 ms later (SPEC §9 Farcaster reload delay, `farcasterReload`), which drops that wait.
 */
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
          { guard: result('getFarcasterUri'), target: 'connecting', actions: 'setFarcasterUrl' },
          { guard: answers('getFarcasterUri'), target: AUTH_IDLE, actions: 'setBadReply' },
        ],
        'frame.authFailed': { target: AUTH_IDLE, actions: 'setError' },
      },
    },
    /** Waits for the visitor's Farcaster app: no timeout; a cancel reloads the frame (its wait dropped). */
    connecting: {
      tags: 'awaitingApp',
      ...askFrame('connectFarcaster'),
      on: {
        // SPEC §2 loading toast: the account's data is read next.
        'frame.authDone': {
          guard: answers('connectFarcaster'),
          target: FETCHING_USER,
          actions: 'showLoadingUser',
        },
        'frame.authFailed': { target: AUTH_IDLE, actions: 'setError' },
        'frame.cancel': { target: '#frameAuth.farcasterLeft', actions: 'clearError' },
      },
    },
  },
})
