import { fileURLToPath } from 'node:url'
import * as v from 'valibot'
import { type Hex, toHex } from 'viem'
import { SAFE_RPC_METHODS } from '../../src/frame/protocol.ts'
import { createRouter, parseBody, type Route } from '../api/common.ts'
import { migrate, openDatabase, type SandboxDb } from '../api/db.ts'
import { SANDBOX_SOLANA_CHAIN_ID } from '../api/solana.ts'
import {
  errorJson,
  type SandboxRequest,
  type SandboxResponse,
  type SandboxService,
  startService,
} from '../shared/http.ts'
import type { AllowedOrigins } from '../shared/origins.ts'
import { AccountService, ApiError, type Mail } from './accounts.ts'
import { KeyVault } from './keys.ts'
import { SECURE_SITE_MIGRATIONS } from './migrations.ts'
import { type FrameNetwork, frameNetworks } from './networks.ts'
import {
  FRAME_HEADERS,
  farcasterPage,
  framePage,
  indexPage,
  mailboxPage,
  messagePage,
  PAGE_HEADERS,
  providerName,
  socialPage,
} from './pages.ts'
import {
  type ApiAnswer,
  ApiBodies,
  type ApiPath,
  EmailSchema,
  EVM_BATCH_READ_METHODS,
  FarcasterNameSchema,
  originAllowed,
  SDK_TYPE,
  SOLANA_SIGNING_METHODS,
  SolanaChainIdSchema,
  type SolanaSigningMethod,
  TokenSchema,
} from './shared.ts'
import { SolanaWallet } from './solana-wallet.ts'
import {
  ChainWallet,
  checkContractBuild,
  type FaucetOptions,
  type PreparedSigning,
  RpcFailure,
  type SigningMethod,
} from './wallet.ts'

export type { Mail } from './accounts.ts'
export { SECURE_SITE_MIGRATIONS } from './migrations.ts'
export { SOLANA_AIRDROP_LAMPORTS } from './solana-wallet.ts'
export {
  CREATE2_DEPLOYER,
  type FaucetOptions,
  SMART_ACCOUNT_FACTORY,
  smartAccountAddress,
  smartAccountDeployData,
  smartAccountFactoryArgs,
} from './wallet.ts'

/** Options of {@link startSecureSite}. */
export interface SecureSiteOptions {
  /** JSON-RPC URL of the chain (the sandbox RPC host or anvil): reads are forwarded, raw transactions sent. */
  rpcUrl: string
  /**
   * The ERC-4337 bundler's JSON-RPC URL (the RPC host's `/v1/bundler`, or alto's own): the smart account's sends
   * and EIP-5792 batches go there as user operations. Unset: the smart account signs but cannot send.
   */
  bundlerUrl?: string
  /** The chain the site serves and signs for. */
  chainId: number
  /** Its name in the frame's network list (`GET /networks`); default "Chain {chainId}". */
  chainName?: string
  /**
   * Further EVM chains it serves and signs for (the second sandbox chain), with the EOA only: without an
   * ERC-4337 stack there, the smart account is refused ('This application might not support Smart Accounts').
   * Each new account's EOA is paid by `faucet` there too.
   */
  moreChains?: Array<{ chainId: number; name?: string; rpcUrl: string; faucet?: FaucetOptions }>
  /** Origin of the wallet-listing API: `GET /projects/v1/origins?projectId&st&sv` gives the allowed origins. */
  originsUrl: string
  /** 0 or unset: a free port. */
  port?: number
  /** A shared sandbox database (its secure_* tables are migrated in; left open on close). Default: its own. */
  db?: SandboxDb
  /** 32 bytes sealing the wallet keys (AES-256-GCM). Default: random per run (keys die with the process). */
  keySecret?: Uint8Array
  /** Pays every new account (EOA and smart account) so it can send right away. Default: no funding. */
  faucet?: FaucetOptions
  /**
   * The Solana chain the embedded wallets also sign for (the sandbox Solana chain): its JSON-RPC URL, its
   * CAIP-2 id (default the sandbox chain's, `SANDBOX_SOLANA_CHAIN_ID`) and the lamports airdropped to each new
   * account (default 10 SOL). Unset: every account still has its Solana key, but the frame serves no Solana chain.
   */
  solana?: { rpcUrl: string; chainId?: string; airdropLamports?: bigint }
  /** Minimum time between two mails of one kind to one address; default 10 000 ms. */
  mailIntervalMs?: number
  /** Ask a new device of an existing account to confirm by an e-mailed link; default true. */
  verifyNewDevices?: boolean
  /**
   * Page origins that get CORS headers on its public paths. Default: loopback pages. `/mailbox` and
   * `/__fault` never get any, and refuse other pages (403): tests read them from Node.
   */
  origins?: AllowedOrigins
}

