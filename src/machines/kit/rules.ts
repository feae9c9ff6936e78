import { assertEvent } from 'xstate'
import { themeVariablesProblems } from '../../config'
import type { ViewName } from '../../views'
import type { AccountEvent } from '../account'
import { type CapabilityScope, isEventFor } from '../capability/contract'
import {
  type ChainId,
  type ChainNamespace,
  type ChosenWallet,
  type ConnectionAccount,
  chainNamespaceOf,
  type Eip155Account,
} from '../connection'
import type { AccountRef, KitContext, KitEvent } from './types'

/*
 * The kit's cross-machine rules as plain functions of its context and an event: its guards call them, and
 * tests can read them without a running kit.
 */

/** The view the modal shows, or undefined while it is closed. */
export const shownView = (context: Pick<KitContext, 'modal'>): ViewName | undefined =>
  context.modal.open ? context.modal.history.at(-1) : undefined

/** Views of the frame's login flows: leaving one cancels the flow. */
export const FRAME_FLOW_VIEWS: ReadonlySet<ViewName> = new Set<ViewName>([
  'EmailVerifyOtp',
  'EmailVerifyDevice',
  'ConnectingSocial',
  'ConnectingFarcaster',
  'UpdateEmailWallet',
  'UpdateEmailPrimaryOtp',
  'UpdateEmailSecondaryOtp',
])

export { matchConnector } from './matchConnector'

/**
 * SPEC §2 ConnectingWalletConnectBasic: a pairing for no wallet in particular (Connect's "WalletConnect" entry, the
 * connector's own id) or for one the listing gives nothing to show it by (no image, no link) is drawn without a
 * wallet's branding: the QR code and the copy link only.
 */
export const pairsWithoutBranding = (wallet: ChosenWallet, walletConnectId: string): boolean =>
  wallet.id === walletConnectId ||
  (!wallet.imageUrl && !wallet.imageId && !wallet.mobileLink && !wallet.desktopLink && !wallet.webappLink)

/** SPEC §9 image preload race: the chosen wallet has an image to wait for (its own, or the provider's by id). */
export const chosenWalletHasImage = ({ event }: { event: KitEvent }): boolean =>
  event.type === 'kit.showConnecting' && !!(event.wallet?.imageUrl || event.wallet?.imageId)

/** The views that show the account's balances: the Account view's details (a capability's: its `balanceViews`). */
const BALANCE_VIEWS: ReadonlySet<ViewName> = new Set<ViewName>(['Account'])
/** The CAIP-2 id of a chain id (a Solana one is already CAIP-2). */
export const caip2 = (chainId: ChainId): string =>
  typeof chainId === 'number' ? `eip155:${chainId}` : chainId

type Rule = (args: { context: KitContext; event: KitEvent }) => boolean

/**
 * SPEC §1 `legalCheckbox`: a connect may start (no checkbox, or the visitor ticked it). Unticked, every way to
 * start one (a wallet, WalletConnect, e-mail, a social login, the host's `connection.connect`) is refused.
 */
export const legalAccepted = (context: Pick<KitContext, 'config' | 'legalAccepted'>): boolean =>
  !context.config.features.legalCheckbox || context.legalAccepted

