import { assign, emit, fromPromise, type SnapshotFrom, setup } from 'xstate'
import { SIGN_IN_SIGNATURE_TIMEOUT_MS } from '../constants'
import { SignInRequiredError, SignInTimeoutError } from '../errors/signIn'
import type { SiwxMessage, SiwxSession } from '../siwx/types'

/**
 * Sign-in with the wallet (SPEC §1 `siwx`, issue 15), in the kit, loaded on demand when the host configures it.
 * The kit tells it the connected account (`signIn.account`, after every connect and on every change of account
 * or chain) and the disconnect. For each account it looks for a valid session (`findSession`: the host's
 * sessions, each checked); without one it asks the visitor (`signIn.asked`: the kit shows ConnectingSiwe), who
 * signs (`signIn.sign`) or declines (`signIn.cancel`). A signed message is verified and kept
 * (`verifyAndKeep`) before the visitor counts as signed in. Declining when the host requires sign-in is
 * `signIn.declined` (the kit disconnects); otherwise the visitor stays connected without a session. A
 * disconnect or `signIn.signOut` revokes the session.
 *
 * Pure: its I/O are the slots below, which `createKit` fills (src/actors/signIn.ts).
 */

/** The account and chain a session is for (`chainId` is CAIP-2, `eip155:1`). */
export interface SignInAccount {
  address: `0x${string}`
  chainId: string
}

export interface SignInInput {
  /** The host requires sign-in: declining disconnects (SIWX `getRequired`). */
  required: boolean
}

export interface SignInContext {
  required: boolean
  account: SignInAccount | undefined
  session: SiwxSession | undefined
  message: SiwxMessage | undefined
  /** The wallet's signature of `message`, until it is verified and kept. */
  signature: `0x${string}` | undefined
  /** The last failure's text (the SPEC's where it has one), shown on ConnectingSiwe. */
  error: string | undefined
  /** Why the session is being revoked: a disconnect, or the host's sign-out while still connected. */
  ending: 'disconnect' | 'signOut' | undefined
}

export type SignInEvent =
  | { type: 'signIn.account'; account: SignInAccount }
  | { type: 'signIn.disconnected' }
  | { type: 'signIn.sign' }
  | { type: 'signIn.cancel' }
  | { type: 'signIn.signOut' }

/** What the kit hears (its `followSignIn`). */
export type SignInNotice =
  | { type: 'signIn.asked' }
  | { type: 'signIn.signedIn'; session: SiwxSession }
  | { type: 'signIn.skipped' }
  /** Declined while required: the kit disconnects and shows `message`. */
  | { type: 'signIn.declined'; message: string }

export type SignInStatus = 'signedOut' | 'checking' | 'asking' | 'signing' | 'signedIn' | 'failed' | 'skipped'

const notProvided = (slot: string) => () => {
  throw new Error(`signInMachine: the "${slot}" actor slot was not provided`)
}

/** The text of a slot's failure: a kit error's `shortMessage`, else its message. */
function errorText(error: unknown): string {
  if (error && typeof error === 'object') {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown }
    if (typeof shortMessage === 'string' && shortMessage) return shortMessage
    if (typeof message === 'string' && message) return message
  }
  return 'Sign-in failed'
}

const sameAccount = (a: SignInAccount | undefined, b: SignInAccount) =>
  !!a && a.address.toLowerCase() === b.address.toLowerCase() && a.chainId === b.chainId

/** The visitor declines ("Cancel", closing ConnectingSiwe): disconnected when required, else on without. */
const cancel = [
  { guard: 'required', target: 'declined', actions: 'clearError' },
  { target: 'skipped', actions: 'clearError' },
] as const

