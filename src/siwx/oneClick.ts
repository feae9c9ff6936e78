import { KIT_EIP155_METHODS } from '../constants'
import { messageData } from './siwe'
import type { SiwxMessageData, SiwxSession } from './types'

/*
 * One-click auth (issue 15): over WalletConnect the kit asks for the session and the sign-in together
 * (`wc_sessionAuthenticate`), so the visitor approves once. The host's `createMessage` gives the message's
 * fields (made for a placeholder account: the account is not known before the wallet answers); the wallet
 * signs a CAIP-122 message for its own account with those fields, and each signed message (a CACAO) comes
 * back as a session candidate. Nothing here is trusted yet: a candidate must say what was asked (domain, URI,
 * nonce, expiry, one of the chains), and its signature is verified through the chain's RPC before it is kept
 * (src/actors/signIn.ts `oneClickSignIn`).
 */

/** The account `createMessage` is asked for before the wallet has answered. */
export const PLACEHOLDER_ACCOUNT = '0x0000000000000000000000000000000000000000'

/**
 * The methods the session asks for beside the sign-in: the ones the kit's eip155 connection uses. The wallet
 * approves the session with the methods of the sign-in's ReCap, so these are all the app may call later.
 */
export const ONE_CLICK_METHODS: readonly string[] = KIT_EIP155_METHODS

/** What the WalletConnect client's `authenticate` is asked (its `SessionAuthenticateParams`). */
export interface OneClickParams {
  chains: string[]
  domain: string
  uri: string
  nonce: string
  statement?: string
  iat: string
  exp?: string
  nbf?: string
  requestId?: string
  resources?: string[]
  methods: string[]
}

/** The authenticate request for a message template and the chains to sign in on (CAIP-2). */
export function oneClickParams(template: SiwxMessageData, chains: readonly string[]): OneClickParams {
  return {
    // The template's chain first: the wallet signs for the first chain it supports.
    chains: [template.chainId, ...chains.filter((chain) => chain !== template.chainId)],
    domain: template.domain,
    uri: template.uri,
    nonce: template.nonce,
    iat: template.issuedAt,
    methods: [...ONE_CLICK_METHODS],
    ...(template.statement ? { statement: template.statement } : {}),
    ...(template.expirationTime ? { exp: template.expirationTime } : {}),
    ...(template.notBefore ? { nbf: template.notBefore } : {}),
    ...(template.requestId ? { requestId: template.requestId } : {}),
    ...(template.resources ? { resources: template.resources } : {}),
  }
}

/** Formats a CACAO's payload as the text the wallet signed (the WalletConnect client's `formatAuthMessage`). */
export type FormatAuthMessage = (payload: Record<string, unknown>, iss: string) => string

const HEX_SIGNATURE = /^0x[0-9a-fA-F]{130,20000}$/
const ISS = /^did:pkh:(eip155:[1-9]\d{0,15}):(0x[0-9a-fA-F]{40})$/
const CACAOS_READ = 10

/**
 * The session candidates in a wallet's `auths`: each CACAO of the right shape whose message says what was
 * asked, for the account and chain it names. Anything else (a malformed CACAO, another domain or nonce, a
 * chain not asked for, a message that does not parse) is left out: the visitor is then asked to sign.
 */
export function sessionsFromAuths(
  auths: unknown,
  asked: OneClickParams,
  format: FormatAuthMessage,
): SiwxSession[] {
  if (!Array.isArray(auths)) return []
  const sessions: SiwxSession[] = []
  for (const cacao of auths.slice(0, CACAOS_READ)) {
    const session = sessionFromCacao(cacao, asked, format)
    if (session) sessions.push(session)
  }
  return sessions
}

function sessionFromCacao(
  cacao: unknown,
  asked: OneClickParams,
  format: FormatAuthMessage,
): SiwxSession | undefined {
  if (typeof cacao !== 'object' || cacao === null) return undefined
  const { p, s } = cacao as { p?: unknown; s?: unknown }
  if (typeof p !== 'object' || p === null || typeof s !== 'object' || s === null) return undefined
  const payload = p as Record<string, unknown>
  const signature = (s as Record<string, unknown>).s
  const iss = typeof payload.iss === 'string' ? ISS.exec(payload.iss) : null
  if (!iss || typeof signature !== 'string' || !HEX_SIGNATURE.test(signature)) return undefined
  let message: string
  try {
    message = format(payload, payload.iss as string)
  } catch {
    return undefined
  }
  const data = messageData(message)
  if (!data || !says(data, asked, iss[1]!, iss[2]!)) return undefined
  return { message, data, signature: signature as `0x${string}` }
}

/** The signed message is for the account and chain its issuer names, with the fields that were asked. */
function says(data: SiwxMessageData, asked: OneClickParams, chainId: string, address: string): boolean {
  const same = (a: string | undefined, b: string | undefined) =>
    a === b || (a !== undefined && b !== undefined && Date.parse(a) === Date.parse(b))
  return (
    data.chainId === chainId &&
    asked.chains.includes(chainId) &&
    data.accountAddress.toLowerCase() === address.toLowerCase() &&
    data.domain === asked.domain &&
    data.uri === asked.uri &&
    data.nonce === asked.nonce &&
    same(data.expirationTime, asked.exp) &&
    same(data.notBefore, asked.nbf)
  )
}
