import type {
  AuthTypes,
  EngineTypes,
  ISignClient,
  PairingTypes,
  ProposalTypes,
  SessionTypes,
  SignClientTypes,
} from '@walletconnect/types'
import { type Hex, verifyMessage } from 'viem'
import { type ActorRefFrom, type AnyStateMachine, fromCallback, fromPromise, waitFor } from 'xstate'
import {
  type ErrorReason,
  RequestExpiredError,
  type SessionError,
  sessionErrorFromInfo,
  sessionErrorInfo,
  toSessionError,
} from '../errors/session'
import type {
  AuthEvent,
  authMachine,
  ConnectOutput,
  incomingRequestMachine,
  outgoingRequestMachine,
  proposalMachine,
  Role,
  SessionEvent,
  SignClientCommand,
  SignClientEvent,
  sessionClientMachine,
  sessionMachine,
} from '../machines/session'
import { errorInfoOf } from '../session/rules'
import type {
  AppMetadata,
  AuthenticateParams,
  AuthRequestInfo,
  Cacao,
  Namespaces,
  Participant,
  ProposalInfo,
  ProposalNamespaces,
  RequestInfo,
  SessionInfo,
  SettleParams,
} from '../session/types'
import { isPlainObject } from '../session/validateNamespaces'
import { evmAddressOf } from '../utils/caip'

/**
 * The session machines' actor slots over a real WalletConnect `SignClient` (@walletconnect/sign-client 2.25),
 * for either side.
 *
 * The `signClient` slot turns what the client does into `wc.*` events, whoever asked for it: this machine's
 * commands, or another user of the same client (the kit's EthereumProvider calls `connect()` and `request()`
 * itself). It listens to the client's public events, to its JSON-RPC history (`core.history`: proposals,
 * settlements and responses, which have no event of their own) and to relay publishes (`core.relayer`: a
 * `wc_sessionDelete` sent from this side). The other slots carry out the commands.
 *
 * @example
 * const machine = createSessionClientMachine(signClient)
 * const actor = createActor(machine, { input: { role: 'wallet' } }).start()
 * actor.send({ type: 'session.pair', uri })
 */
export type SignClient = ISignClient

/** The relay tag of a `wc_sessionDelete` request (WalletConnect's publish tags are part of its protocol). */
const SESSION_DELETE_TAG = 1112

/** The actor slots a machine declares, as `.provide({ actors })` takes them. */
type SlotsOf<M extends AnyStateMachine> = NonNullable<Parameters<M['provide']>[0]['actors']>

/**
 * Builds every actor slot of the session machines over `client`: the client machine's own slots, and per child
 * machine the slots that child declares. `src/kit/sessionClient.ts` provides them to the machines.
 */
export interface SessionActorsOptions {
  /**
   * A wallet hears one-click auth requests (`wc_sessionAuthenticate`; default true). Off, it is a wallet
   * without one-click auth: WalletConnect hands it the app's fallback session proposal instead.
   */
  oneClickAuth?: boolean
}

