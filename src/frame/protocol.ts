import * as v from 'valibot'
import { isSolanaAddress } from '../chains/solana/address'
import { isSolanaChainId } from '../chains/solana/chains'
import { isEvmAddress } from '../utils/caip'
import { isSignature, isTransactionHash } from '../utils/rpcResults'

/**
 * The login-frame protocol (SPEC §4, §7): the kit (the "app", a page on the host's origin) and the hidden frame
 * (the "secure site", its own origin) exchange envelopes `{ id?, type, payload? }` by `postMessage`, always to
 * the exact origin of the other side, never `*`. Both sides parse every message they receive with these
 * schemas and check its origin and source window; anything else is dropped.
 *
 * Requests go app → frame with an `id`; the frame answers each with exactly one `frame.reply` carrying the same
 * `id`: `{ ok: true, result }` or `{ ok: false, error: { message, code? } }`. The frame also sends events
 * without an `id` (ready, approval needed or settled, a social result).
 * @internal
 */
export const FRAME_PROTOCOL_VERSION = 1

/** App → frame commands (SPEC §4 "Commands"). */
export const FRAME_COMMANDS = [
  'switchNetwork',
  'connectEmail',
  'connectDevice',
  'connectOtp',
  'getSocialRedirectUri',
  'connectSocial',
  'getFarcasterUri',
  'connectFarcaster',
  'getUser',
  'signOut',
  'isConnected',
  'getChainId',
  'initSmartAccount',
  'setPreferredAccount',
  'rpcRequest',
  'updateEmail',
  'updateEmailPrimaryOtp',
  'updateEmailSecondaryOtp',
  'syncTheme',
  'syncDappData',
  'reload',
  /** Rejects every open RPC request except the safe (read-only) ones (SPEC §7). */
  'rejectRpcRequests',
] as const
export type FrameCommand = (typeof FRAME_COMMANDS)[number]

/*
 * The protocol's types are written out below rather than inferred from the schemas, so the package's
 * declarations name them instead of spelling valibot's schema types; `Same` checks (at the end of the file)
 * keep each schema's output equal to its type.
 */

/** A schema whose output is `T`: how the exported schemas are declared. */
type Schema<T> = v.GenericSchema<unknown, T>

/** SPEC §4: the embedded wallet's account types. */
export type AccountType = 'eoa' | 'smartAccount'
export type SocialProvider = 'google' | 'github' | 'apple' | 'facebook' | 'x' | 'discord'
/** A chain id as the frame knows it: a number on eip155, a string (`solana:…`) otherwise. */
export type FrameChainId = number | string

/** The dapp's metadata the frame is told (`syncDappData`). */
export interface FrameDappMetadata {
  name: string
  description: string
  url: string
  icons: string[]
}

/** A command without arguments (what valibot makes of an empty object schema). */
// biome-ignore lint/complexity/noBannedTypes: the exact output of `v.object({})`, checked below
export type NoPayload = {}

/** What each command carries. */
export interface FrameCommandPayloads {
  switchNetwork: { chainId: FrameChainId }
  connectEmail: { email: string }
  connectDevice: NoPayload
  connectOtp: { otp: string }
  getSocialRedirectUri: { provider: SocialProvider }
  connectSocial: { uri: string }
  getFarcasterUri: NoPayload
  connectFarcaster: NoPayload
  getUser: { chainId?: FrameChainId }
  signOut: NoPayload
  isConnected: NoPayload
  getChainId: NoPayload
  initSmartAccount: NoPayload
  setPreferredAccount: { type: AccountType }
  rpcRequest: { method: string; params?: unknown[]; chainId?: FrameChainId }
  updateEmail: { email: string }
  updateEmailPrimaryOtp: { otp: string }
  updateEmailSecondaryOtp: { otp: string }
  syncTheme: { themeMode: 'dark' | 'light'; themeVariables?: Record<string, string> }
  syncDappData: { projectId: string; sdkVersion: string; metadata?: FrameDappMetadata }
  reload: NoPayload
  rejectRpcRequests: NoPayload
}

/** One of a user's accounts (SPEC §3 `accounts`). */
export interface FrameAccount<T extends AccountType = AccountType> {
  address: string
  type: T
}

/** SPEC §3 User from the login frame, on an eip155 chain. */
export interface FrameEvmUser {
  email?: string
  address: string
  chainId: FrameChainId
  accounts: FrameAccount[]
  userName?: string
  preferredAccountType: AccountType
  smartAccountDeployed?: boolean
}

