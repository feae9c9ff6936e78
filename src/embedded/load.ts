import { fromCallback } from 'xstate'
import { EMAIL_LOGIN_COOLDOWN_MS } from '../constants'
import { createSocialPopup } from '../frame/popup'
import { createFrameTransport } from '../frame/transport'
import {
  type FrameMachine,
  type FramePersistRequest,
  type FrameRestored,
  frameMachine,
  type SocialLogin,
  selectFrameView,
} from '../machines/frame'
import type { KitStore } from '../storage'

/**
 * The embedded wallet's code, loaded when first needed (the modal opens with e-mail or social login on, or a
 * stored login is restored at start): the frame machine with its real slots, the transport (the hidden
 * iframe), the social popup and persistence through the kit's schema-checked storage.
 */
export function createEmbeddedWallet(store: KitStore) {
  const transport = createFrameTransport()
  const logic: FrameMachine = frameMachine.provide({
    actors: {
      transport: transport.logic,
      socialPopup: createSocialPopup(),
      persistence: framePersistence(store),
    },
  })
  return { logic, transport, selectFrameView, restoredLogin: () => restoredLogin(store) }
}

export type EmbeddedWallet = ReturnType<typeof createEmbeddedWallet>

const SOCIAL_LOGINS: readonly SocialLogin[] = [
  'google',
  'github',
  'apple',
  'facebook',
  'x',
  'discord',
  'farcaster',
]

/** SPEC §3 persistence of the login: the flag, the e-mail, the connected social and the last login time. */
export function framePersistence(store: KitStore, now: () => number = Date.now) {
  return fromCallback<FramePersistRequest>(({ receive }) => {
    receive((request) => {
      switch (request.type) {
        case 'persist.emailSent':
          store.write('lastLoginTime', now())
          return
        case 'persist.connected':
          store.write('emailLoginFlag', true)
          if (request.email) store.write('email', request.email)
          else store.remove('email')
          if (request.social) store.write('connectedSocial', request.social)
          else store.remove('connectedSocial')
          return
        case 'persist.email':
          store.write('email', request.email)
          return
        case 'persist.smartAccountNetworks':
          store.write('smartAccountNetworks', request.networks)
          return
        case 'persist.disconnected':
          store.remove('emailLoginFlag')
          store.remove('email')
          store.remove('connectedSocial')
          return
      }
    })
  })
}

/** What the frame machine is told at start: a stored login to check, and what is left of the cooldown. */
export function restoredLogin(store: KitStore, now: number = Date.now()): FrameRestored {
  const loggedIn = store.read('emailLoginFlag') === true
  const email = store.read('email')
  const social = store.read('connectedSocial')
  const last = store.read('lastLoginTime')
  const smartAccountNetworks = store.read('smartAccountNetworks')
  const cooldownMs = last !== undefined && last <= now ? Math.max(0, last + EMAIL_LOGIN_COOLDOWN_MS - now) : 0
  return {
    loggedIn,
    ...(email ? { email } : {}),
    ...(social && (SOCIAL_LOGINS as readonly string[]).includes(social)
      ? { social: social as SocialLogin }
      : {}),
    ...(cooldownMs > 0 ? { cooldownMs } : {}),
    ...(smartAccountNetworks ? { smartAccountNetworks } : {}),
  }
}
