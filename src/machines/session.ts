import { assertEvent, assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate'
import {
  REQUEST_TTL_MS,
  SESSION_CONNECT_TIMEOUT_MS,
  SESSION_PAIR_TIMEOUT_MS,
  SESSION_TTL_MS,
} from '../constants'
import { InvalidParamsError, InvalidSettleError, RelayTimeoutError } from '../errors/session'
import { sessionChains } from '../session/namespaces'
import { own } from '../session/own'
import { createRecentlyDeleted, rememberDeleted } from '../session/recentlyDeleted'
import {
  type ClientRuleName,
  changedChain,
  clientRules,
  errorInfoOf,
  isKnownKey,
  planRequest,
} from '../session/rules'
import type { Namespaces, RequestInfo } from '../session/types'
import { authMachine } from './session/auth'
import {
  discardedUpdates,
  PROPOSAL_RULES,
  planGuards,
  planRefusals,
  REQUEST_RULES,
  refusedBy,
  refusedProposals,
  refusedRequests,
  ruleGuards,
  settlementFailures,
  TOPIC_RULES,
} from './session/guards'
import { proposalMachine } from './session/proposal'
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
} from './session/records'
import { incomingRequestMachine, outgoingRequestMachine } from './session/request'
import { sessionMachine } from './session/session'
import { errorOf, info, notProvided, systemClock } from './session/shared'
import type {
  ConnectOutput,
  Role,
  SessionClientContext,
  SessionClientEvent,
  SessionClientInput,
  SessionNotice,
  SignClientCommand,
} from './session/types'

export * from './session/auth'
export * from './session/proposal'
export * from './session/request'
export * from './session/selectors'
export * from './session/session'
export type * from './session/types'

/**
 * The remote (WalletConnect) session lifecycle of SPEC §4, for both sides: the app proposes and requests, the
 * wallet approves and answers (SPEC §6).
 *
 * One `sessionClientMachine` per WalletConnect client. It keeps the records the SPEC §5 rules are checked
 * against, checks every command before anything reaches the library (one named guard per rule, see
 * `src/session/rules.ts`), and spawns one child per record, so each proposal, session, request and one-click auth
 * request is an actor with states of its own in the inspector. The children live beside this file, in
 * `session/proposal.ts`, `session/session.ts`, `session/request.ts` (outgoing and incoming) and `session/auth.ts`;
 * the `queue` region lets the wallet decide on one request at a time.
 *
 * Events named `wc.*` are what the WalletConnect client reports (the adapter in `actors/session.ts` turns the
 * client's events into them); the others are commands and the children's notices. Every effect is a named actor
 * slot; the adapter fills them over a real client, tests with fakes. Time comes from the `clock` input.
 */

