import { pbkdf2Sync, randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import * as v from 'valibot'
import type { Address, Hex } from 'viem'
import { HDKey, hdKeyToAccount, privateKeyToAccount } from 'viem/accounts'
import { createServer, type Plugin } from 'vite'
import { SANDBOX_SOLANA_CHAIN_ID } from '../api/solana.ts'
import { DEV_MNEMONIC } from '../chain/chain.ts'
import { type AllowedOrigins, defaultAllowedOrigins } from '../shared/origins.ts'
import { listenOnFreePort } from '../shared/viteListen.ts'
import {
  CONFIG_MODULE_PREFIX,
  type DevAccount,
  INJECTED_CONFIG_MODULE,
  type InjectedWalletConfig,
  SOLANA_CONFIG_MODULE,
  type SolanaWalletConfig,
  WC_CONFIG_MODULE,
  type WcWalletConfig,
} from './config.ts'
import {
  SOLANA_DEV_WALLET_ADDRESS,
  SOLANA_DEV_WALLET_CHAINS,
  SOLANA_DEV_WALLET_SEED_HEX,
  WC_SOLANA_ADDRESS,
  WC_SOLANA_SEED_HEX,
} from './solana-account.ts'

/** Options of {@link startWallets}. */
export interface WalletsOptions {
  /** The RPC URL the wallets read from and submit raw transactions to (the sandbox RPC service or anvil). */
  rpcUrl: string
  chainId: number
  /** Shown in prompts; default "Walletstate Sandbox". */
  chainName?: string
  /** Further EVM chains both EVM wallets serve and switch to (the second sandbox chain), each at its RPC URL. */
  moreChains?: Array<{ id: number; name: string; rpcUrl: string }>
  /**
   * The anvil dev accounts; the injected wallet uses the first, the WalletConnect wallet the second. When given,
   * the fourth is the injected wallet's second account and the fifth the WalletConnect wallet's (dev accounts no
   * test sends to).
   */
  accounts: Array<{ address: string; privateKey: string }>
  /** `ws://127.0.0.1:PORT` of the sandbox relay. */
  relayUrl: string
  projectId: string
  /** 0 or unset: a free port. A given port must be free (no fallback to another). */
  port?: number
  /** Vite's log level; default 'warn'. */
  logLevel?: 'info' | 'warn' | 'error' | 'silent'
  /**
   * The sandbox Solana JSON-RPC URL the Solana dev wallet's signAndSendTransaction (and the WalletConnect
   * wallet's solana_signAndSendTransaction) submits to. Unset: the wallets still connect and sign, and a send
   * fails with "The sandbox Solana RPC is not configured".
   */
  solanaRpcUrl?: string
  /** Page origins that may load the injected script (a module script, so CORS). Default: loopback pages. */
  origins?: AllowedOrigins
}

/** The running wallets server. */
export interface Wallets {
  /** `http://127.0.0.1:PORT` */
  origin: string
  port: number
  /** Load with `<script type="module" src={injectedScriptUrl}>` from any origin. */
  injectedScriptUrl: string
  /** The Solana (Wallet Standard) dev wallet; load like the injected one. */
  solanaScriptUrl: string
  /** The WalletConnect wallet page; `?uri=wc:...` pairs on load. */
  wcWalletUrl: string
  /** The injected wallet's address (first dev account) and the WalletConnect wallet's (second). */
  injectedAddress: Address
  /** Every account the injected wallet shares, `injectedAddress` first. */
  injectedAddresses: Address[]
  wcAddress: Address
  /** Every eip155 account the WalletConnect wallet's sessions carry, `wcAddress` first. */
  wcAddresses: Address[]
  /** The Solana dev wallet's public key (base58); the sandbox Solana chain funds it. */
  solanaAddress: string
  /** The WalletConnect wallet's Solana public key (base58): the sandbox Solana chain's dev key 1. */
  wcSolanaAddress: string
  /** The random id `GET {origin}/__health` answers. */
  instance: string
  /** Stops the Vite server. Safe to call twice. */
  close(): Promise<void>
}

const HERE = fileURLToPath(new URL('.', import.meta.url))
const REPO = fileURLToPath(new URL('../..', import.meta.url))
/** Dev accounts checked against Foundry's mnemonic: far more than anvil's default 10 would ever be passed. */
const DEV_INDEX_LIMIT = 50
/** The dev account each wallet shares as its second (indices into `accounts`; no test sends to them). */
const INJECTED_SECOND_INDEX = 3
const WC_SECOND_INDEX = 4
/** The first start bundles the pages' dependencies (viem, sign-client) before answering; later starts reuse it. */
const READY_TIMEOUT_MS = 90_000

const OptionsSchema = v.object({
  rpcUrl: v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'rpcUrl must be http(s)')),
  chainId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  chainName: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(60))),
  moreChains: v.optional(
    v.array(
      v.object({
        id: v.pipe(v.number(), v.integer(), v.minValue(1)),
        name: v.pipe(v.string(), v.minLength(1), v.maxLength(60)),
        rpcUrl: v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'rpcUrl must be http(s)')),
      }),
    ),
  ),
  accounts: v.pipe(
    v.array(
      v.object({
        address: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, 'address must be 20 bytes hex')),
        privateKey: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/, 'privateKey must be 32 bytes hex')),
      }),
    ),
    v.minLength(2, 'two dev accounts are needed (injected wallet, WalletConnect wallet)'),
  ),
  relayUrl: v.pipe(v.string(), v.url(), v.regex(/^wss?:\/\//, 'relayUrl must be ws(s)')),
  projectId: v.pipe(v.string(), v.regex(/^[\w-]{1,100}$/, 'projectId must be 1-100 letters, digits, _ or -')),
  port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))),
  logLevel: v.optional(v.picklist(['info', 'warn', 'error', 'silent'])),
  solanaRpcUrl: v.optional(
    v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'solanaRpcUrl must be http(s)')),
  ),
})

