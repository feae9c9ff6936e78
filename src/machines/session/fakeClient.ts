import { vi } from 'vitest'
import { type ActorRefFrom, type AnyActorRef, createActor, fromCallback, fromPromise } from 'xstate'
import type { Namespaces, ProposalInfo, RequestInfo, SessionInfo } from '../../session/types'
import { sessionClientMachine } from '../session'
import { authMachine } from './auth'
import { proposalMachine } from './proposal'
import { incomingRequestMachine, outgoingRequestMachine } from './request'
import { type SessionEvent, sessionMachine } from './session'
import type { Role, SessionClientInput, SignClientCommand, SignClientEvent } from './types'

/**
 * Test support for the session machines' unit tests, not part of the library (nothing in `src` imports it): the
 * machines with fake WalletConnect effects. Each slot records what it was asked and answers as a client would;
 * time is faked, so expiries and the ping delay are exact.
 */
export const NOW = Date.UTC(2026, 0, 1)
export const HOUR = 3_600_000
export const TOPIC = 'a'.repeat(64)
export const ADDRESS = `0x${'1'.repeat(40)}`
export const metadata = { name: 'Peer', description: '', url: 'https://peer.example', icons: [] }
export const namespaces: Namespaces = {
  eip155: {
    accounts: [`eip155:1:${ADDRESS}`, `eip155:10:${ADDRESS}`],
    methods: ['personal_sign'],
    events: ['chainChanged', 'accountsChanged'],
  },
}

export const session = (overrides: Partial<SessionInfo> = {}): SessionInfo => ({
  topic: TOPIC,
  expiry: NOW + HOUR,
  acknowledged: true,
  relay: { protocol: 'irn' },
  controller: 'c'.repeat(64),
  self: { publicKey: 's'.repeat(64), metadata },
  peer: { publicKey: 'c'.repeat(64), metadata },
  namespaces,
  requiredNamespaces: {},
  optionalNamespaces: {},
  ...overrides,
})

export const proposal = (overrides: Partial<ProposalInfo> = {}): ProposalInfo => ({
  id: 1,
  pairingTopic: 'p'.repeat(64),
  expiry: NOW + 5 * 60_000,
  proposer: { publicKey: 'd'.repeat(64), metadata },
  requiredNamespaces: {},
  optionalNamespaces: {
    eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: ['chainChanged'] },
  },
  relays: [{ protocol: 'irn' }],
  ...overrides,
})

export const request = (id: number, overrides: Partial<RequestInfo> = {}): RequestInfo => ({
  id,
  topic: TOPIC,
  chainId: 'eip155:1',
  request: { method: 'personal_sign', params: ['0x68656c6c6f', ADDRESS] },
  expiry: NOW + 5 * 60_000,
  ...overrides,
})

export const sync = (parts: Partial<Extract<SignClientEvent, { type: 'wc.sync' }>>): SignClientEvent => ({
  type: 'wc.sync',
  pairings: {},
  proposals: [],
  sessions: [],
  requests: [],
  ...parts,
})

interface Call {
  slot: string
  input: unknown
}

/** A client whose every effect is recorded; answers come when the test says. */
export function fakeClient() {
  const calls: Call[] = []
  const pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: unknown) => void }[]>()
  const answered = <T, I>(slot: string) =>
    fromPromise<T, I>(
      ({ input }) =>
        new Promise<T>((resolve, reject) => {
          calls.push({ slot, input })
          pending.set(slot, [
            ...(pending.get(slot) ?? []),
            { resolve: resolve as (value: unknown) => void, reject },
          ])
        }),
    )
  const pingBack: { current?: (event: SessionEvent) => void } = {}
  const actors = {
    signClient: fromCallback<SignClientCommand, { role: Role }>(({ receive }) => {
      receive((command) => calls.push({ slot: command.type, input: command }))
      return () => {}
    }),
    connect: answered('connect'),
    pair: answered('pair'),
    proposal: proposalMachine.provide({
      actors: { approve: answered('approve'), reject: answered('reject') },
    }),
    session: sessionMachine.provide({
      actors: {
        ping: fromCallback<SessionEvent, { topic: string }>(({ sendBack, input }) => {
          calls.push({ slot: 'ping', input })
          pingBack.current = sendBack
          return () => {}
        }),
        extend: answered('extend'),
        emit: answered('emit'),
        disconnect: answered('disconnect'),
      },
    }),
    outgoingRequest: outgoingRequestMachine.provide({ actors: { sendRequest: answered('sendRequest') } }),
    incomingRequest: incomingRequestMachine.provide({ actors: { respond: answered('respond') } }),
    auth: authMachine.provide({
      actors: {
        authenticate: fromCallback(() => () => {}),
        verifyAuth: answered('verifyAuth'),
        approveAuth: answered('approveAuth'),
        rejectAuth: answered('rejectAuth'),
      },
    }),
  }
  return {
    calls,
    pingBack,
    of: (slot: string) => calls.filter((call) => call.slot === slot).map((call) => call.input),
    /** Settles the oldest unsettled call of a slot. */
    async answer(slot: string, value?: unknown) {
      pending.get(slot)!.shift()!.resolve(value)
      await flush()
    },
    async fail(slot: string, error: unknown) {
      pending.get(slot)!.shift()!.reject(error)
      await flush()
    },
    machine: sessionClientMachine.provide({ actors: actors as never }),
  }
}

export const flush = () => vi.advanceTimersByTimeAsync(0)

export function start(role: Role, input: Partial<SessionClientInput> = {}) {
  const client = fakeClient()
  const actor = createActor(client.machine as typeof sessionClientMachine, {
    input: { role, ...input },
  }).start()
  const child = <T extends AnyActorRef = AnyActorRef>(id: string) =>
    actor.getSnapshot().children[id] as T | undefined
  const sessionChild = () => child<ActorRefFrom<typeof sessionMachine>>(`session:${TOPIC}`)
  return { ...client, actor, child, sessionChild }
}

export const lastError = (t: ReturnType<typeof start>) => t.actor.getSnapshot().context.lastError?.error
export const outcomes = (t: ReturnType<typeof start>, kind: string) =>
  t.actor.getSnapshot().context.outcomes.filter((o) => o.kind === kind)
