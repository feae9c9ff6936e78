import { type ActorRefFrom, assign, emit, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate'
import { SIGN_IN_SIGNATURE_TIMEOUT_MS } from '../constants'
import { InvalidSignatureError } from '../errors/frame'
import { SignInRequiredError, SignInTimeoutError } from '../errors/signIn'
import type { SiwxMessage, SiwxSession } from '../siwx/types'
import { isSignature } from '../utils/rpcResults'

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
 * A session lasts as long as its message says: `signedIn` ends at its `expirationTime` (the
 * `sessionExpiry` delay, re-armed past the longest timer a browser keeps) and when the page, visible again,
 * finds it expired; then the session is revoked and the visitor is asked again (required) or goes on without.
 * A kept session is trusted only when its signature checks out (the slot) and, here, when it has an expiry, is
 * inside it, and was signed for this app's domain and this page's origin; one that is not is dropped (revoked
 * where it is kept), its reason in `dropped`.
 *
 * Pure: its I/O are the slots below, which its capability's loader fills (src/kit/load/signIn.ts over src/actors/signIn.ts).
 */

/** The account and chain a session is for (`chainId` is CAIP-2, `eip155:1`). */
export interface SignInAccount {
  address: `0x${string}`
  chainId: string
}

/** The domain and origin sessions are signed for here: the SIWX config's, else the page's own host and origin. */
export interface SignInPage {
  domain: string
  origin: string
}

/** A session signed and verified just now, kept by the host; `at` is when (epoch ms, the slot's clock). */
export interface CheckedSession {
  session: SiwxSession
  at: number
}

/** A kept session whose signature checks out, as read at `at`, with the page it must be for. */
export interface KeptSession extends CheckedSession {
  page: SignInPage
}

/** Why a kept session was dropped: each is a guard of `checking` below. */
export type DropReason = 'noExpiry' | 'otherDomain' | 'otherOrigin' | 'expired' | 'notYetValid'

/**
 * The longest delay a browser's timer keeps (2^31 − 1 ms, about 24.8 days): a longer one fires at once. A
 * session that lasts longer re-arms its timer (a platform limit, not a SPEC number).
 */
export const TIMER_MAX_MS = 2 ** 31 - 1

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
  /** Why the session is being revoked: a disconnect, the host's sign-out while still connected, its expiry. */
  ending: 'disconnect' | 'signOut' | 'expired' | undefined
  /** When the session was last checked (epoch ms): its timer runs from here. */
  checkedAt: number | undefined
  /** Why the kept session of this account was dropped, until the account changes. */
  dropped: DropReason | undefined
}

export type SignInEvent =
  | { type: 'signIn.account'; account: SignInAccount }
  | { type: 'signIn.disconnected' }
  | { type: 'signIn.sign' }
  | { type: 'signIn.cancel' }
  | { type: 'signIn.signOut' }
  /** The page became visible again (the `watchVisibility` slot), at `at` (epoch ms). */
  | { type: 'signIn.visible'; at: number }

/** What its glue hears (src/kit/load/signIn.ts). */
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

/** The origin of a message's URI, or undefined when it is not a URL. */
function originOf(uri: string): string | undefined {
  try {
    return new URL(uri).origin
  } catch {
    return undefined
  }
}

/** The time a session expires (epoch ms), NaN without a (readable) expiry. */
const expiryOf = (session: SiwxSession | undefined) => Date.parse(session?.data.expirationTime ?? '')

/** How long from `checkedAt` until the session expires; 0 when it has (or has no readable expiry). */
function remainingOf(context: SignInContext): number {
  const left = expiryOf(context.session) - (context.checkedAt ?? Number.POSITIVE_INFINITY)
  return Number.isFinite(left) && left > 0 ? left : 0
}

