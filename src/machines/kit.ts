import {
  type ActorRefFrom,
  assertEvent,
  assign,
  enqueueActions,
  forwardTo,
  fromCallback,
  fromPromise,
  not,
  raise,
  type SnapshotFrom,
  sendTo,
  setup,
} from 'xstate'
import { ALERTS } from '../errors/base'
import { connectionMachine } from './connection'
import { onDemand } from './kit/onDemand'
import { fetchBalances, is, matchConnector, routeAfterSend } from './kit/rules'
import type {
  AccountLogic,
  EmbeddedLoad,
  KitContext,
  KitEvent,
  KitInput,
  SendLogic,
  SessionClientLogic,
} from './kit/types'
import { modalMachine } from './modal'
import { toastMachine } from './toast'
import { walletsMachine } from './wallets'

export { matchConnector, routeAfterSend } from './kit/rules'
export type { FrameViewEvent, KitContext, KitEvent, KitInput } from './kit/types'

/** A slot `createKit` fills (`.provide`); run unprovided, it never settles, so nothing happens by accident. */
const pending = <Output>() => fromPromise<Output>(() => new Promise<never>(() => {}))
const quiet = () => fromCallback<KitEvent>(() => {})

/**
 * The root of the kit: composes the child machines and holds the rules where they meet (SPEC §2, §4). Pure:
 * its I/O (telemetry, the loaders of the capabilities loaded on demand and their followers) are slots that
 * `createKit` (src/kit/createKit.ts) provides. Children have a `systemId`: views reach them with
 * `kit.system.get('modal')`.
 */
