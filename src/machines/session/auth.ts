import {
  type AnyActorRef,
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  setup,
} from 'xstate'
import { AUTH_APPROVE_TIMEOUT_MS, AUTH_VERIFY_TIMEOUT_MS, SESSION_ANSWER_TIMEOUT_MS } from '../../constants'
import {
  type ErrorReason,
  RelayTimeoutError,
  type SessionErrorInfo,
  SignatureVerificationError,
  SignatureVerificationTimeoutError,
} from '../../errors/session'
import { errorInfoOf } from '../../session/rules'
import type { AuthenticateParams, AuthRequestInfo, Cacao, SessionInfo } from '../../session/types'
import { errorOf, info, notProvided, remaining, systemClock } from './shared'
import type { Clock, Role, SessionNotice } from './types'

/**
 * One-click auth (`auth:<id>`, wc_sessionAuthenticate): the app asks and waits; the wallet decides, and approves
 * only after the signatures check out (SPEC §4).
 *
 * Every wallet step that waits has a time limit (issue 13, no dead end): the signature checks
 * (`verifyTimeout`, AUTH_VERIFY_TIMEOUT_MS: unchecked signatures are refused), the approval (`approveTimeout`,
 * AUTH_APPROVE_TIMEOUT_MS: rejected, as when the library fails it) and the rejections (`answerTimeout`,
 * SESSION_ANSWER_TIMEOUT_MS: a rejection goes back to pending, as when the library fails it; a refusal ends
 * rejected). The limits lie beyond the sign client's own relay limits, so its error normally comes first.
 */
export interface AuthInput {
  parent?: AnyActorRef
  role: Role
  clock?: Clock
  id: number
  /** Epoch ms. */
  expiry: number
  /** App: what to ask for. */
  params?: AuthenticateParams
  /** Wallet: what was asked. */
  request?: AuthRequestInfo
}

export interface AuthContext {
  parent: AnyActorRef | undefined
  role: Role
  clock: Clock
  id: number
  expiry: number
  params: AuthenticateParams | undefined
  request: AuthRequestInfo | undefined
  /** App: the pairing URI to show. */
  uri: string | undefined
  pairingTopic: string | undefined
  auths: Cacao[] | undefined
  session: SessionInfo | undefined
  reason: ErrorReason | undefined
  error: SessionErrorInfo | undefined
}

