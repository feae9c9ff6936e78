import {
  type ActorRefFrom,
  type AnyActorLogic,
  type AnyActorRef,
  assertEvent,
  assign,
  enqueueActions,
  forwardTo,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate'
import { createEip155ConnectionActors } from '../actors/connection'
import type { SessionClientActor } from '../actors/session'
import { createTelemetryClient, type TelemetryEvent } from '../api/telemetry'
import { getWagmiConfig } from '../chains/eip155/wagmi'
import { WALLETCONNECT_CONNECTOR_ID } from '../chains/eip155/walletConnect'
import { type KitConfig, type ResolvedKitConfig, resolveConfig } from '../config'
import type { KitAlert } from '../errors/base'
import { browserStorage, createKitStore } from '../storage'
import { reusesPairing } from '../utils/environment'
import type { ViewName } from '../views'
import {
  type ChosenWallet,
  type ConnectionEvent,
  type ConnectionNotice,
  type ConnectorInfo,
  connectionMachine,
} from './connection'
import { type ModalEvent, modalMachine } from './modal'
import type { SessionClientInput, SessionNotice } from './session'
import { type ToastEvent, toastMachine } from './toast'
import { type WalletsEvent, walletsMachine } from './wallets'

/**
 * The root of the kit: validates the host's config once, then composes the child machines. Each child has a
 * `systemId`, so views and tests reach it with `kit.system.get('modal')`. The kit is where machines meet: it
 * turns the connection's notices into modal navigation, and a chosen wallet into a connection attempt.
 */
export interface KitContext {
  config: ResolvedKitConfig
  /** Alerts shown at the top of the modal (SPEC §8); the visitor may dismiss them. */
  alerts: readonly KitAlert[]
  /**
   * The WalletConnect session client (`src/machines/session.ts`, role app, systemId `remoteSessions`):
   * spawned once WalletConnect's provider has loaded, so its code costs nothing until then.
   */
  remoteSessions: AnyActorRef | undefined
}

export type KitEvent =
  | ModalEvent
  | ToastEvent
  | ConnectionEvent
  | ConnectionNotice
  | WalletsEvent
  | { type: 'kit.dismissAlert'; code: KitAlert['code'] }
  /** A wallet picked in Connect or All Wallets: a local connector if one matches, WalletConnect otherwise. */
  | { type: 'wallet.select'; wallet: ChosenWallet }
  /** From the remote session client, through `followRemoteSessions`. */
  | { type: 'remoteSessions.load' }
  | { type: 'remoteSessions.proposalExpired' }
  | { type: 'remoteSessions.sessionEnded'; topic: string }

/**
 * Builds the kit's root machine from the host's config. Call it once, at module level.
 *
 * @example
 * const kit = createKitMachine({ projectId: 'abc', networks: [defineEvmNetwork(mainnet)] })
 * root.render(<KitRoot machine={kit}><App /></KitRoot>)
 */
export function createKitMachine(config: KitConfig) {
  const resolved = resolveConfig(config)
  const supportedChainIds = resolved.networks
    .filter((n) => n.chainNamespace === 'eip155')
    .map((n) => Number(n.id))
  const wagmi = getWagmiConfig(resolved)
  const connection = connectionMachine.provide({
    actors: createEip155ConnectionActors({
      wagmi,
      store: createKitStore(resolved.storage ?? browserStorage()),
    }),
  })
  /** Set by `loadRemoteSessions`: the session client over the loaded provider's SignClient. */
  let remoteSessionsLogic: Awaited<ReturnType<typeof loadSessionClient>> | undefined
  const remoteSessionsInput: SessionClientInput = {
    role: 'app',
    // The provider proposes again itself when the connection retries (a fresh QR code).
    renewExpiredProposals: false,
    ttl: resolved.walletConnect.proposalTtlMs ? { proposalMs: resolved.walletConnect.proposalTtlMs } : {},
    rpcMap: Object.fromEntries(
      resolved.networks
        .filter((n) => n.chainNamespace === 'eip155' && n.rpcUrls.default.http[0])
        .map((n) => [n.caipNetworkId, n.rpcUrls.default.http[0]!]),
    ),
  }
  return setup({
    types: {
      context: {} as KitContext,
      events: {} as KitEvent,
    },
    actors: {
      /** Telemetry (SPEC §7): receives `telemetry.send` and posts it; I/O only, never fails the kit. */
      telemetry: fromCallback<{ type: 'telemetry.send'; event: TelemetryEvent }>(({ receive }) => {
        const client = createTelemetryClient({
          telemetryUrl: resolved.endpoints.telemetry,
          walletsApiUrl: resolved.endpoints.walletsApi,
          projectId: resolved.projectId,
          enabled: resolved.features.analytics && resolved.projectId !== '',
        })
        receive((message) => void client.send(message.event))
      }),
      /** Loads WalletConnect's provider (the connector's chunk) and the session machine's, then builds it. */
      loadRemoteSessions: fromPromise<void>(async () => {
        remoteSessionsLogic ??= await loadSessionClient(wagmi.connectors)
      }),
      /** Turns the session client's notices into kit events (`actor.on`, since they are emitted). */
      followRemoteSessions: fromCallback<KitEvent, { sessions: AnyActorRef | undefined }>(
        ({ input, sendBack }) => {
          const sessions = input.sessions as SessionClientActor | undefined
          if (!sessions) return () => {}
          const subscriptions = [
            sessions.on(
              'proposal.settled',
              (notice: Extract<SessionNotice, { type: 'proposal.settled' }>) => {
                if (notice.outcome === 'expired') sendBack({ type: 'remoteSessions.proposalExpired' })
              },
            ),
            sessions.on('session.ended', (notice: Extract<SessionNotice, { type: 'session.ended' }>) => {
              sendBack({ type: 'remoteSessions.sessionEnded', topic: notice.topic })
            }),
          ]
          return () => {
            for (const subscription of subscriptions) subscription.unsubscribe()
          }
        },
      ),
      modal: modalMachine,
      toast: toastMachine,
      connection,
      wallets: walletsMachine,
    },
    guards: {
      /** SPEC §2: UnsupportedChain opens unless unsupported chains are allowed or switching is disabled. */
      opensUnsupportedChain: ({ context, event }) => {
        assertEvent(event, 'account.chainChanged')
        return !event.supported && !context.config.allowUnsupportedChain && context.config.enableNetworkSwitch
      },
    },
    actions: {
      spawnRemoteSessions: assign(({ spawn, context }) => {
        if (context.remoteSessions || !remoteSessionsLogic) return {}
        return {
          remoteSessions: spawn(remoteSessionsLogic as AnyActorLogic, {
            systemId: 'remoteSessions',
            input: remoteSessionsInput,
          }),
        }
      }),
      /** Only while the connection tries WalletConnect: the proposal that expired is its QR code's. */
      renewPairing: ({ system }) => {
        const connectionActor = system.get('connection') as ConnectionActorRef | undefined
        const snapshot = connectionActor?.getSnapshot()
        if (
          snapshot?.matches('connecting') &&
          snapshot.context.target?.connectorId === WALLETCONNECT_CONNECTOR_ID
        )
          connectionActor?.send({ type: 'connection.pairingExpired' })
      },
      /** Only while connected through WalletConnect: then the session that ended is the one in use. */
      loseWalletConnect: ({ system }) => {
        const connectionActor = system.get('connection') as ConnectionActorRef | undefined
        const snapshot = connectionActor?.getSnapshot()
        if (
          snapshot?.matches('connected') &&
          snapshot.context.account?.connectorId === WALLETCONNECT_CONNECTOR_ID
        )
          connectionActor?.send({ type: 'connection.lost' })
      },
      dismissAlert: assign(({ context, event }) => {
        assertEvent(event, 'kit.dismissAlert')
        return { alerts: context.alerts.filter((alert) => alert.code !== event.code) }
      }),
      onConnected: enqueueActions(({ enqueue, event }) => {
        assertEvent(event, 'account.connected')
        enqueue.sendTo('modal', { type: 'modal.connected', connected: true })
        if (event.account.connectorId === WALLETCONNECT_CONNECTOR_ID)
          enqueue.raise({ type: 'remoteSessions.load' })
        // A fresh connection closes the modal (the host's button now shows the account) and is tracked
        // (SPEC §4: a success event with its method); a silent reconnect at start leaves the page as it is.
        if (event.reconnected) return
        enqueue.sendTo('modal', { type: 'modal.close' })
        enqueue.sendTo('telemetry', {
          type: 'telemetry.send',
          event: {
            type: 'track',
            event: 'CONNECT_SUCCESS',
            properties: { method: event.method, connector: event.account.connectorId },
          },
        })
      }),
      onDisconnected: enqueueActions(({ enqueue }) => {
        enqueue.sendTo('modal', { type: 'modal.connected', connected: false })
        enqueue.sendTo('modal', { type: 'modal.close' })
      }),
      cancelConnecting: ({ system }) => {
        system.get('connection')?.send({ type: 'connection.cancel' })
      },
      openUnsupportedChain: ({ system }) => {
        system.get('modal')?.send({ type: 'modal.open', view: 'UnsupportedChain' })
      },
      /** Back on a supported chain: an UnsupportedChain view still open has done its job. */
      leaveUnsupportedChain: ({ event, system }) => {
        assertEvent(event, 'account.chainChanged')
        const modal = system.get('modal') as ActorRefFrom<typeof modalMachine> | undefined
        const snapshot = modal?.getSnapshot()
        if (
          event.supported &&
          snapshot?.matches('open') &&
          snapshot.context.history.includes('UnsupportedChain')
        ) {
          modal?.send({ type: 'modal.close' })
        }
      },
      selectWallet: enqueueActions(({ enqueue, event, system }) => {
        assertEvent(event, 'wallet.select')
        const connectionActor = system.get('connection') as ActorRefFrom<typeof connectionMachine> | undefined
        const connectors: ConnectorInfo[] = connectionActor?.getSnapshot().context.connectors ?? []
        const local = matchConnector(connectors, event.wallet)
        const view: ViewName = local ? 'ConnectingExternal' : 'ConnectingWalletConnect'
        enqueue.sendTo('connection', {
          type: 'connection.connect',
          connectorId: local?.id ?? 'walletConnect',
          wallet: event.wallet,
          method: local ? 'browser' : 'qrcode',
        })
        enqueue.sendTo('modal', { type: 'router.push', view })
        if (!local) enqueue.raise({ type: 'remoteSessions.load' })
      }),
    },
  }).createMachine({
    id: 'kit',
    context: { config: resolved, alerts: resolved.alerts, remoteSessions: undefined },
    invoke: [
      { id: 'modal', systemId: 'modal', src: 'modal', input: { connected: false } },
      { id: 'toast', systemId: 'toast', src: 'toast' },
      { id: 'telemetry', src: 'telemetry' },
      {
        id: 'connection',
        systemId: 'connection',
        src: 'connection',
        input: { supportedChainIds, reusePairing: reusesPairing() },
      },
      {
        id: 'wallets',
        systemId: 'wallets',
        src: 'wallets',
        input: ({ context }) => ({
          walletsApi: context.config.endpoints.walletsApi,
          projectId: context.config.projectId,
          featuredWalletIds: context.config.featuredWalletIds,
          includeWalletIds: context.config.includeWalletIds,
          excludeWalletIds: context.config.excludeWalletIds,
          chains: context.config.networks.map((network) => network.caipNetworkId),
        }),
      },
    ],
    on: {
      'modal.*': { actions: forwardTo('modal') },
      // Leaving a connecting view (back, close, Escape) cancels the attempt: nothing finishes unseen.
      'modal.close': { actions: [forwardTo('modal'), 'cancelConnecting'] },
      'router.back': { actions: [forwardTo('modal'), 'cancelConnecting'] },
      'router.*': { actions: forwardTo('modal') },
      'toast.*': { actions: forwardTo('toast') },
      'connection.*': { actions: forwardTo('connection') },
      'wallets.*': { actions: forwardTo('wallets') },
      'kit.dismissAlert': { actions: 'dismissAlert' },
      'wallet.select': { actions: 'selectWallet' },
      'account.connected': { actions: 'onConnected' },
      'account.disconnected': { actions: 'onDisconnected' },
      'account.chainChanged': [
        { guard: 'opensUnsupportedChain', actions: 'openUnsupportedChain' },
        { actions: 'leaveUnsupportedChain' },
      ],
      // The pairing's QR code is no longer valid: the connection asks the wallet again (a fresh URI).
      'remoteSessions.proposalExpired': { actions: 'renewPairing' },
      // The wallet deleted the session (or it expired): disconnected now, not when the provider notices.
      'remoteSessions.sessionEnded': { actions: 'loseWalletConnect' },
    },
    type: 'parallel',
    states: {
      /**
       * SPEC §4 remote sessions: the session client runs beside WalletConnect's provider once that has
       * loaded (the visitor picked a wallet over WalletConnect, or a stored session was restored).
       */
      remoteSessions: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'remoteSessions.load': 'loading',
            },
          },
          loading: {
            invoke: {
              src: 'loadRemoteSessions',
              onDone: { target: 'running', actions: 'spawnRemoteSessions' },
              onError: 'failed',
            },
          },
          running: {
            invoke: {
              src: 'followRemoteSessions',
              input: ({ context }) => ({ sessions: context.remoteSessions }),
            },
          },
          /** The provider did not load: the connection shows that error itself; picking WalletConnect again retries. */
          failed: {
            on: {
              'remoteSessions.load': 'loading',
            },
          },
        },
      },
    },
  })
}

