import config from 'virtual:walletstate-wallets/wc-config'
import { SignClient } from '@walletconnect/sign-client'
import type { AuthTypes } from '@walletconnect/types'
import * as v from 'valibot'
import {
  type Actor,
  type ActorRefFrom,
  type AnyActorRef,
  createActor,
  type InspectionEvent,
  type Observer,
  type SnapshotFrom,
  type Subscription,
  waitFor,
} from 'xstate'
import { createSessionClientMachine } from '../../../src/kit/sessionClient.ts'
import {
  type authMachine,
  type incomingRequestMachine,
  type proposalMachine,
  type Refusal,
  type SessionCommand,
  selectActiveRequest,
  selectSessions,
  type sessionMachine,
} from '../../../src/machines/session.ts'
import type { RpcResponse } from '../../../src/session/types.ts'
import { type ProviderRpcError, rpcErrors, toProviderError } from '../common/eth.ts'
import { DEV_WALLET_ICON } from '../common/icon.ts'
import { BIP122_CHAIN, bip122Address } from './bip122.ts'
import { setUpLifetime } from './lifetime.ts'
import { solanaAddress, solanaChain } from './solana.ts'
import { byId, type Card, logLine, renderCard, renderSessions, type SessionRow, setAlert } from './view.ts'
import {
  type Attestation,
  address,
  approvalFor,
  caipChain,
  describeProposal,
  domainFact,
  type FormatAuthMessage,
  offerNamespaces,
  planRequest,
  planSignIn,
  type RequestPlan,
  returnLinkOf,
  signIn,
  USER_REJECTED,
  verifyContext,
} from './wallet.ts'

/*
 * The WalletConnect wallet page: the sandbox's stand-in for a phone wallet, holding the second anvil dev
 * account and a Solana dev key (its `solana` namespace). It is driven by the kit's own session client machine in
 * the wallet role: the machine keeps the proposals, the sessions and the one-at-a-time request queue, checks
 * every command against the SPEC §5 rules and talks to @walletconnect/sign-client; this page renders its
 * snapshot, sends it the person's decisions and does the signing (wallet.ts, solana.ts). `?uri=` pairs on load; `?inspect=ws://127.0.0.1:PORT` streams the machine to a
 * Stately inspector server (the inspector's code loads only then).
 */

type WalletMachine = ReturnType<typeof createSessionClientMachine>
type WalletSnapshot = SnapshotFrom<WalletMachine>
type Client = InstanceType<typeof SignClient>
type ProposalRef = ActorRefFrom<typeof proposalMachine>
type SessionRef = ActorRefFrom<typeof sessionMachine>
type RequestRef = ActorRefFrom<typeof incomingRequestMachine>
type AuthRef = ActorRefFrom<typeof authMachine>

const PairingUriSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^wc:[0-9a-fA-F]{64}@2\?\S+$/,
    'a WalletConnect v2 pairing URI looks like wc:<64 hex>@2?relay-protocol=…',
  ),
  v.check((uri) => /[?&]symKey=[0-9a-fA-F]{64}(&|$)/.test(uri), 'the pairing URI has no symKey'),
)

const InspectorUrlSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^wss?:\/\/[^\s/?#]+/, 'an inspector URL looks like ws://127.0.0.1:PORT'),
  v.url('an inspector URL looks like ws://127.0.0.1:PORT'),
)

// ---------------------------------------------------------------------------------------------- the page

const app = byId<HTMLElement>('app')
const machineStatus = byId<HTMLElement>('machine-status')
const pairForm = byId<HTMLFormElement>('pair-form')
const pairInput = byId<HTMLInputElement>('pair-uri')
const pairButton = pairForm.querySelector('button') as HTMLButtonElement
const pairError = byId<HTMLElement>('pair-error')
const actionError = byId<HTMLElement>('action-error')
const pendingSection = byId<HTMLElement>('pending')
const sessionsList = byId<HTMLUListElement>('sessions')
const noSessions = byId<HTMLElement>('no-sessions')
const statusLog = document.querySelector('[data-testid="wc-wallet-status"]') as HTMLOListElement