/** The running secure site. */
export interface SecureSite {
  /** `http://127.0.0.1:PORT` */
  origin: string
  port: number
  /** `${origin}/frame`: load with `?projectId=&chainId=&version=&enableLogger=`. */
  frameUrl: string
  /** `${origin}/mailbox`: the mailbox page; `?to=ADDRESS` answers JSON, newest first. */
  mailboxUrl: string
  /** The random id `GET /__health` answers. */
  instance: string
  /** The underlying sandbox service (its fault switch is `POST /__fault`). */
  service: SandboxService
  /** Mails sent to `to`, newest first (what `GET /mailbox?to=` answers). */
  mailbox(to: string): Promise<Mail[]>
  /** Stops the server (and closes its own database). Safe to call twice. */
  close(): Promise<void>
}

const HERE = fileURLToPath(new URL('.', import.meta.url))
/** What `/api/rpc` answers: the protocol's read-only methods and EIP-5792's reads (answered here). */
const READ_METHODS: readonly string[] = [...SAFE_RPC_METHODS, ...EVM_BATCH_READ_METHODS]
const ORIGINS_TIMEOUT_MS = 10_000
const BEARER = /^Bearer ([\w-]{16,128})$/

const OptionsSchema = v.object({
  rpcUrl: v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'rpcUrl must be http(s)')),
  bundlerUrl: v.optional(v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'bundlerUrl must be http(s)'))),
  chainId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  chainName: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(60))),
  moreChains: v.optional(
    v.array(
      v.object({
        chainId: v.pipe(v.number(), v.integer(), v.minValue(1)),
        name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(60))),
        rpcUrl: v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'moreChains rpcUrl must be http(s)')),
      }),
    ),
  ),
  originsUrl: v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'originsUrl must be http(s)')),
  port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65_535))),
  mailIntervalMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  solana: v.optional(
    v.object({
      rpcUrl: v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'solana.rpcUrl must be http(s)')),
      chainId: v.optional(SolanaChainIdSchema),
    }),
  ),
})

interface FrameBundle {
  entry: string
  files: Map<string, string>
}
let bundle: Promise<FrameBundle> | undefined

/** Builds the frame page's script once per process with Vite (in memory), so every later start reuses it. */
function frameBundle(): Promise<FrameBundle> {
  bundle ??= buildFrameBundle().catch((error: unknown) => {
    bundle = undefined
    throw error
  })
  return bundle
}

