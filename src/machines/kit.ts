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
  raise,
  type SnapshotFrom,
  setup,
} from 'xstate'
import { createEip155ConnectionActors } from '../actors/connection'
import type { SessionClientActor } from '../actors/session'
import { createWalletsActors } from '../actors/wallets'
import type { BalancesResult } from '../api/dataApi'
import { createTelemetryClient, type TelemetryEvent } from '../api/telemetry'
import { EMBEDDED_CONNECTOR_ID } from '../chains/eip155/embedded'
import { getEmbeddedBridge, getWagmiConfig } from '../chains/eip155/wagmi'
import { WALLETCONNECT_CONNECTOR_ID } from '../chains/eip155/walletConnect'
import { type KitConfig, type ResolvedKitConfig, resolveConfig } from '../config'
import { SDK_VERSION } from '../constants'
import type { EmbeddedWallet } from '../embedded/load'
import { ALERTS, type KitAlert } from '../errors/base'
import { browserStorage, createKitStore } from '../storage'
import { reusesPairing } from '../utils/environment'
import type { ViewName } from '../views'
import type { AccountEvent, AccountNotice, BalancesOwner } from './account'
import {
  type ChosenWallet,
  type ConnectionEvent,
  type ConnectionNotice,
  type ConnectorInfo,
  connectionMachine,
} from './connection'
import type { FrameActorRef, FrameEmitted, FrameMachineEvent } from './frame'
import { type ModalEvent, modalMachine } from './modal'
import type { SendEvent, SendNotice } from './send'
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
  /**
   * The login frame (`src/machines/frame.ts`, systemId `frame`): spawned when the modal first opens with e-mail
   * or social login on, or at start to restore a stored login; its code and iframe cost nothing before.
   */
  frame: AnyActorRef | undefined
  /**
   * The Account view's tabs and token balances (`src/machines/account.ts`, systemId `account`): spawned when the
   * Account view's details first show, with the Data API client, so neither costs anything before.
   */
  account: AnyActorRef | undefined
  /** The send flow (`src/machines/send.ts`, systemId `send`): spawned when the visitor first opens Send. */
  sendFlow: AnyActorRef | undefined
}

/** What the views send the login frame, through the kit (which forwards them once the frame runs). */
export type FrameViewEvent = Extract<
  FrameMachineEvent,
  {
    type:
      | 'frame.retry'
      | 'frame.connectEmail'
      | 'frame.submitOtp'
      | 'frame.resendCode'
      | 'frame.cancel'
      | 'frame.connectSocial'
      | 'frame.connectFarcaster'
      | 'frame.signOut'
      | 'frame.setAccountType'
      | 'frame.updateEmail'
      | 'frame.rejectRpcRequests'
      | 'frame.showIn'
      | 'frame.syncTheme'
  }
>

