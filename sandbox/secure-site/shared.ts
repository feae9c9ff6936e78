import * as v from 'valibot'

/*
 * The secure site's own HTTP API: what the frame page (same origin) asks its server. Browser-safe (valibot
 * only): the frame bundle and the server both import it, so the shapes cannot drift apart.
 */

/** The sdk type the origins check sends to the listing API (the kit's `SDK_TYPE`). */
export const SDK_TYPE = 'walletstate'

/** The query parameter the social stand-in appends to the app URL it redirects back to. */
export const SOCIAL_TOKEN_PARAM = 'walletstate_social'

const Hex40 = /^0x[0-9a-fA-F]{40}$/
export const AddressSchema = v.pipe(v.string(), v.regex(Hex40, 'Address: 0x plus 40 hex characters'))
/** A Solana address: an ed25519 public key in base58 (32 bytes are 32 to 44 characters). */
export const SolanaAddressSchema = v.pipe(
  v.string(),
  v.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'Solana address: a base58 public key'),
)
/** A Solana CAIP-2 chain id: `solana:` and 32 base58 characters (the start of the genesis hash). */
export const SolanaChainIdSchema = v.pipe(
  v.string(),
  v.regex(/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/, 'Solana chain id: solana: and 32 base58 characters'),
)

/** The embedded wallet's Solana signing methods; each waits for the visitor's approval, as eip155 signing does. */
export const SOLANA_SIGNING_METHODS = [
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAndSendTransaction',
] as const
export type SolanaSigningMethod = (typeof SOLANA_SIGNING_METHODS)[number]
/** The eip155 signing methods the server runs (the kit protocol's `SIGNING_METHODS`). */
export const EVM_SIGNING_METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'] as const
/**
 * EIP-5792: `wallet_sendCalls` waits for the visitor's approval as the signing methods do (one user operation of
 * the smart account, `executeBatch`); `wallet_getCallsStatus` and `wallet_getCapabilities` are reads.
 */
export const EVM_BATCH_METHODS = ['wallet_sendCalls'] as const
export const EVM_BATCH_READ_METHODS = ['wallet_getCallsStatus', 'wallet_getCapabilities'] as const
/**
 * ERC-7715: granting and revoking a permission are user operations of the smart account (`grantPermission`,
 * `revokePermission`), approved by the visitor as the signing methods are.
 */
export const EVM_PERMISSION_METHODS = ['wallet_grantPermissions', 'wallet_revokePermissions'] as const
/** SPEC §5's rule for batched calls, the message of a batch that breaks it. */
export const BATCH_CALL_RULE = "Batched calls need a 'to' starting 0x; data, if present, starts 0x"
const SigningMethodSchema = v.picklist([
  ...EVM_SIGNING_METHODS,
  ...EVM_BATCH_METHODS,
  ...SOLANA_SIGNING_METHODS,
  ...EVM_PERMISSION_METHODS,
])
/** The chain a signing request is for: the EVM chain number, or the Solana CAIP-2 id. */
const SigningChainSchema = v.union([v.pipe(v.number(), v.integer(), v.minValue(1)), SolanaChainIdSchema])
export const EmailSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254),
  v.email('Invalid email'),
)
export const OtpSchema = v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, 'One-time code: 6 digits'))
/** Random ids the frame makes up (device) or the server hands out (login, channel): url-safe, bounded. */
export const TokenSchema = v.pipe(v.string(), v.regex(/^[\w-]{16,128}$/, 'Malformed id'))
export const AccountTypeSchema = v.picklist(['eoa', 'smartAccount'])
export type AccountType = v.InferOutput<typeof AccountTypeSchema>
/** Farcaster names: lowercase letters, digits and hyphens, 1-16 characters, optionally `.eth`. */
export const FarcasterNameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^[a-z0-9][a-z0-9-]{0,15}(\.eth)?$/, 'Username: 1-16 letters, digits or hyphens'),
)
export const ProjectIdSchema = v.pipe(v.string(), v.regex(/^[\w-]{1,100}$/, 'Malformed projectId'))

