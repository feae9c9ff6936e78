import type { ActorRefFrom, SnapshotFrom } from 'xstate'
import { and, assign, forwardTo, not, raise, sendTo } from 'xstate'
import type { CapabilityStatus } from './capability'
import { type ConnectionMachine, chainOfNotice, connectionMachine } from './connection'
import { onDemand } from './kit/onDemand'
import { capabilityOffered, legalAccepted } from './kit/rules'
import { kitSetup } from './kit/setup'
import type { KitContext, KitInput } from './kit/types'
import type { ModalMachine } from './modal'
import type { ToastMachine } from './toast'

export type { CapabilityStatus } from './capability'
export { matchConnector } from './kit/matchConnector'
export type { FrameViewEvent, KitContext, KitEvent, KitInput, KitTheme } from './kit/types'

/**
 * The root of the kit: composes the child machines and holds the rules where they meet (SPEC §2, §4), each a
 * named guard (src/machines/kit/rules.ts) on a transition below. Pure: its I/O (telemetry, the loaders of the
 * capabilities loaded on demand and their followers) are slots (src/machines/kit/setup.ts) that `createKit`
 * (src/kit/createKit.ts) provides. Children have a `systemId`: views reach them with `kit.system.get('modal')`.
 */
export const kitMachine: KitMachine = /* @__PURE__ */ defineDefaultKitMachine()

/** `kitMachine`: the chart with the unprovided connection machine as its `connection` slot. */
function defineDefaultKitMachine() {
  return defineKitMachine().provide({ actors: { connection: connectionMachine } })
}

/**
 * Builds the kit's statechart. `createKit` builds the one a page runs from this, with its slots filled and its
 * context bound; a host that never imports `kitMachine` itself then holds one tree of it, not two (issue 14:
 * each copy of the tree is ~30 KiB of heap), since `kitMachine` above is dropped by the host's bundler.
 */