export type KitEvent =
  | ModalEvent
  | ToastEvent
  | ConnectionEvent
  | ConnectionNotice
  | WalletsEvent
  | FrameViewEvent
  | { type: 'kit.dismissAlert'; code: KitAlert['code'] }
  /** A wallet picked in Connect or All Wallets: a local connector if one matches, WalletConnect otherwise. */
  | { type: 'wallet.select'; wallet: ChosenWallet }
  /** From the remote session client, through `followRemoteSessions`. */
  | { type: 'remoteSessions.load' }
  /** The login frame is needed (the modal opened with e-mail or socials on; the wallet connector asks). */
  | { type: 'embedded.load' }
  /** From the login frame, through `followFrame`. */
  | Extract<FrameEmitted, { type: 'embedded.connected' | 'embedded.disconnected' | 'embedded.failed' }>
  /** The view the frame's flow calls for changed (`selectFrameView`). */
  | { type: 'embedded.view'; view: ViewName | undefined; previous: ViewName | undefined; connected: boolean }
  | { type: 'remoteSessions.proposalExpired' }
  | { type: 'remoteSessions.sessionEnded'; topic: string }
  /** The Account view's details need their machine (`account`); the send views need theirs (`send`). */
  | { type: 'account.load' }
  | { type: 'send.load' }
  | AccountEvent
  | SendEvent
  /** From the account and send machines, through `follow`. */
  | AccountNotice
  | Extract<SendNotice, { type: 'send.succeeded' }>

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
  const store = createKitStore(resolved.storage ?? browserStorage())
  const connection = connectionMachine.provide({
    actors: createEip155ConnectionActors({ wagmi, store }),
  })
  const embeddedOn = resolved.features.email || resolved.features.socials !== false
  const bridge = getEmbeddedBridge(resolved)
  /** Set by `loadEmbedded`: the frame machine with its real slots, and what the kit reads of it. */
  let embedded: EmbeddedWallet | undefined
  /** Set by `loadRemoteSessions`: the session client over the loaded provider's SignClient. */
  let remoteSessionsLogic: Awaited<ReturnType<typeof loadSessionClient>> | undefined
  /** Set by `loadAccount` and `loadSend`: the machines with their real slots (and the send flow's router rule). */
  let accountLogic: AnyActorLogic | undefined
  let sendLogic: AnyActorLogic | undefined
  let routeAfterSend: ((notice: Extract<SendNotice, { type: 'send.succeeded' }>) => ModalEvent) | undefined
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
      /** Loads the embedded wallet's code (the frame machine, transport and popup). */
      loadEmbedded: fromPromise<void>(async () => {
        if (embedded) return
        const { createEmbeddedWallet } = await import('../embedded/load')
        embedded = createEmbeddedWallet(store)
      }),
      /** Lets the embedded wallet's wagmi connector ask for the frame (a stored login restored at start). */
      embeddedLoader: fromCallback<KitEvent>(({ sendBack }) => {
        bridge.setLoader(() => sendBack({ type: 'embedded.load' }))
        return () => bridge.setLoader(undefined)
      }),
      /**
       * Follows the running frame: hands it to the connector, turns its notices into kit events, and tells
       * the kit when the view its flow calls for changes.
       */
      followFrame: fromCallback<KitEvent, { frame: AnyActorRef | undefined }>(({ input, sendBack }) => {
        const frame = input.frame as FrameActorRef | undefined
        if (!frame || !embedded) return () => {}
        const { selectFrameView } = embedded
        bridge.attach(frame)
        const subscriptions = [
          frame.on('embedded.connected', (event) => sendBack(event)),
          frame.on('embedded.disconnected', (event) => sendBack(event)),
          frame.on('embedded.failed', (event) => sendBack(event)),
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
            })
            view = next
          }),
        )
        return () => {
          for (const subscription of subscriptions) subscription.unsubscribe()
          bridge.attach(undefined)
        }
      }),
      /** Loads the account machine and the Data API client, whose balance call fills its slot. */
      loadAccount: fromPromise<void>(async () => {
        if (accountLogic) return
        const [{ accountMachine }, { getDataApiClient }] = await Promise.all([
          import('./account'),
          import('../api/dataApi'),
        ])
        const api = getDataApiClient(resolved)
        accountLogic = accountMachine.provide({
          actors: {
            fetchBalances: fromPromise<BalancesResult, BalancesOwner & { forceUpdate: boolean }>(
              ({ input, signal }) => api.getBalances({ ...input, signal }),
            ),
          },
        })
      }),
      /** Loads the send machine with its wagmi actors; a receiver's name resolves through the Data API. */
      loadSend: fromPromise<void>(async () => {
        if (sendLogic) return
        const [send, { createSendActors }, { getDataApiClient }] = await Promise.all([
          import('./send'),
          import('../actors/send'),
          import('../api/dataApi'),
        ])
        const api = getDataApiClient(resolved)
        routeAfterSend = send.routeAfterSend
        sendLogic = send.sendMachine.provide({
          actors: createSendActors({
            wagmi,
            resolveName: (name, { signal }) => api.resolveName(name, { signal }),
          }),
        })
      }),
      /** Turns a child's notices (emitted, so `actor.on`) into kit events. */
      follow: fromCallback<
        KitEvent,
        { actor: AnyActorRef | undefined; notices: readonly KitEvent['type'][] }
      >(({ input, sendBack }) => {
        const subscriptions = input.notices.map((type) => input.actor?.on(type, sendBack))
        return () => {
          for (const subscription of subscriptions) subscription?.unsubscribe()
        }
      }),
      modal: modalMachine,
      toast: toastMachine,
      connection,
      wallets: walletsMachine.provide({ actors: createWalletsActors() }),
    },
    guards: {
      /** A stored e-mail or social login is restored at start: its frame loads at once. */
      storedLogin: () => embeddedOn && store.read('emailLoginFlag') === true,
      embeddedOn: () => embeddedOn,
      /** SPEC §2: UnsupportedChain opens unless unsupported chains are allowed or switching is disabled. */
      opensUnsupportedChain: ({ context, event }) => {
        assertEvent(event, 'account.chainChanged')
        return !event.supported && !context.config.allowUnsupportedChain && context.config.enableNetworkSwitch
      },
    },
    actions: {
      spawnAccount: assign(({ spawn, context }) =>
        context.account || !accountLogic ? {} : { account: spawn(accountLogic, { systemId: 'account' }) },
      ),
      /** The token picker starts from the balances the account already has. */
      spawnSend: assign(({ spawn, context }) =>
        context.sendFlow || !sendLogic
          ? {}
          : {
              sendFlow: spawn(sendLogic, {
                systemId: 'send',
                input: { tokenBalances: context.account?.getSnapshot().context.balances ?? [] },
              }),
            },
      ),
      forwardToAccount: ({ context, event }) => {
        context.account?.send(event)
      },
      forwardToSend: ({ context, event }) => {
        context.sendFlow?.send(event)
      },
      /** The send flow's token picker follows the account's balances. */
      balancesToSend: ({ context, event }) => {
        assertEvent(event, 'account.balancesUpdated')
        context.sendFlow?.send({ type: 'send.setTokenBalances', tokenBalances: event.balances })
      },
      /** SPEC §8: 'Token Balance Unavailable', as a toast. */
      showBalancesUnavailable: ({ event, system }) => {
        assertEvent(event, 'account.balancesUnavailable')
        system.get('toast')?.send({ type: 'toast.show', variant: 'error', message: event.message })
      },
      /**
       * SPEC §2: a send that succeeded leaves its preview (`routeAfterSend`: ERC-20 to Account, native back), and
       * the account's balances are read fresh.
       */
      afterSend: ({ context, event, system }) => {
        assertEvent(event, 'send.succeeded')
        const modal = system.get('modal') as ModalActorRef | undefined
        const snapshot = modal?.getSnapshot()
        if (
          snapshot?.matches('open') &&
          snapshot.context.history.at(-1) === 'WalletSendPreview' &&
          routeAfterSend
        )
          modal?.send(routeAfterSend(event))
        context.account?.send({ type: 'account.refreshBalances' })
        system
          .get('toast')
          ?.send({ type: 'toast.show', variant: 'success', message: `Sent ${event.amount} ${event.symbol}` })
      },
      /** Disconnected: the account's balances and the send form go (SPEC §4 disconnect resets send state). */
      clearAccount: ({ context }) => {
        context.account?.send({ type: 'account.clear' })
        context.sendFlow?.send({ type: 'send.reset' })
      },
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
        if (connectionIs(connectionActor, 'connecting', WALLETCONNECT_CONNECTOR_ID))
          connectionActor?.send({ type: 'connection.pairingExpired' })
      },
      /** Only while connected through WalletConnect: then the session that ended is the one in use. */
      loseWalletConnect: ({ system }) => {
        const connectionActor = system.get('connection') as ConnectionActorRef | undefined
        if (connectionIs(connectionActor, 'connected', WALLETCONNECT_CONNECTOR_ID))
          connectionActor?.send({ type: 'connection.lost' })
      },
      spawnFrame: assign(({ spawn, context }) => {
        if (context.frame || !embedded) return {}
        const { config } = context
        const network = config.defaultNetwork
        return {
          frame: spawn(embedded.logic as AnyActorLogic, {
            systemId: 'frame',
            input: {
              endpoint: config.endpoints.frame,
              projectId: config.projectId,
              chainId: network.chainNamespace === 'eip155' ? Number(network.id) : String(network.id),
              namespace: network.chainNamespace,
              restored: embedded.restoredLogin(),
              theme: { themeMode: config.themeMode },
              dappData: {
                projectId: config.projectId,
                sdkVersion: SDK_VERSION,
                ...(config.metadata
                  ? {
                      metadata: {
                        name: config.metadata.name,
                        description: config.metadata.description,
                        url: config.metadata.url,
                        icons: [...config.metadata.icons],
                      },
                    }
                  : {}),
              },
            },
          }),
        }
      }),
      forwardToFrame: ({ context, event }) => {
        context.frame?.send(event)
      },
      /**
       * Leaving a frame view (back, close, Escape) ends its flow: a login is cancelled, a signing request the
       * frame is shown for is declined. Read before the modal moves.
       */
      cancelFrameFlow: ({ context, system }) => {
        const frame = context.frame
        if (!frame) return
        const modal = system.get('modal') as ModalActorRef | undefined
        const snapshot = modal?.getSnapshot()
        if (!snapshot?.matches('open')) return
        const view = snapshot.context.history.at(-1)
        if (view === 'ApproveTransaction') frame.send({ type: 'frame.rejectRpcRequests' })
        else if (view && FRAME_FLOW_VIEWS.has(view)) frame.send({ type: 'frame.cancel' })
      },
      /** A login in the frame connects the kit through the embedded wallet's connector. */
      connectEmbedded: ({ event, system }) => {
        assertEvent(event, 'embedded.connected')
        const connectionActor = system.get('connection') as ConnectionActorRef | undefined
        const snapshot = connectionActor?.getSnapshot()
        if (!snapshot || snapshot.matches('reconnecting')) return
        if (connectionIs(connectionActor, 'connected', EMBEDDED_CONNECTOR_ID)) return
        connectionActor?.send({
          type: 'connection.connect',
          connectorId: EMBEDDED_CONNECTOR_ID,
          method: event.social ? 'social' : 'email',
        })
      },
      /** Signed out, or the frame lost its session: disconnected now. */
      loseEmbedded: ({ system }) => {
        const connectionActor = system.get('connection') as ConnectionActorRef | undefined
        if (connectionIs(connectionActor, 'connected', EMBEDDED_CONNECTOR_ID))
          connectionActor?.send({ type: 'connection.lost' })
      },
      /** The embedded wallet's code did not load: said at once, not left as an endless "Loading…". */
      showEmbeddedUnavailable: assign(({ context }) => {
        const alert = ALERTS.EMBEDDED_WALLET_LOAD_FAILED
        if (context.alerts.some((a) => a.code === alert.code)) return {}
        return { alerts: [...context.alerts, alert] }
      }),
      showFrameAlert: assign(({ context, event }) => {
        assertEvent(event, 'embedded.failed')
        if (context.alerts.some((alert) => alert.code === event.alert.code)) return {}
        return { alerts: [...context.alerts, event.alert] }
      }),
      /** The modal follows the frame's flow: its view is pushed, and left when the flow moves on. */
      followFrameView: ({ context, event, system }) => {
        assertEvent(event, 'embedded.view')
        const modal = system.get('modal') as ModalActorRef | undefined
        const toast = system.get('toast') as ToastActorRef | undefined
        const frameError = (context.frame as FrameActorRef | undefined)?.getSnapshot().context.error
        const snapshot = modal?.getSnapshot()
        if (!modal || !snapshot) return
        const open = snapshot.matches('open')
        const current = open ? snapshot.context.history.at(-1) : undefined
        if (event.view) {
          if (!open) {
            // Only a signing request opens the modal by itself; a login view waits for the visitor to open it.
            if (event.view === 'ApproveTransaction') modal.send({ type: 'modal.open', view: event.view })
          } else if (current !== event.view) {
            modal.send({ type: 'router.push', view: event.view })
          }
          return
        }
        // The flow ended. A login that connected closes the modal through the connection; an e-mail update
        // lands back on Account; otherwise the view the flow showed is left (at one view, back closes).
        if (event.previous?.startsWith('UpdateEmail')) {
          if (open && current === event.previous) modal.send({ type: 'router.reset', view: 'Account' })
          if (event.connected && !frameError)
            toast?.send({ type: 'toast.show', variant: 'success', message: 'Email updated' })
          return
        }
        if (event.connected && event.previous !== 'ApproveTransaction') return
        if (open && current === event.previous) modal.send({ type: 'router.back' })
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
    context: {
      config: resolved,
      alerts: resolved.alerts,
      remoteSessions: undefined,
      frame: undefined,
      account: undefined,
      sendFlow: undefined,
    },
    invoke: [
      { id: 'modal', systemId: 'modal', src: 'modal', input: { connected: false } },
      { id: 'toast', systemId: 'toast', src: 'toast' },
      { id: 'telemetry', src: 'telemetry' },
      { id: 'embeddedLoader', src: 'embeddedLoader' },
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
      // The login frame loads when the modal first opens, so e-mail and socials are ready when reached.
      'modal.open': { actions: [forwardTo('modal'), raise({ type: 'embedded.load' })] },
      // Leaving a connecting view (back, close, Escape) cancels the attempt: nothing finishes unseen.
      'modal.close': { actions: ['cancelFrameFlow', forwardTo('modal'), 'cancelConnecting'] },
      'router.back': { actions: ['cancelFrameFlow', forwardTo('modal'), 'cancelConnecting'] },
      'frame.*': { actions: 'forwardToFrame' },
      'embedded.connected': { actions: 'connectEmbedded' },
      'embedded.disconnected': { actions: 'loseEmbedded' },
      'embedded.failed': { actions: 'showFrameAlert' },
      'embedded.view': { actions: 'followFrameView' },
      'router.*': { actions: forwardTo('modal') },
      'toast.*': { actions: forwardTo('toast') },
      'connection.*': { actions: forwardTo('connection') },
      'wallets.*': { actions: forwardTo('wallets') },
      'kit.dismissAlert': { actions: 'dismissAlert' },
      'wallet.select': { actions: 'selectWallet' },
      'account.connected': { actions: 'onConnected' },
      'account.disconnected': { actions: ['onDisconnected', 'clearAccount'] },
      'account.chainChanged': [
        { guard: 'opensUnsupportedChain', actions: 'openUnsupportedChain' },
        { actions: 'leaveUnsupportedChain' },
      ],
      // The pairing's QR code is no longer valid: the connection asks the wallet again (a fresh URI).
      'remoteSessions.proposalExpired': { actions: 'renewPairing' },
      // The wallet deleted the session (or it expired): disconnected now, not when the provider notices.
      'remoteSessions.sessionEnded': { actions: 'loseWalletConnect' },
      // The account machine's and send flow's own events (the connection's `account.*` notices match exactly).
      'account.*': { actions: 'forwardToAccount' },
      'account.balancesUnavailable': { actions: 'showBalancesUnavailable' },
      'account.balancesUpdated': { actions: 'balancesToSend' },
      'send.*': { actions: 'forwardToSend' },
      'send.succeeded': { actions: 'afterSend' },
    },
    type: 'parallel',
    states: {
      /**
       * The embedded wallet (SPEC §4 login frame): its code and hidden iframe load when first needed, then the
       * frame machine runs as `frame` in the kit's system.
       */
      embedded: {
        initial: 'idle',
        states: {
          idle: {
            always: { guard: 'storedLogin', target: 'loading' },
            on: { 'embedded.load': { guard: 'embeddedOn', target: 'loading' } },
          },
          loading: {
            invoke: {
              src: 'loadEmbedded',
              onDone: { target: 'running', actions: 'spawnFrame' },
              onError: { target: 'unavailable', actions: 'showEmbeddedUnavailable' },
            },
          },
          running: {
            invoke: { src: 'followFrame', input: ({ context }) => ({ frame: context.frame }) },
          },
          /** The code did not load (offline, a blocked chunk): the next open tries again. */
          unavailable: {
            on: { 'embedded.load': { guard: 'embeddedOn', target: 'loading' } },
          },
        },
      },
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
      /** The Account view's tabs and balances (SPEC §3, §4): the machine and the Data API load when first shown. */
      account: {
        initial: 'idle',
        states: {
          idle: { on: { 'account.load': 'loading' } },
          loading: {
            invoke: {
              src: 'loadAccount',
              onDone: { target: 'running', actions: 'spawnAccount' },
              onError: 'failed',
            },
          },
          running: {
            invoke: {
              src: 'follow',
              input: ({ context }) => ({
                actor: context.account,
                notices: ['account.balancesUnavailable', 'account.balancesUpdated'],
              }),
            },
          },
          /** The code did not load (offline, a blocked chunk): the view says so; showing it again retries. */
          failed: { on: { 'account.load': 'loading' } },
        },
      },
      /** The send flow (SPEC §4 "Sending a token"): its machine and wagmi actors load when Send first opens. */
      sendFlow: {
        initial: 'idle',
        states: {
          idle: { on: { 'send.load': 'loading' } },
          loading: {
            invoke: {
              src: 'loadSend',
              onDone: { target: 'running', actions: 'spawnSend' },
              onError: 'failed',
            },
          },
          running: {
            invoke: {
              src: 'follow',
              input: ({ context }) => ({ actor: context.sendFlow, notices: ['send.succeeded'] }),
            },
          },
          failed: { on: { 'send.load': 'loading' } },
        },
      },
    },
  })
}

