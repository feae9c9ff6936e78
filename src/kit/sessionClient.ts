import { createSessionActors, type SessionActorsOptions, type SignClient } from '../actors/session'
import {
  authMachine,
  incomingRequestMachine,
  outgoingRequestMachine,
  proposalMachine,
  sessionClientMachine,
  sessionMachine,
} from '../machines/session'

/**
 * The session client machine over `client` (a WalletConnect `SignClient`): the machines of
 * `src/machines/session*` provided with the real slots of `src/actors/session.ts`. Start it with the side this
 * client plays.
 *
 * @example
 * // The kit, once its WalletConnect provider has loaded:
 * const sessions = createActor(createSessionClientMachine(provider.signer.client), {
 *   input: { role: 'app', rpcMap: { 'eip155:1': rpcUrl } },
 * }).start()
 */
export function createSessionClientMachine(client: SignClient, options: SessionActorsOptions = {}) {
  const slots = createSessionActors(client, options)
  return sessionClientMachine.provide({
    actors: {
      signClient: slots.signClient,
      connect: slots.connect,
      pair: slots.pair,
      proposal: proposalMachine.provide({ actors: slots.proposal }),
      session: sessionMachine.provide({ actors: slots.session }),
      outgoingRequest: outgoingRequestMachine.provide({ actors: slots.outgoingRequest }),
      incomingRequest: incomingRequestMachine.provide({ actors: slots.incomingRequest }),
      auth: authMachine.provide({ actors: slots.auth }),
    },
  })
}

export type { SessionClientActor } from '../actors/session'
