import type { Config } from 'wagmi'
import { createSignInActors } from '../../actors/signIn'
import type { SiwxConfig } from '../../config'
import { signInMachine } from '../../machines/signIn'

/**
 * Sign-in with the wallet and its slots over the host's SIWX config. What the kit's `loadSignIn` loads, in one
 * `import()` (see ./account.ts).
 */
export function signInLogic(wagmi: Config, siwx: SiwxConfig) {
  return signInMachine.provide({ actors: createSignInActors({ wagmi, siwx }) })
}