/** WalletConnect's SignClient, from the provider the lazy connector loads, and the session machine over it. */
async function loadSessionClient(connectors: readonly { id: string; getProvider(): Promise<unknown> }[]) {
  const connector = connectors.find((c) => c.id === WALLETCONNECT_CONNECTOR_ID)
  if (!connector) throw new Error('The WalletConnect connector is missing')
  const [provider, { createSessionClientMachine }] = await Promise.all([
    connector.getProvider() as Promise<{ signer?: { client?: unknown } } | undefined>,
    import('../actors/session'),
  ])
  const client = provider?.signer?.client
  if (!client) throw new Error('The WalletConnect provider has no sign client')
  return createSessionClientMachine(client as Parameters<typeof createSessionClientMachine>[0])
}

/** A listing wallet matches an installed connector by rdns, else by id (an EIP-6963 connector's id is its rdns). */
export function matchConnector(connectors: ConnectorInfo[], wallet: ChosenWallet): ConnectorInfo | undefined {
  return connectors.find(
    (c) =>
      c.type !== 'walletconnect' &&
      (c.id === wallet.id || (wallet.rdns !== undefined && (c.rdns === wallet.rdns || c.id === wallet.rdns))),
  )
}

export type KitMachine = ReturnType<typeof createKitMachine>
export type KitActorRef = ActorRefFrom<KitMachine>
export type KitSnapshot = SnapshotFrom<KitMachine>
export type ModalActorRef = ActorRefFrom<typeof modalMachine>
export type ToastActorRef = ActorRefFrom<typeof toastMachine>
export type ConnectionActorRef = ActorRefFrom<typeof connectionMachine>