const status = (text: string) => logLine(statusLog, text)
/** The first thing wrong with an input, as a sentence (valibot's summary is a bulleted list). */
const firstIssue = (issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]) => issues[0].message
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

function showPairError(text: string | undefined): void {
  setAlert(pairError, text)
  if (text === undefined) pairInput.removeAttribute('aria-invalid')
  else {
    pairInput.setAttribute('aria-invalid', 'true')
    status(text)
  }
}

function showActionError(text: string): void {
  setAlert(actionError, text)
  status(text)
}

// ------------------------------------------------------- what the machine does not keep: work in progress

/** How the wallet answers each request the machine made active (planned once: its params do not change). */
const plans = new Map<number, RequestPlan>()
/** Answers already computed (signed, sent): re-sent as they are if the library failed to deliver them. */
const answers = new Map<number, RpcResponse>()
/** Sign-in plans by auth request id. */
const signIns = new Map<number, ReturnType<typeof planSignIn>>()
/** Records (`request:1`, `auth:2`) whose decision is being carried out here, before the machine hears it. */
const working = new Set<string>()
/** Names of the apps behind records, for the notices that arrive once a record's child is gone. */
const names = new Map<string, string>()
/** The app's return page per proposal id (its `metadata.redirect.universal`, when it is a web page). */
const returnLinks = new Map<string, string>()
const returnSection = byId<HTMLElement>('return')
const returnLink = byId<HTMLAnchorElement>('return-link')
/** Sessions already reported active in the log. */
const announced = new Set<string>()

let actor: Actor<WalletMachine> | undefined
let client: Client | undefined

/** Sends a command; answers the machine's refusal (a SPEC §5 rule it broke), if it refused. */
function command(event: SessionCommand): Refusal | undefined {
  if (!actor) return undefined
  const before = actor.getSnapshot().context.lastError
  actor.send(event)
  const after = actor.getSnapshot().context.lastError
  return after && after !== before && after.command === event.type ? after : undefined
}

function refused(what: string, refusal: Refusal | undefined): boolean {
  if (refusal) showActionError(`${what}: ${refusal.error.message}`)
  return refusal !== undefined
}

function child<T extends AnyActorRef>(snapshot: WalletSnapshot, id: string): T | undefined {
  return (snapshot.children as Record<string, AnyActorRef | undefined>)[id] as T | undefined
}

const errorResponse = (error: ProviderRpcError): RpcResponse => ({
  error: { code: error.code, message: error.message },
})

const sessionName = (snapshot: WalletSnapshot, topic: string) =>
  snapshot.context.sessions[topic]?.peer.metadata.name || names.get(`session:${topic}`) || 'Unnamed app'

const formatAuthMessage: FormatAuthMessage = (payload, iss) => {
  if (!client) throw new Error('The WalletConnect client is not ready')
  return client.formatAuthMessage({ request: payload as AuthTypes.BaseAuthRequestParams, iss })
}

// ---------------------------------------------------------------------------------------------- decisions

function decideProposal(id: number, approved: boolean): void {
  const key = `proposal:${id}`
  const state = actor && child<ProposalRef>(actor.getSnapshot(), key)?.getSnapshot()
  if (!state?.matches('pending')) return
  setAlert(actionError, undefined)
  const name = names.get(key) ?? 'the app'
  if (!approved) {
    refused(`Could not reject ${name}`, command({ type: 'proposal.reject', id, reason: USER_REJECTED }))
    return
  }
  const approval = approvalFor(state.context.proposal)
  if (approval.kind === 'unsupported') {
    refused(`Could not reject ${name}`, command({ type: 'proposal.reject', id, reason: approval.reason }))
    return
  }
  if (
    !refused(
      `Could not approve ${name}`,
      command({ type: 'proposal.approve', id, namespaces: approval.namespaces }),
    )
  ) {
    status(`Approving the session with ${name}…`)
  }
}