/** SPEC §3 User on a Solana chain: its only account an EOA. */
export interface FrameSolanaUser {
  email?: string
  address: string
  chainId: string
  accounts: FrameAccount<'eoa'>[]
  userName?: string
  preferredAccountType: 'eoa'
  smartAccountDeployed?: boolean
}

export type FrameUser = FrameEvmUser | FrameSolanaUser

/** What `switchNetwork` answers: eip155's chain and address, or Solana's (a `solana:` chain, base58). */
export type SwitchNetworkResult =
  | { chainId: FrameChainId; address?: string }
  | { chainId: string; address?: string }

/** What the commands the kit reads answer. */
export interface FrameCommandResults {
  connectEmail: { action: 'VERIFY_DEVICE' | 'VERIFY_OTP' | 'CONNECT' }
  getSocialRedirectUri: { uri: string }
  getFarcasterUri: { url: string }
  getUser: FrameUser
  isConnected: { isConnected: boolean }
  getChainId: { chainId: FrameChainId }
  switchNetwork: SwitchNetworkResult
  updateEmail: { action: 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP' }
  /** SPEC §4 "smart-account setup": the user's smart account on the current network, and whether it is deployed. */
  initSmartAccount: { address: string; isDeployed?: boolean }
}

export interface SocialResult {
  type: 'frame.socialResult'
  payload: { uri: string }
}

export interface Envelope {
  id?: string
  type: string
  payload?: unknown
}

export interface FrameRequest {
  id: string
  type: FrameCommand
  payload?: unknown
}

export interface FrameReply {
  id: string
  type: 'frame.reply'
  payload: { ok: true; result?: unknown } | { ok: false; error: { message: string; code?: number } }
}

export type FrameEvent =
  | { type: 'frame.ready'; payload: { version: number } }
  | { type: 'frame.approvalNeeded'; payload: { requestId: string; method: string } }
  | { type: 'frame.approvalSettled'; payload: { requestId: string; approved: boolean } }
  | { type: 'frame.originNotAllowed'; payload: { origin: string } }

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(/^[\w-]+$/))
/** An EVM address (viem's `isAddress`: 0x plus 40 hex characters, its checksum checked when mixed-case). */
const Address = v.pipe(
  v.string(),
  v.check((value: string) => isEvmAddress(value), 'Address: 0x plus 40 hex characters'),
)
const Email = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email('Invalid email'))
/** Longest one-time code sent (ours: no code is near it). */
const OTP_MAX_CHARS = 64
/**
 * SPEC §5 "One-time code is a string": whatever the frame mailed (its format is the frame's to check), so long
 * as there is one; the bound only keeps a pasted page out of a message.
 */
const Otp = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('One-time code: a non-empty string'),
  v.maxLength(OTP_MAX_CHARS, 'One-time code: a non-empty string'),
)
const ChainId = v.union([v.pipe(v.number(), v.integer(), v.minValue(1)), v.pipe(v.string(), v.maxLength(80))])
/** A Solana CAIP-2 chain id (`solana:` and 32 base58 characters of the genesis hash). */
const SolanaChainId = v.pipe(
  v.string(),
  v.check((value: string) => isSolanaChainId(value), 'Solana chain id: solana: and 32 base58 characters'),
)
/** Any chain id but a Solana one: where the frame's users and addresses are eip155's. */
const EvmChainId = v.pipe(
  ChainId,
  v.check((value) => typeof value !== 'string' || !value.startsWith('solana:'), 'Not a Solana chain id'),
)
/** A Solana address: a base58 ed25519 public key (32 bytes). */
const SolanaAddress = v.pipe(
  v.string(),
  v.check((value: string) => isSolanaAddress(value), 'Solana address: a base58 public key'),
)
const socialProviderSchema = v.picklist(['google', 'github', 'apple', 'facebook', 'x', 'discord'])
export const SocialProviderSchema: Schema<SocialProvider> = socialProviderSchema
const accountTypeSchema = v.picklist(['eoa', 'smartAccount'])
export const AccountTypeSchema: Schema<AccountType> = accountTypeSchema