let devAddresses: Set<string> | undefined

/** Addresses of the first accounts of Foundry's public test mnemonic (BIP-39 seed, m/44'/60'/0'/0/i). */
function publicDevAddresses(): Set<string> {
  if (!devAddresses) {
    const seed = pbkdf2Sync(DEV_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
    const root = HDKey.fromMasterSeed(seed)
    devAddresses = new Set()
    for (let index = 0; index < DEV_INDEX_LIMIT; index++) {
      devAddresses.add(hdKeyToAccount(root, { addressIndex: index }).address.toLowerCase())
    }
  }
  return devAddresses
}

/** Refuses any key that is not a public anvil dev key: the pages carry it in plain JavaScript. */
function devAccount(input: { address: string; privateKey: string }, which: string): DevAccount {
  const derived = privateKeyToAccount(input.privateKey as Hex).address
  if (derived.toLowerCase() !== input.address.toLowerCase()) {
    throw new Error(`startWallets: the ${which} account's private key does not belong to ${input.address}`)
  }
  if (!publicDevAddresses().has(derived.toLowerCase())) {
    throw new Error(
      `startWallets: ${derived} is not an anvil dev account (Foundry's test mnemonic); refusing to serve its key`,
    )
  }
  return { address: derived, privateKey: input.privateKey as Hex }
}

/**
 * Serves the dev wallets from one Vite dev server on 127.0.0.1: the injected EIP-6963 wallet and the injected
 * Solana (Wallet Standard) wallet as modules an allowed origin can load (CORS), and the WalletConnect wallet page. Resolves once the server answers as itself
 * and the pages' dependencies are bundled, so the first browser load is not a slow one.
 *
 * @example
 * const wallets = await startWallets({ rpcUrl, chainId: 31337, accounts: chain.accounts, relayUrl: relay.url,
 *   projectId: 'demo' })
 * // host page: <script type="module" src={wallets.injectedScriptUrl}></script>
 * // phone stand-in: open `${wallets.wcWalletUrl}?uri=${encodeURIComponent(uri)}`
 * await wallets.close()
 */
export async function startWallets(options: WalletsOptions): Promise<Wallets> {
  const parsed = v.safeParse(OptionsSchema, options)
  if (!parsed.success) throw new Error(`startWallets: invalid options: ${v.summarize(parsed.issues)}`)
  const opts = parsed.output
  const pageOrigins = options.origins ?? defaultAllowedOrigins()
  const [first, second] = opts.accounts
  if (!first || !second) throw new Error('startWallets: two dev accounts are needed')
  const chain = { id: opts.chainId, name: opts.chainName ?? 'Walletstate Sandbox', rpcUrl: opts.rpcUrl }
  const moreChains = opts.moreChains ?? []
  const injectedMore = opts.accounts[INJECTED_SECOND_INDEX]
  const wcMore = opts.accounts[WC_SECOND_INDEX]
  const injected: InjectedWalletConfig = {
    chain,
    moreChains,
    account: devAccount(first, 'first'),
    moreAccounts: injectedMore ? [devAccount(injectedMore, 'injected second')] : [],
  }
  const wc: WcWalletConfig = {
    chain,
    moreChains,
    account: devAccount(second, 'second'),
    moreAccounts: wcMore ? [devAccount(wcMore, 'WalletConnect second')] : [],
    relayUrl: opts.relayUrl,
    projectId: opts.projectId,
    solana: {
      chainId: SANDBOX_SOLANA_CHAIN_ID as `solana:${string}`,
      chainName: 'Solana Sandbox',
      rpcUrl: opts.solanaRpcUrl ?? null,
      account: { address: WC_SOLANA_ADDRESS, seedHex: WC_SOLANA_SEED_HEX },
    },
  }
  const solana: SolanaWalletConfig = {
    rpcUrl: opts.solanaRpcUrl ?? null,
    chains: [...SOLANA_DEV_WALLET_CHAINS],
    chainName: 'Solana Sandbox',
    account: { address: SOLANA_DEV_WALLET_ADDRESS, seedHex: SOLANA_DEV_WALLET_SEED_HEX },
  }
  const instance = randomUUID()

  const server = await createServer({
    configFile: false,
    envDir: false,
    root: HERE,
    appType: 'mpa',
    // Separate from the demo's cache: two dev servers optimising different dependency sets in one folder clash.
    cacheDir: `${REPO}node_modules/.vite/sandbox-wallets`,
    logLevel: opts.logLevel ?? 'warn',
    clearScreen: false,
    plugins: [
      healthPlugin(instance),
      universalLinkPlugin(),
      configPlugin({
        [INJECTED_CONFIG_MODULE]: injected,
        [WC_CONFIG_MODULE]: wc,
        [SOLANA_CONFIG_MODULE]: solana,
      }),
    ],
    server: {
      host: '127.0.0.1',
      port: opts.port ?? 0,
      strictPort: true,
      // The injected script is loaded as a module by the host app on another origin: only allowed ones.
      cors: {
        origin: (origin, callback) => {
          // The cors package takes a falsy error as none (Vite's type says Error only).
          const answer = callback as unknown as (error: null, allow: boolean) => void
          answer(null, pageOrigins.allows(origin))
        },
      },
      hmr: false,
      watch: null,
    },
    optimizeDeps: {
      entries: ['wc/index.html', 'injected/index.ts', 'solana/index.ts'],
      // The inspector is imported only with ?inspect=: bundled now, so that first load does not re-optimise.
      include: [
        'viem',
        'viem/accounts',
        'valibot',
        'xstate',
        '@walletconnect/sign-client',
        '@statelyai/inspect',
        '@solana/web3.js',
        '@wallet-standard/wallet',
        'tweetnacl',
        'bs58',
      ],
    },
  })

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= server.close()
    return closing
  }

  try {
    await listenOnFreePort(server, opts.port ?? 0)
    const address = server.httpServer?.address() as AddressInfo | null
    if (!address) throw new Error('startWallets: the Vite server has no address')
    const origin = `http://127.0.0.1:${address.port}`
    const wallets: Wallets = {
      origin,
      port: address.port,
      injectedScriptUrl: `${origin}/injected/index.ts`,
      solanaScriptUrl: `${origin}/solana/index.ts`,
      wcWalletUrl: `${origin}/wc/`,
      injectedAddress: injected.account.address,
      injectedAddresses: [injected.account, ...(injected.moreAccounts ?? [])].map((a) => a.address),
      wcAddress: wc.account.address,
      wcAddresses: [wc.account, ...(wc.moreAccounts ?? [])].map((a) => a.address),
      solanaAddress: solana.account.address,
      wcSolanaAddress: wc.solana.account.address,
      instance,
      close,
    }
    await waitUntilReady(wallets)
    return wallets
  } catch (error) {
    await close()
    throw error
  }
}