export const sessionClientMachine = setup({
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
    proposal: proposalMachine,
    session: sessionMachine,
    outgoingRequest: outgoingRequestMachine,
    incomingRequest: incomingRequestMachine,
    auth: authMachine,
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
}).createMachine({
  id: 'sessionClient',
  context: ({ input }) => ({
    role: input.role,
    ttl: input.ttl ?? {},
    rpcMap: input.rpcMap ?? {},
    renewExpiredProposals: input.renewExpiredProposals ?? true,
    pairings: {},
    proposals: {},
    sessions: {},
    requests: {},
    auths: {},
    queue: [],
    activeRequest: undefined,
    recentlyDeleted: createRecentlyDeleted(),
    connectParams: undefined,
    pairingUri: undefined,
    outcomes: [],
    lastError: undefined,
    plan: undefined,
    clock: input.clock ?? systemClock,
  }),
  invoke: { id: 'signClient', src: 'signClient', input: ({ context }) => ({ role: context.role }) },
  type: 'parallel',
  on: {
    // ----- what the WalletConnect client reports -----
    'wc.sync': { actions: 'sync' },
    'wc.pairings': { actions: 'setPairings' },
    'wc.sessionPropose': [
      { guard: 'known' },
      ...refusedProposals(
        'receivedNamespacesMalformed',
        'receivedNullProperty',
        'receivedScopedPropertiesOutsideNamespaces',
      ),
      { actions: 'addProposal' },
    ],
    'wc.proposalApproved': { actions: 'forward' },
    'wc.proposalRejected': { actions: 'forward' },
    'wc.proposalExpired': { actions: 'forward' },
    'wc.sessionSettle': [
      { guard: 'known' },
      ...settlementFailures('settlementIncomplete', 'settlementExpired'),
      { actions: 'addSettledSession' },
    ],
    'wc.settleAcknowledged': { actions: ['refreshSession', 'forward'] },
    'wc.settleFailed': { actions: 'forward' },
    'wc.sessionDelete': { actions: 'forward' },
    'wc.sessionExpire': { actions: 'forward' },
    'wc.sessionPing': { actions: 'forward' },
    'wc.sessionExtend': { actions: 'extendByPeer' },
    'wc.sessionUpdate': [
      ...discardedUpdates(
        ...TOPIC_RULES,
        'updateOutOfOrder',
        'approvedNamespacesMalformed',
        'namespacesNotConforming',
      ),
      { actions: 'applyUpdate' },
    ],
    'wc.sessionEvent': { actions: 'applySessionEvent' },
    'wc.requestSent': [{ guard: 'known' }, { actions: 'addObservedRequest' }],
    'wc.requestResult': { actions: 'forward' },
    'wc.requestError': { actions: 'forward' },
    'wc.sessionRequest': [
      { guard: 'known' },
      ...refusedRequests(
        'receivedByApp',
        'receivedIdMalformed',
        'receivedTopicMalformed',
        'receivedTopicRecentlyDeleted',
        'receivedTopicUnknown',
        'receivedSessionExpired',
        'receivedChainNotApproved',
        'receivedMethodMissing',
        'receivedMethodNotApproved',
        'receivedExpiryMalformed',
        'requestExpired',
        'receivedExpiryTooFar',
      ),
      { actions: 'addReceivedRequest' },
    ],
    'wc.requestExpired': { actions: 'forward' },
    'wc.sessionAuthenticate': [{ guard: 'known' }, { actions: 'addReceivedAuth' }],
    // ----- commands: each SPEC §5 rule is checked here, in order, before the library sees anything -----
    'session.authenticate': [
      ...refusedBy(
        'appOnly',
        'authIdReused',
        'authParamsMissing',
        'authChainsMalformed',
        'multiNamespaceAuth',
        'nonEip155Auth',
      ),
      { actions: 'startAuth' },
    ],
    'proposal.approve': [
      ...refusedBy(
        'walletOnly',
        ...PROPOSAL_RULES,
        'approvedNamespacesMalformed',
        'namespacesNotConforming',
        'nullProperty',
        'scopedPropertiesOutsideNamespaces',
      ),
      { actions: ['clearError', 'forward'] },
    ],
    'proposal.reject': [
      ...refusedBy('walletOnly', ...PROPOSAL_RULES, 'rejectReasonInvalid'),
      { actions: ['clearError', 'forward'] },
    ],
    'auth.approve': [
      ...refusedBy('walletOnly', 'unknownAuthRequest'),
      { actions: ['clearError', 'forward'] },
    ],
    'auth.reject': [
      ...refusedBy('walletOnly', 'unknownAuthRequest', 'rejectReasonInvalid'),
      { actions: ['clearError', 'forward'] },
    ],
    'request.respond': [
      ...refusedBy(
        'walletOnly',
        'requestIdMalformed',
        'requestRecentlyDeleted',
        'unknownRequest',
        'requestNotActive',
        'responseMalformed',
      ),
      { actions: ['clearError', 'forward'] },
    ],
    'session.ping': [...refusedBy(...TOPIC_RULES), { actions: ['clearError', 'forward'] }],
    'session.extend': [...refusedBy(...TOPIC_RULES), { actions: ['clearError', 'forward'] }],
    'session.emit': [
      ...refusedBy('walletOnly', ...TOPIC_RULES, 'chainNotApproved', 'eventNameMissing', 'eventNotApproved'),
      { actions: ['clearError', 'forward'] },
    ],
    'session.disconnect': [...refusedBy(...TOPIC_RULES), { actions: ['clearError', 'forward'] }],
    // ----- the children's notices -----
    'proposal.settled': [
      { guard: 'renews', target: '.connect.proposing', actions: 'forgetProposal' },
      { actions: 'forgetProposal' },
    ],
    'auth.settled': { actions: 'forgetAuth' },
    'session.ended': { actions: 'forgetSession' },
    'session.expiryChanged': { actions: 'setSessionExpiry' },
  },
  states: {
    /** App: creating a proposal and its pairing URI. */
    connect: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.connect': [
              ...refusedBy(
                'appOnly',
                'connectParamsNotObject',
                'pairingTopicMalformed',
                'pairingRecentlyDeleted',
                'unknownPairing',
                'pairingExpired',
                'requestedNamespacesMalformed',
                'nullProperty',
                'scopedPropertiesOutsideNamespaces',
              ),
              { target: 'proposing', actions: 'rememberConnect' },
            ],
          },
        },
        proposing: {
          tags: 'connecting',
          on: { 'session.connect': { actions: 'refuseBusy' } },
          invoke: {
            id: 'connect',
            src: 'connect',
            input: ({ context }) => ({ params: context.connectParams }),
            onDone: {
              target: 'idle',
              actions: { type: 'setPairingUri', params: ({ event }) => event.output },
            },
            onError: { target: 'idle', actions: { type: 'setConnectError', params: errorOf } },
          },
          after: { connectTimeout: { target: 'idle', actions: 'setConnectTimedOut' } },
        },
      },
    },
    /** Wallet: pairing with an app from its URI (its proposal follows). */
    pair: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.pair': [
              ...refusedBy('walletOnly', 'pairUriMalformed'),
              { target: 'pairing', actions: 'clearError' },
            ],
          },
        },
        pairing: {
          tags: 'pairing',
          on: { 'session.pair': { actions: 'refuseBusy' } },
          invoke: {
            id: 'pair',
            src: 'pair',
            input: ({ event }) => {
              assertEvent(event, 'session.pair')
              return { uri: event.uri }
            },
            onDone: 'idle',
            onError: { target: 'idle', actions: { type: 'setPairError', params: errorOf } },
          },
          after: { pairTimeout: { target: 'idle', actions: 'setPairTimedOut' } },
        },
      },
    },
    /**
     * App: a request is planned once (one clock read, kept in `plan`), then the plan decides: refused by the
     * rule it broke, answered here, or sent.
     */
    request: {
      initial: 'idle',
      states: {
        idle: {
          entry: 'clearPlan',
          on: { 'request.send': [...refusedBy('appOnly'), { target: 'planning', actions: 'plan' }] },
        },
        planning: {
          always: [
            ...planRefusals(...REQUEST_RULES),
            { guard: 'answeredLocally', target: 'idle', actions: 'answerLocally' },
            { target: 'idle', actions: 'sendRequest' },
          ],
        },
      },
    },
    /** SPEC §4: requests are handled one at a time; the queue is idle or active. */
    queue: {
      initial: 'idle',
      states: {
        idle: {
          always: { guard: 'hasQueued', target: 'active' },
          on: { 'request.settled': { actions: 'forgetRequest' } },
        },
        active: {
          entry: 'activateHead',
          on: {
            'request.settled': [
              { guard: 'isActiveRequest', target: 'idle', actions: 'forgetRequest' },
              { actions: 'forgetRequest' },
            ],
          },
        },
      },
    },
  },
})
