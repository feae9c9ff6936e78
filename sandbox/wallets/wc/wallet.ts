import config from 'virtual:walletstate-wallets/wc-config'
import { type Hex, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { ErrorReason } from '../../../src/errors/session.ts'
import type {
  AuthRequestInfo,
  Cacao,
  Namespaces,
  ProposalInfo,
  ProposalNamespaces,
  RequestInfo,
} from '../../../src/session/types.ts'
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
  signerFor,
  signTypedData,
  toProviderError,
  toViemChain,
} from '../common/eth.ts'
import { BIP122_CHAIN, BIP122_EVENTS, BIP122_METHODS, bip122Account, planBip122Request } from './bip122.ts'
import { planSolanaRequest, SOLANA_EVENTS, SOLANA_METHODS, solanaAccount, solanaChain } from './solana.ts'

/*
 * What this wallet decides on its own: which session it grants a proposal, how it answers each request and what
 * it signs to sign in. The session client machine decides everything about the lifecycle (what is pending, which
 * request is active, when a record ends); this module only turns one record into the wallet's answer.
 */

export const account = privateKeyToAccount(config.account.privateKey)
export const address = account.address
/** Every eip155 account a session carries, `account` first: a dapp may use any of them. */
const shared = [
  account,
  ...(config.moreAccounts ?? []).map((more) => privateKeyToAccount(more.privateKey)),
] as const
/** The chain this wallet serves first (`eip155:31337`). */
export const caipChain = `eip155:${config.chain.id}`
/** Every eip155 chain it has a node for: the first and any further one (the second sandbox chain). */
const evmChains = [config.chain, ...(config.moreChains ?? [])]
const evmChainOf = (chainId: string) => evmChains.find((chain) => `eip155:${chain.id}` === chainId)
const evmCaipChains = evmChains.map((chain) => `eip155:${chain.id}`)

/** What the wallet offers in every session, whatever the dapp asked. */
const METHODS = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'eth_chainId',
  'eth_accounts',
]
const EVENTS = ['accountsChanged', 'chainChanged']

/** Proposal rejections (WalletConnect's codes): the person said no, or the wallet cannot serve a required chain. */
export const USER_REJECTED: ErrorReason = { code: 5000, message: 'User rejected.' }
const UNSUPPORTED_CHAINS = 5100

export interface Fact {
  label: string
  value: string
}

const union = (...lists: string[][]) => [...new Set(lists.flat())]

function requestedChains(namespaces: ProposalNamespaces): string[] {
  return Object.entries(namespaces).flatMap(([key, ns]) => ns.chains ?? (key.includes(':') ? [key] : []))
}

function requestedList(namespaces: ProposalNamespaces, field: 'methods' | 'events'): string[] {
  return Object.values(namespaces).flatMap((ns) => ns[field] ?? [])
}

/** `eip155` of `eip155`, `eip155:1` or `eip155:1:0xabc…`. */
const namespaceOf = (keyOrChain: string) => keyOrChain.split(':')[0] ?? ''

/** The namespaces this wallet has an account in. */
const SERVED_NAMESPACES = new Set(['eip155', 'solana', 'bip122'])

/** The methods or events of one namespace (its `eip155` key or inline `eip155:1` keys). */
function requestedListOf(
  namespaces: ProposalNamespaces,
  namespace: string,
  field: 'methods' | 'events',
): string[] {
  return Object.entries(namespaces).flatMap(([key, ns]) =>
    namespaceOf(key) === namespace ? (ns[field] ?? []) : [],
  )
}

/**
 * Which of its namespaces the wallet grants: `solana` when the proposal asks for the sandbox Solana chain
 * (required or optional); `eip155` unless the proposal asks for Solana alone, so a proposal without Solana is
 * answered as it always was.
 */
function grantedNamespaces({ requiredNamespaces, optionalNamespaces }: ProposalInfo) {
  const asked = [...Object.entries(requiredNamespaces), ...Object.entries(optionalNamespaces)]
  const namespaces = new Set(
    asked.flatMap(([key, ns]) => [namespaceOf(key), ...(ns.chains ?? []).map(namespaceOf)]),
  )
  const chains = union(requestedChains(requiredNamespaces), requestedChains(optionalNamespaces))
  const solana = chains.includes(solanaChain) && offered.has('solana')
  const bip122 = chains.includes(BIP122_CHAIN) && offered.has('bip122')
  return {
    eip155: (namespaces.has('eip155') || !(solana || bip122)) && offered.has('eip155'),
    solana,
    bip122,
  }
}

/** The namespaces the page offers (`?namespaces=eip155,solana`): all it has unless the page was told fewer. */
let offered: ReadonlySet<string> = SERVED_NAMESPACES

