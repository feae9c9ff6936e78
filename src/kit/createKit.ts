import type { QueryClient } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { createMachine, fromCallback, fromPromise, type StateMachine } from 'xstate'
import { createEip155ConnectionActors } from '../actors/connection'
import { createPreloadImageActor } from '../actors/preloadImage'
import { createTelemetryActor } from '../actors/telemetry'
import { createKitQueryClient } from '../api/queryClient'
import { EMBEDDED_CONNECTOR_ID } from '../chains/eip155/embedded'
import { getEmbeddedBridge, getWagmiConfig } from '../chains/eip155/wagmi'
import { WALLETCONNECT_CONNECTOR_ID } from '../chains/eip155/walletConnect'
import { type KitConfig, networkRpcUrl, type ResolvedKitConfig, resolveConfig } from '../config'
import { SDK_VERSION } from '../constants'
import type { EmbeddedWallet } from '../embedded/load'
import type { Capability, CapabilityServices, RegisteredCapability } from '../machines/capability'
import { type ChainNamespace, defineConnectionMachine } from '../machines/connection'
import type { FrameActorRef, FrameEmitted } from '../machines/frame'
import {
  type ConnectionActorRef,
  defineKitMachine,
  initialKitContext,
  type KitEvent,
  type KitInput,
} from '../machines/kit'
import type { AccountRef, SessionClientRef } from '../machines/kit/types'
import { signInConfig, siwxOf } from '../siwx/adapter'
import { browserStorage, createKitStore } from '../storage'
import { reusesPairing, visitorTimeZone, withoutHover } from '../utils/environment'
import { browserMobileSignals, isMobileBrowser } from '../utils/mobile'
import { builtInCapabilities } from './capabilities'
import { bip122ConnectionCapability } from './capabilities/bip122Connection'
import { smartSessionsCapabilityFor } from './capabilities/smartSessionsCapability'
import { solanaConnectionCapability } from './capabilities/solanaConnection'
import { followConnectorsOf } from './followConnectors'
import { verifyDomainLogic } from './verifyDomain'

/**
 * The composition root: the one module that brings the machines, their actors, the APIs and the chains
 * together. It resolves the config, builds wagmi, the store, one QueryClient, telemetry and the loaders of
 * the capabilities loaded on demand, and returns the kit machine provided with all of them.
 */
export interface KitHandle {
  /**
   * The wagmi config the kit's connection and send actors use (KitRoot's WagmiProvider gets the same): the
   * host's own with the `wagmiConfig` option.
   */
  wagmi: ReturnType<typeof getWagmiConfig>
  /**
   * The one QueryClient of the kit: its own, which KitRoot provides, or the host's once KitRoot finds a
   * `QueryClientProvider` above it (`adoptQueryClient`).
   */
  queryClient: QueryClient
}

const handles = new WeakMap<object, KitHandle>()

/**
 * What `createKitMachine` built beside the machine (wagmi, the QueryClient), for `<KitRoot>`.
 * @internal
 */
export function kitHandleOf(machine: object): KitHandle | undefined {
  return handles.get(machine)
}

/**
 * Makes the host's QueryClient the kit's (KitRoot found a `QueryClientProvider` above it): the kit's views and
 * its actors then share one cache, the host's. KitRoot calls it before the kit starts, so no actor has used
 * the kit's own client yet.
 */
export function adoptQueryClient(machine: object, queryClient: QueryClient): void {
  const handle = handles.get(machine)
  if (handle) handle.queryClient = queryClient
}

/**
 * The kit's wagmi config and QueryClient for `<KitRoot>`: those `createKitMachine` built, or fresh ones from
 * the config for a kit machine provided by hand (tests).
 * @internal
 */
export function kitServicesFor(machine: object, config: ResolvedKitConfig): KitHandle {
  return handles.get(machine) ?? { wagmi: getWagmiConfig(config), queryClient: createKitQueryClient() }
}

/**
 * The kit's machine as `createKitMachine` returns it: the kit's chart with its context bound, so starting it
 * takes no input (`createActor(kit)`, `<KitRoot machine={kit}>`).
 */