export function defineKitMachine() {
  return kitSetup.createMachine({
    id: 'kit',
    context: ({ input }) => {
      if (!input) throw new Error('The kit machine starts with its input: use createKitMachine(config)')
      return initialKitContext(input)
    },
    // The capabilities that load at start (their `atStart`), and Solana's connection, with a Solana network (its
    // region's guard decides).
    entry: ['spawnCapabilities', 'loadCapabilitiesAtStart'],
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
          mobile: context.input.mobile ?? false,
        }),
      },
      { id: 'followConnectors', src: 'followConnectors' },
      { id: 'chainStore', src: 'chainStore' },
    ],
    on: {
      'modal.*': { actions: forwardTo('modal') },
      'modal.shown': { actions: ['mirrorModal', 'loadForView', 'tellCapabilitiesView'] },
      // Another account, chain or namespace (or none): capabilities for one account end; a view of one still shown
      // starts it again, for the account shown now.
      'capabilities.accountChanged': { actions: 'endAccountCapabilities' },
      'capabilities.load': { actions: 'loadCapability' },
      'capabilities.running': { actions: 'noteRunning' },
      // A capability's glue: it moves the modal (as the kit, not as the visitor), or tells the kit any other event.
      'capabilities.tell': { actions: 'fromCapability' },
      // The login frame loads on the visitor's intent: the Connect view's e-mail and social logins send
      // `embedded.load` when the pointer enters them, a key is typed or a control is focused, so a visitor who
      // connects a wallet never pays for it (issue 14: a second document and its script context). Without hover
      // (touch) no pointer shows intent before a tap: the frame loads once the open dialog has painted.
      // The wallet listing's code loads once the open has painted (`afterOpenPaint`): Connect paints without it
      // (its listed wallets join), so nothing is fetched between the press and Connect on screen. The analytics
      // config is read then too (SPEC §8 alert on a 403).
      'modal.open': [
        {
          guard: 'loadsFrameOnOpen',
          actions: [
            forwardTo('modal'),
            raise({ type: 'embedded.load' }, { delay: 'embeddedAfterOpen' }),
            raise({ type: 'listing.load' }, { delay: 'afterOpenPaint' }),
            sendTo('telemetry', { type: 'telemetry.check' }, { delay: 'afterOpenPaint' }),
          ],
        },
        {
          actions: [
            forwardTo('modal'),
            raise({ type: 'listing.load' }, { delay: 'afterOpenPaint' }),
            sendTo('telemetry', { type: 'telemetry.check' }, { delay: 'afterOpenPaint' }),
          ],
        },
      ],
      // Leaving a view (back, close, Escape) ends what it showed: the frame's flow, and a connection attempt. The
      // modal moves first, so the kit hears its new view before the frame's.
      'modal.close': [
        {
          guard: 'leavesFrameSigning',
          actions: [forwardTo('modal'), 'rejectFrameRequests', 'cancelConnecting'],
        },
        { guard: 'leavesFrameFlow', actions: [forwardTo('modal'), 'cancelFrameFlow', 'cancelConnecting'] },
        // Leaving a capability's view its statechart hears being left (its `leave`): told, as it said.
        { guard: 'leavesCapabilityView', actions: [forwardTo('modal'), 'leaveCapabilityView'] },
        { actions: [forwardTo('modal'), 'cancelConnecting'] },
      ],
      'router.back': [
        {
          guard: 'leavesFrameSigning',
          actions: [forwardTo('modal'), 'rejectFrameRequests', 'cancelConnecting'],
        },
        { guard: 'leavesFrameFlow', actions: [forwardTo('modal'), 'cancelFrameFlow', 'cancelConnecting'] },
        { guard: 'leavesCapabilityView', actions: [forwardTo('modal'), 'leaveCapabilityView'] },
        { actions: [forwardTo('modal'), 'cancelConnecting'] },
      ],
      'router.*': { actions: forwardTo('modal') },
      // SPEC §8: the embedded wallet's own actions need an account connected through it; otherwise the next
      // (wildcard) transition forwards them to the frame as any other.
      'frame.updateEmail': { guard: 'withoutEmbeddedAccount', actions: 'refuseWithoutEmbeddedAccount' },
      'frame.setAccountType': { guard: 'withoutEmbeddedAccount', actions: 'refuseWithoutEmbeddedAccount' },
      // "Try again" on a frame that failed to load starts a fresh frame: its load-failure alert goes with the
      // failure (a new failure raises it again), so a frame that now loads leaves no alert saying it did not.
      'frame.retry': {
        guard: 'frameRuns',
        actions: [
          forwardTo(({ context }) => context.frame!),
          { type: 'dismissAlert', params: { code: 'EMBEDDED_WALLET_LOAD_FAILED' } },
        ],
      },
      // SPEC §1 legalCheckbox: no login starts before the visitor agreed (the event is taken, and dropped);
      // after, it goes to the frame as any other command.
      'frame.connectEmail': [
        { guard: not('legalAccepted') },
        { guard: 'frameRuns', actions: forwardTo(({ context }) => context.frame!) },
      ],
      'frame.connectSocial': [
        { guard: not('legalAccepted') },
        { guard: 'frameRuns', actions: forwardTo(({ context }) => context.frame!) },
      ],
      'frame.connectFarcaster': [
        { guard: not('legalAccepted') },
        { guard: 'frameRuns', actions: forwardTo(({ context }) => context.frame!) },
      ],
      'frame.*': { guard: 'frameRuns', actions: forwardTo(({ context }) => context.frame!) },
      'embedded.connected': { guard: not('connectedThroughEmbedded'), actions: 'connectEmbedded' },
      'embedded.disconnected': {
        guard: 'connectedThroughEmbedded',
        actions: sendTo('connection', { type: 'connection.lost' }),
      },
      'embedded.failed': { actions: ['showFrameAlert', 'reportFrameFailure'] },
      // SPEC §2 modal shake: the frame refused the visitor's code or address.
      'embedded.refused': { actions: 'shakeModal' },
      // SPEC §7: with analytics on, failures are reported (the telemetry slot caps them, 5 per 60 s).
      'kit.reportError': { actions: 'reportError' },
      // SPEC §8: the RPC-method-not-allowed alert is shown 300 ms after the refusal (named delay).
      'embedded.rpcNotAllowed': { actions: 'scheduleRpcNotAllowedAlert' },
      'kit.rpcNotAllowedAlert': { actions: 'showRpcNotAllowedAlert' },
      // SPEC §5, §8: the analytics config refused this page's origin (403): invalid app configuration.
      'telemetry.configRefused': { actions: 'showInvalidAppConfigurationAlert' },
      // SPEC §8: the provider's services refuse the project id.
      'wallets.projectRefused': { actions: 'showInvalidProjectIdAlert' },
      // A wallet request timed out: the connection's, or a capability's (SPEC §8 alert).
      'request.timedOut': { actions: ['showTimedOutAlert', 'withdrawFrameRequests'] },
      // SPEC §3 Verify context: wallets will flag this page's domain for the pairing shown (SPEC §8 alert).
      'connection.domainUnverified': { actions: 'showUnverifiedDomainAlert' },
      // The modal follows the frame's flow: its view is pushed, and left when the flow moves on. The view expected
      // is mirrored at once (the modal's notice confirms it), and the capabilities hear it as soon.
      'embedded.view': [
        {
          guard: 'frameAsksToSign',
          actions: [
            'expectFrameView',
            'tellCapabilitiesView',
            sendTo('modal', ({ event }) => ({ type: 'modal.open', view: event.view })),
          ],
        },
        {
          guard: 'frameShowsAnotherView',
          actions: [
            'expectFrameView',
            'tellCapabilitiesView',
            sendTo('modal', ({ event }) => ({ type: 'router.push', view: event.view! })),
          ],
        },
        { guard: 'frameShowsView' },
        { guard: 'frameEndsEmailUpdate', actions: 'endEmailUpdate' },
        { guard: 'frameLoggedIn' },
        {
          guard: 'frameViewShown',
          actions: ['expectBack', 'tellCapabilitiesView', sendTo('modal', { type: 'router.back' })],
        },
      ],
      'toast.*': { actions: forwardTo('toast') },
      // SPEC §8 alert NETWORK_NOT_FOUND: a switch to a chain the app did not configure never reaches the wallet.
      // An exact match is tried before the wildcard, which forwards every other switch.
      'connection.switchChain': { guard: 'switchesToUnknownNetwork', actions: 'showNetworkNotFoundAlert' },
      // To the connection of the event's namespace: a connect to its connector's, a switch to its chain's, the
      // visitor's other connection events (retry, disconnect) to the namespace shown.
      // SPEC §1 legalCheckbox: nor a connect the host asks for.
      'connection.connect': [{ guard: not('legalAccepted') }, { actions: 'toConnection' }],
      'connection.*': { actions: 'toConnection' },
      'network.select': { actions: 'selectNetwork' },
      // Each connection lists its own connectors; the kit holds both (Connect lists them together).
      'kit.connectors': {
        actions: assign({
          connectors: ({ context, event }) => [
            ...context.connectors.filter((c) => c.chain !== chainOfNotice(event)),
            ...event.connectors,
          ],
        }),
      },
      // The listing's machine gets what is asked of it; before its code has loaded, the request waits for it.
      'wallets.*': [
        { guard: 'walletsRun', actions: forwardTo(({ context }) => context.wallets!) },
        { actions: ['holdForWallets', raise({ type: 'listing.load' }, { delay: 'afterOpenPaint' })] },
      ],
      // The theme at run time: shown at once, and synced to the login frame when it runs.
      'kit.setThemeMode': { guard: 'validTheme', actions: 'setTheme' },
      'kit.setThemeVariables': { guard: 'validTheme', actions: 'setTheme' },
      'kit.dismissAlert': {
        actions: { type: 'dismissAlert', params: ({ event }) => ({ code: event.code }) },
      },
      'kit.setLocale': { actions: { type: 'setLocale', params: ({ event }) => ({ locale: event.locale }) } },
      'legal.accept': { actions: assign({ legalAccepted: ({ event }) => event.accepted }) },
      'wallet.select': { guard: 'legalAccepted', actions: 'selectWallet' },
      'account.connected': { actions: 'onConnected' },
      'account.disconnected': { actions: 'onDisconnected' },
      'account.changed': { actions: 'followAccount' },
      'account.chainChanged': [
        {
          guard: 'opensUnsupportedChain',
          actions: ['followChain', sendTo('modal', { type: 'modal.open', view: 'UnsupportedChain' })],
        },
        {
          guard: 'leavesUnsupportedChain',
          actions: ['followChain', sendTo('modal', { type: 'modal.close' })],
        },
        { actions: 'followChain' },
      ],
      // The pairing's QR code is no longer valid: the connection asks the wallet again (a fresh URI).
      'remoteSessions.proposalExpired': {
        guard: 'connectingThroughWalletConnect',
        actions: sendTo('connection', { type: 'connection.pairingExpired' }),
      },
      // The wallet deleted the session (or it expired): disconnected now, not when the provider notices.
      // SPEC §8: an expired session (not one the wallet deleted) also shows the session-expired alert.
      'remoteSessions.sessionEnded': [
        {
          guard: and(['connectedThroughWalletConnect', 'sessionExpired']),
          actions: [sendTo('connection', { type: 'connection.lost' }), 'showSessionExpiredAlert'],
        },
        {
          guard: 'connectedThroughWalletConnect',
          actions: sendTo('connection', { type: 'connection.lost' }),
        },
      ],
      // The account machine's own events (the connection's `account.*` notices match exactly).
      'account.*': { guard: 'accountRuns', actions: forwardTo(({ context }) => context.account!) },
      'account.balancesUnavailable': {
        actions: sendTo('toast', ({ event }) => ({
          type: 'toast.show',
          variant: 'error',
          message: event.message,
        })),
      },
      'account.balancesUpdated': { actions: 'shareBalances' },
      // A capability's own event (its id is the prefix): to its host, which hands it to its statechart once it runs.
      // The most general descriptor: every event the root takes itself is matched before.
      '*': { guard: 'forCapability', actions: 'toCapability' },
    },
    type: 'parallel',
    states: {
      /**
       * SPEC §9 image preload race: the chosen wallet's Connecting view shows once its image has loaded (so it
       * never pops in), or after 2 s (`imagePreloadRace`) should it be slow; a wallet without one shows at once.
       * The connect itself has started already (the wallet's prompt does not wait for the image).
       */
      walletImage: {
        initial: 'idle',
        on: {
          'kit.showConnecting': [
            { guard: 'chosenWalletHasImage', target: '.preloading', actions: 'holdConnectingView' },
            { target: '.idle', actions: 'showConnectingView' },
          ],
        },
        states: {
          idle: {},
          preloading: {
            invoke: {
              src: 'preloadImage',
              input: ({ context }) => context.connectingView!.wallet,
              onDone: { target: 'idle', actions: 'showHeldConnectingView' },
              onError: { target: 'idle', actions: 'showHeldConnectingView' },
            },
            after: { imagePreloadRace: { target: 'idle', actions: 'showHeldConnectingView' } },
          },
        },
      },
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
      /** The wallet listing (SPEC §9): Connect's featured and recommended wallets, All Wallets. */
      wallets: onDemand({
        load: 'listing.load',
        guard: 'listingOn',
        loader: 'loadWallets',
        started: 'spawnWallets',
        running: 'sendPendingToWallets',
        follow: 'followWallets',
      }),
    },
  })
}