const kept = (output: KeptSession | undefined) => output?.session.data

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
    /**
     * The first kept session of this account and chain whose signature checks out, if any, with the page it
     * must be for and the time it was read (the chart judges its expiry, domain and origin).
     */
    findSession: fromPromise<KeptSession | undefined, SignInAccount>(notProvided('findSession')),
    /** The host's message for this account and chain. */
    createMessage: fromPromise<SiwxMessage, SignInAccount>(notProvided('createMessage')),
    /** The connected wallet signs the message (personal_sign). */
    signMessage: fromPromise<`0x${string}`, { message: SiwxMessage; account: SignInAccount }>(
      notProvided('signMessage'),
    ),
    /** Verifies the signature (EOA or smart account, through the chain), then the host keeps the session. */
    verifyAndKeep: fromPromise<CheckedSession, { message: SiwxMessage; signature: `0x${string}` }>(
      notProvided('verifyAndKeep'),
    ),
    /** Ends the sessions of this account and chain (also where a dropped kept session is stored). */
    revoke: fromPromise<void, SignInAccount>(notProvided('revoke')),
    /** Answers `signIn.visible` each time the page becomes visible again (`visibilitychange`). */
    watchVisibility: fromCallback<SignInEvent>(notProvided('watchVisibility')),
  },
  delays: {
    /** How long the wallet may take to sign (SIGN_IN_SIGNATURE_TIMEOUT_MS): then it failed, retryable. */
    signatureTimeout: SIGN_IN_SIGNATURE_TIMEOUT_MS,
    /** Until the session's `expirationTime`, at most TIMER_MAX_MS at a time (see `expiryBeyondTimer`). */
    sessionExpiry: ({ context }) => Math.min(remainingOf(context), TIMER_MAX_MS),
  },
  guards: {
    /**
     * SPEC §5: the wallet's answer is no signed message (0x and 62 or more hex characters): never verified or
     * kept as a signature.
     */
    malformedSignature: (_, answer: unknown) => !isSignature(answer),
    /** The host requires sign-in (SIWX `getRequired`). */
    required: ({ context }) => context.required,
    /** `findSession` found no kept session whose signature checks out. */
    noSessionFound: (_, output: KeptSession | undefined) => output === undefined,
    /** A kept session must have an expiry: one without would never end. */
    keptWithoutExpiry: (_, output: KeptSession | undefined) => !kept(output)?.expirationTime,
    /** A kept session must be for this app's domain (EIP-4361 `domain`): one signed for another is not ours. */
    keptForAnotherDomain: (_, output: KeptSession | undefined) =>
      kept(output)?.domain !== output?.page.domain,
    /** ...and its URI must be on this page's origin. */
    keptForAnotherOrigin: (_, output: KeptSession | undefined) =>
      originOf(kept(output)?.uri ?? '') !== output?.page.origin,
    /** A kept session past its expiry. */
    keptExpired: (_, output: KeptSession | undefined) => !output || !(expiryOf(output.session) > output.at),
    /** A kept session before its `notBefore`. */
    keptNotYetValid: (_, output: KeptSession | undefined) =>
      !!kept(output)?.notBefore && Date.parse(kept(output)!.notBefore!) > output!.at,
    /** The session lasts longer than one timer: the timer is re-armed when it fires. */
    expiryBeyondTimer: ({ context }) => remainingOf(context) > TIMER_MAX_MS,
    /** The page, visible again, finds the session expired. */
    expiredAt: ({ context, event }) =>
      event.type === 'signIn.visible' && !(expiryOf(context.session) > event.at),
    /** Revoking because the session expired. */
    sessionExpired: ({ context }) => context.ending === 'expired',
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
      checkedAt: undefined,
      dropped: undefined,
    }),
    clear: assign({
      account: undefined,
      session: undefined,
      message: undefined,
      signature: undefined,
      error: undefined,
      ending: undefined,
      checkedAt: undefined,
      dropped: undefined,
    }),
    /** A kept session that must not be trusted: why, for the chart and the inspector. */
    drop: assign((_, reason: DropReason) => ({ dropped: reason })),
    /** The session checks out at `at`: its timer runs from then. */
    keepSession: assign((_, checked: CheckedSession) => ({
      session: checked.session,
      checkedAt: checked.at,
      signature: undefined,
    })),
    /** A timer of TIMER_MAX_MS ran out before the session did: the next one runs from its end. */
    advanceCheckedAt: assign({ checkedAt: ({ context }) => (context.checkedAt ?? 0) + TIMER_MAX_MS }),
    /** A slot failed (its `xstate.error.actor.*` event): its text is shown on ConnectingSiwe. */
    setError: assign({ error: ({ event }) => errorText('error' in event ? event.error : undefined) }),
    clearError: assign({ error: undefined }),
    /** The wallet did not answer within `signatureTimeout`: its own text, not the generic failure. */
    setTimedOut: assign({ error: () => errorText(new SignInTimeoutError()) }),
    /** SPEC §5: the wallet answered no signed message. */
    setMalformedSignature: assign({
      error: () =>
        errorText(
          new InvalidSignatureError({
            details: 'The wallet answered the sign-in message with no signature.',
          }),
        ),
    }),
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
    checkedAt: undefined,
    dropped: undefined,
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
        // The kept session found is judged by the chart, each rule a guard: without an expiry, for
        // another domain or origin, expired or not valid yet, it is dropped; otherwise the visitor is signed in.
        onDone: [
          { guard: { type: 'noSessionFound', params: ({ event }) => event.output }, target: 'asking' },
          {
            guard: { type: 'keptWithoutExpiry', params: ({ event }) => event.output },
            target: 'dropping',
            actions: { type: 'drop', params: 'noExpiry' },
          },
          {
            guard: { type: 'keptForAnotherDomain', params: ({ event }) => event.output },
            target: 'dropping',
            actions: { type: 'drop', params: 'otherDomain' },
          },
          {
            guard: { type: 'keptForAnotherOrigin', params: ({ event }) => event.output },
            target: 'dropping',
            actions: { type: 'drop', params: 'otherOrigin' },
          },
          {
            guard: { type: 'keptExpired', params: ({ event }) => event.output },
            target: 'dropping',
            actions: { type: 'drop', params: 'expired' },
          },
          {
            guard: { type: 'keptNotYetValid', params: ({ event }) => event.output },
            target: 'dropping',
            actions: { type: 'drop', params: 'notYetValid' },
          },
          {
            target: 'signedIn',
            actions: [{ type: 'keepSession', params: ({ event }) => event.output! }, 'notifySignedIn'],
          },
        ],
        // Kept sessions that cannot be read count as none: the visitor is asked to sign again.
        onError: { target: 'asking' },
      },
    },
    /** A kept session that must not be trusted is revoked where it is kept; the visitor is asked to sign. */
    dropping: {
      tags: 'busy',
      invoke: {
        id: 'dropSession',
        src: 'revoke',
        input: ({ context }) => context.account!,
        onDone: { target: 'asking' },
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
        onDone: [
          {
            guard: {
              type: 'malformedSignature',
              params: ({ event }: { event: { output: unknown } }) => event.output,
            },
            target: 'failed',
            actions: 'setMalformedSignature',
          },
          { target: 'verifying', actions: assign({ signature: ({ event }) => event.output }) },
        ],
        onError: { target: 'failed', actions: 'setError' },
      },
      after: {
        signatureTimeout: {
          target: 'failed',
          actions: 'setTimedOut',
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
          actions: [{ type: 'keepSession', params: ({ event }) => event.output }, 'notifySignedIn'],
        },
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    /**
     * Signed in, inside the session's validity. It ends at the session's expiry (`sessionExpiry`; a session longer
     * than one timer re-enters to wait again, without a new notice: `signIn.signedIn` is sent by the transitions
     * that sign in), and at once when the page, visible again, finds it expired (a hidden page's timers may have
     * been held back).
     */
    signedIn: {
      invoke: { id: 'watchVisibility', src: 'watchVisibility' },
      after: {
        sessionExpiry: [
          { guard: 'expiryBeyondTimer', target: 'signedIn', reenter: true, actions: 'advanceCheckedAt' },
          { target: 'revoking', actions: assign({ ending: 'expired' }) },
        ],
      },
      on: {
        'signIn.account': [{ guard: 'sameAccount' }, { target: 'checking', actions: 'setAccount' }],
        'signIn.disconnected': { target: 'revoking', actions: assign({ ending: 'disconnect' }) },
        'signIn.signOut': { target: 'revoking', actions: assign({ ending: 'signOut' }) },
        'signIn.visible': {
          guard: 'expiredAt',
          target: 'revoking',
          actions: assign({ ending: 'expired' }),
        },
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
          { guard: 'sessionExpired', target: 'afterExpiry' },
          { target: 'signedOut', actions: 'clear' },
        ],
        onError: [
          { guard: 'signingOut', target: 'afterSignOut' },
          { guard: 'sessionExpired', target: 'afterExpiry' },
          { target: 'signedOut', actions: 'clear' },
        ],
      },
      // Disconnected while a sign-out revokes: the revoke goes on, the account is gone.
      on: { 'signIn.disconnected': { actions: assign({ ending: 'disconnect' }) } },
    },
    /** The session expired while connected: asked to sign in again when required, else on without one. */
    afterExpiry: {
      entry: assign({ session: undefined, ending: undefined, checkedAt: undefined }),
      always: [{ guard: 'required', target: 'asking' }, { target: 'skipped' }],
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
export type SignInActorRef = ActorRefFrom<SignInMachine>

/** Where sign-in stands, for the views and `useKitSession`. */
export function selectSignInStatus(snapshot: SignInSnapshot | undefined): SignInStatus {
  if (!snapshot) return 'signedOut'
  if (snapshot.matches('checking') || snapshot.matches('dropping') || snapshot.matches('revoking'))
    return 'checking'
  if (snapshot.matches('creating') || snapshot.matches('signing') || snapshot.matches('verifying'))
    return 'signing'
  if (snapshot.matches('asking')) return 'asking'
  if (snapshot.matches('signedIn')) return 'signedIn'
  if (snapshot.matches('failed')) return 'failed'
  if (snapshot.matches('skipped') || snapshot.matches('declined') || snapshot.matches('afterSignOut'))
    return 'skipped'
  return 'signedOut'
}