/** The kit's rules, named: its guards, and what its actions check. */
export const is = {
  /** A theme set at run time that the kit can show: a known mode, variables the config would accept. */
  validTheme: ({ event }) =>
    event.type === 'kit.setThemeMode'
      ? event.themeMode === 'dark' || event.themeMode === 'light'
      : event.type === 'kit.setThemeVariables' && themeVariablesProblems(event.themeVariables).length === 0,
  legalAccepted: ({ context }) => legalAccepted(context),
  chosenWalletHasImage,
  storedLogin: ({ context }) => embeddedOn(context) && context.input.storedLogin,
  embeddedOn: ({ context }) => embeddedOn(context),
  /** A device without hover (touch): the login frame loads when the modal opens, not on a pointer's intent. */
  loadsFrameOnOpen: ({ context }) => embeddedOn(context) && context.input.frameOnOpen,
  /** SPEC §2: UnsupportedChain opens unless unsupported chains are allowed or switching is disabled. */
  opensUnsupportedChain: ({ context, event }) => {
    assertEvent(event, 'account.chainChanged')
    return !event.supported && !context.config.allowUnsupportedChain && context.config.enableNetworkSwitch
  },
  /** Back on a supported chain: an UnsupportedChain view still open has done its job. */
  leavesUnsupportedChain: ({ context, event }) => {
    assertEvent(event, 'account.chainChanged')
    return event.supported && context.modal.open && context.modal.history.includes('UnsupportedChain')
  },
  /** Leaving the view a signing request shows the frame for declines it; leaving a login view cancels it. */
  leavesFrameSigning: ({ context }) => !!context.frame && shownView(context) === 'ApproveTransaction',
  leavesFrameFlow: ({ context }) => !!context.frame && FRAME_FLOW_VIEWS.has(shownView(context)!),
  /** The expired proposal is the QR code of the attempt in progress (WalletConnect). */
  connectingThroughWalletConnect: ({ context }) =>
    context.connecting === context.input.connectorIds.walletConnect,
  /** The WalletConnect session ended by its expiry (not deleted by either side). */
  sessionExpired: ({ event }) => event.type === 'remoteSessions.sessionEnded' && event.outcome === 'expired',
  /**
   * SPEC §8 alert NETWORK_NOT_FOUND: a network switch asked for a chain the app did not configure (the host's
   * `connection.switchChain`; the Networks view only lists configured ones). The wallet is never asked.
   */
  switchesToUnknownNetwork: ({ context, event }) =>
    event.type === 'connection.switchChain' && !isConfiguredChain(context, event.chainId),
  /**
   * An embedded-wallet-only action (update the e-mail, switch the account type) while the kit is not connected
   * through the embedded wallet: no auth connector, or no address, to do it for (SPEC §8).
   */
  withoutEmbeddedAccount: ({ context, event }) =>
    (event.type === 'frame.updateEmail' || event.type === 'frame.setAccountType') &&
    context.connected?.connectorId !== context.input.connectorIds.embedded,
  connectedThroughWalletConnect: ({ context }) =>
    context.connected?.connectorId === context.input.connectorIds.walletConnect,
  connectedThroughEmbedded: ({ context }) =>
    context.connected?.connectorId === context.input.connectorIds.embedded,
  /**
   * Issue 17: the visitor, connected through the embedded wallet on eip155, chooses a Solana network where
   * nothing is connected: the same login connects Solana's connection (the frame turns to Solana), no Connect.
   */
  embeddedCarriesOver: ({ context, event }) => {
    if (event.type !== 'network.select' || !context.frame) return false
    const chain = networkOf(context, event.caipNetworkId)?.chainNamespace as ChainNamespace | undefined
    return (
      chain !== undefined &&
      embeddedConnectorOf(context, chain) !== undefined &&
      chain !== DEFAULT_CHAIN &&
      connectionRuns(context, chain) &&
      !context.accounts[chain] &&
      context.accounts[DEFAULT_CHAIN]?.connectorId === context.input.connectorIds.embedded
    )
  },
  /**
   * Issue 17: the chosen network's account is the embedded wallet's (on either namespace): the frame's current
   * chain follows the visitor's choice, so it shows (and reads) that namespace's account.
   */
  frameFollowsNetwork: ({ context, event }) => {
    if (event.type !== 'network.select' || !context.frame) return false
    const chain = networkOf(context, event.caipNetworkId)?.chainNamespace as ChainNamespace | undefined
    const account = chain === undefined ? undefined : context.accounts[chain]
    return account !== undefined && account.connectorId === embeddedConnectorOf(context, chain!)
  },
  /** Only a signing request opens the closed modal by itself; a login view waits for the visitor. */
  frameAsksToSign: ({ context, event }) =>
    event.type === 'embedded.view' && event.view === 'ApproveTransaction' && !context.modal.open,
  frameShowsAnotherView: ({ context, event }) =>
    event.type === 'embedded.view' && !!event.view && context.modal.open && shownView(context) !== event.view,
  frameShowsView: ({ event }) => event.type === 'embedded.view' && !!event.view,
  frameEndsEmailUpdate: ({ event }) =>
    event.type === 'embedded.view' && !!event.previous?.startsWith('UpdateEmail'),
  /** The flow's view is still shown (the visitor did not leave it). */
  frameViewShown: ({ context, event }) =>
    event.type === 'embedded.view' && !!event.previous && shownView(context) === event.previous,
  emailUpdated: ({ event }) => event.type === 'embedded.view' && event.connected && !event.failed,
  /** A login that connected closes the modal through the connection: its view is not left by hand. */
  frameLoggedIn: ({ event }) =>
    event.type === 'embedded.view' && event.connected && event.previous !== 'ApproveTransaction',
  frameRuns: ({ context }) => !!context.frame,
  accountRuns: ({ context }) => !!context.account,
  walletsRun: ({ context }) => !!context.wallets,
  /** The visitor leaves a capability's view whose statechart hears it being left (its `leave`). */
  leavesCapabilityView: ({ context }) => leavesCapabilityView(context),
  /** The wallet listing is on (`features.allWallets`): only then is its code worth loading. */
  listingOn: ({ context }) => context.config.features.allWallets,
  /** The modal now shows a wallet list (Connect, All Wallets) and the full listing is on. */
  showsWalletList: ({ context, event }) =>
    event.type === 'modal.shown' &&
    context.config.features.allWallets &&
    (event.history.at(-1) === 'Connect' || event.history.at(-1) === 'AllWallets'),
  /** The modal now shows the account's balances while connected (a capability's too: its `balanceViews`). */
  showsBalances: ({ context, event }) => {
    if (event.type !== 'modal.shown' || !event.open || !context.connected) return false
    const view = event.history.at(-1)!
    return BALANCE_VIEWS.has(view) || context.input.capabilities.some((c) => c.balanceViews?.includes(view))
  },
  /** An event of a registered capability's (its id is the prefix): for its host. */
  forCapability: ({ context, event }) => capabilityFor(context, event.type) !== undefined,
} satisfies Record<string, Rule>