/** The account as the server describes it; the frame turns it into the SPEC §3 user for a chain. */
export const AccountViewSchema = v.object({
  email: v.optional(v.string()),
  userName: v.optional(v.string()),
  eoa: AddressSchema,
  smartAccount: AddressSchema,
  /** The Solana account (base58 public key of the account's ed25519 key). */
  solana: SolanaAddressSchema,
  preferredAccountType: AccountTypeSchema,
  smartAccountDeployed: v.boolean(),
})
export type AccountView = v.InferOutput<typeof AccountViewSchema>

/** A new session: the token the frame keeps in its own origin's storage, and the account. */
export const SessionAnswerSchema = v.object({ token: TokenSchema, account: AccountViewSchema })

/** The most pages around the frame it checks; a deeper nesting is refused. Ours. */
export const MAX_ANCESTORS = 16

/** Request bodies of the API, by path. */
export const ApiBodies = {
  '/api/origin-check': v.object({
    projectId: ProjectIdSchema,
    sdkVersion: v.pipe(v.string(), v.maxLength(50)),
    /** The page that embeds the frame (its parent), the one it talks to. */
    origin: v.pipe(v.string(), v.maxLength(300)),
    /**
     * Every page around the frame, parent first (`location.ancestorOrigins`): each must be allowed, or an allowed
     * page framed by a stranger could be laid over the approval screen by that stranger.
     */
    ancestors: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(300))), v.maxLength(MAX_ANCESTORS))),
  }),
  '/api/login/email': v.object({ email: EmailSchema, deviceId: TokenSchema }),
  '/api/login/device': v.object({ loginId: TokenSchema }),
  '/api/login/otp': v.object({ loginId: TokenSchema, otp: OtpSchema }),
  '/api/social/start': v.object({
    provider: v.picklist(['google', 'github', 'apple', 'facebook', 'x', 'discord']),
    deviceId: TokenSchema,
    projectId: ProjectIdSchema,
    sdkVersion: v.pipe(v.string(), v.maxLength(50)),
    returnTo: v.pipe(v.string(), v.maxLength(2048), v.url('returnTo must be a URL')),
  }),
  '/api/social/finish': v.object({ uri: v.pipe(v.string(), v.maxLength(4096)), deviceId: TokenSchema }),
  '/api/farcaster/start': v.object({ deviceId: TokenSchema }),
  '/api/farcaster/poll': v.object({ channel: TokenSchema, deviceId: TokenSchema }),
  '/api/session': v.object({}),
  '/api/signout': v.object({}),
  '/api/preferred-account': v.object({ type: AccountTypeSchema }),
  '/api/email/update': v.object({ email: EmailSchema }),
  '/api/email/primary': v.object({ otp: OtpSchema }),
  '/api/email/secondary': v.object({ otp: OtpSchema }),
  '/api/rpc': v.object({
    method: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
    params: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(20))),
    chainId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  }),
  '/api/sign/prepare': v.object({
    method: SigningMethodSchema,
    params: v.pipe(v.array(v.unknown()), v.maxLength(5)),
    chainId: SigningChainSchema,
  }),
  '/api/sign': v.object({
    method: SigningMethodSchema,
    params: v.pipe(v.array(v.unknown()), v.maxLength(5)),
    chainId: SigningChainSchema,
  }),
} as const
export type ApiPath = keyof typeof ApiBodies
export type ApiBody<P extends ApiPath> = v.InferInput<(typeof ApiBodies)[P]>