async function decideSignIn(id: number, approved: boolean): Promise<void> {
  const key = `auth:${id}`
  const state = actor && child<AuthRef>(actor.getSnapshot(), key)?.getSnapshot()
  const request = state?.context.request
  const plan = signIns.get(id)
  if (!state?.matches('pending') || !request || !plan || working.has(key)) return
  setAlert(actionError, undefined)
  const name = names.get(key) ?? 'the app'
  if (!approved || plan.refusal) {
    const reason = approved && plan.refusal ? plan.refusal : USER_REJECTED
    refused(`Could not reject ${name}`, command({ type: 'auth.reject', id, reason }))
    return
  }
  working.add(key)
  scheduleRender()
  try {
    const auths = await signIn(request, formatAuthMessage)
    refused(`Could not sign in to ${name}`, command({ type: 'auth.approve', id, auths }))
  } catch (error) {
    showActionError(`Could not sign in to ${name}: ${describe(error)}`)
  } finally {
    working.delete(key)
    scheduleRender()
  }
}

async function decideRequest(id: number, approved: boolean): Promise<void> {
  const key = `request:${id}`
  const plan = plans.get(id)
  if (plan?.kind !== 'ask' || working.has(key)) return
  setAlert(actionError, undefined)
  let response: RpcResponse = errorResponse((plan.rejection ?? rpcErrors.userRejected)())
  if (approved) {
    working.add(key)
    scheduleRender()
    response = answers.get(id) ?? (await compute(plan.run, `${plan.method} from ${plan.peer} failed`))
    working.delete(key)
    // Settled while the wallet worked (expired, or its session ended): there is no one left to answer.
    if (!plans.has(id)) return
    answers.set(id, response)
  }
  respond(id, response)
}

async function compute(run: () => Promise<unknown>, failure: string): Promise<RpcResponse> {
  try {
    return { result: await run() }
  } catch (error) {
    const providerError = toProviderError(error)
    status(`${failure}: ${providerError.message}`)
    return errorResponse(providerError)
  }
}

function respond(id: number, response: RpcResponse): void {
  refused(`Could not answer request ${id}`, command({ type: 'request.respond', id, response }))
  scheduleRender()
}

/** The machine made a request active: plan its answer once; what needs no person is answered at once. */
function takeActiveRequest(snapshot: WalletSnapshot): void {
  const record = selectActiveRequest(snapshot)
  if (!record || plans.has(record.id)) return
  const state = child<RequestRef>(snapshot, `request:${record.id}`)?.getSnapshot()
  if (!state?.hasTag('awaitingDecision')) return
  const plan = planRequest(state.context.request, sessionName(snapshot, record.topic))
  plans.set(record.id, plan)
  if (plan.kind === 'ask') status(`${plan.peer} ${plan.asks}`)
  else if (plan.kind === 'refuse') respond(record.id, errorResponse(plan.error))
  else {
    const key = `request:${record.id}`
    working.add(key)
    void compute(plan.run, `Could not answer ${plan.method} for ${plan.peer}`).then((response) => {
      working.delete(key)
      respond(record.id, response)
    })
  }
}

function disconnect(topic: string): void {
  if (!actor) return
  setAlert(actionError, undefined)
  const name = sessionName(actor.getSnapshot(), topic)
  if (!refused(`Could not disconnect from ${name}`, command({ type: 'session.disconnect', topic }))) {
    status(`Disconnecting from ${name}…`)
  }
}

async function pair(input: string): Promise<void> {
  if (!actor) return
  const parsed = v.safeParse(PairingUriSchema, input)
  if (!parsed.success) {
    showPairError(`Not a pairing URI: ${firstIssue(parsed.issues)}`)
    return
  }
  showPairError(undefined)
  status('Pairing…')
  const refusal = command({ type: 'session.pair', uri: parsed.output })
  if (refusal) {
    showPairError(`Could not pair: ${refusal.error.message}`)
    return
  }
  const snapshot = await waitFor(actor, (s) => !s.hasTag('pairing'))
  const failed = snapshot.context.lastError
  if (failed?.command === 'session.pair') showPairError(`Pairing failed: ${failed.error.message}`)
  else status('Paired; waiting for the session proposal')
}

