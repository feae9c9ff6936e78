import { askFrame } from './requests'
import { frameSetup } from './setup'
import { AUTH_IDLE, answers, FETCHING_USER, result } from './steps'
import type { SocialProvider } from './types'

/**
 * The social login (SPEC §4, ConnectingSocial): the popup opens at once (a popup opened later is blocked),
 * the frame gives the provider's redirect URI, the popup goes there, and the secure site's callback URI it
 * sends back is handed to the frame.
 */

/** The popup closed (or never opened) before the provider sent the visitor back. Ignored once connecting. */
const socialCancelled = [
  { guard: 'popupBlocked' as const, target: AUTH_IDLE, actions: ['endFlow', 'setPopupBlocked'] as const },
  { target: AUTH_IDLE, actions: ['endFlow', 'clearError'] as const },
]

export const socialLogin = frameSetup.createStateConfig({
  meta: { view: 'ConnectingSocial' },
  exit: 'endFlow',
  invoke: {
    id: 'socialPopup',
    src: 'socialPopup',
    input: ({ context }) => ({ provider: context.social as SocialProvider, endpoint: context.endpoint }),
  },
  on: { 'frame.cancel': { target: AUTH_IDLE, actions: ['endFlow', 'clearError'] } },
  initial: 'requestingUri',
  states: {
    requestingUri: {
      tags: ['busy', 'openingPopup'],
      ...askFrame('getSocialRedirectUri', ({ context }) => ({ provider: context.social })),
      on: {
        'frame.socialCancelled': socialCancelled,
        'frame.authDone': [
          { guard: result('getSocialRedirectUri'), target: 'awaitingCallback', actions: 'setSocialUri' },
          { guard: answers('getSocialRedirectUri'), target: AUTH_IDLE, actions: 'setBadReply' },
        ],
        'frame.authFailed': { target: AUTH_IDLE, actions: 'setError' },
      },
    },
    /** The visitor is at the provider, in the popup. */
    awaitingCallback: {
      tags: 'atProvider',
      on: {
        'frame.socialCancelled': socialCancelled,
        'frame.socialCallback': 'connecting',
      },
    },
    connecting: {
      tags: ['busy', 'signingIn'],
      ...askFrame('connectSocial', ({ event }) => ({
        uri: event.type === 'frame.socialCallback' ? event.uri : undefined,
      })),
      on: {
        // SPEC §2 loading toast: the account's data is read next.
        'frame.authDone': {
          guard: answers('connectSocial'),
          target: FETCHING_USER,
          actions: 'showLoadingUser',
        },
        'frame.authFailed': { target: AUTH_IDLE, actions: 'setError' },
      },
    },
  },
})
