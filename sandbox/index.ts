import type { KitEndpoints } from '../src/config.ts'
import { DEV_WALLET_IDS } from './api/catalogue.ts'
import { solanaMakerKeypair } from './api/convertSolana.ts'
import { type DataApi, startDataApi } from './api/data.ts'
import { openDatabase, type SandboxDb } from './api/db.ts'
import { type ListingApi, startListingApi } from './api/listing.ts'
import { SANDBOX_SOLANA_CHAIN_ID } from './api/solana.ts'
import { type OnDemandBundler, onDemandBundler, startBundler } from './chain/bundler.ts'
import {
  type Chain,
  SANDBOX_CHAIN_2_ID,
  SANDBOX_CHAIN_2_NAME,
  SANDBOX_CHAIN_ID,
  SANDBOX_CHAIN_NAME,
  startChain,
} from './chain/chain.ts'
import { bundlerEndpoint, rpcEndpoint, startRpcService } from './chain/rpc.ts'
import { type DemoServer, startDemoServer } from './demo-server.ts'
import { type InspectorServer, startInspectorServer } from './inspector/server.ts'
import { type OnrampPartner, partnerSolanaKeypair, startOnrampPartner } from './onramp/partner.ts'
import { ONRAMP_PROVIDER_IDS } from './onramp/pricing.ts'
import { type Relay, startRelay } from './relay/relay.ts'
import { type SecureSite, startSecureSite } from './secure-site/server.ts'
import type { SandboxService } from './shared/http.ts'
import { AllowedOrigins, originsFromEnv } from './shared/origins.ts'
import { type Solana, startSolana } from './solana/solana.ts'
import { startWallets, type Wallets } from './wallets/server.ts'
import { SOLANA_DEV_WALLET_ADDRESS } from './wallets/solana-account.ts'

/**
 * The whole sandbox: every provider-hosted service the kit talks to, on 127.0.0.1, plus the demo host app.
 * `npm start` runs it; tests start their own on free ports.
 */
export type ServiceName =
  | 'chain'
  | 'chain2'
  | 'bundler'
  | 'solana'
  | 'rpc'
  | 'relay'
  | 'api'
  | 'walletsApi'
  | 'wallets'
  | 'secureSite'
  | 'onrampPartner'
  | 'inspector'
  | 'demo'

/** The environment variable that sets each service's port (unset: a free port). */
export const PORT_ENV: Record<ServiceName, string> = {
  chain: 'WALLETSTATE_CHAIN_PORT',
  chain2: 'WALLETSTATE_CHAIN2_PORT',
  bundler: 'WALLETSTATE_BUNDLER_PORT',
  solana: 'WALLETSTATE_SOLANA_PORT',
  rpc: 'WALLETSTATE_RPC_PORT',
  relay: 'WALLETSTATE_RELAY_PORT',
  api: 'WALLETSTATE_API_PORT',
  walletsApi: 'WALLETSTATE_WALLETS_API_PORT',
  wallets: 'WALLETSTATE_WALLETS_PORT',
  secureSite: 'WALLETSTATE_SECURE_SITE_PORT',
  onrampPartner: 'WALLETSTATE_ONRAMP_PARTNER_PORT',
  inspector: 'WALLETSTATE_INSPECTOR_PORT',
  demo: 'WALLETSTATE_DEMO_PORT',
}

export interface SandboxOptions {
  ports?: Partial<Record<ServiceName, number>>
  projectId?: string
  /** Serve the demo host app too (default true). */
  demo?: boolean
  /**
   * Page origins allowed besides the sandbox's own pages (the demo, the wallet pages), which are added as
   * they start: CORS is answered and WebSockets are opened for these only. Default: the comma-separated
   * `WALLETSTATE_ALLOWED_ORIGINS`, else none.
   */
  allowedOrigins?: readonly string[]
  /** How long the Solana swap maker fills a quote, ms (default 30 s; tests of a stale quote make it short). */
  solanaQuoteWindowMs?: number
}