/** The scope a capability reads (the capability contract): the config, the account shown, its balances. */
export const capabilityScope = (
  context: Pick<KitContext, 'config' | 'connected' | 'balances' | 'input' | 'accounts'>,
): CapabilityScope => ({
  config: context.config,
  connected: context.connected,
  balances: context.balances,
  accounts: context.accounts,
  timeZone: context.input.timeZone,
})

/** The registered capability an event is for (its id is the event's prefix), if any. */
export const capabilityFor = (context: Pick<KitContext, 'input'>, type: string) =>
  context.input.capabilities.find(
    (capability) =>
      isEventFor(capability.id, type) || (capability.takes ?? []).some((prefix) => isEventFor(prefix, type)),
  )

/** Whether the kit offers a capability now, in its scope (false for one not registered). */
export function capabilityOffered(
  context: Pick<KitContext, 'config' | 'connected' | 'balances' | 'input' | 'accounts'>,
  id: string,
): boolean {
  const capability = context.input.capabilities.find((c) => c.id === id)
  return capability?.offered(capabilityScope(context)) ?? false
}

/**
 * Asks the running account machine for an account's balances (address, CAIP-2 chain): the one connected, or
 * `account` (the one the kit is about to show).
 */
export function fetchBalances(
  context: KitContext,
  enqueue: { sendTo: (to: AccountRef, event: AccountEvent) => void },
  account: ConnectionAccount | undefined = context.connected,
) {
  if (!context.account || !account || !balanceServed(account)) return
  enqueue.sendTo(context.account, {
    type: 'account.fetchBalances',
    address: account.address,
    chainId: caip2(account.chainId),
  })
}

/**
 * SPEC §1: balances are read on eip155 and Solana; a Bitcoin (bip122) account's are not (there is no Bitcoin
 * service), so none is asked for, and none claimed.
 */
export const balanceServed = (account: ConnectionAccount): boolean => chainNamespaceOf(account) !== 'bip122'

/** The account if it is on eip155 (sign-in, swap and the wagmi-based send are eip155's). */
export const evmAccount = (account: ConnectionAccount | undefined): Eip155Account | undefined =>
  account && chainNamespaceOf(account) === 'eip155' ? (account as Eip155Account) : undefined

/**
 * The kit's default namespace: its connection is the kit's own (`connection`, invoked at start). Every other one
 * plugs in as a capability whose statechart is its connection (the contract's `connection`).
 */
export const DEFAULT_CHAIN: ChainNamespace = 'eip155'

/** The capability that is `chain`'s connection, if one is registered. */
export const connectionCapabilityOf = (context: Pick<KitContext, 'input'>, chain: ChainNamespace) =>
  context.input.capabilities.find((capability) => capability.connection?.chain === chain)

/** `chain`'s connector for a multichain WalletConnect pairing's account there, if its connection has one. */
export const multichainConnectorOf = (context: Pick<KitContext, 'input'>, chain: ChainNamespace) =>
  chain === DEFAULT_CHAIN
    ? undefined
    : connectionCapabilityOf(context, chain)?.connection?.multichainConnectorId

/**
 * SPEC §1 `multichain`: the kit's other namespaces a wallet picked from the listing names beside the default one,
 * which the default namespace's WalletConnect pairing proposes too (one approval): each configured, its
 * connection running, with a connector for a multichain pairing's account. None for a wallet on one namespace.
 * Connect's own WalletConnect entry (any wallet may scan it) proposes every one of them while the default namespace
 * is shown, and the wallet approves those it has; while another namespace is shown it pairs that one alone.
 */