/** `GET /__health` answers `{service: 'wallets', instance}`, so a starter can tell its server from a stranger. */
function healthPlugin(instance: string): Plugin {
  return {
    name: 'walletstate-wallets-health',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url !== '/__health') return next()
        res.setHeader('Content-Type', 'application/json')
        res.setHeader('Access-Control-Allow-Origin', '*')
        res.end(JSON.stringify({ service: 'wallets', instance }))
      })
    },
  }
}

/**
 * The WalletConnect wallet page's universal link (issue 18 item 5): with `wcWalletUrl` as a wallet's mobile link,
 * a kit opens `${wcWalletUrl}wc?uri=<encoded URI>` (WalletConnect's format), as a phone would open the wallet app
 * by `https://wallet.example/wc?uri=…`. That path is the wallet page, its query kept, so the page pairs.
 */
function universalLinkPlugin(): Plugin {
  return {
    name: 'walletstate-wallets-universal-link',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? ''
        if (url === '/wc/wc' || url.startsWith('/wc/wc?')) req.url = `/wc/${url.slice('/wc/wc'.length)}`
        next()
      })
    },
  }
}

/**
 * Serves each page's config as `export default {...}` from a virtual module. Each page imports only its own,
 * so the host page never receives the WalletConnect wallet's key.
 */