/** Payloads of the commands, checked by the frame before it acts. */
const commandPayloads = {
  switchNetwork: v.object({ chainId: ChainId }),
  connectEmail: v.object({ email: Email }),
  connectDevice: v.object({}),
  connectOtp: v.object({ otp: Otp }),
  getSocialRedirectUri: v.object({ provider: socialProviderSchema }),
  connectSocial: v.object({ uri: v.pipe(v.string(), v.maxLength(4096)) }),
  getFarcasterUri: v.object({}),
  connectFarcaster: v.object({}),
  getUser: v.object({ chainId: v.optional(ChainId) }),
  signOut: v.object({}),
  isConnected: v.object({}),
  getChainId: v.object({}),
  initSmartAccount: v.object({}),
  setPreferredAccount: v.object({ type: accountTypeSchema }),
  rpcRequest: v.object({
    method: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
    params: v.optional(v.array(v.unknown())),
    chainId: v.optional(ChainId),
  }),
  updateEmail: v.object({ email: Email }),
  updateEmailPrimaryOtp: v.object({ otp: Otp }),
  updateEmailSecondaryOtp: v.object({ otp: Otp }),
  syncTheme: v.object({
    themeMode: v.picklist(['dark', 'light']),
    themeVariables: v.optional(v.record(v.string(), v.pipe(v.string(), v.maxLength(200)))),
  }),
  syncDappData: v.object({
    projectId: v.pipe(v.string(), v.maxLength(200)),
    sdkVersion: v.pipe(v.string(), v.maxLength(50)),
    metadata: v.optional(
      v.object({
        name: v.pipe(v.string(), v.maxLength(200)),
        description: v.pipe(v.string(), v.maxLength(1000)),
        url: v.pipe(v.string(), v.maxLength(2048)),
        icons: v.array(v.pipe(v.string(), v.maxLength(2048))),
      }),
    ),
  }),
  reload: v.object({}),
  rejectRpcRequests: v.object({}),
} satisfies Record<FrameCommand, v.GenericSchema>
/** @internal */
export const CommandPayloads: { [C in FrameCommand]: Schema<FrameCommandPayloads[C]> } = commandPayloads

export type CommandPayload<C extends FrameCommand> = FrameCommandPayloads[C]

/** SPEC §3 User from the login frame, on an eip155 chain: EVM addresses, an EOA and a smart account. */
const frameEvmUserSchema = v.object({
  email: v.optional(Email),
  address: Address,
  chainId: EvmChainId,
  accounts: v.array(v.object({ address: Address, type: accountTypeSchema })),
  userName: v.optional(v.pipe(v.string(), v.maxLength(200))),
  preferredAccountType: accountTypeSchema,
  smartAccountDeployed: v.optional(v.boolean()),
})
/** @internal */
export const FrameEvmUserSchema: Schema<FrameEvmUser> = frameEvmUserSchema

/**
 * SPEC §3 User on a Solana chain (issue 17): the account's base58 address, its only account an EOA (SPEC §4:
 * EOA on Solana).
 */
const frameSolanaUserSchema = v.object({
  email: v.optional(Email),
  address: SolanaAddress,
  chainId: SolanaChainId,
  accounts: v.array(v.object({ address: SolanaAddress, type: v.literal('eoa') })),
  userName: v.optional(v.pipe(v.string(), v.maxLength(200))),
  preferredAccountType: v.literal('eoa'),
  smartAccountDeployed: v.optional(v.boolean()),
})
/** @internal */
export const FrameSolanaUserSchema: Schema<FrameSolanaUser> = frameSolanaUserSchema

/** SPEC §3 User from the login frame: eip155's, or Solana's when its chain id is `solana:`. */
const frameUserSchema = v.union([frameEvmUserSchema, frameSolanaUserSchema])
/** @internal */
export const FrameUserSchema: Schema<FrameUser> = frameUserSchema

/**
 * Whether a frame user is on a Solana chain (its address base58).
 *
 * @example if (isSolanaFrameUser(user)) new PublicKey(user.address)
 */
export function isSolanaFrameUser(user: FrameUser | undefined): user is FrameSolanaUser {
  return typeof user?.chainId === 'string' && user.chainId.startsWith('solana:')
}

/**
 * What `switchNetwork` answers: the chain, and when a visitor is signed in the address on it (an EVM address,
 * or base58 on a `solana:` chain).
 */