/**
 * Which of its namespaces the page offers in the sessions it grants (`?namespaces=` on its URL): those named that
 * it has; all of them when none is named (or the list names none it has).
 */
export function offerNamespaces(list: string | null): ReadonlySet<string> {
  const named = (list ?? '').split(',').map((n) => n.trim())
  const kept = new Set(named.filter((n) => SERVED_NAMESPACES.has(n)))
  offered = kept.size > 0 ? kept : SERVED_NAMESPACES
  return offered
}

// ---------------------------------------------------------------------------------------------- proposals

/**
 * The page a wallet on another tab sends the person back to once they approved: the app's universal link
 * (`metadata.redirect.universal`), when it is a web page (https, or http on the loopback host); else none.
 */
export function returnLinkOf(proposal: ProposalInfo): string | undefined {
  const universal = proposal.proposer.metadata.redirect?.universal
  if (typeof universal !== 'string') return undefined
  try {
    const url = new URL(universal)
    const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost'
    if (url.username || url.password) return undefined
    return url.protocol === 'https:' || (url.protocol === 'http:' && loopback) ? url.toString() : undefined
  } catch {
    return undefined
  }
}

/** What the person reads before approving a proposal. */
export function describeProposal(proposal: ProposalInfo): { facts: Fact[]; note?: string } {
  const { proposer, requiredNamespaces, optionalNamespaces } = proposal
  const chains = union(requestedChains(requiredNamespaces), requestedChains(optionalNamespaces))
  const methods = union(
    requestedList(requiredNamespaces, 'methods'),
    requestedList(optionalNamespaces, 'methods'),
  )
  const facts = [
    { label: 'App', value: proposer.metadata.name || 'Unnamed app' },
    { label: 'URL', value: proposer.metadata.url || 'none given' },
    { label: 'Chains', value: chains.join(', ') || 'none' },
    { label: 'Methods', value: methods.join(', ') || 'none' },
  ]
  const back = proposer.metadata.redirect
  if (back?.universal || back?.native)
    facts.push({
      label: 'Returns to',
      value: [back.universal, back.native, back.linkMode ? '(link mode)' : undefined]
        .filter(Boolean)
        .join(' '),
    })
  const granted = grantedNamespaces(proposal)
  if (granted.eip155) facts.push({ label: 'Account', value: `${caipChain}:${address}` })
  if (granted.eip155 && shared.length > 1)
    facts.push({
      label: 'Also shares',
      value: shared
        .slice(1)
        .map((each) => each.address)
        .join(', '),
    })
  if (granted.solana) facts.push({ label: 'Solana account', value: solanaAccount })
  if (granted.bip122) facts.push({ label: 'Bitcoin account', value: bip122Account })
  const missing = unsupportedRequirements(proposal)
  return missing.length > 0
    ? {
        facts,
        note: `This wallet serves ${[...evmCaipChains, solanaChain, BIP122_CHAIN].join(', ')} only; the app requires ${missing.join(', ')}.`,
      }
    : { facts }
}

function unsupportedRequirements({ requiredNamespaces }: ProposalInfo): string[] {
  const foreign = Object.keys(requiredNamespaces).filter((key) => !SERVED_NAMESPACES.has(namespaceOf(key)))
  const chains = requestedChains(requiredNamespaces).filter(
    (chain) => evmChainOf(chain) === undefined && chain !== solanaChain && chain !== BIP122_CHAIN,
  )
  return union(foreign, chains)
}

/**
 * The session this wallet grants: its one chain and account, its methods and events plus whatever the proposal
 * requires (2.25 dapps put everything in optionalNamespaces; what is required must still be granted to conform).
 */