export function createSessionActors(client: SignClient, { oneClickAuth = true }: SessionActorsOptions = {}) {
  /** Requests this machine sent itself: not reported back as someone else's. */
  const ownRequests = new WeakSet<object>()

  const signClient = fromCallback<SignClientCommand, { role: Role }>(({ sendBack, receive, input }) => {
    const { role } = input
    let stopped = false
    const report = (event: SignClientEvent) => {
      if (!stopped) sendBack(event)
    }
    const subscriptions: (() => void)[] = []
    const onClient = <E extends SignClientTypes.Event>(
      name: E,
      listener: (args: SignClientTypes.EventArguments[E]) => void,
    ) => {
      const safe = (args: SignClientTypes.EventArguments[E]) => {
        try {
          listener(args)
        } catch {
          // A malformed record from the peer must not break the client's own event loop.
        }
      }
      client.events.on(name, safe)
      subscriptions.push(() => client.events.off(name, safe))
    }
    const onEmitter = (
      emitter: { on(event: string, listener: never): void; off(event: string, listener: never): void },
      name: string,
      listener: (payload: unknown) => void,
    ) => {
      const safe = (payload: unknown) => {
        try {
          listener(payload)
        } catch {
          // As above.
        }
      }
      emitter.on(name, safe as never)
      subscriptions.push(() => emitter.off(name, safe as never))
    }

    report({
      type: 'wc.sync',
      pairings: pairingsOf(client),
      proposals: client.proposal.getAll().map(toProposalInfo),
      sessions: client.session.getAll().map(toSessionInfo),
      requests:
        role === 'wallet'
          ? client
              .getPendingSessionRequests()
              .map((pending) => toRequestInfo(pending.id, pending.topic, pending.params))
          : [],
    })

    // ----- the client's own events -----
    onClient('session_proposal', ({ params }) => {
      if (role === 'wallet') report({ type: 'wc.sessionPropose', proposal: toProposalInfo(params) })
    })
    onClient('proposal_expire', ({ id }) => report({ type: 'wc.proposalExpired', id }))
    onClient('session_delete', ({ topic }) => report({ type: 'wc.sessionDelete', topic, by: 'peer' }))
    onClient('session_expire', ({ topic }) => report({ type: 'wc.sessionExpire', topic }))
    onClient('session_ping', ({ topic }) => report({ type: 'wc.sessionPing', topic }))
    onClient('session_extend', ({ topic }) => report({ type: 'wc.sessionExtend', topic }))
    onClient('session_update', ({ id, topic, params }) =>
      report({ type: 'wc.sessionUpdate', topic, id, namespaces: params.namespaces }),
    )
    onClient('session_event', ({ topic, params }) =>
      report({ type: 'wc.sessionEvent', topic, chainId: params.chainId, event: params.event }),
    )
    onClient('session_request', ({ id, topic, params }) => {
      if (role === 'wallet') report({ type: 'wc.sessionRequest', request: toRequestInfo(id, topic, params) })
    })
    onClient('session_request_expire', ({ id }) => report({ type: 'wc.requestExpired', id }))
    onClient('session_request_sent', ({ id, topic, request, chainId }) => {
      if (role !== 'app' || ownRequests.has(request)) return
      report({ type: 'wc.requestSent', request: { id, topic, chainId, request } })
    })
    // WalletConnect offers a wallet one-click auth only while something listens for it.
    if (role === 'wallet' && oneClickAuth)
      onClient('session_authenticate', ({ id, topic, params }) =>
        report({ type: 'wc.sessionAuthenticate', request: toAuthRequestInfo(id, topic, params) }),
      )

    // ----- the JSON-RPC history: proposals, settlements and responses -----
    onEmitter(client.core.history, 'history_created', (payload) => {
      const record = asRecord(payload)
      if (!record) return
      if (record.method === 'wc_sessionPropose' && role === 'app' && isPlainObject(record.params)) {
        report({
          type: 'wc.sessionPropose',
          proposal: toProposalInfo({ ...(record.params as unknown as ProposalTypes.Struct), id: record.id }),
        })
      } else if (record.method === 'wc_sessionSettle' && isPlainObject(record.params)) {
        report(settleEvent(client, role, record.topic, record.params as SettleParams))
      }
    })
    onEmitter(client.core.history, 'history_updated', (payload) => {
      const record = asRecord(payload)
      if (!record?.response) return
      const { response } = record
      if (record.method === 'wc_sessionPropose' && role === 'app') {
        report(
          'error' in response
            ? { type: 'wc.proposalRejected', id: record.id, reason: reasonOf(response.error) }
            : { type: 'wc.proposalApproved', id: record.id },
        )
      } else if (record.method === 'wc_sessionSettle') {
        const session = client.session.keys.includes(record.topic)
          ? toSessionInfo(client.session.get(record.topic))
          : undefined
        report(
          'error' in response
            ? { type: 'wc.settleFailed', topic: record.topic, reason: reasonOf(response.error) }
            : { type: 'wc.settleAcknowledged', topic: record.topic, ...(session ? { session } : {}) },
        )
      } else if (record.method === 'wc_sessionRequest' && role === 'app') {
        report(
          'error' in response
            ? { type: 'wc.requestError', id: record.id, error: errorInfoOf(toSessionError(response.error)) }
            : { type: 'wc.requestResult', id: record.id, result: response.result },
        )
      }
    })

    // ----- a session deleted from this side (by this machine or anyone else using the client) -----
    onEmitter(client.core.relayer, 'relayer_publish', (payload) => {
      const params = isPlainObject(payload) && isPlainObject(payload.params) ? payload.params : undefined
      if (params?.tag === SESSION_DELETE_TAG && typeof params.topic === 'string') {
        report({ type: 'wc.sessionDelete', topic: params.topic, by: 'self' })
      }
    })

    // ----- pairings, for the connect rule's pairing topic -----
    for (const name of ['pairing_create', 'pairing_delete', 'pairing_expire']) {
      onEmitter(client.core.pairing.events, name, () =>
        report({ type: 'wc.pairings', pairings: pairingsOf(client) }),
      )
    }

    receive((command) => {
      const past = Math.floor(Date.now() / 1000) - 1
      switch (command.type) {
        case 'library.expireProposal':
          if (client.proposal.keys.includes(command.id)) client.core.expirer.set(command.id, past)
          return
        case 'library.expireSession':
          if (client.session.keys.includes(command.topic)) client.core.expirer.set(command.topic, past)
          return
        case 'library.expireRequest':
          // The peer is told: an expired request is invalid (SPEC §8), and the answer frees the library's queue.
          if (client.pendingRequest.keys.includes(command.id)) {
            client
              .respond({
                topic: command.topic,
                response: { id: command.id, jsonrpc: '2.0', error: new RequestExpiredError().reason },
              })
              .catch(() => {})
          }
          return
      }
    })

    return () => {
      stopped = true
      for (const unsubscribe of subscriptions) unsubscribe()
    }
  })

  const connect = fromPromise<ConnectOutput, { params: unknown }>(async ({ input }) => {
    const params = input.params as EngineTypes.ConnectParams
    try {
      const { uri } = await client.connect(params)
      // The approval promise is not awaited: the proposal's outcome is followed through the client's records.
      const pairingTopic = uri ? topicOfUri(uri) : (params.pairingTopic ?? '')
      return { uri, pairingTopic }
    } catch (error) {
      throw toSessionError(error)
    }
  })

  const pair = fromPromise<void, { uri: string }>(async ({ input }) => {
    await mapped(client.pair({ uri: input.uri }))
  })

  const proposal = {
    approve: fromPromise(async ({ input }) => {
      const { topic } = await mapped(
        client.approve({
          id: input.id,
          namespaces: input.namespaces as SessionTypes.Namespaces,
          ...(input.sessionProperties
            ? { sessionProperties: input.sessionProperties as Record<string, string> }
            : {}),
          ...(input.scopedProperties
            ? { scopedProperties: input.scopedProperties as Record<string, string> }
            : {}),
          ...(input.relayProtocol ? { relayProtocol: input.relayProtocol } : {}),
        }),
      )
      return { topic }
    }),
    reject: fromPromise(async ({ input }) => {
      await mapped(client.reject({ id: input.id, reason: input.reason }))
    }),
  } satisfies SlotsOf<typeof proposalMachine>

  const session = {
    ping: fromCallback<SessionEvent, { topic: string }>(({ sendBack, input }) =>
      pingPeer(client, input.topic, sendBack),
    ),
    // Settles once the peer acknowledged (the library resets its own expiry first and waits up to 5 min; the
    // machine stops waiting sooner).
    extend: fromPromise(async ({ input }) => {
      const { acknowledged } = await mapped(client.extend({ topic: input.topic }))
      await mapped(acknowledged())
    }),
    emit: fromPromise(async ({ input }) => {
      await mapped(client.emit({ topic: input.topic, chainId: input.chainId, event: input.event }))
    }),
    disconnect: fromPromise(async ({ input }) => {
      await mapped(client.disconnect({ topic: input.topic, reason: input.reason }))
    }),
  } satisfies SlotsOf<typeof sessionMachine>

  const outgoingRequest = {
    sendRequest: fromPromise(async ({ input }) => {
      const request = { method: input.request.method, params: input.request.params }
      ownRequests.add(request)
      return mapped(
        client.request({
          topic: input.topic,
          chainId: input.chainId,
          request,
          ...(input.expirySeconds === undefined ? {} : { expiry: input.expirySeconds }),
        }),
      )
    }),
  } satisfies SlotsOf<typeof outgoingRequestMachine>

  const incomingRequest = {
    respond: fromPromise(async ({ input }) => {
      const { id, topic, response } = input
      await mapped(
        client.respond({
          topic,
          response:
            'result' in response
              ? { id, jsonrpc: '2.0', result: response.result }
              : { id, jsonrpc: '2.0', error: response.error },
        }),
      )
    }),
  } satisfies SlotsOf<typeof incomingRequestMachine>

  const auth = {
    authenticate: fromCallback<AuthEvent, AuthenticateParams>(({ sendBack, input }) => {
      let stopped = false
      const send = (event: AuthEvent) => {
        if (!stopped) sendBack(event)
      }
      void (async () => {
        try {
          const { uri, response } = await client.authenticate(input as AuthTypes.SessionAuthenticateParams)
          send({ type: 'auth.uri', uri, pairingTopic: topicOfUri(uri) })
          const result = await response()
          send({
            type: 'auth.approved',
            ...(result.session ? { session: toSessionInfo(result.session) } : {}),
          })
        } catch (error) {
          send({ type: 'auth.failed', error: sessionErrorInfo(toSessionError(error)) })
        }
      })()
      return () => {
        stopped = true
      }
    }),
    verifyAuth: fromPromise(({ input }) => verifyCacaos(client, input.request, input.auths)),
    approveAuth: fromPromise(async ({ input }) => {
      const { session } = await mapped(
        client.approveSessionAuthenticate({ id: input.id, auths: input.auths as AuthTypes.Cacao[] }),
      )
      return session ? { session: toSessionInfo(session) } : {}
    }),
    rejectAuth: fromPromise(async ({ input }) => {
      await mapped(client.rejectSessionAuthenticate({ id: input.id, reason: input.reason }))
    }),
  } satisfies SlotsOf<typeof authMachine>

  return { signClient, connect, pair, proposal, session, outgoingRequest, incomingRequest, auth }
}