function configPlugin(
  modules: Record<string, InjectedWalletConfig | WcWalletConfig | SolanaWalletConfig>,
): Plugin {
  return {
    name: 'walletstate-wallets-config',
    resolveId(id) {
      return id.startsWith(CONFIG_MODULE_PREFIX) && id in modules ? `\0${id}` : undefined
    },
    load(id) {
      if (!id.startsWith(`\0${CONFIG_MODULE_PREFIX}`)) return undefined
      const config = modules[id.slice(1)]
      return config === undefined ? undefined : `export default ${JSON.stringify(config)}\n`
    },
  }
}

/**
 * Checks that our server answers on the port, then loads both pages' module graphs over HTTP as a browser
 * would: that makes Vite bundle the dependencies now rather than during a test's first page load.
 */
async function waitUntilReady(wallets: Wallets): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  const get = async (url: string): Promise<string> => {
    const remaining = deadline - Date.now()
    if (remaining <= 0) throw new Error(`startWallets: ${url} did not answer in ${READY_TIMEOUT_MS} ms`)
    const response = await fetch(url, { signal: AbortSignal.timeout(remaining) })
    const text = await response.text()
    if (!response.ok)
      throw new Error(`startWallets: ${url} answered HTTP ${response.status}: ${text.slice(0, 300)}`)
    return text
  }

  const health = v.safeParse(
    v.object({ service: v.literal('wallets'), instance: v.string() }),
    JSON.parse(await get(`${wallets.origin}/__health`)),
  )
  if (!health.success || health.output.instance !== wallets.instance) {
    throw new Error(`startWallets: something else answers on ${wallets.origin}`)
  }

  const seen = new Set<string>()
  const visit = async (url: string): Promise<void> => {
    if (seen.has(url)) return
    seen.add(url)
    const text = await get(url)
    const isDependency = url.includes('/node_modules/')
    // Dependencies are fetched (that waits for the optimiser) but not walked: their chunks are already built.
    if (isDependency) return
    const imports = url.endsWith('/') || url.endsWith('.html') ? htmlScripts(text) : moduleImports(text)
    await Promise.all(
      imports.filter((spec) => spec.startsWith('/')).map((spec) => visit(new URL(spec, url).toString())),
    )
  }
  await visit(wallets.injectedScriptUrl)
  await visit(wallets.solanaScriptUrl)
  await visit(wallets.wcWalletUrl)
}

function htmlScripts(html: string): string[] {
  return [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1] ?? '').filter(Boolean)
}

function moduleImports(code: string): string[] {
  const found = [
    ...code.matchAll(/\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?["']([^"']+)["']/g),
    ...code.matchAll(/\bexport\s*[\w*{}\s,$]+\s*from\s*["']([^"']+)["']/g),
  ]
  return found.map((match) => match[1] ?? '').filter(Boolean)
}