/** The kit's context at start, from its input. */
export function initialKitContext(input: KitInput): KitContext {
  const { config, ...rest } = input
  return {
    config,
    input: rest,
    alerts: config.alerts,
    locale: config.locale,
    modal: { open: false, history: [] },
    connected: undefined,
    accounts: {},
    activeNamespace: rest.activeNamespace,
    connecting: undefined,
    pairedAlong: [],
    connectors: [],
    balances: [],
    remoteSessions: undefined,
    frame: undefined,
    account: undefined,
    capabilities: {},
    capabilitiesRunning: [],
    wallets: undefined,
    walletsPending: [],
    theme: { themeMode: config.themeMode, themeVariables: config.themeVariables },
    legalAccepted: false,
    connectingView: undefined,
  }
}

/** A capability loaded on demand (a region built by `onDemand`). */
export type KitCapability = 'embedded' | 'remoteSessions' | 'account' | 'wallets'

/** The status of a region loaded on demand, e.g. `selectCapability(snapshot, 'wallets') === 'failed'`. */
export function selectCapability(snapshot: { value: unknown }, capability: KitCapability): CapabilityStatus {
  const value = (snapshot.value as Record<KitCapability, string | object>)[capability]
  const state = typeof value === 'string' ? value : Object.keys(value)[0]
  return (['idle', 'loading', 'running', 'failed'] as const).find((s) => s === state) ?? 'idle'
}