export interface Sandbox {
  projectId: string
  chain: Chain
  /**
   * The second EVM chain (its own anvil, chain id 31338, "Second Sandbox"): the same dev accounts and tokens
   * (at its own addresses), no ERC-4337 stack. The RPC host, the Data API's balances, the wallets and the login
   * frame serve it beside `chain`.
   */
  chain2: Chain
  /**
   * The ERC-4337 bundler (Pimlico's alto) for the chain's EntryPoint v0.7, on its own port (no project check);
   * the kit and the secure site reach it through the RPC host, `endpoints.bundler` (SPEC §7). alto starts with
   * the first bundler call the RPC host fronts, or `bundler.start()`: most pages never send a user operation,
   * and alto is a Node process of its own (a second or two of CPU at every sandbox's start).
   */
  bundler: OnDemandBundler
  /** The Solana chain (litesvm): JSON-RPC on `rpcUrl`, subscriptions on `wsUrl` (the next port). */
  solana: Solana
  rpc: SandboxService
  relay: Relay
  api: DataApi
  walletsApi: ListingApi
  /** The injected dev wallet (loaded by the demo) and the WalletConnect wallet page. */
  wallets: Wallets
  /** The login frame's secure site: e-mail codes in its mailbox, social stand-ins, embedded wallets. */
  secureSite: SecureSite
  /**
   * The onramp's partner page (issue 19), on its own origin: where the Data API's URL generator sends buyers;
   * it delivers purchases from its own funded account (`onrampPartner.address`).
   */
  onrampPartner: OnrampPartner
  inspector: InspectorServer
  /** The kit's `endpoints` for this sandbox: every hosted service the kit calls, at its stand-in here. */
  endpoints: KitEndpoints
  demo: DemoServer | undefined
  /** The page origins the services answer (configured ones, then the demo's and the wallets' own). */
  origins: AllowedOrigins
  /** One URL per service, in start order, for printing. */
  urls: Array<[label: string, url: string]>
  close(): Promise<void>
}

/** Reads `WALLETSTATE_*_PORT` variables; a malformed value is an error, not a silent default. */
export function portsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<Record<ServiceName, number>> {
  const ports: Partial<Record<ServiceName, number>> = {}
  for (const [name, variable] of Object.entries(PORT_ENV) as Array<[ServiceName, string]>) {
    const raw = env[variable]
    if (raw === undefined || raw === '') continue
    const port = Number(raw)
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new Error(`${variable} must be a port number (0-65535), got "${raw}"`)
    }
    ports[name] = port
  }
  return ports
}