const switchNetworkResultSchema = v.union([
  v.object({ chainId: EvmChainId, address: v.optional(Address) }),
  v.object({ chainId: SolanaChainId, address: v.optional(SolanaAddress) }),
])
/** @internal */
export const SwitchNetworkResultSchema: Schema<SwitchNetworkResult> = switchNetworkResultSchema

/** SPEC §4: e-mail connect answers what the visitor must do next. */
const emailConnectResultSchema = v.object({
  action: v.picklist(['VERIFY_DEVICE', 'VERIFY_OTP', 'CONNECT']),
})
/** @internal */
export const EmailConnectResultSchema: Schema<FrameCommandResults['connectEmail']> = emailConnectResultSchema

/** An address the kit may open or show as a QR code: http(s) only, never a script URL. */
const HttpUrl = v.pipe(v.string(), v.maxLength(4096), v.url(), v.regex(/^https?:\/\//i, 'An http(s) address'))

/** SPEC §4: updating the e-mail asks for the current address's code first, or straight for the new one's. */
const updateEmailResultSchema = v.object({
  action: v.picklist(['VERIFY_PRIMARY_OTP', 'VERIFY_SECONDARY_OTP']),
})
/** @internal */
export const UpdateEmailResultSchema: Schema<FrameCommandResults['updateEmail']> = updateEmailResultSchema

/**
 * What a successful reply carries as `result`, per command, where the kit reads it (added for the kit's frame
 * machine; the other commands answer anything, usually nothing).
 */
const commandResults = {
  connectEmail: emailConnectResultSchema,
  getSocialRedirectUri: v.object({ uri: HttpUrl }),
  getFarcasterUri: v.object({ url: HttpUrl }),
  getUser: frameUserSchema,
  isConnected: v.object({ isConnected: v.boolean() }),
  getChainId: v.object({ chainId: ChainId }),
  switchNetwork: switchNetworkResultSchema,
  updateEmail: updateEmailResultSchema,
  initSmartAccount: v.object({ address: Address, isDeployed: v.optional(v.boolean()) }),
} satisfies Partial<Record<FrameCommand, v.GenericSchema>>
/** @internal */
export const CommandResults: { [C in keyof FrameCommandResults]: Schema<FrameCommandResults[C]> } =
  commandResults

/**
 * The message the social-login popup posts to its opener (the app) when the provider has sent the visitor
 * back: the URI to pass to `connectSocial`. Posted from the frame's origin to the app's exact origin; the kit
 * checks both and that it comes from the popup it opened.
 */
const socialResultSchema = v.object({
  type: v.literal('frame.socialResult'),
  payload: v.object({ uri: v.pipe(v.string(), v.maxLength(4096)) }),
})
/** @internal */
export const SocialResultSchema: Schema<SocialResult> = socialResultSchema

/** The envelope every message is, before its type is looked at. */
const envelopeSchema = v.object({
  id: v.optional(Id),
  type: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  payload: v.optional(v.unknown()),
})
/** @internal */
export const EnvelopeSchema: Schema<Envelope> = envelopeSchema

/** App → frame request. */
const requestSchema = v.object({
  id: Id,
  type: v.picklist(FRAME_COMMANDS),
  payload: v.optional(v.unknown()),
})
/** @internal */
export const RequestSchema: Schema<FrameRequest> = requestSchema

/** Frame → app: one reply per request. */
const replySchema = v.object({
  id: Id,
  type: v.literal('frame.reply'),
  payload: v.variant('ok', [
    v.object({ ok: v.literal(true), result: v.optional(v.unknown()) }),
    v.object({
      ok: v.literal(false),
      error: v.object({
        message: v.pipe(v.string(), v.maxLength(500)),
        code: v.optional(v.pipe(v.number(), v.integer())),
      }),
    }),
  ]),
})
/** @internal */
export const ReplySchema: Schema<FrameReply> = replySchema

/** Frame → app events (no id). */
const frameEventSchema = v.variant('type', [
  /** The frame is loaded and listening (SPEC §4: ready, then a further 500 ms wait). */
  v.object({ type: v.literal('frame.ready'), payload: v.object({ version: v.number() }) }),
  /** A signing call waits for the visitor: show the frame (ApproveTransaction view). */
  v.object({
    type: v.literal('frame.approvalNeeded'),
    payload: v.object({ requestId: Id, method: v.string() }),
  }),
  /** The visitor approved or declined; hide the frame. */
  v.object({
    type: v.literal('frame.approvalSettled'),
    payload: v.object({ requestId: Id, approved: v.boolean() }),
  }),
  /** The page is not on the project's allowed origins (SPEC §5): the invalid-app-configuration alert. */
  v.object({ type: v.literal('frame.originNotAllowed'), payload: v.object({ origin: v.string() }) }),
])
/**
 * Its `options` name each event's type (the transport tells an unknown event from a malformed one).
 * @internal
 */
export const FrameEventSchema: Schema<FrameEvent> & {
  readonly options: readonly {
    readonly entries: { readonly type: { readonly literal: FrameEvent['type'] } }
  }[]
} = frameEventSchema

/**
 * Signing calls need the visitor's confirmation in the frame; everything else listed here is read-only.
 * @internal
 */
export const SIGNING_METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'] as const
/** @internal */
export const SAFE_RPC_METHODS = [
  'eth_accounts',
  'eth_chainId',
  'eth_blockNumber',
  'eth_getBalance',
  'eth_call',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getBlockByNumber',
  'eth_getCode',
] as const

/**
 * Parses one received message: the source must be the expected window and the origin the expected one, and
 * the data a well-formed envelope. Answers `undefined` for anything else (the caller logs and drops it).
 *
 * @example
 * window.addEventListener('message', (e) => {
 *   const envelope = acceptMessage(e, { origin: frameOrigin, source: iframe.contentWindow })
 * })
 */
export function acceptMessage(
  event: { origin: string; source: unknown; data: unknown },
  expected: { origin: string; source: unknown },
): Envelope | undefined {
  if (event.origin !== expected.origin) return undefined
  if (expected.source === null || event.source !== expected.source) return undefined
  const parsed = v.safeParse(EnvelopeSchema, event.data)
  return parsed.success ? parsed.output : undefined
}

/** Whether two types are the same (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Expect<T extends true> = T
/** Each schema's output is its written-out type: a change to one without the other fails the type check. */
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check, never used
type SchemasMatchTheirTypes = [
  Expect<Same<v.InferOutput<typeof accountTypeSchema>, AccountType>>,
  Expect<Same<v.InferOutput<typeof socialProviderSchema>, SocialProvider>>,
  Expect<Same<{ [C in FrameCommand]: v.InferOutput<(typeof commandPayloads)[C]> }, FrameCommandPayloads>>,
  Expect<Same<v.InferOutput<typeof frameEvmUserSchema>, FrameEvmUser>>,
  Expect<Same<v.InferOutput<typeof frameSolanaUserSchema>, FrameSolanaUser>>,
  Expect<Same<v.InferOutput<typeof frameUserSchema>, FrameUser>>,
  Expect<Same<v.InferOutput<typeof switchNetworkResultSchema>, SwitchNetworkResult>>,
  Expect<
    Same<
      { [C in keyof typeof commandResults]: v.InferOutput<(typeof commandResults)[C]> },
      FrameCommandResults
    >
  >,
  Expect<Same<v.InferOutput<typeof socialResultSchema>, SocialResult>>,
  Expect<Same<v.InferOutput<typeof envelopeSchema>, Envelope>>,
  Expect<Same<v.InferOutput<typeof requestSchema>, FrameRequest>>,
  Expect<Same<v.InferOutput<typeof replySchema>, FrameReply>>,
  Expect<Same<v.InferOutput<typeof frameEventSchema>, FrameEvent>>,
]

// SPEC §5's shapes, the same check as every other wallet's answers get.
export { isSignature, isTransactionHash }

/** The RPC methods whose answer is a signature, and the one whose answer is a transaction hash. */
const SIGNATURE_METHODS: ReadonlySet<string> = new Set([
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
])

/**
 * What is wrong with the frame's answer to an RPC request, by SPEC §5: a signing method's answer that is no
 * signature (`'signature'`), `eth_sendTransaction`'s that is no transaction hash (`'hash'`); else undefined.
 *
 * @example
 * malformedRpcResult('eth_sendTransaction', '0x12') // 'hash'
 */
export function malformedRpcResult(method: string, result: unknown): 'hash' | 'signature' | undefined {
  if (method === 'eth_sendTransaction') return isTransactionHash(result) ? undefined : 'hash'
  if (SIGNATURE_METHODS.has(method)) return isSignature(result) ? undefined : 'signature'
  return undefined
}