// ---------------------------------------------------------------------------------------------- verify

/** The relay's HTTP origin, where its Verify stand-in answers; set at start. */
let verifyOrigin: string | undefined
/** Attestations by pairing topic: `null` while asked, `undefined` in the value when there is none. */
const attestations = new Map<string, { attestation: Attestation | undefined } | null>()
const AttestationSchema = v.object({
  origin: v.pipe(v.string(), v.maxLength(2_048)),
  validation: v.picklist(['VALID', 'INVALID', 'UNKNOWN']),
  isScam: v.boolean(),
})

/** The verify context of a proposal's pairing; looked up once, the card redrawn when it arrives. */
function domainOf(pairingTopic: string, claimedUrl: string): ReturnType<typeof verifyContext> | undefined {
  const known = attestations.get(pairingTopic)
  if (known) return verifyContext(known.attestation, claimedUrl)
  if (known === null) return undefined // being looked up
  if (!verifyOrigin || !/^[0-9a-f]{64}$/.test(pairingTopic)) return verifyContext(undefined, claimedUrl)
  attestations.set(pairingTopic, null)
  void fetch(`${verifyOrigin}/v1/attestation/${pairingTopic}`, { signal: AbortSignal.timeout(5_000) })
    .then(async (response) => {
      if (response.status === 404) return undefined
      const parsed = v.safeParse(AttestationSchema, await response.json())
      return parsed.success ? parsed.output : undefined
    })
    .catch(() => undefined)
    .then((attestation) => {
      attestations.set(pairingTopic, { attestation })
      scheduleRender()
    })
  return undefined
}

// ---------------------------------------------------------------------------------------------- rendering

interface Shown {
  kind: 'proposal' | 'sign-in' | 'request'
  key: string
  card: Omit<Card, 'more'>
}

function pendingProposals(snapshot: WalletSnapshot): Shown[] {
  return Object.keys(snapshot.context.proposals).flatMap((id): Shown[] => {
    const key = `proposal:${id}`
    const state = child<ProposalRef>(snapshot, key)?.getSnapshot()
    if (state?.status !== 'active') return []
    const { proposal, error } = state.context
    const name = proposal.proposer.metadata.name || 'Unnamed app'
    names.set(key, name)
    const back = returnLinkOf(proposal)
    if (back) returnLinks.set(key, back)
    // A proposal that broke a rule is being refused to its peer by the machine: nothing to decide.
    if (state.matches('refusing')) return []
    const { facts, note } = describeProposal(proposal)
    facts.push(domainFact(domainOf(proposal.pairingTopic, proposal.proposer.metadata.url)))
    const card = {
      heading: 'Session proposal',
      facts,
      ...(note ? { note } : {}),
      ...(error && state.matches('pending') ? { error: `The last answer failed: ${error.message}` } : {}),
      busy: state.hasTag('busy'),
      onApprove: () => decideProposal(proposal.id, true),
      onReject: () => decideProposal(proposal.id, false),
    }
    return [{ kind: 'proposal', key, card }]
  })
}

function pendingSignIns(snapshot: WalletSnapshot): Shown[] {
  return Object.keys(snapshot.context.auths).flatMap((id): Shown[] => {
    const key = `auth:${id}`
    const state = child<AuthRef>(snapshot, key)?.getSnapshot()
    const request = state?.context.request
    if (state?.status !== 'active' || !request || state.matches('refusingSignature')) return []
    names.set(key, request.requester.metadata.name || 'Unnamed app')
    let plan = signIns.get(request.id)
    if (!plan) {
      plan = planSignIn(request, formatAuthMessage)
      signIns.set(request.id, plan)
    }
    const { error } = state.context
    const card = {
      heading: 'Sign-in request',
      facts: plan.facts,
      ...(plan.refusal ? { note: `This wallet cannot sign in here: ${plan.refusal.message}` } : {}),
      ...(plan.message ? { detail: { label: 'Message', text: plan.message } } : {}),
      ...(error && state.matches('pending') ? { error: `The last answer failed: ${error.message}` } : {}),
      busy: state.hasTag('busy') || working.has(key),
      onApprove: () => void decideSignIn(request.id, true),
      onReject: () => void decideSignIn(request.id, false),
    }
    return [{ kind: 'sign-in', key, card }]
  })
}