/** Answers of the API, by path (the frame parses them; the server builds them). */
export const ApiAnswers = {
  '/api/origin-check': v.object({
    allowed: v.boolean(),
    /** When not allowed: the first origin (the parent, then each ancestor outwards) that is not. */
    refused: v.optional(v.pipe(v.string(), v.maxLength(300))),
    chainId: v.number(),
    /** The Solana chain the site signs for, when it serves one. */
    solanaChainId: v.optional(SolanaChainIdSchema),
    /** Further EVM chains it signs for, with the EOA only (no smart-account stack there). */
    moreChainIds: v.optional(v.pipe(v.array(v.number()), v.maxLength(20))),
  }),
  '/api/login/email': v.object({ loginId: TokenSchema, action: v.picklist(['VERIFY_OTP', 'VERIFY_DEVICE']) }),
  '/api/login/device': v.object({ verified: v.boolean() }),
  '/api/login/otp': SessionAnswerSchema,
  '/api/social/start': v.object({ uri: v.string() }),
  '/api/social/finish': SessionAnswerSchema,
  '/api/farcaster/start': v.object({ url: v.string(), channel: TokenSchema }),
  '/api/farcaster/poll': v.union([
    v.object({ done: v.literal(false) }),
    v.object({ done: v.literal(true), ...SessionAnswerSchema.entries }),
  ]),
  '/api/session': v.object({ account: AccountViewSchema }),
  '/api/signout': v.object({}),
  '/api/preferred-account': v.object({ account: AccountViewSchema }),
  '/api/email/update': v.object({ action: v.literal('VERIFY_PRIMARY_OTP') }),
  '/api/email/primary': v.object({ action: v.literal('VERIFY_SECONDARY_OTP') }),
  '/api/email/secondary': v.object({ newEmail: v.string(), account: AccountViewSchema }),
  '/api/rpc': v.object({ result: v.unknown() }),
  '/api/sign/prepare': v.object({
    summary: v.object({
      title: v.string(),
      from: v.union([AddressSchema, SolanaAddressSchema]),
      accountType: AccountTypeSchema,
      details: v.array(v.object({ label: v.string(), value: v.string() })),
    }),
  }),
  '/api/sign': v.object({ result: v.unknown() }),
} as const satisfies Record<ApiPath, v.GenericSchema>
export type ApiAnswer<P extends ApiPath> = v.InferOutput<(typeof ApiAnswers)[P]>

/** The JSON error body every sandbox service answers (`errorJson`), plus an optional RPC/provider code. */
export const ApiErrorSchema = v.object({ error: v.string(), code: v.optional(v.number()) })

/**
 * Turns a SPEC §3 chain id (number, decimal or hex string, or CAIP-2 `eip155:N`) into the EVM chain number;
 * `undefined` for anything else (a `solana:` id included: see {@link solanaChainId}).
 */
export function evmChainNumber(chainId: number | string): number | undefined {
  if (typeof chainId === 'number') return Number.isSafeInteger(chainId) && chainId > 0 ? chainId : undefined
  const text = chainId.trim()
  const caip = /^eip155:(\d{1,15})$/.exec(text)
  const decimal = caip?.[1] ?? (/^\d{1,15}$/.test(text) ? text : undefined)
  if (decimal !== undefined) return Number(decimal) > 0 ? Number(decimal) : undefined
  if (/^0x[0-9a-fA-F]{1,13}$/.test(text)) return Number.parseInt(text, 16) || undefined
  return undefined
}

/**
 * Whether `origin` matches one allowed-origins entry. `*` stands for any run of characters that are not `/`
 * or `:` (one host label run or one port), so `http://127.0.0.1:*` allows every port of 127.0.0.1 and
 * `https://*.example.com` every subdomain, but neither lets a pattern spill into another part of the origin.
 * A bare `*` allows every origin (SPEC §5: origin lists support `*` wildcards).
 */
export function originMatches(pattern: string, origin: string): boolean {
  const p = pattern.trim().toLowerCase().replace(/\/+$/, '')
  const o = origin.trim().toLowerCase()
  if (p === '*') return o !== '' && o !== 'null'
  const source = p
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/:]*')
  return new RegExp(`^${source}$`).test(o)
}

/** Whether `origin` matches any entry of `allowedOrigins`. */
export function originAllowed(allowedOrigins: readonly string[], origin: string): boolean {
  return allowedOrigins.some((pattern) => originMatches(pattern, origin))
}

/** A chain id that is a Solana CAIP-2 id, trimmed; `undefined` for anything else. */
export function solanaChainId(chainId: number | string): string | undefined {
  if (typeof chainId !== 'string') return undefined
  const parsed = v.safeParse(SolanaChainIdSchema, chainId.trim())
  return parsed.success ? parsed.output : undefined
}
