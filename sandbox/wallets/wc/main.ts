import config from 'virtual:walletstate-wallets/wc-config'
import { SignClient } from '@walletconnect/sign-client'
import type { ProposalTypes, SessionTypes, SignClientTypes } from '@walletconnect/types'
import * as v from 'valibot'
import { type Hex, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  describeTransaction,
  FORWARDED_METHODS,
  forwardRpc,
  type ProviderRpcError,
  parsePersonalSign,
  parseTransaction,
  parseTypedDataV4,
  rpcErrors,
  sendTransaction,
  signTypedData,
  toProviderError,
  toViemChain,
} from '../common/eth.ts'
import { DEV_WALLET_ICON } from '../common/icon.ts'

/*
 * The WalletConnect wallet page: the sandbox's stand-in for a phone wallet. It pairs through the local relay
 * from a pasted URI or `?uri=`, shows each proposal and signing request, and acts only when the person clicks.
 * It holds the second anvil dev account.
 */

type Client = InstanceType<typeof SignClient>
type RequestEvent = SignClientTypes.EventArguments['session_request']

const account = privateKeyToAccount(config.account.privateKey)
const address = account.address
const caipChain = `eip155:${config.chain.id}`
const viemChain = toViemChain(config.chain)

/** What the wallet offers in every session, whatever the dapp asked. */
const METHODS = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'eth_chainId',
  'eth_accounts',
]
const EVENTS = ['accountsChanged', 'chainChanged']
const STATUS_LINES_KEPT = 50

const PairingUriSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^wc:[0-9a-fA-F]{64}@2\?\S+$/,
    'a WalletConnect v2 pairing URI looks like wc:<64 hex>@2?relay-protocol=…',
  ),
  v.check((uri) => /[?&]symKey=[0-9a-fA-F]{64}(&|$)/.test(uri), 'the pairing URI has no symKey'),
)

interface PendingProposal {
  kind: 'proposal'
  id: number
  proposal: ProposalTypes.Struct
}
interface PendingRequest {
  kind: 'request'
  id: number
  topic: string
  peer: string
  method: string
  title: string
  lines: Array<{ label: string; value: string }>
  detail?: { label: string; text: string }
  run(): Promise<unknown>
}
type Pending = PendingProposal | PendingRequest

// ----- DOM -----
function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id)
  if (!node) throw new Error(`#${id} is missing from the page`)
  return node as T
}
const app = byId<HTMLElement>('app')
const pairForm = byId<HTMLFormElement>('pair-form')
const pairInput = byId<HTMLInputElement>('pair-uri')
const pairButton = pairForm.querySelector('button') as HTMLButtonElement
const pendingSection = byId<HTMLElement>('pending')
const sessionsList = byId<HTMLUListElement>('sessions')
const noSessions = byId<HTMLElement>('no-sessions')
const statusLog = document.querySelector('[data-testid="wc-wallet-status"]') as HTMLOListElement

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  if (className) node.className = className
  return node
}

