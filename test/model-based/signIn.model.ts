import { type EventFromLogic, fromPromise, type SnapshotFrom } from 'xstate'
import { SignatureVerificationError } from '../../src/errors/signIn'
import { type SignInAccount, selectSignInStatus, signInMachine } from '../../src/machines/signIn'
import type { SiwxMessage, SiwxSession } from '../../src/siwx/types'
import { createModel } from '../../src/testing'

/**
 * The sign-in machine's model, once with sign-in optional and once required. Its slots never settle on their
 * own: each answer is an event of the path (`xstate.done.actor.<id>` with an output, `xstate.error.actor.<id>`
 * with an error), so every order of the visitor's choices, the wallet's answers and account changes is a path.
 * The notices (`emit`) are replaced by checks that throw when one goes out without its facts.
 */
const never = <T>() => new Promise<T>(() => {})
export const modelMachine = signInMachine.provide({
  actors: {
    findSession: fromPromise(never<SiwxSession | undefined>),
    createMessage: fromPromise(never<SiwxMessage>),
    signMessage: fromPromise(never<`0x${string}`>),
    verifyAndKeep: fromPromise(never<SiwxSession>),
    revoke: fromPromise(never<void>),
  },
  actions: {
    notifySignedIn: ({ context }) => {
      if (!context.session || !context.account) throw new Error('signIn.signedIn without a session')
    },
    notifyAsked: ({ context }) => {
      if (!context.account) throw new Error('signIn.asked without an account')
    },
    notifyDeclined: ({ context }) => {
      if (!context.required) throw new Error('signIn.declined while sign-in is optional')
    },
    notifySkipped: ({ context }) => {
      if (context.required) throw new Error('signIn.skipped while sign-in is required')
    },
  },
})

type Machine = typeof modelMachine
export type Snapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

const ALICE: SignInAccount = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  chainId: 'eip155:31337',
}
const ALICE_MAINNET: SignInAccount = { ...ALICE, chainId: 'eip155:1' }
const BOB: SignInAccount = { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: 'eip155:31337' }
const MESSAGE: SiwxMessage = {
  message: '127.0.0.1 wants you to sign in with your Ethereum account: …',
  data: {
    accountAddress: ALICE.address,
    chainId: ALICE.chainId,
    domain: '127.0.0.1',
    uri: 'http://127.0.0.1/',
    version: '1',
    nonce: 'abcdef12',
    issuedAt: '2026-11-26T00:00:00.000Z',
  },
}
const SESSION: SiwxSession = { ...MESSAGE, signature: `0x${'11'.repeat(65)}` }

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const answers = [
  { type: 'xstate.done.actor.findSession', output: SESSION },
  { type: 'xstate.done.actor.findSession', output: undefined },
  { type: 'xstate.error.actor.findSession', error: new Error('storage unreadable') },
  { type: 'xstate.done.actor.createMessage', output: MESSAGE },
  { type: 'xstate.error.actor.createMessage', error: new Error('nonce service down') },
  { type: 'xstate.done.actor.signMessage', output: SESSION.signature },
  { type: 'xstate.error.actor.signMessage', error: new Error('User rejected the request.') },
  { type: 'xstate.done.actor.verifyAndKeep', output: SESSION },
  { type: 'xstate.error.actor.verifyAndKeep', error: new SignatureVerificationError() },
  { type: 'xstate.done.actor.revoke', output: undefined },
  { type: 'xstate.error.actor.revoke', error: new Error('revoke refused') },
] as unknown as Event[]

export const events: Event[] = [
  { type: 'signIn.account', account: ALICE },
  { type: 'signIn.account', account: ALICE_MAINNET },
  { type: 'signIn.account', account: BOB },
  ...answers,
]

/** Identity: the state and what decides where it goes (whose account, a session, an error, why it ends). */
export const serializeState = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.account ? `${s.context.account.address}@${s.context.account.chainId}` : null,
    !!s.context.session,
    !!s.context.message,
    !!s.context.signature,
    s.context.error ?? null,
    s.context.ending ?? null,
  ])

export function invariant(s: Snapshot): void {
  const { account, session, error } = s.context
  if (!s.matches('signedOut') && !account) throw new Error(`${JSON.stringify(s.value)} without an account`)
  if (s.matches('signedOut') && (account || session)) throw new Error('signed out with an account or session')
  if ((s.matches('signedIn') || s.matches('revoking')) !== !!session)
    throw new Error('a session exactly while signed in (or revoking it)')
  if (s.matches('failed') !== !!error) throw new Error('an error exactly in failed')
  if (s.matches('signing') && !s.context.message) throw new Error('signing without a message')
  if (s.matches('verifying') && !s.context.signature) throw new Error('verifying without a signature')
  if (
    s.hasTag('busy') !==
    (['checking', 'creating', 'signing', 'verifying', 'revoking'] as const).some((v) => s.matches(v))
  )
    throw new Error('busy tag out of step')
  if (s.context.required && s.matches('skipped')) throw new Error('skipped while sign-in is required')
  if (!s.context.required && s.matches('declined')) throw new Error('declined while sign-in is optional')
  // The status the views and useKitSession read.
  const status = selectSignInStatus(s)
  if (status === 'signedIn' && !session) throw new Error('status signedIn without a session')
}

export const models = {
  optional: createModel(modelMachine, { events, input: { required: false }, serializeState }),
  required: createModel(modelMachine, { events, input: { required: true }, serializeState }),
}
