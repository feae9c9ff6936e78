import { assertEvent, assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate'
import {
  REQUEST_TTL_MS,
  SESSION_CONNECT_TIMEOUT_MS,
  SESSION_PAIR_TIMEOUT_MS,
  SESSION_TTL_MS,
} from '../../constants'
import { InvalidParamsError, InvalidSettleError, RelayTimeoutError } from '../../errors/session'
import { sessionChains } from '../../session/namespaces'
import { own } from '../../session/own'
import { rememberDeleted } from '../../session/recentlyDeleted'
import {
  type ClientRuleName,
  changedChain,
  clientRules,
  errorInfoOf,
  isKnownKey,
  planRequest,
} from '../../session/rules'
import type { Namespaces, RequestInfo } from '../../session/types'
import { type AuthMachine, authMachine } from './auth'
import { planGuards, ruleGuards } from './guards'
import { type ProposalMachine, proposalMachine } from './proposal'
import {
  addIncomingRequest,
  addProposal,
  addSession,
  capped,
  childOf,
  isKnown,
  keyOf,
  logged,
  refreshed,
  sessionFromSettle,
  syncRecords,
  withoutRequest,
} from './records'
import {
  type IncomingRequestMachine,
  incomingRequestMachine,
  type OutgoingRequestMachine,
  outgoingRequestMachine,
} from './request'
import { type SessionMachine, sessionMachine } from './session'
import { info, notProvided } from './shared'
import type {
  ConnectOutput,
  Role,
  SessionClientContext,
  SessionClientEvent,
  SessionClientInput,
  SessionNotice,
  SignClientCommand,
} from './types'

/**
 * The client machine's setup (`../session.ts` holds its chart): its types, its actor slots (the WalletConnect
 * client, connect and pair) and the child machines it spawns, the relay time limits as named delays, its guards
 * (every SPEC §5 rule by name) and its actions, which keep the records and spawn, forward to and forget the
 * children.
 */
export const sessionClientSetup = setup({
  types: {
    context: {} as SessionClientContext,
    events: {} as SessionClientEvent,
    input: {} as SessionClientInput,
    tags: {} as 'connecting' | 'pairing',
    /** Each settled record, for hosts that follow them with `actor.on(type, listener)`. */
    emitted: {} as SessionNotice,
  },
  actors: {
    /** The WalletConnect client: reports `wc.*` events, receives `library.*` commands. */
    signClient: fromCallback<SignClientCommand, { role: Role }>(() => () => {}),
    connect: fromPromise<ConnectOutput, { params: unknown }>(notProvided('sessionClientMachine', 'connect')),
    pair: fromPromise<void, { uri: string }>(notProvided('sessionClientMachine', 'pair')),
    // Typed by their names, so the declarations of the machines over this setup name them.
    proposal: proposalMachine as ProposalMachine,
    session: sessionMachine as SessionMachine,
    outgoingRequest: outgoingRequestMachine as OutgoingRequestMachine,
    incomingRequest: incomingRequestMachine as IncomingRequestMachine,
    auth: authMachine as AuthMachine,
  },
  /**
   * connect() and pair() wait on the relay at most this long (issue 13, no dead end); beyond the sign client's
   * own relay limits, so its error normally comes first. On the limit the command fails with a
   * RelayTimeoutError, and a new one may be given; the library's late answer is not followed.
   */
  delays: {
    connectTimeout: SESSION_CONNECT_TIMEOUT_MS,
    pairTimeout: SESSION_PAIR_TIMEOUT_MS,
  },
  guards: {
    // Every SPEC §5 rule by name (`src/session/rules.ts`): true when the command or report breaks it.
    ...ruleGuards,
    // A request's plan (computed once, kept in context): the rule it broke, or where it goes.
    ...planGuards,
    answeredLocally: ({ context }) => context.plan?.kind === 'local',
    /** Already known, or recently deleted (at-least-once delivery): reported again, ignored. */
    known: ({ context, event }) => isKnown(context, event),
    isActiveRequest: ({ context, event }) => {
      assertEvent(event, 'request.settled')
      return context.activeRequest === String(event.id)
    },
    hasQueued: ({ context }) => context.queue.length > 0,
    renews: ({ context, event }) => {
      assertEvent(event, 'proposal.settled')
      return (
        context.role === 'app' &&
        context.renewExpiredProposals &&
        event.outcome === 'expired' &&
        own(context.proposals, String(event.id))?.uri !== undefined &&
        context.connectParams !== undefined
      )
    },
  },
  actions: {
    /** Records the SPEC §8 error of the rule the command broke (the guard of the same name just held). */
    refuse: assign(({ context, event }, { rule }: { rule: ClientRuleName }) => {
      const error = clientRules[rule](context, event, context.clock) ?? new InvalidParamsError(rule)
      return { lastError: { command: event.type, ...keyOf(event), error: info(error) } }
    }),
    /** App: the plan of this `request.send`, from one clock read; the guards and actions below read it. */
    plan: assign(({ context, event }) => {
      assertEvent(event, 'request.send')
      return { plan: planRequest(context, event, context.clock()) }
    }),
    clearPlan: assign({ plan: undefined }),
    refusePlan: assign(({ context, event }) => {
      const { plan } = context
      if (plan?.kind !== 'refused') return {}
      return { lastError: { command: event.type, ...keyOf(event), error: info(plan.error) } }
    }),
    setConnectError: assign((_, error: unknown) => ({
      lastError: { command: 'session.connect', error: errorInfoOf(error) },
    })),
    setPairError: assign((_, error: unknown) => ({
      lastError: { command: 'session.pair', error: errorInfoOf(error) },
    })),
    setConnectTimedOut: assign({
      lastError: {
        command: 'session.connect',
        error: info(new RelayTimeoutError('connect()', { timeoutMs: SESSION_CONNECT_TIMEOUT_MS })),
      },
    }),
    setPairTimedOut: assign({
      lastError: {
        command: 'session.pair',
        error: info(new RelayTimeoutError('pair()', { timeoutMs: SESSION_PAIR_TIMEOUT_MS })),
      },
    }),
    rememberConnect: assign(({ event }) => {
      assertEvent(event, 'session.connect')
      return { connectParams: event.params, pairingUri: undefined, lastError: undefined }
    }),
    setPairingUri: assign(({ context }, output: ConnectOutput) => {
      const proposals = { ...context.proposals }
      for (const [key, record] of Object.entries(proposals)) {
        if (record.pairingTopic === output.pairingTopic)
          proposals[key] = { ...record, ...(output.uri ? { uri: output.uri } : {}) }
      }
      return { pairingUri: output.uri, proposals }
    }),
    setPairings: assign(({ event }) => {
      assertEvent(event, 'wc.pairings')
      return { pairings: event.pairings }
    }),
    /** Forwards the event to the child it names. */
    forward: enqueueActions(({ context, event, enqueue }) => {
      const target = childOf(context, event)
      if (target) enqueue.sendTo(target, event)
    }),
    sync: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.sync')
      // The function form: an object's function-valued keys (the clock) would be taken for assigners.
      const next = syncRecords(context, event, enqueue, self)
      enqueue.assign(() => next)
    }),
    /** Wallet: a proposal that broke a rule is kept, and rejected to its peer with the rule's error. */
    addProposal: enqueueActions(({ context, event, enqueue, self }, broke?: { rule: ClientRuleName }) => {
      assertEvent(event, 'wc.sessionPropose')
      const refusal =
        broke &&
        (clientRules[broke.rule](context, event, context.clock) ?? new InvalidParamsError(broke.rule))
      const next = addProposal(context, event.proposal, enqueue, self, refusal)
      enqueue.assign(() => next)
    }),
    addSettledSession: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.sessionSettle')
      const next = addSession(context, sessionFromSettle(event), enqueue, self)
      enqueue.assign(() => next)
    }),
    logSettlementFailure: assign(({ context, event }, { rule }: { rule: ClientRuleName }) => {
      assertEvent(event, 'wc.sessionSettle')
      const error = info(clientRules[rule](context, event, context.clock) ?? new InvalidSettleError())
      return {
        lastError: { command: event.type, key: event.topic, error },
        outcomes: logged(context, { kind: 'session', key: event.topic, outcome: 'settlementFailed', error }),
      }
    }),
    refreshSession: assign(({ context, event }) => {
      assertEvent(event, 'wc.settleAcknowledged')
      return event.session ? { sessions: refreshed(context.sessions, event.topic, event.session) } : {}
    }),
    extendByPeer: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'wc.sessionExtend')
      if (!own(context.sessions, event.topic)) return
      const expiry = context.clock() + (context.ttl.sessionMs ?? SESSION_TTL_MS)
      enqueue.sendTo(`session:${event.topic}`, { type: 'session.extended', topic: event.topic, expiry })
    }),
    applyUpdate: assign(({ context, event }) => {
      assertEvent(event, 'wc.sessionUpdate')
      const record = own(context.sessions, event.topic)!
      return {
        sessions: {
          ...context.sessions,
          [event.topic]: { ...record, namespaces: event.namespaces as Namespaces, lastUpdateId: event.id },
        },
      }
    }),
    discardUpdate: assign(({ context, event }, { rule }: { rule: ClientRuleName }) => {
      assertEvent(event, 'wc.sessionUpdate')
      const error = clientRules[rule](context, event, context.clock) ?? new InvalidParamsError(rule)
      return { lastError: { command: event.type, key: event.topic, error: info(error) } }
    }),
    applySessionEvent: assign(({ context, event }) => {
      assertEvent(event, 'wc.sessionEvent')
      const record = own(context.sessions, event.topic)
      if (!record || context.role !== 'app' || event.event.name !== 'chainChanged') return {}
      const chainId = changedChain(event.chainId, event.event.data)
      if (chainId === undefined || !sessionChains(record.namespaces).includes(chainId)) return {}
      return { sessions: { ...context.sessions, [event.topic]: { ...record, chainId } } }
    }),
    addObservedRequest: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.requestSent')
      const { request } = event
      const now = context.clock()
      const expiry = capped(now, request.expiry ?? now + REQUEST_TTL_MS, context.ttl.requestMs)
      enqueue.spawnChild('outgoingRequest', {
        id: `request:${request.id}`,
        input: { parent: self, clock: context.clock, request: { ...request, expiry }, observed: true },
      })
      enqueue.assign({
        requests: {
          ...context.requests,
          [String(request.id)]: { id: request.id, topic: request.topic, method: request.request.method },
        },
      })
    }),
    /** Wallet: a request joins the queue; one that broke a rule is refused to its peer with the rule's error. */
    addReceivedRequest: enqueueActions(
      ({ context, event, enqueue, self }, broke?: { rule: ClientRuleName }) => {
        assertEvent(event, 'wc.sessionRequest')
        const refusal =
          broke &&
          (clientRules[broke.rule](context, event, context.clock) ?? new InvalidParamsError(broke.rule))
        const next = addIncomingRequest(context, event.request, enqueue, self, { refusal })
        enqueue.assign(() => next)
      },
    ),
    addReceivedAuth: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'wc.sessionAuthenticate')
      const { request } = event
      const expiry = capped(context.clock(), request.expiry, context.ttl.authMs)
      enqueue.spawnChild('auth', {
        id: `auth:${request.id}`,
        input: { parent: self, clock: context.clock, role: 'wallet', id: request.id, expiry, request },
      })
      enqueue.assign({
        auths: {
          ...context.auths,
          [String(request.id)]: { id: request.id, pairingTopic: request.pairingTopic },
        },
      })
    }),
    startAuth: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'session.authenticate')
      // The reference client keeps an auth request at least an hour.
      const now = context.clock()
      const expiry = capped(now, now + Math.max(event.params.expiry ?? 0, 3_600) * 1000, context.ttl.authMs)
      enqueue.spawnChild('auth', {
        id: `auth:${event.id}`,
        input: {
          parent: self,
          clock: context.clock,
          role: 'app',
          id: event.id,
          expiry,
          params: event.params,
        },
      })
      enqueue.assign({
        auths: { ...context.auths, [String(event.id)]: { id: event.id } },
        lastError: undefined,
      })
    }),
    answerLocally: assign(({ context, event }) => {
      assertEvent(event, 'request.send')
      const { plan } = context
      if (plan?.kind !== 'local') return {}
      const { answer, topic } = plan
      const record = own(context.sessions, topic)!
      return {
        ...(answer.chainId
          ? { sessions: { ...context.sessions, [topic]: { ...record, chainId: answer.chainId } } }
          : {}),
        outcomes: logged(context, {
          kind: 'request',
          key: String(event.id),
          outcome: 'fulfilled',
          local: true,
          result: answer.result,
        }),
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, event.id, 'request'),
        lastError: undefined,
      }
    }),
    sendRequest: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'request.send')
      const { plan } = context
      if (plan?.kind !== 'send') return
      const request: RequestInfo = {
        id: event.id,
        topic: plan.topic,
        chainId: plan.chainId,
        request: event.request,
        expiry: plan.expiry,
      }
      enqueue.spawnChild('outgoingRequest', {
        id: `request:${event.id}`,
        input: {
          parent: self,
          clock: context.clock,
          request,
          observed: false,
          ...(event.expiry === undefined ? {} : { expirySeconds: event.expiry }),
        },
      })
      enqueue.assign({
        requests: {
          ...context.requests,
          [String(event.id)]: { id: event.id, topic: plan.topic, method: event.request.method },
        },
        lastError: undefined,
      })
    }),
    clearError: assign({ lastError: undefined }),
    refuseBusy: assign(({ event }) => ({
      lastError: {
        command: event.type,
        error: info(
          new InvalidParamsError(
            `${event.type === 'session.pair' ? 'pair()' : 'connect()'} is already in progress`,
          ),
        ),
      },
    })),
    // ----- notices -----
    forgetProposal: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'proposal.settled')
      const key = String(event.id)
      if (!own(context.proposals, key)) return
      enqueue.emit(event)
      const { [key]: _, ...proposals } = context.proposals
      enqueue.stopChild(`proposal:${key}`)
      if (event.outcome === 'expired')
        enqueue.sendTo('signClient', { type: 'library.expireProposal', id: event.id })
      enqueue.assign({
        proposals,
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, event.id, 'proposal'),
        outcomes: logged(context, {
          kind: 'proposal',
          key,
          outcome: event.outcome,
          ...(event.reason ? { reason: event.reason } : {}),
        }),
      })
    }),
    forgetAuth: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'auth.settled')
      const key = String(event.id)
      if (!own(context.auths, key)) return
      enqueue.emit(event)
      const { [key]: _, ...auths } = context.auths
      enqueue.stopChild(`auth:${key}`)
      let next: SessionClientContext = {
        ...context,
        auths,
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, event.id, 'auth'),
        outcomes: logged(context, {
          kind: 'auth',
          key,
          outcome: event.outcome,
          ...(event.reason ? { reason: event.reason } : {}),
        }),
      }
      if (event.session && !isKnownKey(next, 'session', event.session.topic)) {
        next = addSession(next, { ...event.session, acknowledged: true }, enqueue, self)
      }
      // App: the fallback proposal sent beside the auth request is answered by the auth approval.
      if (event.outcome === 'approved' && event.pairingTopic) {
        for (const proposal of Object.values(context.proposals)) {
          if (proposal.pairingTopic !== event.pairingTopic) continue
          enqueue.sendTo(`proposal:${proposal.id}`, { type: 'wc.proposalApproved', id: proposal.id })
        }
      }
      enqueue.assign(() => next)
    }),
    forgetSession: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'session.ended')
      const { topic } = event
      if (!own(context.sessions, topic)) return
      enqueue.emit(event)
      const { [topic]: _, ...sessions } = context.sessions
      enqueue.stopChild(`session:${topic}`)
      if (event.outcome === 'expired') enqueue.sendTo('signClient', { type: 'library.expireSession', topic })
      // SPEC §4: when a session ends, its pending requests are removed.
      for (const request of Object.values(context.requests)) {
        if (request.topic === topic)
          enqueue.sendTo(`request:${request.id}`, { type: 'request.remove', id: request.id })
      }
      enqueue.assign({
        sessions,
        recentlyDeleted: rememberDeleted(context.recentlyDeleted, topic, 'session'),
        outcomes: logged(context, { kind: 'session', key: topic, outcome: event.outcome }),
      })
    }),
    setSessionExpiry: assign(({ context, event }) => {
      assertEvent(event, 'session.expiryChanged')
      const record = own(context.sessions, event.topic)
      if (!record) return {}
      return { sessions: { ...context.sessions, [event.topic]: { ...record, expiry: event.expiry } } }
    }),
    forgetRequest: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'request.settled')
      const key = String(event.id)
      if (!own(context.requests, key)) return
      enqueue.emit(event)
      enqueue.stopChild(`request:${key}`)
      if (event.outcome === 'expired' && context.role === 'wallet') {
        enqueue.sendTo('signClient', { type: 'library.expireRequest', id: event.id, topic: event.topic })
      }
      enqueue.assign(withoutRequest(context, event))
    }),
    activateHead: enqueueActions(({ context, enqueue }) => {
      const head = context.queue[0]
      if (head === undefined) return
      enqueue.assign({ activeRequest: head })
      enqueue.sendTo(`request:${head}`, { type: 'request.activate', id: Number(head) })
    }),
  },
})