/** The language the views are asked to show (its catalog may still be loading). */
export const selectLocale = (snapshot: { context: Pick<KitContext, 'locale'> }) => snapshot.context.locale
/**
 * Whether the kit offers a capability now (its `offered`, in the kit's scope), e.g.
 * `selectCapabilityOffered(snapshot, 'onramp')`; false for one not registered.
 */
export const selectCapabilityOffered = (
  snapshot: { context: Pick<KitContext, 'config' | 'connected' | 'input' | 'balances' | 'accounts'> },
  id: string,
) => capabilityOffered(snapshot.context, id)
/** A capability's host (its status, its running statechart as `context.actor`), once the kit started. */
export const selectCapabilityHost = (snapshot: { context: Pick<KitContext, 'capabilities'> }, id: string) =>
  snapshot.context.capabilities[id]
/** Whether a connect may start (SPEC §1 `legalCheckbox`: off, or the visitor ticked it). */
export const selectLegalAccepted = (snapshot: { context: Pick<KitContext, 'config' | 'legalAccepted'> }) =>
  legalAccepted(snapshot.context)

/** The alerts shown at the top of the modal (SPEC §8). */
export const selectAlerts = (snapshot: { context: Pick<KitContext, 'alerts'> }) => snapshot.context.alerts

/**
 * The kit's statechart type by name (`kitMachine`, `createKitMachine`'s machine is one too): declarations that use
 * it, and the actor types below, name it instead of repeating it (what keeps the package's .d.ts files small).
 */
export interface KitMachine extends KitMachineType {}
type KitMachineType = ReturnType<typeof defineKitMachine>
export interface KitActorRef extends ActorRefFrom<KitMachine> {}
export type KitSnapshot = SnapshotFrom<KitMachine>
export interface ModalActorRef extends ActorRefFrom<ModalMachine> {}
export interface ToastActorRef extends ActorRefFrom<ToastMachine> {}
export interface ConnectionActorRef extends ActorRefFrom<ConnectionMachine> {}