function status(text: string): void {
  const line = el('li', text)
  statusLog.append(line)
  while (statusLog.children.length > STATUS_LINES_KEPT) statusLog.firstElementChild?.remove()
  line.scrollIntoView({ block: 'nearest' })
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

// ----- pending proposals and requests: one shown at a time, so "Approve" is never ambiguous -----
const queue: Pending[] = []

function enqueue(item: Pending): void {
  if (queue.some((queued) => queued.kind === item.kind && queued.id === item.id)) return
  queue.push(item)
  renderPending()
}

function dequeue(match: (item: Pending) => boolean): void {
  const before = queue.length
  for (let index = queue.length - 1; index >= 0; index--) {
    const item = queue[index]
    if (item && match(item)) queue.splice(index, 1)
  }
  if (queue.length !== before) renderPending()
}

function requestedChains(namespaces: ProposalTypes.RequiredNamespaces | undefined): string[] {
  return Object.entries(namespaces ?? {}).flatMap(
    ([key, ns]) => ns.chains ?? (key.includes(':') ? [key] : []),
  )
}

function requestedList(
  namespaces: ProposalTypes.RequiredNamespaces | undefined,
  field: 'methods' | 'events',
): string[] {
  return Object.values(namespaces ?? {}).flatMap((ns) => ns[field] ?? [])
}

const union = (...lists: string[][]) => [...new Set(lists.flat())]

function renderPending(): void {
  const item = queue[0]
  pendingSection.replaceChildren()
  pendingSection.hidden = item === undefined
  if (!item) return

  const heading = el('h2', item.kind === 'proposal' ? 'Session proposal' : item.title)
  heading.id = 'pending-heading'
  const facts = el('dl')
  const fact = (label: string, value: string) => facts.append(el('dt', label), el('dd', value))
  let detail: HTMLElement | undefined
  let note: HTMLElement | undefined

  if (item.kind === 'proposal') {
    const { proposer, requiredNamespaces, optionalNamespaces } = item.proposal
    const chains = union(requestedChains(requiredNamespaces), requestedChains(optionalNamespaces))
    const methods = union(
      requestedList(requiredNamespaces, 'methods'),
      requestedList(optionalNamespaces, 'methods'),
    )
    fact('App', proposer.metadata.name || 'Unnamed app')
    fact('URL', proposer.metadata.url || 'none given')
    fact('Chains', chains.join(', ') || 'none')
    fact('Methods', methods.join(', ') || 'none')
    fact('Account', `${caipChain}:${address}`)
    const missing = requestedChains(requiredNamespaces).filter((chain) => chain !== caipChain)
    if (missing.length > 0) {
      note = el('p', `This wallet serves ${caipChain} only; the app requires ${missing.join(', ')}.`, 'note')
    }
  } else {
    fact('App', item.peer)
    fact('Method', item.method)
    for (const line of item.lines) fact(line.label, line.value)
    if (item.detail) {
      detail = el('pre', item.detail.text)
      detail.tabIndex = 0
      detail.setAttribute('aria-label', item.detail.label)
    }
  }

  const actions = el('div', undefined, 'actions')
  const reject = el('button', 'Reject')
  reject.type = 'button'
  const approve = el('button', 'Approve', 'primary')
  approve.type = 'button'
  actions.append(reject, approve)
  const decide = (approved: boolean) => {
    approve.disabled = true
    reject.disabled = true
    void settle(item, approved)
  }
  approve.addEventListener('click', () => decide(true))
  reject.addEventListener('click', () => decide(false))

  pendingSection.append(heading, facts)
  if (note) pendingSection.append(note)
  if (detail) pendingSection.append(detail)
  pendingSection.append(actions)
  if (queue.length > 1) pendingSection.append(el('p', `${queue.length - 1} more waiting`, 'muted'))
}

// ----- sessions -----
function renderSessions(client: Client): void {
  const sessions: SessionTypes.Struct[] = client.session.getAll()
  sessionsList.replaceChildren()
  noSessions.hidden = sessions.length > 0
  for (const session of sessions) {
    const item = el('li')
    const name = el('p', session.peer.metadata.name || 'Unnamed app')
    name.id = `session-${session.topic}`
    const url = el('p', session.peer.metadata.url, 'muted')
    const text = el('div')
    text.append(name, url)
    const disconnect = el('button', 'Disconnect')
    disconnect.type = 'button'
    disconnect.setAttribute('aria-describedby', name.id)
    disconnect.addEventListener('click', async () => {
      disconnect.disabled = true
      try {
        await client.disconnect({
          topic: session.topic,
          reason: { code: 6000, message: 'User disconnected.' },
        })
        status(`Disconnected from ${session.peer.metadata.name}`)
      } catch (error) {
        status(`Could not disconnect: ${describe(error)}`)
      }
      dequeue((pending) => pending.kind === 'request' && pending.topic === session.topic)
      renderSessions(client)
    })
    item.append(text, disconnect)
    sessionsList.append(item)
  }
}

// ----- the client -----
let client: Client | undefined

async function settle(item: Pending, approved: boolean): Promise<void> {
  if (!client) return
  try {
    if (item.kind === 'proposal') await settleProposal(client, item, approved)
    else await settleRequest(client, item, approved)
  } catch (error) {
    status(`Failed: ${describe(error)}`)
  } finally {
    dequeue((queued) => queued === item)
    renderSessions(client)
  }
}

async function settleProposal(client: Client, item: PendingProposal, approved: boolean): Promise<void> {
  const { proposer, requiredNamespaces } = item.proposal
  const name = proposer.metadata.name || 'the app'
  if (!approved) {
    await client.reject({ id: item.id, reason: { code: 5000, message: 'User rejected.' } })
    status(`Rejected the session proposal from ${name}`)
    return
  }
  const foreignNamespaces = Object.keys(requiredNamespaces ?? {}).filter(
    (key) => key.split(':')[0] !== 'eip155',
  )
  const missingChains = requestedChains(requiredNamespaces).filter((chain) => chain !== caipChain)
  if (foreignNamespaces.length > 0 || missingChains.length > 0) {
    await client.reject({
      id: item.id,
      reason: {
        code: 5100,
        message: `Unsupported chains: ${[...foreignNamespaces, ...missingChains].join(', ')}`,
      },
    })
    status(`Could not approve ${name}: it requires ${[...foreignNamespaces, ...missingChains].join(', ')}`)
    return
  }
  // 2.25 dapps put everything in optionalNamespaces; whatever is required must still be granted to validate.
  const { acknowledged } = await client.approve({
    id: item.id,
    namespaces: {
      eip155: {
        chains: [caipChain],
        accounts: [`${caipChain}:${address}`],
        methods: union(METHODS, requestedList(requiredNamespaces, 'methods')),
        events: union(EVENTS, requestedList(requiredNamespaces, 'events')),
      },
    },
  })
  status(`Approved the session with ${name}; waiting for it to settle`)
  await acknowledged()
  status(`Session with ${name} is active`)
}

async function settleRequest(client: Client, item: PendingRequest, approved: boolean): Promise<void> {
  if (!approved) {
    await respondError(client, item.topic, item.id, rpcErrors.userRejected())
    status(`Rejected ${item.method} from ${item.peer}`)
    return
  }
  let result: unknown
  try {
    result = await item.run()
  } catch (error) {
    const failure = toProviderError(error)
    await respondError(client, item.topic, item.id, failure)
    status(`${item.method} from ${item.peer} failed: ${failure.message}`)
    return
  }
  await client.respond({ topic: item.topic, response: { id: item.id, jsonrpc: '2.0', result } })
  status(`Approved ${item.method} from ${item.peer}`)
}

function respondError(client: Client, topic: string, id: number, error: ProviderRpcError): Promise<void> {
  return client.respond({
    topic,
    response: { id, jsonrpc: '2.0', error: { code: error.code, message: error.message } },
  })
}

async function onRequest(
  client: Client,
  event: Pick<RequestEvent, 'id' | 'topic' | 'params'>,
): Promise<void> {
  const { id, topic, params } = event
  const { method } = params.request
  const requestParams: unknown = params.request.params
  const peer = client.session.keys.includes(topic)
    ? client.session.get(topic).peer.metadata.name || 'Unnamed app'
    : 'Unknown app'
  const ask = (
    title: string,
    run: () => Promise<unknown>,
    lines: PendingRequest['lines'],
    detail?: PendingRequest['detail'],
  ) => enqueue({ kind: 'request', id, topic, peer, method, title, lines, detail, run })
  try {
    if (params.chainId !== caipChain) {
      throw rpcErrors.invalidParams(`This wallet serves ${caipChain} only, not ${params.chainId}`)
    }
    const accountLine = { label: 'Account', value: address }
    switch (method) {
      case 'eth_chainId':
        await client.respond({ topic, response: { id, jsonrpc: '2.0', result: toHex(config.chain.id) } })
        return
      case 'eth_accounts':
      case 'eth_requestAccounts':
        await client.respond({ topic, response: { id, jsonrpc: '2.0', result: [address] } })
        return
      case 'personal_sign': {
        const request = parsePersonalSign(requestParams, address)
        ask('Signature request', () => account.signMessage({ message: request.message }), [accountLine], {
          label: 'Message',
          text: request.text,
        })
        status(`${peer} asks for a signature`)
        return
      }
      case 'eth_signTypedData_v4': {
        const request = parseTypedDataV4(requestParams, address, config.chain.id)
        ask('Typed data signature request', () => signTypedData(account, request), [accountLine], {
          label: 'Typed data',
          text: request.text,
        })
        status(`${peer} asks for a typed data signature`)
        return
      }
      case 'eth_sendTransaction': {
        const tx = parseTransaction(requestParams, address, config.chain.id)
        ask('Transaction request', (): Promise<Hex> => sendTransaction(account, viemChain, tx), [
          accountLine,
          ...describeTransaction(tx),
        ])
        status(`${peer} asks to send a transaction`)
        return
      }
    }
    if (!FORWARDED_METHODS.has(method)) throw rpcErrors.unsupportedMethod(method)
    const result = await forwardRpc(config.chain.rpcUrl, method, requestParams)
    await client.respond({ topic, response: { id, jsonrpc: '2.0', result } })
  } catch (error) {
    const failure = toProviderError(error)
    status(`Refused ${method} from ${peer}: ${failure.message}`)
    await respondError(client, topic, id, failure).catch((respondFailure: unknown) =>
      status(`Could not answer ${method}: ${describe(respondFailure)}`),
    )
  }
}

async function pair(client: Client, input: string): Promise<void> {
  const parsed = v.safeParse(PairingUriSchema, input)
  if (!parsed.success) {
    status(`Not a pairing URI: ${v.summarize(parsed.issues)}`)
    return
  }
  status('Pairing…')
  try {
    await client.pair({ uri: parsed.output })
    status('Paired; waiting for the session proposal')
  } catch (error) {
    status(`Pairing failed: ${describe(error)}`)
  }
}

async function main(): Promise<void> {
  byId<HTMLImageElement>('wallet-icon').src = DEV_WALLET_ICON
  byId('account-address').textContent = address
  byId('account-network').textContent = `${config.chain.name} (${caipChain})`
  status('Starting…')

  const signClient = await SignClient.init({
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
  client = signClient

  // Listeners first: a pairing's proposal can arrive as soon as pair() subscribes.
  signClient.on('session_proposal', ({ id, params }) => {
    status(`Session proposal from ${params.proposer.metadata.name || 'an unnamed app'}`)
    enqueue({ kind: 'proposal', id, proposal: params })
  })
  signClient.on('session_request', (event) => void onRequest(signClient, event))
  signClient.on('session_delete', ({ topic }) => {
    status('The app ended the session')
    dequeue((item) => item.kind === 'request' && item.topic === topic)
    renderSessions(signClient)
  })
  signClient.on('session_expire', ({ topic }) => {
    status('A session expired')
    dequeue((item) => item.kind === 'request' && item.topic === topic)
    renderSessions(signClient)
  })
  signClient.on('proposal_expire', ({ id }) => {
    status('A session proposal expired')
    dequeue((item) => item.kind === 'proposal' && item.id === id)
  })
  signClient.on('session_request_expire', ({ id }) => {
    status('A request expired')
    dequeue((item) => item.kind === 'request' && item.id === id)
  })

  pairForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const uri = pairInput.value
    pairInput.value = ''
    void pair(signClient, uri)
  })
  pairButton.disabled = false

  renderSessions(signClient)
  // Requests that arrived while the page was closed are still waiting for an answer.
  for (const pending of signClient.getPendingSessionRequests()) await onRequest(signClient, pending)

  app.dataset.state = 'ready'
  app.removeAttribute('aria-busy')
  status(`Ready: ${address} on ${caipChain}`)

  const uri = new URL(window.location.href).searchParams.get('uri')
  if (uri !== null) {
    // A reload must not pair the same (by then used) URI again.
    window.history.replaceState(null, '', window.location.pathname)
    await pair(signClient, uri)
  }
}

main().catch((error: unknown) => {
  app.dataset.state = 'failed'
  app.removeAttribute('aria-busy')
  status(`Could not start: ${describe(error)}`)
})