async function buildFrameBundle(): Promise<FrameBundle> {
  const { build } = await import('vite')
  const output = await build({
    configFile: false,
    envFile: false,
    root: HERE,
    publicDir: false,
    logLevel: 'silent',
    mode: 'production',
    build: {
      write: false,
      outDir: 'dist-frame',
      emptyOutDir: false,
      copyPublicDir: false,
      modulePreload: false,
      sourcemap: false,
      minify: true,
      target: 'es2022',
      rolldownOptions: {
        input: { frame: `${HERE}frame/main.ts` },
        output: { format: 'es', entryFileNames: '[name]-[hash].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  })
  const results = Array.isArray(output) ? output : [output]
  const files = new Map<string, string>()
  let entry: string | undefined
  for (const result of results) {
    if (!('output' in result)) throw new Error('secure-site: Vite answered a watcher, not a build')
    for (const item of result.output) {
      if (item.type !== 'chunk') continue
      files.set(item.fileName, item.code)
      if (item.isEntry) entry = item.fileName
    }
  }
  if (!entry) throw new Error('secure-site: the frame build has no entry chunk')
  return { entry, files }
}

/**
 * Starts the secure site on 127.0.0.1: the login frame page (`/frame`, its script built with Vite), its
 * same-origin API (`/api/*`, session-token protected), the mailbox (`/mailbox`, JSON with `?to=`), the
 * device-verification link (`/verify-device?token=`) and the social and Farcaster stand-in pages
 * (`/social/{provider}`, `/farcaster`). Embedded wallet keys are made per account and kept sealed in the
 * database; signing and sending happen here, against `rpcUrl`. With `solana`, each account's ed25519 key signs
 * for that Solana chain too (new accounts are airdropped SOL there; sends go to its RPC).
 *
 * @example
 * const site = await startSecureSite({ rpcUrl: chain.rpcUrl, chainId: 31337, originsUrl: listing.origin })
 * // kit: endpoints.frame = site.origin; iframe src = `${site.frameUrl}?projectId=p&chainId=31337&version=1`
 * const [mail] = await site.mailbox('visitor@example.com') // mail.code
 * await site.close()
 */
export async function startSecureSite(options: SecureSiteOptions): Promise<SecureSite> {
  const parsed = v.safeParse(OptionsSchema, options)
  if (!parsed.success) throw new Error(`startSecureSite: invalid options: ${v.summarize(parsed.issues)}`)
  checkContractBuild()
  const { rpcUrl, chainId, originsUrl } = parsed.output

  const ownDb = options.db === undefined
  // Both take seconds: the database (PGlite) and the frame bundle (Vite) are made side by side.
  const built = frameBundle()
  built.catch(() => undefined)
  const db = options.db ?? (await openDatabase({ migrations: SECURE_SITE_MIGRATIONS }))
  const stops: Array<() => Promise<void>> = []
  if (ownDb) stops.push(() => db.close())
  const closeAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error))
    stops.length = 0
  }

  try {
    if (!ownDb) await migrate(db.pg, SECURE_SITE_MIGRATIONS)
    const files = await built
    const { bundlerUrl } = parsed.output
    const wallet = new ChainWallet({
      rpcUrl,
      chainId,
      ...(options.faucet ? { faucet: options.faucet } : {}),
      ...(bundlerUrl === undefined ? {} : { bundlerUrl }),
    })
    const moreWallets = (options.moreChains ?? []).map(
      (more) =>
        new ChainWallet({
          rpcUrl: more.rpcUrl,
          chainId: more.chainId,
          ...(more.faucet ? { faucet: more.faucet } : {}),
        }),
    )
    const solanaWallet = options.solana
      ? new SolanaWallet({
          rpcUrl: options.solana.rpcUrl,
          chainId: options.solana.chainId ?? SANDBOX_SOLANA_CHAIN_ID,
          ...(options.solana.airdropLamports === undefined
            ? {}
            : { airdropLamports: options.solana.airdropLamports }),
        })
      : undefined
    const fundSolana = async (address: string | undefined) => {
      if (solanaWallet && address) await solanaWallet.fund(address)
    }
    let origin = ''
    const accounts = new AccountService({
      pg: db.pg,
      vault: new KeyVault(options.keySecret),
      get origin() {
        return origin
      },
      mailIntervalMs: parsed.output.mailIntervalMs ?? 10_000,
      verifyNewDevices: options.verifyNewDevices ?? true,
      onAccountCreated: async (account) => {
        await Promise.all([
          wallet.fund([account.eoa, account.smartAccount]),
          ...moreWallets.map((more) => more.fund([account.eoa])),
          fundSolana(account.solana),
        ])
      },
      onSolanaKeyAdded: fundSolana,
      isDeployed: (address) => wallet.isDeployed(address),
    })

    const allowedOrigins = async (projectId: string, sdkVersion: string): Promise<string[]> => {
      const url = new URL('/projects/v1/origins', originsUrl)
      url.search = new URLSearchParams({ projectId, st: SDK_TYPE, sv: sdkVersion || 'unknown' }).toString()
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(ORIGINS_TIMEOUT_MS) })
        if (!response.ok) return []
        const body = v.safeParse(v.object({ allowedOrigins: v.array(v.string()) }), await response.json())
        // SPEC §7: on failure, an empty list (so nothing is allowed).
        return body.success ? body.output.allowedOrigins : []
      } catch {
        return []
      }
    }

    const service = await startService({
      name: 'secure-site',
      port: parsed.output.port ?? 0,
      // One-time codes are in the mailbox: no other page may read it, whatever origins are allowed.
      privatePaths: ['/mailbox'],
      ...(options.origins ? { origins: options.origins } : {}),
      handler: createRouter([
        ...pageRoutes({ accounts, files, getOrigin: () => origin }),
        networksRoute(
          frameNetworks([
            {
              caipNetworkId: `eip155:${chainId}`,
              name: options.chainName ?? `Chain ${chainId}`,
              namespace: 'eip155',
            },
            ...(options.moreChains ?? []).map((more) => ({
              caipNetworkId: `eip155:${more.chainId}`,
              name: more.name ?? `Chain ${more.chainId}`,
              namespace: 'eip155' as const,
            })),
            ...(solanaWallet
              ? [
                  {
                    caipNetworkId: solanaWallet.chainId,
                    name: 'Solana Sandbox',
                    namespace: 'solana' as const,
                  },
                ]
              : []),
          ]),
        ),
        ...apiRoutes({
          accounts,
          wallet,
          moreWallets,
          solanaWallet,
          chainId,
          allowedOrigins,
          getOrigin: () => origin,
        }),
      ]),
      onClose: () => accounts.settle(),
    })
    origin = service.origin
    stops.push(() => service.close())

    let closing: Promise<void> | undefined
    return {
      origin,
      port: service.port,
      frameUrl: `${origin}/frame`,
      mailboxUrl: `${origin}/mailbox`,
      instance: service.instance,
      service,
      mailbox: (to) => accounts.mailbox(to),
      close() {
        closing ??= closeAll()
        return closing
      },
    }
  } catch (error) {
    await closeAll()
    throw error
  }
}

