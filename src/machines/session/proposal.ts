import { type AnyActorRef, assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate'
import { SESSION_ANSWER_TIMEOUT_MS } from '../../constants'
import { type ErrorReason, RelayTimeoutError, type SessionErrorInfo } from '../../errors/session'
import { errorInfoOf } from '../../session/rules'
import type { ProposalInfo } from '../../session/types'
import type { ApproveParams } from '../../session/validateApprove'
import { errorOf, info, notProvided, remaining, systemClock } from './shared'
import type { Clock, Role, SessionNotice } from './types'

/**
 * One session proposal (`proposal:<id>`, SPEC §4): pending → approved | rejected | expired. The wallet approves
 * or rejects it; an invalid one (wallet) is rejected to its peer at once; the app waits for the answer.
 */
export interface ProposalInput {
  parent?: AnyActorRef
  role: Role
  clock?: Clock
  proposal: ProposalInfo
  /** Set when the wallet found the proposal invalid: it is rejected to the peer with this reason. */
  refusal?: SessionErrorInfo
}

export interface ProposalContext {
  parent: AnyActorRef | undefined
  role: Role
  clock: Clock
  proposal: ProposalInfo
  refusal: SessionErrorInfo | undefined
  /** What the wallet approves with. */
  approval: ApproveParams | undefined
  /** The rejection reason, given (wallet) or received (app). */
  reason: ErrorReason | undefined
  /** The session topic derived on approval (wallet). */
  topic: string | undefined
  /** The last command that failed in the library. */
  error: SessionErrorInfo | undefined
}

export type ProposalEvent =
  | ({ type: 'proposal.approve' } & ApproveParams)
  | { type: 'proposal.reject'; id: number; reason: ErrorReason }
  | { type: 'wc.proposalApproved'; id: number }
  | { type: 'wc.proposalRejected'; id: number; reason: ErrorReason }
  | { type: 'wc.proposalExpired'; id: number }

export const proposalMachine = setup({
  types: {
    context: {} as ProposalContext,
    events: {} as ProposalEvent,
    input: {} as ProposalInput,
    tags: {} as 'pending' | 'busy',
  },
  actors: {
    approve: fromPromise<{ topic: string }, ApproveParams>(notProvided('proposalMachine', 'approve')),
    reject: fromPromise<void, { id: number; reason: ErrorReason }>(notProvided('proposalMachine', 'reject')),
  },
  delays: {
    proposalExpiry: ({ context }) => remaining(context.clock, context.proposal.expiry),
    /** A refusal is one publish to the peer (SESSION_ANSWER_TIMEOUT_MS, beyond the sign client's own limit). */
    answerTimeout: SESSION_ANSWER_TIMEOUT_MS,
  },
  guards: {
    /** The wallet found the received proposal breaks a SPEC §5 connect rule (the client names which). */
    invalidProposal: ({ context }) => context.refusal !== undefined,
  },
  actions: {
    setApproval: assign(({ event }) => {
      assertEvent(event, 'proposal.approve')
      const { type: _, ...approval } = event
      return { approval, error: undefined }
    }),
    setReason: assign(({ event }) => {
      assertEvent(event, ['proposal.reject', 'wc.proposalRejected'])
      return { reason: event.reason, error: undefined }
    }),
    setTopic: assign((_, output: { topic: string }) => ({ topic: output.topic })),
    setError: assign((_, error: unknown) => ({ error: errorInfoOf(error) })),
    setRefuseTimedOut: assign({
      error: info(new RelayTimeoutError('Refusing the proposal', { timeoutMs: SESSION_ANSWER_TIMEOUT_MS })),
    }),
    /** Tells the client (absent when the machine runs on its own). */
    notify: enqueueActions(({ context, enqueue }, notice: SessionNotice) => {
      if (context.parent) enqueue.sendTo(context.parent, notice)
    }),
  },
}).createMachine({
  id: 'proposal',
  context: ({ input }) => ({
    parent: input.parent,
    role: input.role,
    clock: input.clock ?? systemClock,
    proposal: input.proposal,
    refusal: input.refusal,
    approval: undefined,
    reason: input.refusal ? { code: input.refusal.code, message: input.refusal.message } : undefined,
    topic: undefined,
    error: undefined,
  }),
  initial: 'pending',
  states: {
    pending: {
      tags: 'pending',
      // An invalid proposal (wallet) is rejected to its peer at once; any other waits for an answer.
      always: { guard: 'invalidProposal', target: 'refusing' },
      after: { proposalExpiry: 'expired' },
      on: {
        'proposal.approve': { target: 'approving', actions: 'setApproval' },
        'proposal.reject': { target: 'rejecting', actions: 'setReason' },
        'wc.proposalApproved': 'approved',
        'wc.proposalRejected': { target: 'rejected', actions: 'setReason' },
        'wc.proposalExpired': 'expired',
      },
    },
    approving: {
      tags: 'busy',
      invoke: {
        id: 'approve',
        src: 'approve',
        input: ({ context }) => context.approval!,
        onDone: { target: 'approved', actions: { type: 'setTopic', params: ({ event }) => event.output } },
        onError: { target: 'pending', actions: { type: 'setError', params: errorOf } },
      },
      on: { 'wc.proposalExpired': 'expired' },
    },
    rejecting: {
      tags: 'busy',
      invoke: {
        id: 'reject',
        src: 'reject',
        input: ({ context }) => ({ id: context.proposal.id, reason: context.reason! }),
        onDone: 'rejected',
        onError: { target: 'pending', actions: { type: 'setError', params: errorOf } },
      },
      on: { 'wc.proposalExpired': 'expired' },
    },
    /** The SPEC §8 error goes to the peer as the rejection reason. */
    refusing: {
      tags: 'busy',
      invoke: {
        id: 'refuse',
        src: 'reject',
        input: ({ context }) => ({ id: context.proposal.id, reason: context.reason! }),
        onDone: 'rejected',
        onError: { target: 'rejected', actions: { type: 'setError', params: errorOf } },
      },
      // As a failed refusal: rejected, with the reason kept (the peer's proposal expires if it heard nothing).
      after: { answerTimeout: { target: 'rejected', actions: 'setRefuseTimedOut' } },
    },
    approved: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({ type: 'proposal.settled', id: context.proposal.id, outcome: 'approved' }),
      },
    },
    rejected: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({
          type: 'proposal.settled',
          id: context.proposal.id,
          outcome: 'rejected',
          ...(context.reason ? { reason: context.reason } : {}),
        }),
      },
    },
    expired: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({ type: 'proposal.settled', id: context.proposal.id, outcome: 'expired' }),
      },
    },
  },
})

/**
 * `proposalMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface ProposalMachine extends ProposalMachineType {}
type ProposalMachineType = typeof proposalMachine
