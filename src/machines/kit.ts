import {
  type ActorRefFrom,
  assertEvent,
  assign,
  enqueueActions,
  forwardTo,
  fromCallback,
  type SnapshotFrom,
  setup,
} from 'xstate'
import { createEip155ConnectionActors } from '../actors/connection'
import { createTelemetryClient, type TelemetryEvent } from '../api/telemetry'
import { getWagmiConfig } from '../chains/eip155/wagmi'
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
  const connection = connectionMachine.provide({
    actors: createEip155ConnectionActors({
      wagmi: getWagmiConfig(resolved),
      store: createKitStore(resolved.storage ?? browserStorage()),
    }),
  })
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
      dismissAlert: assign(({ context, event }) => {
        assertEvent(event, 'kit.dismissAlert')
        return { alerts: context.alerts.filter((alert) => alert.code !== event.code) }
      }),
      onConnected: enqueueActions(({ enqueue, event }) => {
        assertEvent(event, 'account.connected')
        enqueue.sendTo('modal', { type: 'modal.connected', connected: true })
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
      }),
    },
  }).createMachine({
    id: 'kit',
    context: { config: resolved, alerts: resolved.alerts },
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
    },
  })
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