export type BoundKitMachine =
  ReturnType<typeof defineKitMachine> extends StateMachine<
    infer Context,
    infer Event,
    infer Children,
    infer Actor,
    infer Action,
    infer Guard,
    infer Delay,
    infer Value,
    infer Tag,
    infer _Input,
    infer Output,
    infer Emitted,
    infer Meta,
    infer Schema
  >
    ? StateMachine<
        Context,
        Event,
        Children,
        Actor,
        Action,
        Guard,
        Delay,
        Value,
        Tag,
        KitInput | undefined,
        Output,
        Emitted,
        Meta,
        Schema
      >
    : never

/** What a host (or a test) adds to the kit beside its config. */
export interface KitOptions {
  /**
   * Capabilities of its own, beside the kit's (the capability contract, `Capability`): each loads when one of
   * its views shows, runs its statechart with its id as systemId, and takes the events its id prefixes. One with
   * the id of one of the kit's (`swap`, `onramp`, `names`) takes its place.
   */
  capabilities?: readonly Capability[]
}

/**
 * Builds the kit's root machine from the host's config. Call it once, at module level.
 *
 * @example
 * ```tsx
 * import { createRoot } from 'react-dom/client'
 * import { mainnet } from 'viem/chains'
 * import { createKitMachine } from 'walletstate'
 * import { ConnectButton, KitRoot } from 'walletstate/react'
 *
 * const kit = createKitMachine({ projectId: 'YOUR_PROJECT_ID', networks: [mainnet] })
 * createRoot(document.getElementById('root')!).render(
 *   <KitRoot machine={kit}>
 *     <ConnectButton />
 *   </KitRoot>,
 * )
 * ```
 */