// --- pages -----------------------------------------------------------------------------------------------

function html(body: string, status = 200): SandboxResponse {
  return { status, headers: PAGE_HEADERS, body }
}

function errorPage(error: unknown): SandboxResponse {
  if (error instanceof ApiError) return html(messagePage('Sign-in', error.message, 'error'), error.status)
  throw error
}

const ProviderParam = v.picklist(['google', 'github', 'apple', 'facebook', 'x', 'discord'])
/** The app's theme the social page opens in (the frame adds it); dark when absent or unknown. */
const themeParam = (value: string | null | undefined) => (value === 'light' ? 'light' : 'dark')
const MailboxTo = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.minLength(1), v.maxLength(254))

/**
 * `GET /networks`: the frame's network list (SPEC §1's 23 EVM and 3 Solana networks, then the site's own), each
 * marked `reachable` or not: the public ones cannot be reached from the sandbox, and switching to one is refused.
 */
function networksRoute(networks: FrameNetwork[]): Route {
  return {
    method: 'GET',
    pattern: /^\/networks$/,
    sdkParams: false,
    handle: () => ({ headers: { 'Cache-Control': 'no-store' }, json: { networks } }),
  }
}

function pageRoutes(deps: {
  accounts: AccountService
  files: FrameBundle
  getOrigin: () => string
}): Route[] {
  const { accounts, files } = deps
  const form = (req: SandboxRequest) => new URLSearchParams(req.body)
  return [
    { method: 'GET', pattern: /^\/$/, sdkParams: false, handle: () => html(indexPage(deps.getOrigin())) },
    {
      method: 'GET',
      pattern: /^\/frame\/?$/,
      sdkParams: false,
      handle: () => ({ headers: FRAME_HEADERS, body: framePage(`/assets/${files.entry}`) }),
    },
    {
      method: 'GET',
      pattern: /^\/assets\/([\w.-]+)$/,
      sdkParams: false,
      handle: ({ params: [name = ''] }) => {
        const code = files.files.get(name)
        if (code === undefined) return errorJson(404, `No such asset: ${name}`)
        return {
          headers: {
            'Content-Type': 'text/javascript; charset=utf-8',
            'Cache-Control': 'public, max-age=31536000, immutable',
            'X-Content-Type-Options': 'nosniff',
          },
          body: code,
        }
      },
    },
    {
      method: 'GET',
      pattern: /^\/mailbox\/?$/,
      sdkParams: false,
      handle: async ({ req }) => {
        const to = req.url.searchParams.get('to')
        if (to === null) return html(mailboxPage(await accounts.allMail()))
        const address = v.safeParse(MailboxTo, to)
        if (!address.success)
          return errorJson(400, 'Invalid query parameter to: an e-mail address is expected')
        return { headers: { 'Cache-Control': 'no-store' }, json: await accounts.mailbox(address.output) }
      },
    },
    {
      method: 'GET',
      pattern: /^\/verify-device$/,
      sdkParams: false,
      handle: async ({ req }) => {
        const linkToken = v.safeParse(TokenSchema, req.url.searchParams.get('token') ?? '')
        if (!linkToken.success)
          return html(messagePage('Approve device', 'This link is malformed.', 'error'), 400)
        try {
          const { email } = await accounts.verifyDevice(linkToken.output)
          return html(
            messagePage(
              'Device approved',
              `The new device is approved. We sent a sign-in code to ${email}: go back to the app and enter it.`,
            ),
          )
        } catch (error) {
          return errorPage(error)
        }
      },
    },
    {
      method: 'GET',
      pattern: /^\/social\/([\w-]+)$/,
      sdkParams: false,
      handle: async ({ req, params: [name = ''] }) => {
        const provider = v.safeParse(ProviderParam, name)
        if (!provider.success) return html(messagePage('Sign-in', `Unknown provider ${name}`, 'error'), 404)
        const state = v.safeParse(TokenSchema, req.url.searchParams.get('state') ?? '')
        if (!state.success)
          return html(messagePage('Sign-in', 'This sign-in link is malformed.', 'error'), 400)
        try {
          const request = await accounts.identityRequestOpen(state.output, 'social')
          if (request.provider !== provider.output) {
            return html(
              messagePage('Sign-in', `This request is for ${providerName(request.provider)}`, 'error'),
              400,
            )
          }
          if (request.done)
            return html(messagePage('Sign-in', 'This sign-in was already completed.', 'error'), 409)
          const theme = themeParam(req.url.searchParams.get('theme'))
          return html(socialPage(provider.output, state.output, undefined, '', theme))
        } catch (error) {
          return errorPage(error)
        }
      },
    },
    {
      method: 'POST',
      pattern: /^\/social\/([\w-]+)$/,
      sdkParams: false,
      handle: async ({ req, params: [name = ''] }) => {
        const provider = v.safeParse(ProviderParam, name)
        if (!provider.success) return html(messagePage('Sign-in', `Unknown provider ${name}`, 'error'), 404)
        const fields = form(req)
        const state = v.safeParse(TokenSchema, fields.get('state') ?? '')
        if (!state.success)
          return html(messagePage('Sign-in', 'This sign-in form is malformed.', 'error'), 400)
        const rawEmail = fields.get('email') ?? ''
        const email = v.safeParse(EmailSchema, rawEmail)
        if (!email.success)
          return html(
            socialPage(
              provider.output,
              state.output,
              'Enter a valid e-mail',
              rawEmail,
              themeParam(fields.get('theme')),
            ),
            400,
          )
        try {
          const back = await accounts.completeSocial(state.output, provider.output, email.output)
          return { status: 303, headers: { Location: back, 'Cache-Control': 'no-store' } }
        } catch (error) {
          return errorPage(error)
        }
      },
    },
    {
      method: 'GET',
      pattern: /^\/farcaster\/?$/,
      sdkParams: false,
      handle: async ({ req }) => {
        const channel = v.safeParse(TokenSchema, req.url.searchParams.get('channel') ?? '')
        if (!channel.success)
          return html(messagePage('Farcaster', 'This sign-in link is malformed.', 'error'), 400)
        try {
          const request = await accounts.identityRequestOpen(channel.output, 'farcaster')
          if (request.done)
            return html(messagePage('Farcaster', 'This sign-in was already completed.', 'error'), 409)
          return html(farcasterPage(channel.output))
        } catch (error) {
          return errorPage(error)
        }
      },
    },
    {
      method: 'POST',
      pattern: /^\/farcaster\/?$/,
      sdkParams: false,
      handle: async ({ req }) => {
        const fields = form(req)
        const channel = v.safeParse(TokenSchema, fields.get('channel') ?? '')
        if (!channel.success)
          return html(messagePage('Farcaster', 'This sign-in form is malformed.', 'error'), 400)
        const raw = fields.get('username') ?? ''
        const userName = v.safeParse(FarcasterNameSchema, raw)
        if (!userName.success) {
          return html(farcasterPage(channel.output, 'Username: 1-16 letters, digits or hyphens', raw), 400)
        }
        try {
          await accounts.completeFarcaster(channel.output, userName.output)
          return html(
            messagePage('Signed in', `Signed in as @${userName.output}. You can go back to the app now.`),
          )
        } catch (error) {
          return errorPage(error)
        }
      },
    },
  ]
}