export function approvalFor(
  proposal: ProposalInfo,
): { kind: 'approve'; namespaces: Namespaces } | { kind: 'unsupported'; reason: ErrorReason } {
  const missing = unsupportedRequirements(proposal)
  if (missing.length > 0) {
    return {
      kind: 'unsupported',
      reason: { code: UNSUPPORTED_CHAINS, message: `Unsupported chains: ${missing.join(', ')}` },
    }
  }
  const { requiredNamespaces } = proposal
  const granted = grantedNamespaces(proposal)
  const namespaces: Namespaces = {}
  if (granted.eip155) {
    // Its first chain, and every other one it serves that the app asks for: the app then switches among them.
    const asked = union(requestedChains(requiredNamespaces), requestedChains(proposal.optionalNamespaces))
    const chains = evmCaipChains.filter((chain) => chain === caipChain || asked.includes(chain))
    namespaces.eip155 = {
      chains,
      accounts: chains.flatMap((chain) => shared.map((each) => `${chain}:${each.address}`)),
      methods: union(METHODS, requestedListOf(requiredNamespaces, 'eip155', 'methods')),
      events: union(EVENTS, requestedListOf(requiredNamespaces, 'eip155', 'events')),
    }
  }
  if (granted.solana) {
    namespaces.solana = {
      chains: [solanaChain],
      accounts: [solanaAccount],
      methods: union(SOLANA_METHODS, requestedListOf(requiredNamespaces, 'solana', 'methods')),
      events: union(SOLANA_EVENTS, requestedListOf(requiredNamespaces, 'solana', 'events')),
    }
  }
  if (granted.bip122) {
    namespaces.bip122 = {
      chains: [BIP122_CHAIN],
      accounts: [bip122Account],
      methods: union(BIP122_METHODS, requestedListOf(requiredNamespaces, 'bip122', 'methods')),
      events: union(BIP122_EVENTS, requestedListOf(requiredNamespaces, 'bip122', 'events')),
    }
  }
  return { kind: 'approve', namespaces }
}

// ---------------------------------------------------------------------------------------------- requests

interface PlanBase {
  method: string
  /** The app's name, as its session names it. */
  peer: string
}

/** A request the person decides on: what to show, and what Approve does. */
export interface Ask extends PlanBase {
  kind: 'ask'
  title: string
  /** "asks for a signature" */
  asks: string
  facts: Fact[]
  detail?: { label: string; text: string }
  /** What Reject answers; EIP-1193's user rejection (4001) unless the namespace has its own. */
  rejection?: () => ProviderRpcError
  run(): Promise<unknown>
}

/** How the wallet answers one request: asking the person, answering at once, or refusing. */
export type RequestPlan =
  | Ask
  | (PlanBase & { kind: 'answer'; run(): Promise<unknown> })
  | (PlanBase & { kind: 'refuse'; error: ProviderRpcError })

/**
 * Plans the answer to a request the machine made active. Its params come from the dapp: every signing method's
 * params are parsed, and a malformed request is refused with the EIP-1193 error rather than shown. Requests on a
 * Solana chain are solana.ts's.
 */
export function planRequest(request: RequestInfo, peer: string): RequestPlan {
  const { method } = request.request
  const params: unknown = request.request.params
  const base = { method, peer }
  // The account the request names (the first when it names none of them: the parser then refuses it).
  const signer = signerFor(shared, method, params)
  const accountFact = { label: 'Account', value: signer.address }
  if (namespaceOf(request.chainId) === 'solana') return planSolanaRequest(request, peer)
  if (namespaceOf(request.chainId) === 'bip122') return planBip122Request(request, peer)
  try {
    const chain = evmChainOf(request.chainId)
    if (chain === undefined) {
      throw rpcErrors.invalidParams(
        `This wallet serves ${evmCaipChains.join(', ')} only, not ${request.chainId}`,
      )
    }
    switch (method) {
      case 'eth_chainId':
        return { ...base, kind: 'answer', run: async () => toHex(chain.id) }
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return { ...base, kind: 'answer', run: async () => shared.map((each) => each.address) }
      case 'personal_sign': {
        const parsed = parsePersonalSign(params, signer.address)
        return {
          ...base,
          kind: 'ask',
          title: 'Signature request',
          asks: 'asks for a signature',
          facts: [accountFact],
          detail: { label: 'Message', text: parsed.text },
          run: () => signer.signMessage({ message: parsed.message }),
        }
      }
      case 'eth_signTypedData_v4': {
        const parsed = parseTypedDataV4(params, signer.address, chain.id)
        return {
          ...base,
          kind: 'ask',
          title: 'Typed data signature request',
          asks: 'asks for a typed data signature',
          facts: [accountFact],
          detail: { label: 'Typed data', text: parsed.text },
          run: () => signTypedData(signer, parsed),
        }
      }
      case 'eth_sendTransaction': {
        const tx = parseTransaction(params, signer.address, chain.id)
        return {
          ...base,
          kind: 'ask',
          title: 'Transaction request',
          asks: 'asks to send a transaction',
          facts: [
            accountFact,
            { label: 'Network', value: `${chain.name} (${request.chainId})` },
            ...describeTransaction(tx),
          ],
          run: (): Promise<Hex> => sendTransaction(signer, toViemChain(chain), tx),
        }
      }
    }
    if (!FORWARDED_METHODS.has(method)) throw rpcErrors.unsupportedMethod(method)
    return { ...base, kind: 'answer', run: () => forwardRpc(chain.rpcUrl, method, params) }
  } catch (error) {
    return { ...base, kind: 'refuse', error: toProviderError(error) }
  }
}