function activeRequest(snapshot: WalletSnapshot): Shown[] {
  const record = selectActiveRequest(snapshot)
  const plan = record && plans.get(record.id)
  if (!record || plan?.kind !== 'ask') return []
  const key = `request:${record.id}`
  const state = child<RequestRef>(snapshot, key)?.getSnapshot()
  if (state?.status !== 'active') return []
  const deciding = state.hasTag('awaitingDecision')
  const { error } = state.context
  const card = {
    heading: plan.title,
    facts: [{ label: 'App', value: plan.peer }, { label: 'Method', value: plan.method }, ...plan.facts],
    ...(plan.detail ? { detail: plan.detail } : {}),
    ...(error && deciding ? { error: `The last answer failed: ${error.message}` } : {}),
    busy: !deciding || working.has(key),
    onApprove: () => void decideRequest(record.id, true),
    onReject: () => void decideRequest(record.id, false),
  }
  return [{ kind: 'request', key, card }]
}

function sessionRows(snapshot: WalletSnapshot): SessionRow[] {
  return selectSessions(snapshot).map((record) => {
    const { topic } = record
    const state = child<SessionRef>(snapshot, `session:${topic}`)?.getSnapshot()
    const name = record.peer.metadata.name || 'Unnamed app'
    names.set(`session:${topic}`, name)
    const phase: SessionRow['state'] =
      !state || state.matches('settling')
        ? 'settling'
        : state.matches('deleting')
          ? 'disconnecting'
          : 'active'
    if (phase === 'active' && !announced.has(topic)) {
      announced.add(topic)
      status(`Session with ${name} is active`)
    }
    const error = state?.context.error
    return {
      topic,
      peer: name,
      url: record.peer.metadata.url,
      expiry: record.expiry,
      state: phase,
      ...(error ? { error: `Last failure: ${error.message}` } : {}),
      onDisconnect: () => disconnect(topic),
    }
  })
}

/** The rendered parts, by what they showed: a part is rebuilt only when that changes. */
const rendered = { card: '', sessions: '', status: '' }
const signature = (value: unknown) =>
  JSON.stringify(value, (_, field) => (typeof field === 'function' ? undefined : field))

/** Children change without a new snapshot of the client machine: each one is followed too. */
const followed = new Map<string, Subscription>()

function follow(snapshot: WalletSnapshot): void {
  const children = snapshot.children as Record<string, AnyActorRef | undefined>
  for (const [id, ref] of Object.entries(children)) {
    if (!ref || followed.has(id) || !/^(proposal|session|request|auth):/.test(id)) continue
    followed.set(id, ref.subscribe({ next: scheduleRender, error: scheduleRender }))
  }
  for (const [id, subscription] of followed) {
    if (children[id]) continue
    subscription.unsubscribe()
    followed.delete(id)
  }
}

let renderQueued = false
function scheduleRender(): void {
  if (renderQueued) return
  renderQueued = true
  queueMicrotask(() => {
    renderQueued = false
    render()
  })
}

