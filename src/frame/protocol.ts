import * as v from 'valibot'
import { isSolanaAddress } from '../chains/solana/address'
import { isSolanaChainId } from '../chains/solana/chains'
import { isEvmAddress } from '../utils/caip'

/**
 * The login-frame protocol (SPEC §4, §7): the kit (the "app", a page on the host's origin) and the hidden frame
 * (the "secure site", its own origin) exchange envelopes `{ id?, type, payload? }` by `postMessage`, always to
 * the exact origin of the other side, never `*`. Both sides parse every message they receive with these
 * schemas and check its origin and source window; anything else is dropped.
 *
 * Requests go app → frame with an `id`; the frame answers each with exactly one `frame.reply` carrying the same
 * `id`: `{ ok: true, result }` or `{ ok: false, error: { message, code? } }`. The frame also sends events
 * without an `id` (ready, approval needed or settled, a social result).
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

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(/^[\w-]+$/))
/** An EVM address (viem's `isAddress`: 0x plus 40 hex characters, its checksum checked when mixed-case). */
const Address = v.pipe(
  v.string(),
  v.check((value: string) => isEvmAddress(value), 'Address: 0x plus 40 hex characters'),
)
const Email = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email('Invalid email'))
const Otp = v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, 'One-time code: 6 digits'))
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
export const SocialProviderSchema = v.picklist(['google', 'github', 'apple', 'facebook', 'x', 'discord'])
export const AccountTypeSchema = v.picklist(['eoa', 'smartAccount'])

/** Payloads of the commands, checked by the frame before it acts. */
export const CommandPayloads = {
  switchNetwork: v.object({ chainId: ChainId }),
  connectEmail: v.object({ email: Email }),
  connectDevice: v.object({}),
  connectOtp: v.object({ otp: Otp }),
  getSocialRedirectUri: v.object({ provider: SocialProviderSchema }),
  connectSocial: v.object({ uri: v.pipe(v.string(), v.maxLength(4096)) }),
  getFarcasterUri: v.object({}),
  connectFarcaster: v.object({}),
  getUser: v.object({ chainId: v.optional(ChainId) }),
  signOut: v.object({}),
  isConnected: v.object({}),
  getChainId: v.object({}),
  initSmartAccount: v.object({}),
  setPreferredAccount: v.object({ type: AccountTypeSchema }),
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

export type CommandPayload<C extends FrameCommand> = v.InferOutput<(typeof CommandPayloads)[C]>

/** SPEC §3 User from the login frame, on an eip155 chain: EVM addresses, an EOA and a smart account. */
export const FrameEvmUserSchema = v.object({
  email: v.optional(Email),
  address: Address,
  chainId: EvmChainId,
  accounts: v.array(v.object({ address: Address, type: AccountTypeSchema })),
  userName: v.optional(v.pipe(v.string(), v.maxLength(200))),
  preferredAccountType: AccountTypeSchema,
  smartAccountDeployed: v.optional(v.boolean()),
})

/**
 * SPEC §3 User on a Solana chain (issue 17): the account's base58 address, its only account an EOA (SPEC §4:
 * EOA on Solana).
 */
export const FrameSolanaUserSchema = v.object({
  email: v.optional(Email),
  address: SolanaAddress,
  chainId: SolanaChainId,
  accounts: v.array(v.object({ address: SolanaAddress, type: v.literal('eoa') })),
  userName: v.optional(v.pipe(v.string(), v.maxLength(200))),
  preferredAccountType: v.literal('eoa'),
  smartAccountDeployed: v.optional(v.boolean()),
})

/** SPEC §3 User from the login frame: eip155's, or Solana's when its chain id is `solana:`. */
export const FrameUserSchema = v.union([FrameEvmUserSchema, FrameSolanaUserSchema])
export type FrameUser = v.InferOutput<typeof FrameUserSchema>

/**
 * Whether a frame user is on a Solana chain (its address base58).
 *
 * @example if (isSolanaFrameUser(user)) new PublicKey(user.address)
 */
export function isSolanaFrameUser(
  user: FrameUser | undefined,
): user is v.InferOutput<typeof FrameSolanaUserSchema> {
  return typeof user?.chainId === 'string' && user.chainId.startsWith('solana:')
}

/**
 * What `switchNetwork` answers: the chain, and when a visitor is signed in the address on it (an EVM address,
 * or base58 on a `solana:` chain).
 */
export const SwitchNetworkResultSchema = v.union([
  v.object({ chainId: EvmChainId, address: v.optional(Address) }),
  v.object({ chainId: SolanaChainId, address: v.optional(SolanaAddress) }),
])

/** SPEC §4: e-mail connect answers what the visitor must do next. */
export const EmailConnectResultSchema = v.object({
  action: v.picklist(['VERIFY_DEVICE', 'VERIFY_OTP', 'CONNECT']),
})

/** An address the kit may open or show as a QR code: http(s) only, never a script URL. */
const HttpUrl = v.pipe(v.string(), v.maxLength(4096), v.url(), v.regex(/^https?:\/\//i, 'An http(s) address'))

/** SPEC §4: updating the e-mail asks for the current address's code first, or straight for the new one's. */
export const UpdateEmailResultSchema = v.object({
  action: v.picklist(['VERIFY_PRIMARY_OTP', 'VERIFY_SECONDARY_OTP']),
})

/**
 * What a successful reply carries as `result`, per command, where the kit reads it (added for the kit's frame
 * machine; the other commands answer anything, usually nothing).
 */
export const CommandResults = {
  connectEmail: EmailConnectResultSchema,
  getSocialRedirectUri: v.object({ uri: HttpUrl }),
  getFarcasterUri: v.object({ url: HttpUrl }),
  getUser: FrameUserSchema,
  isConnected: v.object({ isConnected: v.boolean() }),
  getChainId: v.object({ chainId: ChainId }),
  switchNetwork: SwitchNetworkResultSchema,
  updateEmail: UpdateEmailResultSchema,
} satisfies Partial<Record<FrameCommand, v.GenericSchema>>

/**
 * The message the social-login popup posts to its opener (the app) when the provider has sent the visitor
 * back: the URI to pass to `connectSocial`. Posted from the frame's origin to the app's exact origin; the kit
 * checks both and that it comes from the popup it opened.
 */
export const SocialResultSchema = v.object({
  type: v.literal('frame.socialResult'),
  payload: v.object({ uri: v.pipe(v.string(), v.maxLength(4096)) }),
})
export type SocialResult = v.InferOutput<typeof SocialResultSchema>

/** The envelope every message is, before its type is looked at. */
export const EnvelopeSchema = v.object({
  id: v.optional(Id),
  type: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  payload: v.optional(v.unknown()),
})
export type Envelope = v.InferOutput<typeof EnvelopeSchema>

/** App → frame request. */
export const RequestSchema = v.object({
  id: Id,
  type: v.picklist(FRAME_COMMANDS),
  payload: v.optional(v.unknown()),
})
export type FrameRequest = v.InferOutput<typeof RequestSchema>

/** Frame → app: one reply per request. */
export const ReplySchema = v.object({
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
export type FrameReply = v.InferOutput<typeof ReplySchema>

/** Frame → app events (no id). */
export const FrameEventSchema = v.variant('type', [
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
export type FrameEvent = v.InferOutput<typeof FrameEventSchema>

/** Signing calls need the visitor's confirmation in the frame; everything else listed here is read-only. */
export const SIGNING_METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'] as const
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