/** A running session client (`createActor(createSessionClientMachine(client), { input })`). */
export type SessionClientActor = ActorRefFrom<typeof sessionClientMachine>

// ---------------------------------------------------------------------------------------------- driving it

/** A fresh id for a command (a millisecond timestamp and three random digits, as WalletConnect's own ids). */
export function nextRequestId(): number {
  return Date.now() * 1000 + Math.floor(Math.random() * 1000)
}

function refusalFor(actor: SessionClientActor, command: string, key?: string): SessionError | undefined {
  const { lastError } = actor.getSnapshot().context
  if (!lastError || lastError.command !== command || (key !== undefined && lastError.key !== key))
    return undefined
  return sessionErrorFromInfo(lastError.error)
}

/**
 * App: proposes a session and resolves with the pairing URI (the QR code) once the proposal is out.
 *
 * @example
 * const { uri } = await connectThrough(sessions, { optionalNamespaces: { eip155: { chains, methods, events } } })
 */
export async function connectThrough(actor: SessionClientActor, params: unknown): Promise<{ uri: string }> {
  actor.send({ type: 'session.connect', params })
  const refused = refusalFor(actor, 'session.connect')
  if (refused) throw refused
  const snapshot = await waitFor(actor, (s) => !s.hasTag('connecting'))
  const failed = refusalFor(actor, 'session.connect')
  if (failed || !snapshot.context.pairingUri) throw failed ?? toSessionError('connect() gave no pairing URI')
  return { uri: snapshot.context.pairingUri }
}

