import { assertEvent } from 'xstate'
import { createRecentlyDeleted } from '../session/recentlyDeleted'
import {
  discardedUpdates,
  PROPOSAL_RULES,
  planRefusals,
  REQUEST_RULES,
  refusedBy,
  refusedProposals,
  refusedRequests,
  settlementFailures,
  TOPIC_RULES,
} from './session/guards'
import { sessionClientSetup } from './session/setup'
import { errorOf, systemClock } from './session/shared'

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
 * the `queue` region lets the wallet decide on one request at a time. The chart is here; its slots, delays,
 * guards and actions are in `session/setup.ts`.
 *
 * Events named `wc.*` are what the WalletConnect client reports (the adapter in `actors/session.ts` turns the
 * client's events into them); the others are commands and the children's notices. Every effect is a named actor
 * slot; the adapter fills them over a real client, tests with fakes. Time comes from the `clock` input.
 */

export const sessionClientMachine = sessionClientSetup.createMachine({
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
    pingIntervalMs: input.pingIntervalMs,
    keepAlive: input.keepAlive,
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

/**
 * `sessionClientMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface SessionClientMachine extends SessionClientMachineType {}
type SessionClientMachineType = typeof sessionClientMachine