export const kitMachine = setup({
  types: { context: {} as KitContext, events: {} as KitEvent, input: {} as KitInput | undefined },
  actors: {
    modal: modalMachine,
    toast: toastMachine,
    connection: connectionMachine,
    wallets: walletsMachine,
    /** Telemetry (SPEC §7): receives `telemetry.send` and posts it. */
    telemetry: quiet(),
    /** Lets the embedded wallet's wagmi connector ask for the frame (`embedded.load`). */
    embeddedLoader: quiet(),
    /** Turns the modal's `modal.shown` notices into kit events (the kit mirrors the view it shows). */
    followModal: fromCallback<KitEvent>(({ sendBack, system }) => {
      const modal = system.get('modal') as ModalActorRef | undefined
      const subscription = modal?.on('modal.shown', sendBack)
      return () => subscription?.unsubscribe()
    }),
    /** Sends `kit.connectors` when the connection's connectors change. */
    followConnectors: quiet(),
    loadEmbedded: pending<EmbeddedLoad>(),
    loadRemoteSessions: pending<SessionClientLogic>(),
    loadAccount: pending<AccountLogic>(),
    loadSend: pending<SendLogic>(),
    /** Followers of a running capability: its notices (and the frame's view) as kit events. */
    followFrame: quiet(),
    followRemoteSessions: quiet(),
    followAccount: quiet(),
    followSend: quiet(),
  },
  guards: is,
  actions: {
    spawnFrame: assign(({ context, spawn }, embedded: EmbeddedLoad) => {
      if (context.frame) return {}
      const { config } = context
      const network = config.defaultNetwork
      const { metadata } = config
      return {
        frame: spawn(embedded.logic, {
          systemId: 'frame',
          input: {
            endpoint: config.endpoints.frame,
            projectId: config.projectId,
            chainId: network.chainNamespace === 'eip155' ? Number(network.id) : String(network.id),
            namespace: network.chainNamespace,
            restored: embedded.restored,
            theme: { themeMode: config.themeMode },
            dappData: {
              projectId: config.projectId,
              sdkVersion: context.input.sdkVersion,
              ...(metadata ? { metadata: { ...metadata, icons: [...metadata.icons] } } : {}),
            },
          },
        }),
      }
    }),
    spawnRemoteSessions: assign(({ context, spawn }, logic: SessionClientLogic) =>
      context.remoteSessions
        ? {}
        : {
            remoteSessions: spawn(logic, {
              systemId: 'remoteSessions',
              input: context.input.remoteSessionsInput,
            }),
          },
    ),
    spawnAccount: assign(({ context, spawn }, logic: AccountLogic) =>
      context.account ? {} : { account: spawn(logic, { systemId: 'account' }) },
    ),
    /** The token picker starts from the balances the account already has. */
    spawnSend: assign(({ context, spawn }, logic: SendLogic) =>
      context.sendFlow
        ? {}
        : {
            sendFlow: spawn(logic, { systemId: 'send', input: { tokenBalances: [...context.balances] } }),
          },
    ),
    /** Asks the account machine for the connected account's balances; the machine decides what that costs. */
    fetchBalances: enqueueActions(({ context, enqueue }) => fetchBalances(context, enqueue)),
    rejectFrameRequests: sendTo(({ context }) => context.frame!, { type: 'frame.rejectRpcRequests' }),
    cancelFrameFlow: sendTo(({ context }) => context.frame!, { type: 'frame.cancel' }),
    cancelConnecting: sendTo('connection', { type: 'connection.cancel' }),
    showEmbeddedUnavailable: assign(({ context }) => addAlert(context, ALERTS.EMBEDDED_WALLET_LOAD_FAILED)),
    showFrameAlert: assign(({ context, event }) => {
      assertEvent(event, 'embedded.failed')
      return addAlert(context, event.alert)
    }),
    dismissAlert: assign(({ context, event }) => {
      assertEvent(event, 'kit.dismissAlert')
      return { alerts: context.alerts.filter((alert) => alert.code !== event.code) }
    }),
    /**
     * The frame's flow moves faster than the modal's notices come back: the view the kit just asked for is
     * mirrored at once (the modal's `modal.shown` confirms it), so the flow's next step is judged against it.
     */
    expectFrameView: assign(({ context, event }) => {
      assertEvent(event, 'embedded.view')
      const history = context.modal.open ? context.modal.history : []
      return { modal: { open: true, history: [...history, event.view!] } }
    }),
    expectBack: assign(({ context }) => {
      const history = context.modal.history.slice(0, -1)
      return { modal: { open: history.length > 0, history } }
    }),
    mirrorModal: assign(({ event }) => {
      assertEvent(event, 'modal.shown')
      return { modal: { open: event.open, history: event.history } }
    }),
    /** A fresh connection closes the modal and is tracked (SPEC §4); a silent reconnect at start is not. */
    onConnected: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'account.connected')
      enqueue.assign({ connected: event.account, connecting: undefined })
      enqueue.sendTo('modal', { type: 'modal.connected', connected: true })
      if (event.account.connectorId === context.input.connectorIds.walletConnect)
        enqueue.raise({ type: 'remoteSessions.load' })
      fetchBalances(context, enqueue)
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
    /** Disconnected: the modal closes, the account's balances and the send form go (SPEC §4). */
    onDisconnected: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ connected: undefined, connecting: undefined })
      enqueue.sendTo('modal', { type: 'modal.connected', connected: false })
      enqueue.sendTo('modal', { type: 'modal.close' })
      if (context.account) enqueue.sendTo(({ context }) => context.account!, { type: 'account.clear' })
      if (context.sendFlow) enqueue.sendTo(({ context }) => context.sendFlow!, { type: 'send.reset' })
    }),
    followChain: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'account.chainChanged')
      if (!context.connected) return
      enqueue.assign({ connected: { ...context.connected, chainId: event.chainId } })
      fetchBalances(context, enqueue)
    }),
    selectWallet: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'wallet.select')
      const local = matchConnector(context.connectors, event.wallet)
      const connectorId = local?.id ?? context.input.connectorIds.walletConnect
      enqueue.assign({ connecting: connectorId })
      enqueue.sendTo('connection', {
        type: 'connection.connect',
        connectorId,
        wallet: event.wallet,
        method: local ? 'browser' : 'qrcode',
      })
      enqueue.sendTo('modal', {
        type: 'router.push',
        view: local ? 'ConnectingExternal' : 'ConnectingWalletConnect',
      })
      if (!local) enqueue.raise({ type: 'remoteSessions.load' })
    }),
    /** A login in the frame connects the kit through the embedded wallet's connector. */
    connectEmbedded: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'embedded.connected')
      enqueue.assign({ connecting: context.input.connectorIds.embedded })
      enqueue.sendTo('connection', {
        type: 'connection.connect',
        connectorId: context.input.connectorIds.embedded,
        method: event.social ? 'social' : 'email',
      })
    }),
    afterSend: enqueueActions((args) => {
      const { context, enqueue, event } = args
      assertEvent(event, 'send.succeeded')
      if (is.showsSendPreview(args)) enqueue.sendTo('modal', routeAfterSend(event))
      if (context.account)
        enqueue.sendTo(({ context }) => context.account!, { type: 'account.refreshBalances' })
      enqueue.sendTo('toast', {
        type: 'toast.show',
        variant: 'success',
        message: `Sent ${event.amount} ${event.symbol}`,
      })
    }),
    /** An e-mail update ended: back on Account, and said when it worked. */
    endEmailUpdate: enqueueActions((args) => {
      const { enqueue } = args
      if (is.frameViewShown(args)) enqueue.sendTo('modal', { type: 'router.reset', view: 'Account' })
      if (is.emailUpdated(args))
        enqueue.sendTo('toast', { type: 'toast.show', variant: 'success', message: 'Email updated' })
    }),
    /** The modal shows a view whose data loads on demand: the kit asks for it. */
    loadForView: enqueueActions((args) => {
      const { context, enqueue } = args
      if (is.showsWalletList(args)) enqueue.sendTo('wallets', { type: 'wallets.load' })
      if (is.showsBalances(args)) {
        enqueue.raise({ type: 'account.load' })
        fetchBalances(context, enqueue)
      }
      if (is.showsSendView(args)) enqueue.raise({ type: 'send.load' })
    }),
  },
}).createMachine({
  id: 'kit',
  context: ({ input }) => {
    if (!input) throw new Error('The kit machine starts with its input: use createKitMachine(config)')
    return initialKitContext(input)
  },
  invoke: [
    { id: 'modal', systemId: 'modal', src: 'modal', input: { connected: false } },
    { id: 'followModal', src: 'followModal' },
    { id: 'toast', systemId: 'toast', src: 'toast' },
    { id: 'telemetry', src: 'telemetry' },
    { id: 'embeddedLoader', src: 'embeddedLoader' },
    {
      id: 'connection',
      systemId: 'connection',
      src: 'connection',
      input: ({ context }) => ({
        supportedChainIds: context.input.supportedChainIds,
        reusePairing: context.input.reusePairing,
      }),
    },
    { id: 'followConnectors', src: 'followConnectors' },
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
    'modal.shown': { actions: ['mirrorModal', 'loadForView'] },
    // The login frame loads when the modal first opens, so e-mail and socials are ready when reached.
    'modal.open': { actions: [forwardTo('modal'), raise({ type: 'embedded.load' })] },
    // Leaving a view (back, close, Escape) ends what it showed: the frame's flow, and a connection attempt. The
    // modal moves first, so the kit hears its new view before the frame's.
    'modal.close': [
      {
        guard: 'leavesFrameSigning',
        actions: [forwardTo('modal'), 'rejectFrameRequests', 'cancelConnecting'],
      },
      { guard: 'leavesFrameFlow', actions: [forwardTo('modal'), 'cancelFrameFlow', 'cancelConnecting'] },
      { actions: [forwardTo('modal'), 'cancelConnecting'] },
    ],
    'router.back': [
      {
        guard: 'leavesFrameSigning',
        actions: [forwardTo('modal'), 'rejectFrameRequests', 'cancelConnecting'],
      },
      { guard: 'leavesFrameFlow', actions: [forwardTo('modal'), 'cancelFrameFlow', 'cancelConnecting'] },
      { actions: [forwardTo('modal'), 'cancelConnecting'] },
    ],
    'router.*': { actions: forwardTo('modal') },
    'frame.*': { guard: 'frameRuns', actions: forwardTo(({ context }) => context.frame!) },
    'embedded.connected': { guard: not('connectedThroughEmbedded'), actions: 'connectEmbedded' },
    'embedded.disconnected': {
      guard: 'connectedThroughEmbedded',
      actions: sendTo('connection', { type: 'connection.lost' }),
    },
    'embedded.failed': { actions: 'showFrameAlert' },
    // The modal follows the frame's flow: its view is pushed, and left when the flow moves on.
    'embedded.view': [
      {
        guard: 'frameAsksToSign',
        actions: [
          'expectFrameView',
          sendTo('modal', ({ event }) => ({ type: 'modal.open', view: event.view })),
        ],
      },
      {
        guard: 'frameShowsAnotherView',
        actions: [
          'expectFrameView',
          sendTo('modal', ({ event }) => ({ type: 'router.push', view: event.view! })),
        ],
      },
      { guard: 'frameShowsView' },
      { guard: 'frameEndsEmailUpdate', actions: 'endEmailUpdate' },
      { guard: 'frameLoggedIn' },
      { guard: 'frameViewShown', actions: ['expectBack', sendTo('modal', { type: 'router.back' })] },
    ],
    'toast.*': { actions: forwardTo('toast') },
    'connection.*': { actions: forwardTo('connection') },
    'kit.connectors': { actions: assign({ connectors: ({ event }) => event.connectors }) },
    'wallets.*': { actions: forwardTo('wallets') },
    'kit.dismissAlert': { actions: 'dismissAlert' },
    'wallet.select': { actions: 'selectWallet' },
    'account.connected': { actions: 'onConnected' },
    'account.disconnected': { actions: 'onDisconnected' },
    'account.chainChanged': [
      {
        guard: 'opensUnsupportedChain',
        actions: ['followChain', sendTo('modal', { type: 'modal.open', view: 'UnsupportedChain' })],
      },
      { guard: 'leavesUnsupportedChain', actions: ['followChain', sendTo('modal', { type: 'modal.close' })] },
      { actions: 'followChain' },
    ],
    // The pairing's QR code is no longer valid: the connection asks the wallet again (a fresh URI).
    'remoteSessions.proposalExpired': {
      guard: 'connectingThroughWalletConnect',
      actions: sendTo('connection', { type: 'connection.pairingExpired' }),
    },
    // The wallet deleted the session (or it expired): disconnected now, not when the provider notices.
    'remoteSessions.sessionEnded': {
      guard: 'connectedThroughWalletConnect',
      actions: sendTo('connection', { type: 'connection.lost' }),
    },
    // The account machine's and send flow's own events (the connection's `account.*` notices match exactly).
    'account.*': { guard: 'accountRuns', actions: forwardTo(({ context }) => context.account!) },
    'account.balancesUnavailable': {
      actions: sendTo('toast', ({ event }) => ({
        type: 'toast.show',
        variant: 'error',
        message: event.message,
      })),
    },
    'account.balancesUpdated': [
      {
        guard: 'sendRuns',
        actions: [
          assign({ balances: ({ event }) => event.balances }),
          sendTo(
            ({ context }) => context.sendFlow!,
            ({ event }) => ({ type: 'send.setTokenBalances', tokenBalances: event.balances }),
          ),
        ],
      },
      { actions: assign({ balances: ({ event }) => event.balances }) },
    ],
    'send.*': { guard: 'sendRuns', actions: forwardTo(({ context }) => context.sendFlow!) },
    'send.succeeded': { actions: 'afterSend' },
    // The form was accepted (a name resolved, if it was one): the preview shows next.
    'send.previewing': {
      guard: 'showsSendForm',
      actions: sendTo('modal', { type: 'router.push', view: 'WalletSendPreview' }),
    },
  },
  type: 'parallel',
  states: {
    /** The embedded wallet (SPEC §4 login frame); a stored login loads it at start. */
    embedded: {
      ...onDemand({
        load: 'embedded.load',
        guard: 'embeddedOn',
        atStart: 'storedLogin',
        loader: 'loadEmbedded',
        started: 'spawnFrame',
        failed: 'showEmbeddedUnavailable',
        follow: 'followFrame',
      }),
    },
    /** SPEC §4 remote sessions: beside WalletConnect's provider once that has loaded. */
    remoteSessions: onDemand({
      load: 'remoteSessions.load',
      loader: 'loadRemoteSessions',
      started: 'spawnRemoteSessions',
      follow: 'followRemoteSessions',
    }),
    /** The Account view's tabs and balances (SPEC §3, §4). */
    account: onDemand({
      load: 'account.load',
      loader: 'loadAccount',
      started: 'spawnAccount',
      running: 'fetchBalances',
      follow: 'followAccount',
    }),
    /** The send flow (SPEC §4 "Sending a token"). */
    sendFlow: onDemand({ load: 'send.load', loader: 'loadSend', started: 'spawnSend', follow: 'followSend' }),
  },
})

/** The kit's context at start, from its input. */
export function initialKitContext(input: KitInput): KitContext {
  const { config, ...rest } = input
  return {
    config,
    input: rest,
    alerts: config.alerts,
    modal: { open: false, history: [] },
    connected: undefined,
    connecting: undefined,
    connectors: [],
    balances: [],
    remoteSessions: undefined,
    frame: undefined,
    account: undefined,
    sendFlow: undefined,
  }
}

function addAlert(context: KitContext, alert: KitContext['alerts'][number]) {
  return context.alerts.some((a) => a.code === alert.code) ? {} : { alerts: [...context.alerts, alert] }
}

export type KitMachine = typeof kitMachine
export type KitActorRef = ActorRefFrom<KitMachine>
export type KitSnapshot = SnapshotFrom<KitMachine>
export type ModalActorRef = ActorRefFrom<typeof modalMachine>
export type ToastActorRef = ActorRefFrom<typeof toastMachine>
export type ConnectionActorRef = ActorRefFrom<typeof connectionMachine>