/**
 * App: sends a request and resolves with the wallet's result, or rejects with the SPEC's error (refused here, the
 * wallet's error, expired, or removed with its session). Locally handled eip155 methods resolve at once.
 *
 * @example
 * const signature = await requestThrough(sessions, { request: { method: 'personal_sign', params: [hex, address] } })
 */
export async function requestThrough(
  actor: SessionClientActor,
  params: {
    topic?: string
    chainId?: string
    request: { method: string; params?: unknown }
    expiry?: number
  },
): Promise<unknown> {
  const id = nextRequestId()
  actor.send({ type: 'request.send', id, ...params })
  const refused = refusalFor(actor, 'request.send', String(id))
  if (refused) throw refused
  const key = String(id)
  const snapshot = await waitFor(
    actor,
    (s) => s.context.outcomes.some((o) => o.kind === 'request' && o.key === key),
    {
      timeout: Number.POSITIVE_INFINITY,
    },
  )
  const outcome = snapshot.context.outcomes.find((o) => o.kind === 'request' && o.key === key)!
  if (outcome.outcome === 'fulfilled') return outcome.result
  throw outcome.error ? sessionErrorFromInfo(outcome.error) : toSessionError(`request ${outcome.outcome}`)
}

// ---------------------------------------------------------------------------------------------- conversions