/**
 * Starts every service; on any failure, stops what already started and rethrows.
 *
 * @example
 * const sandbox = await startSandbox()
 * console.log(sandbox.demo?.url)
 * await sandbox.close()
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ports = options.ports ?? {}
  const projectId = options.projectId ?? 'walletstate-demo'
  // One list for every service this file can configure; the pages' own origins join it as they start.
  const origins = new AllowedOrigins(options.allowedOrigins ?? originsFromEnv())
  const stops: Array<() => Promise<void>> = []
  const track = <T extends { close(): Promise<void> }>(service: T): T => {
    stops.push(() => service.close())
    return service
  }
  let closed = false
  const close = async () => {
    closed = true
    for (const stop of stops.reverse()) {
      try {
        await stop()
      } catch (error) {
        console.error('sandbox: a service failed to stop:', error)
      }
    }
    stops.length = 0
  }

  try {
    // Each service starts as soon as what it needs is up; every one is tracked the moment it is, so a
    // failure anywhere still stops all that started.
    const chainP = startChain({ port: ports.chain ?? 0 }).then(track)
    // The second chain starts beside the first (its own anvil) and copies its setup; no smart-account stack.
    const chain2P = startChain({
      port: ports.chain2 ?? 0,
      chainId: SANDBOX_CHAIN_2_ID,
      name: SANDBOX_CHAIN_2_NAME,
      accountAbstraction: false,
      // Its anvil starts now; the first chain's setup is loaded into it, not deployed a second time.
      copyOf: chainP,
    }).then(track)
    // alto starts on the first bundler call (the RPC host asks for its URL then), or a port fixed for it.
    const bundler = onDemandBundler(
      () => chainP.then((chain) => startBundler({ chainRpcUrl: chain.rpcUrl, port: ports.bundler ?? 0 })),
      (stop) => stops.push(stop),
      () => closed,
    )
    if (ports.bundler !== undefined) bundler.start().catch(() => undefined)
    // The sandbox Solana wallet's key and the swap maker's are funded as the dev keys are.
    const solanaMaker = solanaMakerKeypair()
    const solanaSwapOptions =
      options.solanaQuoteWindowMs === undefined ? {} : { quoteWindowMs: options.solanaQuoteWindowMs }
    const solanaP = startSolana({
      port: ports.solana ?? 0,
      origins,
      fund: [
        SOLANA_DEV_WALLET_ADDRESS,
        solanaMaker.publicKey.toBase58(),
        partnerSolanaKeypair().publicKey.toBase58(),
      ],
    }).then(track)
    const relayP = startRelay({ port: ports.relay ?? 0, origins }).then(track)
    const inspectorP = startInspectorServer({ port: ports.inspector ?? 0, origins }).then(track)
    const dbP = openDatabase().then(track<SandboxDb>)
    const rpcP = Promise.all([chainP, chain2P]).then(([chain, chain2]) =>
      startRpcService({
        chain,
        moreChains: [chain2],
        port: ports.rpc ?? 0,
        origins,
        bundlerUrl: () => bundler.start().then((started) => started.url),
      }).then(track),
    )
    // The partner page tops its account up on the chain (USDC minted by the first dev account) before it serves.
    // It delivers Solana purchases from its Solana key, funded by the Solana chain's start.
    const onrampPartnerP = Promise.all([chainP, dbP, solanaP]).then(([chain, db, solana]) =>
      startOnrampPartner({
        chain,
        db,
        port: ports.onrampPartner ?? 0,
        origins,
        solana: { rpcUrl: solana.rpcUrl, usdcMint: solana.mints.usdc },
      }).then(track),
    )
    const apiP = Promise.all([chainP, chain2P, dbP, solanaP, onrampPartnerP]).then(
      ([chain, chain2, db, solana, onrampPartner]) =>
        startDataApi({
          port: ports.api ?? 0,
          rpcUrl: chain.rpcUrl,
          chainId: chain.chainId,
          tokens: chain.tokens,
          // The second chain's balances and prices, read from its own anvil.
          moreChains: [{ chainId: chain2.chainId, rpcUrl: chain2.rpcUrl, tokens: chain2.tokens }],
          // Balances for `SANDBOX_SOLANA_CHAIN_ID` are read from the Solana chain.
          solana: { rpcUrl: solana.rpcUrl, mints: solana.mints, maker: solanaMaker, ...solanaSwapOptions },
          db,
          swapRouter: chain.contracts.router,
          // The URL generator's orders open on the partner page, which delivers them from its account.
          onrampPartner: {
            origin: onrampPartner.origin,
            address: onrampPartner.address,
            solanaAddress: onrampPartner.solanaAddress,
          },
        }).then(track),
    )
    const walletsP = Promise.all([chainP, chain2P, rpcP, relayP, solanaP]).then(
      ([chain, chain2, rpc, relay, solana]) =>
        startWallets({
          rpcUrl: rpcEndpoint(rpc.origin, projectId),
          chainId: chain.chainId,
          moreChains: [
            {
              id: chain2.chainId,
              name: SANDBOX_CHAIN_2_NAME,
              rpcUrl: rpcEndpoint(rpc.origin, projectId, `eip155:${chain2.chainId}`),
            },
          ],
          accounts: chain.accounts,
          relayUrl: relay.url,
          projectId,
          port: ports.wallets ?? 0,
          origins,
          solanaRpcUrl: solana.rpcUrl,
        })
          .then(track)
          .then((wallets) => {
            // The WalletConnect wallet page reads the chain and opens the relay socket from here.
            origins.add(wallets.origin)
            return wallets
          }),
    )
    const walletsApiP = walletsP.then((wallets) =>
      startListingApi({
        port: ports.walletsApi ?? 0,
        devWallets: [
          {
            id: DEV_WALLET_IDS.walletConnect,
            name: 'Walletstate WC Wallet',
            webapp_link: wallets.wcWalletUrl,
            // Its universal link: on a phone the kit opens `${wcWalletUrl}wc?uri=…`, the same page (issue 18).
            mobile_link: wallets.wcWalletUrl,
            // Both of its namespaces (the sandbox chains and Solana's): a multichain wallet, one entry in Connect.
            chains: [
              'eip155:31337',
              `eip155:${SANDBOX_CHAIN_2_ID}`,
              'eip155:1',
              SANDBOX_SOLANA_CHAIN_ID,
              // Bitcoin regtest: the page's bip122 account (signing only; no Bitcoin node in the sandbox).
              'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
            ],
          },
        ],
      }).then(track),
    )
    const secureSiteP = Promise.all([chainP, chain2P, rpcP, walletsApiP, dbP, solanaP]).then(
      ([chain, chain2, rpc, walletsApi, db, solana]) =>
        startSecureSite({
          // The second chain: the EOA signs there (no smart-account stack), paid by the same dev account.
          chainName: SANDBOX_CHAIN_NAME,
          moreChains: [
            {
              chainId: chain2.chainId,
              name: SANDBOX_CHAIN_2_NAME,
              rpcUrl: rpcEndpoint(rpc.origin, projectId, `eip155:${chain2.chainId}`),
              faucet: {
                privateKey: chain2.accounts[chain2.accounts.length - 1]!.privateKey,
                tokens: chain2.tokens.map((t) => ({
                  address: t.address,
                  amount: 10n * 10n ** BigInt(t.decimals),
                })),
              },
            },
          ],
          rpcUrl: rpcEndpoint(rpc.origin, projectId),
          // Smart-account sends go as user operations through the RPC host's bundler endpoint.
          bundlerUrl: bundlerEndpoint(rpc.origin, projectId),
          chainId: chain.chainId,
          originsUrl: walletsApi.origin,
          db,
          // The embedded wallets sign for the Solana chain too; each new one is airdropped 10 SOL there.
          solana: { rpcUrl: solana.rpcUrl },
          port: ports.secureSite ?? 0,
          origins,
          // The last dev account funds new embedded wallets, so they can send from the start.
          faucet: {
            privateKey: chain.accounts[chain.accounts.length - 1]!.privateKey,
            // 10 of each token: the faucet holds 1,000 STK, so a long test run does not drain it.
            tokens: chain.tokens.map((t) => ({
              address: t.address,
              amount: 10n * 10n ** BigInt(t.decimals),
            })),
          },
        }).then(track),
    )
    const all = [
      chainP,
      chain2P,
      solanaP,
      relayP,
      inspectorP,
      dbP,
      rpcP,
      onrampPartnerP,
      apiP,
      walletsP,
      walletsApiP,
      secureSiteP,
    ]
    const settled = await Promise.allSettled(all)
    const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failure) throw failure.reason
    const [
      chain,
      chain2,
      solana,
      relay,
      inspector,
      rpc,
      onrampPartner,
      api,
      wallets,
      walletsApi,
      secureSite,
    ] = await Promise.all([
      chainP,
      chain2P,
      solanaP,
      relayP,
      inspectorP,
      rpcP,
      onrampPartnerP,
      apiP,
      walletsP,
      walletsApiP,
      secureSiteP,
    ])
    const rpcUrl = rpcEndpoint(rpc.origin, projectId)
    // Verify: a project's verified domains are its allowed origins on the listing API (one project here).
    relay.verify.setProjectDomains(() => walletsApi.config().allowedOrigins)
    const endpoints: KitEndpoints = {
      api: api.origin,
      walletsApi: walletsApi.origin,
      rpc: rpc.origin,
      relay: relay.url,
      telemetry: api.origin,
      frame: secureSite.origin,
      verify: relay.origin,
      // The RPC host fronts the bundler (`/v1/bundler`), as the provider's does.
      bundler: rpc.origin,
    }
    const demo =
      options.demo === false
        ? undefined
        : track(
            await startDemoServer({
              port: ports.demo ?? 0,
              // Both injected dev wallets, as a visitor with two extensions would have them.
              headScripts: [wallets.injectedScriptUrl, wallets.solanaScriptUrl],
              sandbox: {
                projectId,
                endpoints,
                chain: { id: SANDBOX_CHAIN_ID, name: SANDBOX_CHAIN_NAME, rpcUrl },
                moreChains: [
                  {
                    id: chain2.chainId,
                    name: SANDBOX_CHAIN_2_NAME,
                    rpcUrl: rpcEndpoint(rpc.origin, projectId, `eip155:${chain2.chainId}`),
                  },
                ],
                // The partner page stands in for every provider: the kit opens it only on this origin.
                onrampPartnerOrigins: Object.fromEntries(
                  ONRAMP_PROVIDER_IDS.map((id) => [id, [onrampPartner.origin]]),
                ),
                swapRouter: chain.contracts.router,
                solana: {
                  chainId: SANDBOX_SOLANA_CHAIN_ID as `solana:${string}`,
                  name: 'Solana Sandbox',
                  rpcUrl: solana.rpcUrl,
                },
              },
            }),
          )
    if (demo) origins.add(new URL(demo.url).origin)
    const urls: Array<[string, string]> = [
      ['Chain (anvil JSON-RPC)', chain.rpcUrl],
      [`Second chain, ${SANDBOX_CHAIN_2_NAME} (anvil JSON-RPC)`, chain2.rpcUrl],
      ['Solana (JSON-RPC; WebSocket on the next port)', solana.rpcUrl],
      ['RPC host', rpcUrl],
      ['RPC host, second chain', rpcEndpoint(rpc.origin, projectId, `eip155:${chain2.chainId}`)],
      ['Bundler (ERC-4337, EntryPoint v0.7)', bundlerEndpoint(rpc.origin, projectId)],
      ['Bundler, alto direct', 'starts with the first bundler call'],
      ['Relay (WalletConnect)', relay.url],
      ['Data API', api.origin],
      ['Wallet-listing API', walletsApi.origin],
      ['WalletConnect wallet page', wallets.wcWalletUrl],
      ['Secure site (login frame, mailbox)', secureSite.mailboxUrl],
      ['Onramp partner page', `${onrampPartner.origin}/`],
      ['Inspector (live machines)', `${inspector.origin}/`],
    ]
    if (demo) {
      urls.push(['Demo host app', demo.url])
      urls.push([
        'Demo, streaming to the inspector',
        `${demo.url}?inspect=${encodeURIComponent(inspector.url)}`,
      ])
    }
    return {
      projectId,
      chain,
      chain2,
      bundler,
      solana,
      rpc,
      relay,
      api,
      walletsApi,
      wallets,
      secureSite,
      onrampPartner,
      inspector,
      endpoints,
      demo,
      origins,
      urls,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
