import type { Config } from 'wagmi'
import type { ActorRefFrom } from 'xstate'
import { createSignInActors } from '../../actors/signIn'
import type { SiwxConfig } from '../../config'
import type { CapabilityKit, CapabilityServices, LoadedCapability } from '../../machines/capability'
import { type SignInMachine, signInMachine } from '../../machines/signIn'

/**
 * Sign-in with the wallet and its slots over the host's SIWX config. What the sign-in capability loads, in one
 * `import()` (see ./account.ts).
 */
export function signInLogic(wagmi: Config, siwx: SiwxConfig) {
  return signInMachine.provide({ actors: createSignInActors({ wagmi, siwx }) })
}

/** The sign-in capability's code: its machine over the host's SIWX config, and its glue beside the kit. */
export function signInCapabilityCode(
  services: CapabilityServices,
  siwx: SiwxConfig,
): LoadedCapability<ReturnType<typeof signInLogic>> {
  return { logic: signInLogic(services.wagmi, siwx), glue: signInGlue }
}

const VIEW = 'ConnectingSiwe'

/**
 * Sign-in's glue: asked, the visitor sees ConnectingSiwe (over the view shown, or in the modal opened for it);
 * signed in or going on without, ConnectingSiwe has done its job and closes; declined while sign-in is required,
 * the eip155 account is disconnected and the visitor told why.
 */
export function signInGlue(signIn: ActorRefFrom<SignInMachine>, kit: CapabilityKit) {
  const leave = () => {
    if (kit.view() === VIEW) kit.send({ type: 'modal.close' })
  }
  const subscriptions = [
    signIn.on('signIn.asked', () => {
      const shown = kit.view()
      if (shown === VIEW) return
      kit.send(shown ? { type: 'router.replace', view: VIEW } : { type: 'modal.open', view: VIEW })
    }),
    signIn.on('signIn.signedIn', leave),
    signIn.on('signIn.skipped', leave),
    signIn.on('signIn.declined', ({ message }) => {
      leave()
      kit.send({ type: 'connection.disconnect', chain: 'eip155' })
      kit.send({ type: 'toast.show', variant: 'error', message })
    }),
  ]
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
}