function pingPeer(client: SignClient, topic: string, sendBack: (event: SessionEvent) => void): () => void {
  let settled = false
  let ownId: number | undefined
  const settle = (event: SessionEvent) => {
    if (settled) return
    settled = true
    sendBack(event)
  }
  // The peer's answer shows in the history as it arrives; the client's own promise settles 500 ms later, and
  // the machine models that delay itself (SPEC §9).
  const onCreated = (payload: unknown) => {
    const record = asRecord(payload)
    if (ownId === undefined && record?.method === 'wc_sessionPing' && record.topic === topic)
      ownId = record.id
  }
  const onUpdated = (payload: unknown) => {
    const record = asRecord(payload)
    if (!record?.response || record.id !== ownId) return
    settle(
      'error' in record.response
        ? { type: 'session.pingFailed', error: errorInfoOf(toSessionError(record.response.error)) }
        : { type: 'session.pong' },
    )
  }
  client.core.history.on('history_created', onCreated)
  client.core.history.on('history_updated', onUpdated)
  client.ping({ topic }).then(
    () => settle({ type: 'session.pong' }),
    (error: unknown) => settle({ type: 'session.pingFailed', error: errorInfoOf(toSessionError(error)) }),
  )
  return () => {
    settled = true
    client.core.history.off('history_created', onCreated)
    client.core.history.off('history_updated', onUpdated)
  }
}

async function mapped<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise
  } catch (error) {
    throw toSessionError(error)
  }
}

/** `wc:<topic>@2?…` → topic. */
export function topicOfUri(uri: string): string {
  return /^wc:([0-9a-fA-F]+)@/.exec(uri)?.[1] ?? ''
}

interface HistoryRecord {
  id: number
  topic: string
  method: string
  params: unknown
  response?: { result: unknown } | { error: unknown }
}

function asRecord(payload: unknown): HistoryRecord | undefined {
  if (!isPlainObject(payload) || typeof payload.id !== 'number' || typeof payload.topic !== 'string')
    return undefined
  const request = payload.request
  if (!isPlainObject(request) || typeof request.method !== 'string') return undefined
  const response = isPlainObject(payload.response) ? payload.response : undefined
  return {
    id: payload.id,
    topic: payload.topic,
    method: request.method,
    params: request.params,
    ...(response && ('result' in response || 'error' in response)
      ? { response: response as HistoryRecord['response'] }
      : {}),
  }
}

function reasonOf(error: unknown): ErrorReason {
  const mapped = toSessionError(error)
  return { code: mapped.code, message: mapped.shortMessage }
}

function pairingsOf(client: SignClient): Record<string, { expiry: number }> {
  return Object.fromEntries(
    client.core.pairing.pairings
      .getAll()
      .map((pairing: PairingTypes.Struct) => [pairing.topic, { expiry: pairing.expiry * 1000 }]),
  )
}

const EMPTY_METADATA: AppMetadata = { name: '', description: '', url: '', icons: [] }

function participant(value: unknown): Participant {
  if (!isPlainObject(value)) return { publicKey: '', metadata: EMPTY_METADATA }
  return {
    publicKey: typeof value.publicKey === 'string' ? value.publicKey : '',
    metadata: isPlainObject(value.metadata) ? (value.metadata as unknown as AppMetadata) : EMPTY_METADATA,
  }
}

/** The client's proposal record, as the machines keep it. Its namespaces are the peer's, unchecked: the rules check them. */
export function toProposalInfo(proposal: ProposalTypes.Struct): ProposalInfo {
  return {
    id: proposal.id,
    pairingTopic: proposal.pairingTopic,
    expiry: proposal.expiryTimestamp * 1000,
    proposer: participant(proposal.proposer),
    requiredNamespaces: (proposal.requiredNamespaces ?? {}) as ProposalNamespaces,
    optionalNamespaces: (proposal.optionalNamespaces ?? {}) as ProposalNamespaces,
    relays: proposal.relays ?? [],
    ...(proposal.sessionProperties === undefined ? {} : { sessionProperties: proposal.sessionProperties }),
    ...(proposal.scopedProperties === undefined ? {} : { scopedProperties: proposal.scopedProperties }),
  }
}

/** The client's session record, as the machines keep it. */
export function toSessionInfo(session: SessionTypes.Struct): SessionInfo {
  return {
    topic: session.topic,
    ...(session.pairingTopic ? { pairingTopic: session.pairingTopic } : {}),
    expiry: session.expiry * 1000,
    acknowledged: session.acknowledged,
    relay: session.relay,
    controller: session.controller,
    self: participant(session.self),
    peer: participant(session.peer),
    namespaces: session.namespaces as Namespaces,
    requiredNamespaces: (session.requiredNamespaces ?? {}) as ProposalNamespaces,
    optionalNamespaces: (session.optionalNamespaces ?? {}) as ProposalNamespaces,
    ...(session.sessionProperties ? { sessionProperties: session.sessionProperties } : {}),
    ...(session.scopedProperties ? { scopedProperties: session.scopedProperties } : {}),
  }
}

