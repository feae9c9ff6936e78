import {
  type ActorRefFrom,
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  raise,
  sendTo,
  setup,
} from 'xstate'
import { isKitLocale, type KitLocale } from '../../config'
import {
  AFTER_OPEN_PAINT_MS,
  EMBEDDED_LOAD_AFTER_OPEN_MS,
  IMAGE_PRELOAD_RACE_MS,
  ON_DEMAND_LOAD_TIMEOUT_MS,
  RPC_METHOD_NOT_ALLOWED_ALERT_DELAY_MS,
} from '../../constants'
import { ALERTS, type AlertCode } from '../../errors/base'
import { AuthConnectorNotFoundError } from '../../errors/connection'
import { frameFailureReport } from '../../errors/frameReport'
import { type CapabilityHostMachine, capabilityHostMachine, hostId } from '../capability'
import type { ChainId, ChainNamespace, ChosenWallet, ConnectionMachine } from '../connection'
import { frameNetwork } from '../frame/types'
import { type ModalMachine, modalMachine } from '../modal'
import { type ToastMachine, toastMachine } from '../toast'
import type { WalletsEvent } from '../wallets'
import { followAccount, followChain, onConnected, onDisconnected, selectWallet } from './accounts'
import {
  forwardToCapability,
  loadAtStart,
  loadById,
  tellAccountChanged,
  tellLeave,
  tellView,
} from './capabilities'
import { activate, addAlert, frameDappMetadata, frameTheme, isWalletsEvent } from './helpers'
import {
  DEFAULT_CHAIN,
  embeddedConnectorOf,
  eventNamespace,
  fetchBalances,
  is,
  networkOf,
  toChainConnection,
} from './rules'
import type {
  AccountLogic,
  EmbeddedLoad,
  KitContext,
  KitEvent,
  KitInput,
  KitTheme,
  SessionClientLogic,
  WalletsLogic,
  WalletsRef,
} from './types'

/** A slot `createKit` fills (`.provide`); run unprovided, it never settles, so nothing happens by accident. */
const pending = <Output>() => fromPromise<Output>(() => new Promise<never>(() => {}))
const quiet = () => fromCallback<KitEvent>(() => {})

/**
 * The kit's slots, guards and actions (the chart is in src/machines/kit.ts). The root of the kit: composes the child machines and holds the rules where they meet (SPEC §2, §4). Pure:
 * its I/O (telemetry, the loaders of the capabilities loaded on demand and their followers) are slots that
 * `createKit` (src/kit/createKit.ts) provides. Children have a `systemId`: views reach them with
 * `kit.system.get('modal')`.
 */