export type AuthEvent =
  | { type: 'auth.approve'; id: number; auths: Cacao[] }
  | { type: 'auth.reject'; id: number; reason: ErrorReason }
  /** From the app's authenticate actor. */
  | { type: 'auth.uri'; uri: string; pairingTopic: string }
  | { type: 'auth.approved'; session?: SessionInfo }
  | { type: 'auth.failed'; error: SessionErrorInfo }

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
    tags: {} as 'pending' | 'busy',
  },
  actors: {
    /** App: asks the wallet; sends back `auth.uri`, then `auth.approved` or `auth.failed`. */
    authenticate: fromCallback<AuthEvent, AuthenticateParams>(notProvided('authMachine', 'authenticate')),
    /** Wallet: the signature checks, before anything is approved. */
    verifyAuth: fromPromise<boolean, { request: AuthRequestInfo | undefined; auths: Cacao[] }>(
      notProvided('authMachine', 'verifyAuth'),
    ),
    approveAuth: fromPromise<{ session?: SessionInfo }, { id: number; auths: Cacao[] }>(
      notProvided('authMachine', 'approveAuth'),
    ),
    rejectAuth: fromPromise<void, { id: number; reason: ErrorReason }>(
      notProvided('authMachine', 'rejectAuth'),
    ),
  },
  delays: {
    authExpiry: ({ context }) => remaining(context.clock, context.expiry),
    verifyTimeout: AUTH_VERIFY_TIMEOUT_MS,
    approveTimeout: AUTH_APPROVE_TIMEOUT_MS,
    answerTimeout: SESSION_ANSWER_TIMEOUT_MS,
  },
  guards: {
    isApp: ({ context }) => context.role === 'app',
    verified: (_, valid: boolean) => valid,
  },
  actions: {
    setAuths: assign(({ event }) => {
      assertEvent(event, 'auth.approve')
      return { auths: event.auths, error: undefined }
    }),
    setReason: assign(({ event }) => {
      assertEvent(event, 'auth.reject')
      return { reason: event.reason, error: undefined }
    }),
    setSignatureFailure: assign(() => {
      const error = new SignatureVerificationError()
      return { reason: error.reason, error: info(error) }
    }),
    /** The checks did not finish: the peer is told 'Signature verification failed', the wallet why. */
    setVerifyTimedOut: assign({
      reason: new SignatureVerificationError().reason,
      error: info(new SignatureVerificationTimeoutError({ timeoutMs: AUTH_VERIFY_TIMEOUT_MS })),
    }),
    setApproveTimedOut: assign({
      error: info(
        new RelayTimeoutError('Approving the auth request', { timeoutMs: AUTH_APPROVE_TIMEOUT_MS }),
      ),
    }),
    setRejectTimedOut: assign({
      error: info(
        new RelayTimeoutError('Rejecting the auth request', { timeoutMs: SESSION_ANSWER_TIMEOUT_MS }),
      ),
    }),
    setUri: assign(({ event }) => {
      assertEvent(event, 'auth.uri')
      return { uri: event.uri, pairingTopic: event.pairingTopic }
    }),
    setSession: assign((_, session: SessionInfo | undefined) => ({ session })),
    setFailure: assign(({ event }) => {
      assertEvent(event, 'auth.failed')
      return { error: event.error, reason: { code: event.error.code, message: event.error.message } }
    }),
    setError: assign((_, error: unknown) => ({ error: errorInfoOf(error) })),
    /** Tells the client (absent when the machine runs on its own). */
    notify: enqueueActions(({ context, enqueue }, notice: SessionNotice) => {
      if (context.parent) enqueue.sendTo(context.parent, notice)
    }),
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => ({
    parent: input.parent,
    role: input.role,
    clock: input.clock ?? systemClock,
    id: input.id,
    expiry: input.expiry,
    params: input.params,
    request: input.request,
    uri: undefined,
    pairingTopic: input.request?.pairingTopic,
    auths: undefined,
    session: undefined,
    reason: undefined,
    error: undefined,
  }),
  initial: 'pending',
  states: {
    /** App: the request is out; the wallet signs in, refuses, or lets it expire. */
    requesting: {
      tags: 'pending',
      invoke: { id: 'authenticate', src: 'authenticate', input: ({ context }) => context.params! },
      after: { authExpiry: 'expired' },
      on: {
        'auth.approved': {
          target: 'approved',
          actions: { type: 'setSession', params: ({ event }) => event.session },
        },
        'auth.failed': { target: 'rejected', actions: 'setFailure' },
      },
      initial: 'creating',
      states: {
        creating: { on: { 'auth.uri': { target: 'waiting', actions: 'setUri' } } },
        waiting: {},
      },
    },
    /** Wallet: waits for the person's decision. */
    pending: {
      tags: 'pending',
      always: { guard: 'isApp', target: 'requesting' },
      after: { authExpiry: 'expired' },
      on: {
        'auth.approve': { target: 'verifying', actions: 'setAuths' },
        'auth.reject': { target: 'rejecting', actions: 'setReason' },
      },
    },
    /** SPEC §4: authenticated sessions are approved after signature checks. */
    verifying: {
      tags: 'busy',
      invoke: {
        id: 'verifyAuth',
        src: 'verifyAuth',
        input: ({ context }) => ({ request: context.request, auths: context.auths ?? [] }),
        onDone: [
          { guard: { type: 'verified', params: ({ event }) => event.output }, target: 'approving' },
          { target: 'refusingSignature', actions: 'setSignatureFailure' },
        ],
        onError: { target: 'refusingSignature', actions: 'setSignatureFailure' },
      },
      // Checks that never finish approve nothing: the request is refused, as when they fail.
      after: { verifyTimeout: { target: 'refusingSignature', actions: 'setVerifyTimedOut' } },
    },
    approving: {
      tags: 'busy',
      invoke: {
        id: 'approveAuth',
        src: 'approveAuth',
        input: ({ context }) => ({ id: context.id, auths: context.auths ?? [] }),
        onDone: {
          target: 'approved',
          actions: { type: 'setSession', params: ({ event }) => event.output.session },
        },
        onError: { target: 'rejected', actions: { type: 'setError', params: errorOf } },
      },
      // As a failed approval: the request ends rejected (the peer's own request expires if it heard nothing).
      after: { approveTimeout: { target: 'rejected', actions: 'setApproveTimedOut' } },
    },
    rejecting: {
      tags: 'busy',
      invoke: {
        id: 'rejectAuth',
        src: 'rejectAuth',
        input: ({ context }) => ({ id: context.id, reason: context.reason! }),
        onDone: 'rejected',
        onError: { target: 'pending', actions: { type: 'setError', params: errorOf } },
      },
      // As a failed rejection: back to pending, where it can be rejected again or expires (authExpiry).
      after: { answerTimeout: { target: 'pending', actions: 'setRejectTimedOut' } },
    },
    /** The peer is told why: 'Signature verification failed' (SESSION_SETTLEMENT_FAILED). */
    refusingSignature: {
      tags: 'busy',
      invoke: {
        id: 'rejectAuth',
        src: 'rejectAuth',
        input: ({ context }) => ({ id: context.id, reason: context.reason! }),
        onDone: 'rejected',
        onError: 'rejected',
      },
      // As a failed refusal: the request ends rejected, its reason (the signature failure) kept.
      after: { answerTimeout: 'rejected' },
    },
    approved: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({
          type: 'auth.settled',
          id: context.id,
          outcome: 'approved',
          ...(context.session ? { session: context.session } : {}),
          ...(context.pairingTopic ? { pairingTopic: context.pairingTopic } : {}),
        }),
      },
    },
    rejected: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({
          type: 'auth.settled',
          id: context.id,
          outcome: 'rejected',
          ...(context.reason ? { reason: context.reason } : {}),
        }),
      },
    },
    expired: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({ type: 'auth.settled', id: context.id, outcome: 'expired' }),
      },
    },
  },
})

/**
 * `authMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface AuthMachine extends AuthMachineType {}
type AuthMachineType = typeof authMachine