// --- API -------------------------------------------------------------------------------------------------

type ApiHandler<P extends ApiPath> = (
  body: v.InferOutput<(typeof ApiBodies)[P]>,
  ctx: { token: string | undefined },
) => Promise<ApiAnswer<P>>

function failure(error: unknown): SandboxResponse {
  if (error instanceof ApiError) {
    return {
      ...errorJson(error.status, error.message, error.code === undefined ? {} : { code: error.code }),
      headers: error.headers,
    }
  }
  if (error instanceof RpcFailure) return errorJson(error.status, error.message, { code: error.code })
  throw error
}

function apiRoutes(deps: {
  accounts: AccountService
  wallet: ChainWallet
  /** The further EVM chains' wallets (EOA only). */
  moreWallets: ChainWallet[]
  solanaWallet: SolanaWallet | undefined
  chainId: number
  allowedOrigins: (projectId: string, sdkVersion: string) => Promise<string[]>
  getOrigin: () => string
}): Route[] {
  const { accounts, solanaWallet, chainId } = deps
  const routes: Route[] = []
  const route = <P extends ApiPath>(path: P, handle: ApiHandler<P>): void => {
    routes.push({
      method: 'POST',
      pattern: new RegExp(`^${path.replace(/\//g, '\\/')}$`),
      sdkParams: false,
      handle: async ({ req }) => {
        // Same-origin only: the frame page calls its own server; no other page may drive it (CSRF).
        const origin = req.headers.origin
        if (typeof origin === 'string' && origin !== deps.getOrigin()) {
          return errorJson(403, 'The secure-site API answers only its own pages')
        }
        const body = parseBody(req.body === '' ? '{}' : req.body, ApiBodies[path], path)
        if ('error' in body) return body.error
        const auth = req.headers.authorization
        const token = typeof auth === 'string' ? BEARER.exec(auth)?.[1] : undefined
        try {
          return { headers: { 'Cache-Control': 'no-store' }, json: await handle(body.value, { token }) }
        } catch (error) {
          return failure(error)
        }
      },
    })
  }
  /** The wallet of the EVM chain asked for; 'Chain is not supported' for one the site does not serve. */
  const sameChain = (requested: number): ChainWallet => {
    if (requested === chainId) return deps.wallet
    const more = deps.moreWallets.find((candidate) => candidate.chain.id === requested)
    if (more === undefined) throw new RpcFailure('Chain is not supported', 4902)
    return more
  }

  route('/api/origin-check', async ({ projectId, sdkVersion, origin, ancestors = [] }) => {
    const allowedOrigins = await deps.allowedOrigins(projectId, sdkVersion)
    // The parent, then every page around it: one page that is not allowed refuses the frame.
    const refused = [origin, ...ancestors].find((page) => !originAllowed(allowedOrigins, page))
    return {
      allowed: refused === undefined,
      ...(refused === undefined ? {} : { refused }),
      chainId,
      ...(solanaWallet ? { solanaChainId: solanaWallet.chainId } : {}),
      ...(deps.moreWallets.length > 0 ? { moreChainIds: deps.moreWallets.map((more) => more.chain.id) } : {}),
    }
  })

  route('/api/login/email', ({ email, deviceId }) => accounts.startEmailLogin(email, deviceId))
  route('/api/login/device', ({ loginId }) => accounts.deviceStatus(loginId))
  route('/api/login/otp', async ({ loginId, otp }) => {
    const session = await accounts.finishEmailLogin(loginId, otp)
    return { token: session.token, account: await accounts.view(session.account) }
  })

  route('/api/social/start', async ({ provider, deviceId, projectId, sdkVersion, returnTo }) => {
    const back = new URL(returnTo)
    // Only back to an app the project allows: the one-time token must not travel to a stranger's page.
    if (!originAllowed(await deps.allowedOrigins(projectId, sdkVersion), back.origin)) {
      throw new ApiError(403, `${back.origin} is not on this project's allowed origins`)
    }
    const state = await accounts.startIdentityRequest('social', provider, deviceId, back.toString())
    return { uri: `${deps.getOrigin()}/social/${provider}?state=${state}` }
  })
  route('/api/social/finish', async ({ uri, deviceId }) => {
    const session = await accounts.finishSocial(uri, deviceId)
    return { token: session.token, account: await accounts.view(session.account) }
  })

  route('/api/farcaster/start', async ({ deviceId }) => {
    const channel = await accounts.startIdentityRequest('farcaster', 'farcaster', deviceId)
    return { url: `${deps.getOrigin()}/farcaster?channel=${channel}`, channel }
  })
  route('/api/farcaster/poll', async ({ channel, deviceId }) => {
    const answer = await accounts.pollFarcaster(channel, deviceId)
    if (!answer.done) return { done: false }
    return { done: true, token: answer.token, account: await accounts.view(answer.account) }
  })

  route('/api/session', async (_body, { token }) => ({
    account: await accounts.view(await accounts.authenticate(token)),
  }))
  route('/api/signout', async (_body, { token }) => {
    if (token) await accounts.signOut(token)
    return {}
  })
  route('/api/preferred-account', async ({ type }, { token }) => {
    const account = await accounts.setPreferredAccount(await accounts.authenticate(token), type)
    return { account: await accounts.view(account) }
  })

  route('/api/email/update', async ({ email }, { token }) =>
    accounts.startEmailUpdate(await accounts.authenticate(token), email),
  )
  route('/api/email/primary', async ({ otp }, { token }) =>
    accounts.confirmEmailUpdatePrimary(await accounts.authenticate(token), otp),
  )
  route('/api/email/secondary', async ({ otp }, { token }) => {
    const answer = await accounts.confirmEmailUpdateSecondary(await accounts.authenticate(token), otp)
    return { newEmail: answer.newEmail, account: await accounts.view(answer.account) }
  })

  route('/api/rpc', async ({ method, params, chainId: requested }, { token }) => {
    const account = await accounts.authenticate(token)
    const wallet = sameChain(requested)
    // The server enforces the protocol's list itself: it never trusts the page to have checked.
    if (!READ_METHODS.includes(method)) {
      throw new RpcFailure('Requested RPC call is not allowed', 4200)
    }
    if (method === 'eth_chainId') return { result: toHex(wallet.chain.id) }
    if (method === 'wallet_getCallsStatus') return { result: await wallet.callsStatus(params, account) }
    if (method === 'wallet_getCapabilities') return { result: wallet.capabilities(params, account) }
    if (method === 'eth_accounts') {
      // Where there is no smart account, the EOA is the only account.
      if (wallet !== deps.wallet) return { result: [account.eoa] }
      const preferred = account.preferredAccountType === 'eoa' ? account.eoa : account.smartAccount
      const other = preferred === account.eoa ? account.smartAccount : account.eoa
      return { result: [preferred, other] }
    }
    return { result: await wallet.forward(method, params) }
  })
  /** The EVM chain's wallet asked for (unset for a Solana method). */
  const evmWalletFor = (method: string, requested: number | string): ChainWallet => {
    if ((SOLANA_SIGNING_METHODS as readonly string[]).includes(method) || typeof requested !== 'number')
      throw new RpcFailure('Chain is not supported', 4902)
    return sameChain(requested)
  }
  /** The Solana wallet, when `method` is a Solana one and `requested` is its chain; `undefined` for eip155. */
  const solanaFor = (method: string, requested: number | string): SolanaWallet | undefined => {
    const solana = (SOLANA_SIGNING_METHODS as readonly string[]).includes(method)
    if (!solana) {
      if (typeof requested !== 'number') throw new RpcFailure('Chain is not supported', 4902)
      sameChain(requested)
      return undefined
    }
    if (!solanaWallet || requested !== solanaWallet.chainId) {
      throw new RpcFailure('Chain is not supported', 4902)
    }
    return solanaWallet
  }
  /** On a further chain only the EOA signs: a request from the smart account is refused before it is shown. */
  const noSmartAccountHere = (wallet: ChainWallet, prepared: PreparedSigning): PreparedSigning => {
    if (wallet !== deps.wallet && prepared.summary.accountType === 'smartAccount') {
      throw new RpcFailure('This application might not support Smart Accounts', 4200)
    }
    return prepared
  }
  route('/api/sign/prepare', async ({ method, params, chainId: requested }, { token }) => {
    const account = await accounts.authenticate(token)
    const solana = solanaFor(method, requested)
    if (solana) {
      const address = await accounts.solanaAddress(account)
      return { summary: solana.prepare(method as SolanaSigningMethod, params, address).summary }
    }
    const wallet = evmWalletFor(method, requested)
    return {
      summary: noSmartAccountHere(wallet, wallet.prepare(method as SigningMethod, params, account)).summary,
    }
  })
  route('/api/sign', async ({ method, params, chainId: requested }, { token }) => {
    const account = await accounts.authenticate(token)
    const solana = solanaFor(method, requested)
    if (solana) {
      const prepared = solana.prepare(
        method as SolanaSigningMethod,
        params,
        await accounts.solanaAddress(account),
      )
      await accounts.funded(account.id)
      return { result: await solana.execute(prepared, await accounts.solanaSeed(account.id)) }
    }
    const wallet = evmWalletFor(method, requested)
    const prepared = noSmartAccountHere(wallet, wallet.prepare(method as SigningMethod, params, account))
    await accounts.funded(account.id)
    const key: Hex = await accounts.privateKey(account.id)
    if (prepared.method === 'wallet_sendCalls')
      return { result: await wallet.sendCalls(prepared, key, account) }
    if (prepared.method === 'wallet_grantPermissions')
      return { result: await wallet.grantPermissions(prepared, key, account) }
    if (prepared.method === 'wallet_revokePermissions')
      return { result: await wallet.revokePermissions(prepared, key, account) }
    return { result: await wallet.execute(prepared, key, account) }
  })
  return routes
}
