import { type EventFromLogic, fromCallback, fromPromise, type SnapshotFrom } from 'xstate'
import { SignatureVerificationError } from '../../src/errors/signIn'
import {
  type CheckedSession,
  type KeptSession,
  type SignInAccount,
  selectSignInStatus,
  signInMachine,
  TIMER_MAX_MS,
} from '../../src/machines/signIn'
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
    findSession: fromPromise(never<KeptSession | undefined>),
    createMessage: fromPromise(never<SiwxMessage>),
    signMessage: fromPromise(never<`0x${string}`>),
    verifyAndKeep: fromPromise(never<CheckedSession>),
    revoke: fromPromise(never<void>),
    // The page becoming visible again is an event of the path (`signIn.visible`).
    watchVisibility: fromCallback(() => () => {}),
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
const ISSUED = Date.parse('2026-11-26T00:00:00.000Z')
const HOUR = 3_600_000
const MESSAGE: SiwxMessage = {
  message: '127.0.0.1 wants you to sign in with your Ethereum account: …',
  data: {
    accountAddress: ALICE.address,
    chainId: ALICE.chainId,
    domain: '127.0.0.1',
    uri: 'http://127.0.0.1/',
    version: '1',
    nonce: 'abcdef12',
    issuedAt: new Date(ISSUED).toISOString(),
    expirationTime: new Date(ISSUED + HOUR).toISOString(),
  },
}
const SESSION: SiwxSession = { ...MESSAGE, signature: `0x${'11'.repeat(65)}` }
/** What the page is (the kept session must be for it), and when the slot read it: a minute after signing. */
const PAGE = { domain: '127.0.0.1', origin: 'http://127.0.0.1' }
const AT = ISSUED + 60_000
const kept = (data: Partial<SiwxSession['data']>, at = AT): KeptSession => ({
  session: { ...SESSION, data: { ...SESSION.data, ...data } },
  page: PAGE,
  at,
})
const { expirationTime: _, ...WITHOUT_EXPIRY } = SESSION.data
/** Kept sessions whose signature checks out, one for each rule of `checking` (issue 33). */
const KEPT = {
  valid: kept({}),
  // Longer than a browser's timer can wait: the timer is re-armed when it fires.
  long: kept({ expirationTime: new Date(AT + TIMER_MAX_MS + HOUR).toISOString() }),
  noExpiry: { ...kept({}), session: { ...SESSION, data: WITHOUT_EXPIRY } },
  otherDomain: kept({ domain: 'evil.example' }),
  otherOrigin: kept({ uri: 'https://evil.example/' }),
  expired: kept({}, ISSUED + HOUR + 1),
  notYetValid: kept({ notBefore: new Date(AT + HOUR / 2).toISOString() }),
}

// The done and error events of invoked actors are machine-internal types, so they are cast as events.
const answers = [
  ...Object.values(KEPT).map((output) => ({ type: 'xstate.done.actor.findSession', output })),
  { type: 'xstate.done.actor.findSession', output: undefined },
  { type: 'xstate.error.actor.findSession', error: new Error('storage unreadable') },
  { type: 'xstate.done.actor.createMessage', output: MESSAGE },
  { type: 'xstate.error.actor.createMessage', error: new Error('nonce service down') },
  { type: 'xstate.done.actor.signMessage', output: SESSION.signature },
  // SPEC §5: a wallet answering no signed message (0x and 62 or more hex characters).
  { type: 'xstate.done.actor.signMessage', output: `0x${'11'.repeat(30)}` },
  { type: 'xstate.error.actor.signMessage', error: new Error('User rejected the request.') },
  { type: 'xstate.done.actor.verifyAndKeep', output: { session: SESSION, at: AT } },
  { type: 'xstate.error.actor.verifyAndKeep', error: new SignatureVerificationError() },
  { type: 'xstate.done.actor.revoke', output: undefined },
  { type: 'xstate.error.actor.revoke', error: new Error('revoke refused') },
  { type: 'xstate.done.actor.dropSession', output: undefined },
  { type: 'xstate.error.actor.dropSession', error: new Error('storage unwritable') },
] as unknown as Event[]

export const events: Event[] = [
  { type: 'signIn.account', account: ALICE },
  { type: 'signIn.account', account: ALICE_MAINNET },
  { type: 'signIn.account', account: BOB },
  // The page visible again, before and after the session's expiry.
  { type: 'signIn.visible', at: AT + 60_000 },
  { type: 'signIn.visible', at: ISSUED + HOUR },
  ...answers,
]

/** Identity: the state and what decides where it goes (whose account, a session, an error, why it ends). */
export const serializeState = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.account ? `${s.context.account.address}@${s.context.account.chainId}` : null,
    // The session's expiry: a session longer than one timer re-arms it, a shorter one ends.
    s.context.session?.data.expirationTime ?? null,
    !!s.context.message,
    !!s.context.signature,
    s.context.error ?? null,
    s.context.ending ?? null,
    s.context.dropped ?? null,
  ])

export function invariant(s: Snapshot): void {
  const { account, session, error } = s.context
  if (!s.matches('signedOut') && !account) throw new Error(`${JSON.stringify(s.value)} without an account`)
  if (s.matches('signedOut') && (account || session)) throw new Error('signed out with an account or session')
  if ((s.matches('signedIn') || s.matches('revoking')) !== !!session)
    throw new Error('a session exactly while signed in (or revoking it)')
  if (s.matches('failed') !== !!error) throw new Error('an error exactly in failed')
  // Signed in only with a session that ends, its timer running from when it was checked (issue 33).
  if (s.matches('signedIn') && (!session?.data.expirationTime || s.context.checkedAt === undefined))
    throw new Error('signed in with a session without an expiry or a check time')
  if (s.matches('dropping') && !s.context.dropped) throw new Error('dropping a kept session without a reason')
  if (s.context.dropped && !s.context.account) throw new Error('a dropped session without its account')
  if (s.matches('signing') && !s.context.message) throw new Error('signing without a message')
  if (s.matches('verifying') && !s.context.signature) throw new Error('verifying without a signature')
  if (
    s.hasTag('busy') !==
    (['checking', 'dropping', 'creating', 'signing', 'verifying', 'revoking'] as const).some((v) =>
      s.matches(v),
    )
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