export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    input: {} as SignInInput,
    emitted: {} as SignInNotice,
    tags: {} as 'busy',
  },
  actors: {
    /** The first kept session of this account and chain that checks out (signature, expiry), if any. */
    findSession: fromPromise<SiwxSession | undefined, SignInAccount>(notProvided('findSession')),
    /** The host's message for this account and chain. */
    createMessage: fromPromise<SiwxMessage, SignInAccount>(notProvided('createMessage')),
    /** The connected wallet signs the message (personal_sign). */
    signMessage: fromPromise<`0x${string}`, { message: SiwxMessage; account: SignInAccount }>(
      notProvided('signMessage'),
    ),
    /** Verifies the signature (EOA or smart account, through the chain), then the host keeps the session. */
    verifyAndKeep: fromPromise<SiwxSession, { message: SiwxMessage; signature: `0x${string}` }>(
      notProvided('verifyAndKeep'),
    ),
    /** Ends the sessions of this account and chain. */
    revoke: fromPromise<void, SignInAccount>(notProvided('revoke')),
  },
  delays: {
    /** How long the wallet may take to sign (SIGN_IN_SIGNATURE_TIMEOUT_MS): then it failed, retryable. */
    signatureTimeout: SIGN_IN_SIGNATURE_TIMEOUT_MS,
  },
  guards: {
    /** The host requires sign-in (SIWX `getRequired`). */
    required: ({ context }) => context.required,
    /** `findSession` found a valid session. */
    sessionFound: (_, output: SiwxSession | undefined) => output !== undefined,
    /** The account and chain told are the ones signed in (a reconnect, the same chain again). */
    sameAccount: ({ context, event }) =>
      event.type === 'signIn.account' && sameAccount(context.account, event.account),
    /** Revoking because of a sign-out while the account stays connected. */
    signingOut: ({ context }) => context.ending === 'signOut',
  },
  actions: {
    setAccount: assign({
      account: ({ event }) => (event.type === 'signIn.account' ? event.account : undefined),
      session: undefined,
      message: undefined,
      signature: undefined,
      error: undefined,
    }),
    clear: assign({
      account: undefined,
      session: undefined,
      message: undefined,
      signature: undefined,
      error: undefined,
      ending: undefined,
    }),
    /** A slot failed (its `xstate.error.actor.*` event): its text is shown on ConnectingSiwe. */
    setError: assign({ error: ({ event }) => errorText('error' in event ? event.error : undefined) }),
    clearError: assign({ error: undefined }),
    notifyAsked: emit({ type: 'signIn.asked' } as const),
    notifySignedIn: emit(({ context }) => ({ type: 'signIn.signedIn' as const, session: context.session! })),
    notifySkipped: emit({ type: 'signIn.skipped' } as const),
    notifyDeclined: emit(() => ({
      type: 'signIn.declined' as const,
      message: new SignInRequiredError().shortMessage,
    })),
  },
}).createMachine({
  id: 'signIn',
  context: ({ input }) => ({
    required: input.required,
    account: undefined,
    session: undefined,
    message: undefined,
    signature: undefined,
    error: undefined,
    ending: undefined,
  }),
  initial: 'signedOut',
  on: {
    // A new account or chain: its own session, or the question again. (`signedIn` keeps the same one.)
    'signIn.account': { target: '.checking', actions: 'setAccount' },
    'signIn.disconnected': { target: '.signedOut', actions: 'clear' },
  },
  states: {
    /** No account connected. */
    signedOut: {},
    /** Looking for a kept session of the account that checks out. */
    checking: {
      tags: 'busy',
      invoke: {
        id: 'findSession',
        src: 'findSession',
        input: ({ context }) => context.account!,
        onDone: [
          {
            guard: { type: 'sessionFound', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: assign({ session: ({ event }) => event.output }),
          },
          { target: 'asking' },
        ],
        // Kept sessions that cannot be read count as none: the visitor is asked to sign again.
        onError: { target: 'asking' },
      },
    },
    /** ConnectingSiwe: the visitor signs in or declines. */
    asking: {
      entry: 'notifyAsked',
      on: {
        'signIn.sign': { target: 'creating', actions: 'clearError' },
        'signIn.cancel': cancel,
      },
    },
    /** The host makes the message (its nonce may come from a server). */
    creating: {
      tags: 'busy',
      invoke: {
        id: 'createMessage',
        src: 'createMessage',
        input: ({ context }) => context.account!,
        onDone: { target: 'signing', actions: assign({ message: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'setError' },
      },
      on: {
        'signIn.cancel': cancel,
      },
    },
    /** The wallet shows the message and the visitor approves or rejects it there. */
    signing: {
      tags: 'busy',
      invoke: {
        id: 'signMessage',
        src: 'signMessage',
        input: ({ context }) => ({ message: context.message!, account: context.account! }),
        onDone: { target: 'verifying', actions: assign({ signature: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'setError' },
      },
      after: {
        signatureTimeout: {
          target: 'failed',
          actions: { type: 'setError', params: () => ({ error: new SignInTimeoutError() }) },
        },
      },
      on: {
        'signIn.cancel': cancel,
      },
    },
    /** The signature is checked, then kept by the host. */
    verifying: {
      tags: 'busy',
      invoke: {
        id: 'verifyAndKeep',
        src: 'verifyAndKeep',
        input: ({ context }) => ({ message: context.message!, signature: context.signature! }),
        onDone: {
          target: 'signedIn',
          actions: assign({ session: ({ event }) => event.output, signature: undefined }),
        },
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    signedIn: {
      entry: 'notifySignedIn',
      on: {
        'signIn.account': [{ guard: 'sameAccount' }, { target: 'checking', actions: 'setAccount' }],
        'signIn.disconnected': { target: 'revoking', actions: assign({ ending: 'disconnect' }) },
        'signIn.signOut': { target: 'revoking', actions: assign({ ending: 'signOut' }) },
      },
    },
    /** The session ends (revoked where the host keeps it); a failure to revoke does not keep anyone signed in. */
    revoking: {
      tags: 'busy',
      invoke: {
        id: 'revoke',
        src: 'revoke',
        input: ({ context }) => context.account!,
        onDone: [
          { guard: 'signingOut', target: 'afterSignOut' },
          { target: 'signedOut', actions: 'clear' },
        ],
        onError: [
          { guard: 'signingOut', target: 'afterSignOut' },
          { target: 'signedOut', actions: 'clear' },
        ],
      },
      // Disconnected while a sign-out revokes: the revoke goes on, the account is gone.
      on: { 'signIn.disconnected': { actions: assign({ ending: 'disconnect' }) } },
    },
    /** Signed out by the host while connected: as a visitor who declined. */
    afterSignOut: {
      entry: assign({ session: undefined, ending: undefined }),
      always: [
        { guard: 'required', target: 'declined', actions: 'clearError' },
        { target: 'skipped', actions: 'clearError' },
      ],
    },
    /** Connected without a session (sign-in optional); a new account or chain asks again. */
    skipped: {
      entry: 'notifySkipped',
      on: { 'signIn.sign': { target: 'creating', actions: 'clearError' } },
    },
    /** Declined while sign-in is required: the kit disconnects (its `signIn.disconnected` ends this). */
    declined: { entry: 'notifyDeclined' },
    /** The message, the signature or its check failed: shown with the error; signing again retries. */
    failed: {
      on: {
        'signIn.sign': { target: 'creating', actions: 'clearError' },
        'signIn.cancel': cancel,
      },
    },
  },
})

export type SignInMachine = typeof signInMachine
export type SignInSnapshot = SnapshotFrom<SignInMachine>

/** Where sign-in stands, for the views and `useKitSession`. */
export function selectSignInStatus(snapshot: SignInSnapshot | undefined): SignInStatus {
  if (!snapshot) return 'signedOut'
  if (snapshot.matches('checking') || snapshot.matches('revoking')) return 'checking'
  if (snapshot.matches('creating') || snapshot.matches('signing') || snapshot.matches('verifying'))
    return 'signing'
  if (snapshot.matches('asking')) return 'asking'
  if (snapshot.matches('signedIn')) return 'signedIn'
  if (snapshot.matches('failed')) return 'failed'
  if (snapshot.matches('skipped') || snapshot.matches('declined') || snapshot.matches('afterSignOut'))
    return 'skipped'
  return 'signedOut'
}