function render(): void {
  if (!actor) return
  const snapshot = actor.getSnapshot()
  follow(snapshot)
  takeActiveRequest(snapshot)

  // One decision shown at a time, so "Approve" is never ambiguous: proposals, sign-ins, then the active request.
  const proposals = pendingProposals(snapshot)
  const signIns = pendingSignIns(snapshot)
  const [shown] = [...proposals, ...signIns, ...activeRequest(snapshot)]
  // Everything else that waits: the queue holds the active request too.
  const waiting = proposals.length + signIns.length + snapshot.context.queue.length
  const card = shown && { ...shown.card, more: Math.max(0, waiting - 1) }
  const cardSignature = signature({ key: shown?.key, card })
  if (cardSignature !== rendered.card) {
    rendered.card = cardSignature
    renderCard(pendingSection, card)
  }

  const rows = sessionRows(snapshot)
  const rowsSignature = signature(rows)
  if (rowsSignature !== rendered.sessions) {
    rendered.sessions = rowsSignature
    renderSessions(sessionsList, noSessions, rows)
  }

  const pairing = snapshot.hasTag('pairing')
  const facts = {
    state: shown?.kind ?? (pairing ? 'pairing' : 'idle'),
    pair: pairing ? 'pairing' : 'idle',
    queue: snapshot.matches({ queue: 'active' }) ? 'active' : 'idle',
    sessions: String(rows.length),
    proposals: String(proposals.length),
    requests: String(snapshot.context.queue.length),
  }
  const statusSignature = signature(facts)
  if (statusSignature !== rendered.status) {
    rendered.status = statusSignature
    Object.assign(machineStatus.dataset, facts)
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`
    machineStatus.textContent = [
      ...(pairing ? ['Pairing…'] : []),
      count(rows.length, 'session'),
      `${count(proposals.length, 'proposal')} to decide`,
      `${count(snapshot.context.queue.length, 'request')} queued`,
    ].join(' · ')
  }
}

// ---------------------------------------------------------------------------------------------- notices

function logNotices(wallet: Actor<WalletMachine>): void {
  wallet.on('proposal.settled', ({ id, outcome, reason }) => {
    const name = names.get(`proposal:${id}`) ?? 'an app'
    names.delete(`proposal:${id}`)
    const back = returnLinks.get(`proposal:${id}`)
    returnLinks.delete(`proposal:${id}`)
    // Approved: the way back to the app it names (a mobile wallet opens the app's redirect link).
    if (outcome === 'approved' && back) {
      returnLink.href = back
      returnLink.textContent = `Return to ${name}`
      returnSection.hidden = false
    }
    if (outcome === 'approved') status(`Approved the session with ${name}; waiting for it to settle`)
    else if (outcome === 'expired') status(`The session proposal from ${name} expired`)
    else if (reason?.code === USER_REJECTED.code) status(`Rejected the session proposal from ${name}`)
    else status(`Refused the session proposal from ${name}: ${reason?.message ?? 'no reason given'}`)
  })
  wallet.on('auth.settled', ({ id, outcome, reason }) => {
    const name = names.get(`auth:${id}`) ?? 'an app'
    names.delete(`auth:${id}`)
    signIns.delete(id)
    if (outcome === 'approved') status(`Signed in to ${name}`)
    else if (outcome === 'expired') status(`The sign-in request from ${name} expired`)
    else status(`Refused to sign in to ${name}: ${reason?.message ?? 'no reason given'}`)
  })
  wallet.on('session.ended', ({ topic, outcome }) => {
    const name = names.get(`session:${topic}`) ?? 'an app'
    names.delete(`session:${topic}`)
    announced.delete(topic)
    const text = {
      deleted: `Disconnected from ${name}`,
      peerDisconnected: `The app ended the session (${name})`,
      expired: `The session with ${name} expired`,
      settlementFailed: `The session with ${name} could not settle`,
    }[outcome]
    status(text)
  })
  wallet.on('request.settled', ({ id, topic, outcome, request, error }) => {
    const plan = plans.get(id)
    plans.delete(id)
    answers.delete(id)
    working.delete(`request:${id}`)
    const method = plan?.method ?? request.method
    const peer = plan?.peer ?? names.get(`session:${topic}`) ?? 'an app'
    if (outcome === 'fulfilled') {
      status(plan?.kind === 'ask' ? `Approved ${method} from ${peer}` : `Answered ${method} for ${peer}`)
    } else if (outcome === 'rejected') {
      status(
        error?.code === 4001 || error?.code === USER_REJECTED.code
          ? `Rejected ${method} from ${peer}`
          : `Refused ${method} from ${peer}: ${error?.message ?? 'no reason given'}`,
      )
    } else if (outcome === 'expired') status(`The ${method} request from ${peer} expired`)
    else status(`The ${method} request from ${peer} was withdrawn: its session ended`)
  })
}

// ---------------------------------------------------------------------------------------------- start

/** `?inspect=ws://…`: the inspector's code, loaded only when asked for. */
async function inspector(param: string | null): Promise<Observer<InspectionEvent> | undefined> {
  if (param === null) return undefined
  const parsed = v.safeParse(InspectorUrlSchema, param)
  if (!parsed.success) {
    showActionError(`Not an inspector URL: ${firstIssue(parsed.issues)}; running without the inspector`)
    return undefined
  }
  try {
    const { createWebSocketInspector } = await import('@statelyai/inspect')
    status(`Streaming the session client to the inspector at ${parsed.output}`)
    return createWebSocketInspector({ url: parsed.output }).inspect
  } catch (error) {
    showActionError(`Could not load the inspector: ${describe(error)}; running without it`)
    return undefined
  }
}

async function main(): Promise<void> {
  byId<HTMLImageElement>('wallet-icon').src = DEV_WALLET_ICON
  byId('account-address').textContent = address
  byId('account-network').textContent = `${config.chain.name} (${caipChain})`
  byId('solana-address').textContent = solanaAddress
  byId('solana-network').textContent = `${config.solana.chainName} (${solanaChain})`
  byId('bip122-address').textContent = bip122Address
  byId('bip122-network').textContent = `Bitcoin regtest (${BIP122_CHAIN}; no node: signing only)`
  status('Starting…')

  const url = new URL(window.location.href)
  const inspect = await inspector(url.searchParams.get('inspect'))
  // `?namespaces=eip155,solana`: the namespaces this wallet offers (all it has by default).
  const namespaces = offerNamespaces(url.searchParams.get('namespaces'))

  verifyOrigin = new URL(config.relayUrl.replace(/^ws/, 'http')).origin
  client = await SignClient.init({
    projectId: config.projectId,
    relayUrl: config.relayUrl,
    telemetryEnabled: false,
    customStoragePrefix: 'walletstate-wc-wallet',
    logger: 'error',
    metadata: {
      name: 'Walletstate WC Wallet',
      description: 'The Walletstate sandbox WalletConnect wallet',
      url: window.location.origin,
      icons: [],
    },
  })

  // `?sessionExpiry=SECONDS`, `?pings=off` and the "Answer pings" switch (lifetime.ts).
  setUpLifetime(client, url.searchParams, status)

  // The machine's client slot listens to the WalletConnect client from its start, before anything is paired.
  // `?oneClick=off`: a wallet without one-click auth, which gets the app's fallback session proposal.
  const oneClickAuth = url.searchParams.get('oneClick') !== 'off'
  const wallet = createActor(createSessionClientMachine(client, { oneClickAuth }), {
    input: { role: 'wallet' },
    ...(inspect ? { inspect } : {}),
  })
  actor = wallet
  logNotices(wallet)
  wallet.subscribe({
    next: scheduleRender,
    error: (error) => {
      app.dataset.state = 'failed'
      machineStatus.dataset.state = 'failed'
      showActionError(`The session client stopped: ${describe(error)}`)
    },
  })
  wallet.start()

  pairForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const uri = pairInput.value
    pairInput.value = ''
    pair(uri).catch((error: unknown) => showPairError(`Pairing failed: ${describe(error)}`))
  })
  pairButton.disabled = false
  app.dataset.state = 'ready'
  app.removeAttribute('aria-busy')
  status(
    `Ready: ${address} on ${caipChain}, ${solanaAddress} on ${solanaChain}${oneClickAuth ? '' : ' (one-click auth off)'} (offers ${[...namespaces].join(', ')})`,
  )

  const uri = url.searchParams.get('uri')
  if (uri !== null) {
    // A reload must not pair the same (by then used) URI again; other parameters (inspect) stay.
    url.searchParams.delete('uri')
    window.history.replaceState(null, '', `${url.pathname}${url.search}`)
    await pair(uri)
  }
}

main().catch((error: unknown) => {
  app.dataset.state = 'failed'
  machineStatus.dataset.state = 'failed'
  app.removeAttribute('aria-busy')
  showActionError(`Could not start: ${describe(error)}`)
})