// ---------------------------------------------------------------------------------------------- sign-in

/** Formats a CAIP-122 message as the WalletConnect client does (`client.formatAuthMessage`). */
export type FormatAuthMessage = (payload: Cacao['p'], iss: string) => string

/** One-click auth: what the person reads, and the message Approve signs (or why the wallet cannot). */
export function planSignIn(
  request: AuthRequestInfo,
  format: FormatAuthMessage,
): { facts: Fact[]; message?: string; refusal?: ErrorReason } {
  const { payload, requester } = request
  const facts = [
    { label: 'App', value: requester.metadata.name || 'Unnamed app' },
    { label: 'Domain', value: payload.domain },
    { label: 'Chains', value: payload.chains.join(', ') || 'none' },
    { label: 'Account', value: `${caipChain}:${address}` },
  ]
  if (!payload.chains.includes(caipChain)) {
    return {
      facts,
      refusal: { code: UNSUPPORTED_CHAINS, message: `Unsupported chains: ${payload.chains.join(', ')}` },
    }
  }
  try {
    const { p, iss } = cacaoPayload(request)
    return { facts, message: format(p, iss) }
  } catch (error) {
    // A statement with line breaks, for one: the request cannot be signed as asked.
    const message = error instanceof Error ? error.message : String(error)
    return { facts, refusal: { code: 5, message: `Missing or invalid. ${message}` } }
  }
}

function cacaoPayload(request: AuthRequestInfo): { p: Cacao['p']; iss: string } {
  const { payload } = request
  const iss = `did:pkh:${caipChain}:${address}`
  const p: Cacao['p'] = {
    iss,
    domain: payload.domain,
    aud: payload.aud,
    version: payload.version ?? '1',
    nonce: payload.nonce,
    iat: payload.iat,
    // What the app asked is what is signed: its validity window and request id too.
    ...(payload.exp ? { exp: payload.exp } : {}),
    ...(payload.nbf ? { nbf: payload.nbf } : {}),
    ...(payload.statement ? { statement: payload.statement } : {}),
    ...(payload.requestId ? { requestId: payload.requestId } : {}),
    ...(payload.resources ? { resources: payload.resources } : {}),
  }
  return { p, iss }
}

/** Signs the sign-in message for this wallet's chain: one CACAO (EIP-191 signature). */
export async function signIn(request: AuthRequestInfo, format: FormatAuthMessage): Promise<Cacao[]> {
  const { p, iss } = cacaoPayload(request)
  const signature = await account.signMessage({ message: format(p, iss) })
  return [{ h: { t: 'caip122' }, p, s: { t: 'eip191', s: signature } }]
}

// ---------------------------------------------------------------------------------------------- verify

/** What the relay's Verify stand-in answers for a pairing (`GET /v1/attestation/{topic}`). */
export interface Attestation {
  origin: string
  validation: 'VALID' | 'INVALID' | 'UNKNOWN'
  isScam: boolean
}

/**
 * SPEC §3 Verify context of a proposal, as a wallet decides it: VALID only when the attested origin (the page
 * that really made the pairing) is verified and is the origin the app claims in its metadata; INVALID when the
 * service says so or the app claims another origin; UNKNOWN without an attestation. `isScam` wins over all.
 */
export function verifyContext(
  attestation: Attestation | undefined,
  claimedUrl: string,
): { validation: Attestation['validation']; isScam: boolean; origin: string | undefined } {
  if (!attestation) return { validation: 'UNKNOWN', isScam: false, origin: undefined }
  let claimed: string | undefined
  try {
    claimed = new URL(claimedUrl).origin
  } catch {
    claimed = undefined
  }
  const validation =
    attestation.validation === 'UNKNOWN'
      ? 'UNKNOWN'
      : attestation.validation === 'VALID' && claimed === attestation.origin
        ? 'VALID'
        : 'INVALID'
  return { validation, isScam: attestation.isScam, origin: attestation.origin }
}

/** The proposal card's "Domain" line for a verify context (`undefined`: not looked up yet). */
export function domainFact(context: ReturnType<typeof verifyContext> | undefined): Fact {
  if (!context) return { label: 'Domain', value: 'Checking…' }
  const seen = context.origin ? ` (${context.origin})` : ''
  if (context.isScam) return { label: 'Domain', value: `Known scam${seen}: do not connect` }
  if (context.validation === 'VALID') return { label: 'Domain', value: `Verified${seen}` }
  if (context.validation === 'INVALID')
    return { label: 'Domain', value: `Unverified${seen}: proceed only if you trust it` }
  return { label: 'Domain', value: 'Unknown: the app could not be verified' }
}