export const kitSetup = setup({
  types: { context: {} as KitContext, events: {} as KitEvent, input: {} as KitInput | undefined },
  actors: {
    // The child machines typed by their names, so the kit's declarations name them instead of repeating them.
    modal: modalMachine as ModalMachine,
    toast: toastMachine as ToastMachine,
    /** A capability's host (src/machines/capability.ts), one per registered capability, spawned at start. */
    capabilityHost: capabilityHostMachine as CapabilityHostMachine,
    /**
     * The connection machine (src/machines/connection.ts): `createKit` provides the one it builds with its
     * slots filled, `kitMachine` the unprovided one. Not built here, so a page holds one tree of it (issue 14).
     */
    connection: pending() as unknown as ConnectionMachine,
    /** Telemetry (SPEC §7): receives `telemetry.send` and posts it; tells `telemetry.configRefused` (403). */
    telemetry: quiet(),
    /** Lets the embedded wallet's wagmi connector ask for the frame (`embedded.load`). */
    embeddedLoader: quiet(),
    /** Turns the modal's `modal.shown` notices into kit events (the kit mirrors the view it shows). */
    followModal: fromCallback<KitEvent>(({ sendBack, system }) => {
      const modal = system.get('modal') as ModalActorRef | undefined
      const subscription = modal?.on('modal.shown', sendBack)
      return () => subscription?.unsubscribe()
    }),
    /** The wallet listing's notices: a refused project id raises the invalid-project-id alert. */
    followWallets: fromCallback<KitEvent>(({ sendBack, system }) => {
      const wallets = system.get('wallets') as WalletsRef | undefined
      const subscription = wallets?.on('wallets.projectRefused', sendBack)
      return () => subscription?.unsubscribe()
    }),
    /** Sends `kit.connectors` when the connection's connectors change. */
    followConnectors: quiet(),
    /** Keeps the namespace the visitor chose (`chain.active`), for the next visit. */
    chainStore: fromCallback<{ type: 'chain.active'; chain: ChainNamespace }>(() => {}),
    /** Solana's connection machine with its slots (issue 17), loaded when a Solana network is configured. */
    /** Sends `kit.connectors` (namespace `solana`) when Solana's connectors change. */
    loadEmbedded: pending<EmbeddedLoad>(),
    loadRemoteSessions: pending<SessionClientLogic>(),
    loadAccount: pending<AccountLogic>(),
    loadWallets: pending<WalletsLogic>(),
    /**
     * SPEC §9 image preload race: loads the chosen wallet's image (its `imageUrl`, else the provider's image of its
     * `imageId`), done when it loaded or failed. Unprovided it is done at once.
     */
    preloadImage: fromPromise<void, ChosenWallet>(async () => {}),
    /** Followers of a running capability: its notices (and the frame's view) as kit events. */
    followFrame: quiet(),
    followRemoteSessions: quiet(),
    followAccount: quiet(),
  },
  guards: is,
  delays: {
    rpcNotAllowedAlert: RPC_METHOD_NOT_ALLOWED_ALERT_DELAY_MS,
    onDemandLoad: ON_DEMAND_LOAD_TIMEOUT_MS,
    /** Ours (src/constants.ts): on a device without hover, the login frame loads once the open dialog has painted. */
    embeddedAfterOpen: EMBEDDED_LOAD_AFTER_OPEN_MS,
    /** Ours (src/constants.ts): the listing's code and the analytics config wait past the open dialog's first paint. */
    afterOpenPaint: AFTER_OPEN_PAINT_MS,
    /** SPEC §9 image preload race 2 s. */
    imagePreloadRace: IMAGE_PRELOAD_RACE_MS,
  },
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
            ...frameNetwork(network),
            preferredAccountType: config.preferredAccountTypes.eip155,
            // Ours (the SPEC names no source): every configured eip155 network until the frame says otherwise.
            smartAccountNetworks: config.networks
              .filter((n) => n.chainNamespace === 'eip155')
              .map((n) => n.caipNetworkId),
            restored: embedded.restored,
            theme: frameTheme(context.theme),
            dappData: {
              projectId: config.projectId,
              sdkVersion: context.input.sdkVersion,
              // The app as the frame shows it; where wallets send the visitor back is WalletConnect's alone.
              ...(metadata ? { metadata: frameDappMetadata(metadata) } : {}),
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
    /** A host for each registered capability (systemId `capability.<id>`), spawned at the kit's start. */
    spawnCapabilities: assign(({ context, spawn }) => ({
      capabilities: Object.fromEntries(
        context.input.capabilities.map((capability) => [
          capability.id,
          context.capabilities[capability.id] ??
            spawn('capabilityHost', { systemId: hostId(capability.id), input: { capability } }),
        ]),
      ),
    })),
    /** The capabilities' hosts hear what they act on (./capabilities.ts). */
    loadCapabilitiesAtStart: enqueueActions(({ context, enqueue }) => loadAtStart(context, enqueue)),
    endAccountCapabilities: enqueueActions(({ context, enqueue }) => tellAccountChanged(context, enqueue)),
    tellCapabilitiesView: enqueueActions(({ context, enqueue }) => tellView(context, enqueue)),
    loadCapability: enqueueActions(({ context, enqueue, event }) => loadById(context, enqueue, event)),
    toCapability: enqueueActions(({ context, enqueue, event }) =>
      forwardToCapability(context, enqueue, event),
    ),
    leaveCapabilityView: enqueueActions(({ context, enqueue }) => tellLeave(context, enqueue)),
    fromCapability: enqueueActions(({ enqueue, event }) => {
      assertEvent(event, 'capabilities.tell')
      const told = event.event
      if (told.type.startsWith('modal.') || told.type.startsWith('router.')) enqueue.sendTo('modal', told)
      else enqueue.raise(told)
    }),
    /** The wallet listing's machine, over the kit's networks and the host's wallet lists. */
    spawnWallets: assign(({ context, spawn }, logic: WalletsLogic) =>
      context.wallets
        ? {}
        : {
            wallets: spawn(logic, {
              systemId: 'wallets',
              input: {
                walletsApi: context.config.endpoints.walletsApi,
                projectId: context.config.projectId,
                featuredWalletIds: context.config.featuredWalletIds,
                includeWalletIds: context.config.includeWalletIds,
                excludeWalletIds: context.config.excludeWalletIds,
                chains: context.config.networks.map((network) => network.caipNetworkId),
              },
            }),
          },
    ),
    /** Asked of the listing before its machine ran: kept (the latest of each kind) until it runs. */
    holdForWallets: assign(({ context, event }) =>
      isWalletsEvent(event)
        ? { walletsPending: [...context.walletsPending.filter((e) => e.type !== event.type), event] }
        : {},
    ),
    /** The listing's machine runs: what was asked of it meanwhile reaches it, in order. */
    sendPendingToWallets: enqueueActions(({ context, enqueue }) => {
      for (const event of context.walletsPending)
        enqueue.sendTo(({ context }) => context.wallets!, event satisfies WalletsEvent)
      enqueue.assign({ walletsPending: [] })
    }),
    /** The account's latest balances: kept, and handed to the capabilities that take them. */
    shareBalances: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'account.balancesUpdated')
      enqueue.assign({ balances: event.balances })
      for (const host of Object.values(context.capabilities))
        enqueue.sendTo(host, { type: 'capability.balances', balances: event.balances })
    }),
    /** Asks the account machine for the connected account's balances; the machine decides what that costs. */
    fetchBalances: enqueueActions(({ context, enqueue }) => fetchBalances(context, enqueue)),
    /**
     * The visitor chose a network. On the active namespace its connection switches (the wallet asks); on the
     * other one that namespace becomes the active one: its account shows, switched to the network chosen, or
     * Connect when nothing is connected there.
     */
    selectNetwork: enqueueActions((args) => {
      const { context, enqueue, event } = args
      assertEvent(event, 'network.select')
      const network = networkOf(context, event.caipNetworkId)
      if (!network) return
      const chain = network.chainNamespace as ChainNamespace
      // The default namespace's chain ids are numbers (eip155); another's are CAIP-2.
      const chainId = chain === DEFAULT_CHAIN ? Number(network.id) : (network.caipNetworkId as ChainId)
      const account = context.accounts[chain]
      const toItsConnection = (event: KitEvent) => toChainConnection(context, enqueue, chain, event)
      if (chain !== context.activeNamespace) {
        activate(context, enqueue, chain)
        // The other namespace's account is the one shown now.
        if (account && context.modal.open) enqueue.sendTo('modal', { type: 'router.reset', view: 'Account' })
      }
      if (account && account.chainId !== chainId) toItsConnection({ type: 'connection.switchChain', chainId })
      // The embedded wallet's account: the frame turns to its chain (the default namespace's switch goes through
      // its connector).
      if (is.frameFollowsNetwork(args) && (chain !== DEFAULT_CHAIN || account?.chainId === chainId))
        enqueue.sendTo(context.frame!, { type: 'frame.switchNetwork', chainId })
      if (!account) {
        toItsConnection({ type: 'connection.preferChain', chainId })
        if (is.embeddedCarriesOver(args)) {
          // Logged in already: the chosen namespace connects through the same login, without Connect.
          const connectorId = embeddedConnectorOf(context, chain)!
          enqueue.assign({ connecting: connectorId })
          toItsConnection({ type: 'connection.connect', connectorId, method: 'email' })
        } else if (chain !== context.activeNamespace)
          enqueue.sendTo('modal', { type: 'router.push', view: 'Connect' })
      }
    }),
    /** A theme set at run time: kept (the views show it), and told to the login frame when it runs. */
    setTheme: enqueueActions(({ context, event, enqueue }) => {
      const { theme } = context
      let next: KitTheme
      if (event.type === 'kit.setThemeMode') next = { ...theme, themeMode: event.themeMode }
      else if (event.type === 'kit.setThemeVariables') {
        const themeVariables: Record<string, string | undefined> = { ...theme.themeVariables }
        for (const [variable, value] of Object.entries(event.themeVariables))
          if (value === undefined) delete themeVariables[variable]
          else themeVariables[variable] = value
        next = { ...theme, themeVariables }
      } else return
      enqueue.assign({ theme: next })
      if (context.frame) enqueue.sendTo(context.frame, { type: 'frame.syncTheme', theme: frameTheme(next) })
    }),
    rejectFrameRequests: sendTo(({ context }) => context.frame!, { type: 'frame.rejectRpcRequests' }),
    /**
     * A wallet request ran out of time: the embedded wallet's open signing requests are withdrawn (the login frame
     * answers them 'Request was aborted'), so a request sent again is the only one left to approve.
     */
    withdrawFrameRequests: enqueueActions(({ context, enqueue }) => {
      if (context.frame) enqueue.sendTo(context.frame, { type: 'frame.rejectRpcRequests' })
    }),
    cancelFrameFlow: sendTo(({ context }) => context.frame!, { type: 'frame.cancel' }),
    /** A connection event, to the connection of its namespace (`eventNamespace`). */
    toConnection: enqueueActions(({ context, enqueue, event }) =>
      toChainConnection(context, enqueue, eventNamespace(context, event), event),
    ),
    /** The kit hears which capabilities' statecharts run (a namespace's connection among them). */
    noteRunning: assign(({ context, event }) => {
      assertEvent(event, 'capabilities.running')
      const others = context.capabilitiesRunning.filter((id) => id !== event.id)
      return { capabilitiesRunning: event.running ? [...others, event.id] : others }
    }),
    /** Leaving a connecting view ends the attempt, whichever namespace it was on. */
    cancelConnecting: enqueueActions(({ context, enqueue }) => {
      if (context.pairedAlong.length > 0) enqueue.assign({ pairedAlong: [] })
      enqueue.sendTo('connection', { type: 'connection.cancel' })
      for (const capability of context.input.capabilities)
        if (capability.connection && context.capabilitiesRunning.includes(capability.id))
          toChainConnection(context, enqueue, capability.connection.chain, { type: 'connection.cancel' })
    }),
    /** SPEC §2: a refused action shakes the modal (its 500 ms is the modal's `shake` delay). */
    shakeModal: sendTo('modal', { type: 'modal.shake' }),
    /** SPEC §7: a failure, as an error event (its `errorType`, `errorMessage`, `stackTrace`); capped by the slot. */
    reportError: sendTo('telemetry', ({ event }) => {
      assertEvent(event, 'kit.reportError')
      return {
        type: 'telemetry.send',
        event: { type: 'error', event: event.event, ...event.report },
      }
    }),
    /** SPEC §7: the login frame failed to load (or refused the page): reported as an error event. */
    reportFrameFailure: sendTo('telemetry', ({ event }) => {
      assertEvent(event, 'embedded.failed')
      return {
        type: 'telemetry.send',
        event: {
          type: 'error',
          event: 'EMBEDDED_WALLET_ERROR',
          ...frameFailureReport(event.error),
        },
      }
    }),
    showEmbeddedUnavailable: assign(({ context }) => addAlert(context, ALERTS.EMBEDDED_WALLET_LOAD_FAILED)),
    /** A wallet request (connect, send) timed out: SPEC §8 alert REQUEST_TIMED_OUT. */
    showTimedOutAlert: assign(({ context }) => addAlert(context, ALERTS.REQUEST_TIMED_OUT)),
    scheduleRpcNotAllowedAlert: raise(
      { type: 'kit.rpcNotAllowedAlert' },
      { delay: 'rpcNotAllowedAlert', id: 'rpcNotAllowedAlert' },
    ),
    showRpcNotAllowedAlert: assign(({ context }) => addAlert(context, ALERTS.RPC_METHOD_NOT_ALLOWED)),
    showSessionExpiredAlert: assign(({ context }) => addAlert(context, ALERTS.SESSION_EXPIRED)),
    showInvalidProjectIdAlert: assign(({ context }) => addAlert(context, ALERTS.INVALID_PROJECT_ID)),
    showUnverifiedDomainAlert: assign(({ context }) => addAlert(context, ALERTS.UNVERIFIED_DOMAIN)),
    showInvalidAppConfigurationAlert: assign(({ context }) =>
      addAlert(context, ALERTS.INVALID_APP_CONFIGURATION),
    ),
    showNetworkNotFoundAlert: assign(({ context }) => addAlert(context, ALERTS.NETWORK_NOT_FOUND)),
    /** An embedded-wallet-only action with no embedded account: the SPEC §8 text, as an error toast. */
    refuseWithoutEmbeddedAccount: sendTo('toast', {
      type: 'toast.show',
      variant: 'error',
      message: new AuthConnectorNotFoundError().shortMessage,
    }),
    showFrameAlert: assign(({ context, event }) => {
      assertEvent(event, 'embedded.failed')
      return addAlert(context, event.alert)
    }),
    /** The views' language (`kit.setLocale`): the views load its catalog and keep the last one until it comes. */
    setLocale: assign((_, params: { locale: KitLocale }) =>
      isKitLocale(params.locale) ? { locale: params.locale } : {},
    ),
    /** Takes one alert away: the visitor dismissed it, or what it said no longer holds. */
    dismissAlert: assign(({ context }, params: { code: AlertCode }) => ({
      alerts: context.alerts.filter((alert) => alert.code !== params.code),
    })),
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
    onConnected: enqueueActions(({ context, enqueue, event }) => onConnected(context, enqueue, event)),
    onDisconnected: enqueueActions(({ context, enqueue, event }) => onDisconnected(context, enqueue, event)),
    followChain: enqueueActions(({ context, enqueue, event }) => followChain(context, enqueue, event)),
    followAccount: enqueueActions(({ context, enqueue, event }) => followAccount(context, enqueue, event)),
    selectWallet: enqueueActions(({ context, enqueue, event }) => selectWallet(context, enqueue, event)),
    holdConnectingView: assign(({ event }) => {
      assertEvent(event, 'kit.showConnecting')
      return { connectingView: { view: event.view, wallet: event.wallet } }
    }),
    showConnectingView: sendTo('modal', ({ event }) => {
      assertEvent(event, 'kit.showConnecting')
      return { type: 'router.push' as const, view: event.view }
    }),
    showHeldConnectingView: enqueueActions(({ context, enqueue }) => {
      if (context.connectingView)
        enqueue.sendTo('modal', { type: 'router.push', view: context.connectingView.view })
      enqueue.assign({ connectingView: undefined })
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
      // Through the kit: the listing's machine gets it, or keeps it until its code has loaded.
      if (is.showsWalletList(args)) enqueue.raise({ type: 'wallets.load' })
      if (is.showsBalances(args)) {
        enqueue.raise({ type: 'account.load' })
        fetchBalances(context, enqueue)
      }
    }),
  },
})

type ModalActorRef = ActorRefFrom<typeof modalMachine>