export function multichainAlso(
  context: Pick<KitContext, 'input' | 'config' | 'capabilitiesRunning' | 'activeNamespace'>,
  wallet: ChosenWallet,
): ChainNamespace[] {
  const listed = anyWalletScans(context, wallet)
    ? context.activeNamespace === DEFAULT_CHAIN
      ? [
          DEFAULT_CHAIN,
          ...context.input.capabilities.flatMap((c) => (c.connection ? [c.connection.chain] : [])),
        ]
      : []
    : (wallet.chainNamespaces ?? [])
  if (!listed.includes(DEFAULT_CHAIN)) return []
  return context.input.capabilities.flatMap((capability) => {
    const chain = capability.connection?.chain
    return chain !== undefined &&
      chain !== DEFAULT_CHAIN &&
      listed.includes(chain) &&
      context.config.networks.some((n) => n.chainNamespace === chain) &&
      connectionRuns(context, chain) &&
      multichainConnectorOf(context, chain) !== undefined
      ? [chain]
      : []
  })
}

/** Connect's own WalletConnect entry, which pairs whatever wallet scans it (not a wallet of the listing). */
const anyWalletScans = (context: Pick<KitContext, 'input'>, wallet: ChosenWallet): boolean =>
  wallet.id === context.input.connectorIds.walletConnect

/** `chain`'s connection runs: the default one always; another once its capability's statechart runs. */
export function connectionRuns(
  context: Pick<KitContext, 'input' | 'capabilitiesRunning'>,
  chain: ChainNamespace,
): boolean {
  if (chain === DEFAULT_CHAIN) return true
  const capability = connectionCapabilityOf(context, chain)
  return capability !== undefined && context.capabilitiesRunning.includes(capability.id)
}

/** The embedded wallet's connector on `chain`: the kit's own on the default one, a connection capability's else. */
export const embeddedConnectorOf = (context: Pick<KitContext, 'input'>, chain: ChainNamespace) =>
  chain === DEFAULT_CHAIN
    ? context.input.connectorIds.embedded
    : connectionCapabilityOf(context, chain)?.connection?.embeddedConnectorId

/**
 * Sends a connection event to `chain`'s connection: the kit's own, or its connection capability's statechart
 * (through its host, which holds it until the connection's code has loaded).
 */
export function toChainConnection(
  context: Pick<KitContext, 'input' | 'capabilities' | 'config' | 'connected' | 'balances' | 'accounts'>,
  enqueue: { sendTo: (to: never, event: never) => void },
  chain: ChainNamespace,
  event: KitEvent,
) {
  const capability = chain === DEFAULT_CHAIN ? undefined : connectionCapabilityOf(context, chain)
  const host = capability && context.capabilities[capability.id]
  if (host)
    enqueue.sendTo(
      host as never,
      {
        type: 'capability.forward',
        event,
        scope: capabilityScope(context),
      } as never,
    )
  else enqueue.sendTo('connection' as never, event as never)
}

/**
 * The namespace a connection event is for: a connect, its connector's; a network switch, its chain's (a number
 * is eip155's); any other (retry, disconnect), the namespace shown.
 */
export function eventNamespace(context: Pick<KitContext, 'connectors' | 'activeNamespace'>, event: KitEvent) {
  if (event.type === 'connection.connect')
    return context.connectors.find((c) => c.id === event.connectorId)?.chain ?? 'eip155'
  if (event.type === 'connection.switchChain')
    return typeof event.chainId === 'number' ? DEFAULT_CHAIN : (event.chainId.split(':')[0] as ChainNamespace)
  // A capability's disconnect of one namespace's account (sign-in's, eip155's).
  if (event.type === 'connection.disconnect' && 'chain' in event && event.chain) return event.chain
  return context.activeNamespace
}

/** A configured network by its CAIP-2 id. */
export const networkOf = (context: Pick<KitContext, 'config'>, caipNetworkId: string) =>
  context.config.networks.find((n) => n.caipNetworkId === caipNetworkId)

/** The login frame is wanted at all: e-mail or social login is on. */
export function embeddedOn(context: Pick<KitContext, 'config'>): boolean {
  return context.config.features.email || context.config.features.socials !== false
}

/** A chain id (eip155's number, Solana's CAIP-2 id) is one of the app's configured networks. */
export function isConfiguredChain(context: Pick<KitContext, 'config'>, chainId: ChainId): boolean {
  return context.config.networks.some((n) =>
    typeof chainId === 'number'
      ? n.chainNamespace === 'eip155' && Number(n.id) === chainId
      : n.caipNetworkId === chainId,
  )
}

/** The view shown is a capability's own that its statechart hears being left (its `leave`). */
export function leavesCapabilityView(context: Pick<KitContext, 'modal' | 'input'>): boolean {
  const view = shownView(context)
  return (
    view !== undefined &&
    context.input.capabilities.some((c) => c.views.includes(view) && c.leave?.(view) !== undefined)
  )
}