/** Whether the connection is `connecting` to, or `connected` through, the given connector. */
function connectionIs(
  connection: ConnectionActorRef | undefined,
  state: 'connecting' | 'connected',
  connectorId: string,
): boolean {
  const snapshot = connection?.getSnapshot()
  if (!snapshot?.matches(state)) return false
  const current = state === 'connecting' ? snapshot.context.target : snapshot.context.account
  return current?.connectorId === connectorId
}

/** Views of the frame's login flows: leaving one cancels the flow. */
const FRAME_FLOW_VIEWS: ReadonlySet<ViewName> = new Set<ViewName>([
  'EmailVerifyOtp',
  'EmailVerifyDevice',
  'ConnectingSocial',
  'ConnectingFarcaster',
  'UpdateEmailWallet',
  'UpdateEmailPrimaryOtp',
  'UpdateEmailSecondaryOtp',
])

/** WalletConnect's SignClient, from the provider the lazy connector loads, and the session machine over it. */
async function loadSessionClient(connectors: readonly { id: string; getProvider(): Promise<unknown> }[]) {
  const connector = connectors.find((c) => c.id === WALLETCONNECT_CONNECTOR_ID)
  if (!connector) throw new Error('The WalletConnect connector is missing')
  const [provider, { createSessionClientMachine }] = await Promise.all([
    connector.getProvider() as Promise<{ signer?: { client?: unknown } } | undefined>,
    import('../kit/sessionClient'),
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