function toRequestInfo(
  id: number,
  topic: string,
  params: SignClientTypes.EventArguments['session_request']['params'],
): Omit<RequestInfo, 'expiry'> & { expiry?: unknown } {
  const expiryTimestamp = params.request.expiryTimestamp
  return {
    id,
    topic,
    chainId: params.chainId,
    request: { method: params.request.method, params: params.request.params },
    // Left as sent when it is not a number: the request rule refuses it.
    ...(expiryTimestamp === undefined
      ? {}
      : { expiry: typeof expiryTimestamp === 'number' ? expiryTimestamp * 1000 : expiryTimestamp }),
  }
}

function toAuthRequestInfo(
  id: number,
  pairingTopic: string,
  params: SignClientTypes.EventArguments['session_authenticate']['params'],
): AuthRequestInfo {
  const { authPayload, requester, expiryTimestamp } = params
  return {
    id,
    pairingTopic,
    expiry: expiryTimestamp * 1000,
    requester: participant(requester),
    payload: {
      chains: authPayload.chains,
      domain: authPayload.domain,
      aud: authPayload.aud ?? '',
      nonce: authPayload.nonce,
      iat: authPayload.iat,
      ...(authPayload.type ? { type: authPayload.type } : {}),
      ...(authPayload.version ? { version: authPayload.version } : {}),
      ...(authPayload.exp ? { exp: authPayload.exp } : {}),
      ...(authPayload.nbf ? { nbf: authPayload.nbf } : {}),
      ...(authPayload.statement ? { statement: authPayload.statement } : {}),
      ...(authPayload.requestId ? { requestId: authPayload.requestId } : {}),
      ...(authPayload.resources ? { resources: authPayload.resources } : {}),
    },
  }
}

/** A settlement seen in the history: received (app) or sent (wallet). */
function settleEvent(
  client: SignClient,
  role: Role,
  topic: string,
  settle: SettleParams,
): Extract<SignClientEvent, { type: 'wc.sessionSettle' }> {
  const stored = client.session.keys.includes(topic) ? client.session.get(topic) : undefined
  if (role === 'wallet' && stored) {
    return {
      type: 'wc.sessionSettle',
      topic,
      settle,
      self: participant(stored.self),
      peer: participant(stored.peer),
      ...(stored.pairingTopic ? { pairingTopic: stored.pairingTopic } : {}),
      requiredNamespaces: (stored.requiredNamespaces ?? {}) as ProposalNamespaces,
      optionalNamespaces: (stored.optionalNamespaces ?? {}) as ProposalNamespaces,
    }
  }
  return {
    type: 'wc.sessionSettle',
    topic,
    settle,
    self: { publicKey: '', metadata: client.metadata as AppMetadata },
    peer: participant(settle.controller),
  }
}

/**
 * The signature checks of one-click auth (SPEC §4), before the wallet approves: each CACAO answers the request
 * (domain, nonce, audience) and its EIP-191 signature recovers to the account it names. ERC-1271 (contract)
 * signatures need a chain to ask and fail closed here.
 */
export async function verifyCacaos(
  client: Pick<SignClient, 'formatAuthMessage'>,
  request: AuthRequestInfo | undefined,
  cacaos: Cacao[],
): Promise<boolean> {
  if (cacaos.length === 0) return false
  for (const cacao of cacaos) {
    if (request) {
      const { domain, nonce, aud } = request.payload
      if (cacao.p.domain !== domain || cacao.p.nonce !== nonce || cacao.p.aud !== aud) return false
    }
    if (cacao.s.t !== 'eip191') return false
    // The issuer is a did:pkh of a CAIP-10 account (`did:pkh:eip155:1:0xab…`); viem checks the address.
    const address = evmAddressOf(cacao.p.iss.replace(/^did:pkh:/, ''))
    if (!address) return false
    let message: string
    try {
      message = client.formatAuthMessage({ request: cacao.p as AuthTypes.Cacao['p'], iss: cacao.p.iss })
    } catch {
      return false
    }
    const valid = await verifyMessage({
      address,
      message,
      signature: cacao.s.s as Hex,
    }).catch(() => false)
    if (!valid) return false
  }
  return true
}