export function createKitMachine(config: KitConfig, options: KitOptions = {}): BoundKitMachine {
  const resolved = resolveConfig(config)
  // With sign-in (the host's SIWX, or its SIWE config mapped: one adapter, src/siwx/adapter.ts), WalletConnect
  // pairs by one-click auth (issue 15): the sign-in code loads then, if not before.
  const wagmi: Config = getWagmiConfig(resolved, {
    host: config.wagmiConfig,
    ...(signInConfig(resolved)
      ? {
          authenticate: async (provider, chainIds) => {
            const [{ oneClickSignIn }, siwx] = await Promise.all([
              import('../actors/signIn'),
              siwxOf(resolved),
            ])
            await oneClickSignIn({ wagmi, siwx: siwx!, provider, chainIds })
          },
        }
      : {}),
  })
  const store = createKitStore(resolved.storage ?? browserStorage())
  const bridge = getEmbeddedBridge(resolved)
  // The kit's QueryClient, or the host's once KitRoot finds one above it (`adoptQueryClient`): read when used.
  const services: KitHandle = { wagmi, queryClient: createKitQueryClient() }
  let embedded: EmbeddedWallet | undefined
  /** What a capability's loader gets: the resolved config, wagmi, the kit's QueryClient (read when used). */
  const capabilityServices: CapabilityServices = {
    config: resolved,
    wagmi,
    queryClient: () => services.queryClient,
  }
  const lastUsed = store.read('lastUsedChain')
  const input: KitInput = {
    config: resolved,
    supportedChainIds: resolved.networks
      .filter((n) => n.chainNamespace === 'eip155')
      .map((n) => Number(n.id)),
    storedLogin: store.read('emailLoginFlag') === true,
    frameOnOpen: withoutHover(),
    reusePairing: reusesPairing(),
    // Read once, here at the edge: the machines are told, never look (issue 18 item 5).
    mobile: isMobileBrowser(browserMobileSignals()),
    timeZone: visitorTimeZone(),
    connectorIds: {
      walletConnect: WALLETCONNECT_CONNECTOR_ID,
      embedded: EMBEDDED_CONNECTOR_ID,
    },
    // The kit's own capabilities, then the host's (`capabilities`), their loaders bound to the kit's services.
    // One of the host's with a kit capability's id takes its place.
    capabilities: [
      ...[
        ...builtInCapabilities,
        smartSessionsCapabilityFor(store),
        solanaConnectionCapability(store, bridge),
        bip122ConnectionCapability(store),
      ].filter((own) => !options.capabilities?.some((c) => c.id === own.id)),
      ...(options.capabilities ?? []),
    ].map(
      (capability): RegisteredCapability => ({
        ...capability,
        load: () => capability.load(capabilityServices),
      }),
    ),
    sdkVersion: SDK_VERSION,
    // The namespace used last, if configured; else the default network's.
    activeNamespace: resolved.networks.some((n) => n.chainNamespace === lastUsed)
      ? lastUsed!
      : (resolved.defaultNetwork.chainNamespace as ChainNamespace),
    remoteSessionsInput: {
      role: 'app',
      // The provider proposes again itself when the connection retries (a fresh QR code).
      renewExpiredProposals: false,
      ttl: resolved.walletConnect.proposalTtlMs ? { proposalMs: resolved.walletConnect.proposalTtlMs } : {},
      ...(resolved.walletConnect.sessionPingIntervalMs
        ? { pingIntervalMs: resolved.walletConnect.sessionPingIntervalMs }
        : {}),
      rpcMap: Object.fromEntries(
        resolved.networks
          .filter((n) => n.chainNamespace === 'eip155' && networkRpcUrl(resolved, n))
          .map((n) => [n.caipNetworkId, networkRpcUrl(resolved, n)!]),
      ),
    },
  }
  // Its one tree, built here with the slots filled and the context bound (`kitMachine.provide` would build a
  // second one, and a third to bind the context: issue 14).
  const base = defineKitMachine()
  const slots = {
    actors: {
      connection: defineConnectionMachine().provide({
        actors: {
          ...createEip155ConnectionActors({ wagmi, store }),
          verifyDomain: verifyDomainLogic(resolved),
        },
      }),
      /** Telemetry (SPEC §7): receives `telemetry.send` and posts it; I/O only, never fails the kit. */
      telemetry: createTelemetryActor({
        telemetryUrl: resolved.endpoints.telemetry,
        walletsApiUrl: resolved.endpoints.walletsApi,
        projectId: resolved.projectId,
        enabled: resolved.features.analytics && resolved.projectId !== '',
      }),
      /** Lets the embedded wallet's wagmi connector ask for the frame (a stored login restored at start). */
      embeddedLoader: fromCallback<KitEvent>(({ sendBack }) => {
        bridge.setLoader(() => sendBack({ type: 'embedded.load' }))
        return () => bridge.setLoader(undefined)
      }),
      /**
       * The connection's connectors, for matching a picked wallet to a local one; and its failures, for the
       * kit's error telemetry (SPEC §7).
       */
      followConnectors: fromCallback<KitEvent>(({ sendBack, system }) => {
        const connection = system.get('connection') as ConnectionActorRef | undefined
        const stop = followConnectorsOf(connection, (connectors) =>
          sendBack({ type: 'kit.connectors', connectors }),
        )
        const failures = connection?.on('connection.failed', ({ event, report }) =>
          sendBack({ type: 'kit.reportError', event, report }),
        )
        return () => {
          stop()
          failures?.unsubscribe()
        }
      }),
      /** Keeps the namespace the visitor chose last (SPEC §3 last-used chain). */
      chainStore: fromCallback<{ type: 'chain.active'; chain: ChainNamespace }>(({ receive }) => {
        receive((event) => store.write('lastUsedChain', event.chain))
      }),
      /** Loads the embedded wallet's code (the frame machine, transport and popup). */
      loadEmbedded: fromPromise(async () => {
        if (!embedded) {
          const { createEmbeddedWallet } = await import('../embedded/load')
          embedded = createEmbeddedWallet(store)
        }
        return { logic: embedded.logic, restored: embedded.restoredLogin() }
      }),
      /**
       * Follows the running frame: hands it to the connector, turns its notices into kit events, and tells
       * the kit when the view its flow calls for changes.
       */
      followFrame: fromCallback<KitEvent>(({ sendBack, system }) => {
        const frame = system.get('frame') as FrameActorRef | undefined
        if (!frame || !embedded) return () => {}
        const { selectFrameView } = embedded
        bridge.attach(frame)
        // The frame's notices the kit hears as its own events (with SPEC §2's loading toast of a social or
        // Farcaster login, while its account's data is read).
        const heard = [
          'embedded.connected',
          'embedded.disconnected',
          'embedded.failed',
          'embedded.rpcNotAllowed',
          'embedded.refused',
          'toast.show',
          'toast.hide',
        ] as const satisfies readonly (FrameEmitted['type'] & KitEvent['type'])[]
        const subscriptions = [
          ...heard.map((type) => frame.on(type, sendBack as (event: FrameEmitted) => void)),
        ]
        let view = selectFrameView(frame.getSnapshot())
        if (view) sendBack({ type: 'embedded.view', view, previous: undefined, connected: false })
        subscriptions.push(
          frame.subscribe((snapshot) => {
            const next = selectFrameView(snapshot)
            if (next === view) return
            sendBack({
              type: 'embedded.view',
              view: next,
              previous: view,
              connected: snapshot.hasTag('connected'),
              failed: snapshot.context.error !== undefined,
            })
            view = next
          }),
        )
        return () => {
          for (const subscription of subscriptions) subscription.unsubscribe()
          bridge.attach(undefined)
        }
      }),
      /** Loads WalletConnect's provider (the connector's chunk) and the session machine, then builds it. */
      loadRemoteSessions: fromPromise(() => loadSessionClient(wagmi.connectors)),
      /** Turns the session client's notices into kit events. */
      followRemoteSessions: fromCallback<KitEvent>(({ sendBack, system }) => {
        const sessions = system.get('remoteSessions') as SessionClientRef | undefined
        if (!sessions) return () => {}
        const subscriptions = [
          sessions.on('proposal.settled', (notice) => {
            if (notice.outcome === 'expired') sendBack({ type: 'remoteSessions.proposalExpired' })
          }),
          sessions.on('session.ended', (notice) => {
            sendBack({ type: 'remoteSessions.sessionEnded', topic: notice.topic, outcome: notice.outcome })
          }),
        ]
        return () => {
          for (const subscription of subscriptions) subscription.unsubscribe()
        }
      }),
      /**
       * Loads the wallet listing's machine and its request slot (the listing client itself loads with the first
       * request): not on the host's page, from the modal's open on (issue 14).
       */
      loadWallets: fromPromise(async () => (await import('./load/wallets')).walletsLogic()),
      preloadImage: createPreloadImageActor(resolved),
      /** Loads the account machine and the Data API client, whose balance call fills its slot. */
      loadAccount: fromPromise(async () =>
        (await import('./load/account')).accountLogic(resolved, services.queryClient, wagmi),
      ),
      followAccount: fromCallback<KitEvent>(({ sendBack, system }) => {
        const account = system.get('account') as AccountRef | undefined
        const subscriptions = [
          account?.on('account.balancesUnavailable', sendBack),
          account?.on('account.balancesUpdated', sendBack),
        ]
        return () => {
          for (const subscription of subscriptions) subscription?.unsubscribe()
        }
      }),
    },
  } satisfies Parameters<typeof base.provide>[0]
  // The machine returned starts from this config: its context is bound here, so `<KitRoot>` needs no input.
  const { actions, guards, delays, actors } = base.implementations
  const bound = createMachine({ ...base.config, context: initialKitContext(input) } as never, {
    actions,
    guards,
    delays,
    actors: { ...actors, ...slots.actors },
  }) as unknown as BoundKitMachine
  handles.set(bound, services)
  return bound
}

/** WalletConnect's SignClient, from the provider the lazy connector loads, and the session machine over it. */
async function loadSessionClient(
  connectors: readonly {
    id: string
    getProvider(): Promise<unknown>
    loadProvider?: () => Promise<unknown>
  }[],
) {
  const connector = connectors.find((c) => c.id === WALLETCONNECT_CONNECTOR_ID)
  if (!connector) throw new Error('The WalletConnect connector is missing')
  // The kit's lazy connector loads its provider on demand; a host's own WalletConnect connector has one.
  const [provider, { createSessionClientMachine }] = await Promise.all([
    (connector.loadProvider ? connector.loadProvider() : connector.getProvider()) as Promise<
      { signer?: { client?: unknown } } | undefined
    >,
    import('./sessionClient'),
  ])
  const client = provider?.signer?.client
  if (!client) throw new Error('The WalletConnect provider has no sign client')
  return createSessionClientMachine(client as Parameters<typeof createSessionClientMachine>[0])
}
