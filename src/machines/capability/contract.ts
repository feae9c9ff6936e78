import type { QueryClient } from '@tanstack/react-query'
import type { Config as WagmiConfig } from 'wagmi'
import type { ActorRefFrom, AnyActorLogic, EventFromLogic, InputFrom } from 'xstate'
import type { ResolvedKitConfig } from '../../config'
import type { ErrorReport } from '../../errors/base'
import type { AccountEvent, AccountNotice } from '../account'
import type { ChainNamespace, ConnectionAccount, ConnectorInfo } from '../connection'
import type { ModalEvent } from '../modal'
import type { ToastEvent } from '../toast'

/**
 * The capability contract: what a feature of the kit (send, swap, Buy, names, sign-in, or a host's own) declares
 * to run beside the kit's root without the root naming it. The root keeps the modal, toasts, alerts, theme,
 * locale, the wallet listing, the login frame and the connections; a capability plugs in with:
 *
 * - `id`: its name, the `systemId` of its running actor, and the prefix of the events it takes (`swap.*`);
 * - `offered`: when it is offered (a feature flag, a namespace, an account), read from the kit's scope;
 * - `views`: the modal views it owns: showing one loads it (and `components`, the code that draws them);
 * - `load`: how its code loads (an `import()`): its statechart with its slots filled, and its glue;
 * - `input`: what its statechart starts from, for the account shown when it loads;
 * - `perAccount`: it is for one account: another account, chain or namespace (or none) ends it;
 * - `balances`: the event that hands its running statechart the account's latest balances, if it wants them;
 * - `accounts`: the event that tells its running statechart of a connect, a chain change or a disconnect (any
 *   namespace's), and of the accounts connected when it starts, if it follows them itself;
 * - `afterConnect`: the view the modal turns to after a fresh connect instead of closing, if it has one;
 * - `leave`: the event its statechart takes when the visitor leaves one of its views (back, close, Escape);
 * - the glue (returned by `load`, so it loads with the capability's code): what its notices do to the kit
 *   (toasts, refreshes, navigation), through {@link CapabilityKit}.
 *
 * @example
 * ```ts
 * import type { Capability } from 'walletstate'
 * import { setup } from 'xstate'
 *
 * const greeter = setup({ types: { input: {} as { address: string } } }).createMachine({ id: 'greeter' })
 *
 * export const greeterCapability: Capability<typeof greeter> = {
 *   id: 'greeter',
 *   views: ['greeter.Main'],
 *   offered: ({ connected }) => connected !== undefined,
 *   perAccount: true,
 *   load: async () => ({ logic: greeter, glue: () => () => {} }),
 *   input: ({ connected }) => (connected ? { address: connected.address } : undefined),
 * }
 * ```
 */
export interface Capability<Logic extends AnyActorLogic = AnyActorLogic> {
  /** Its name: its running actor's `systemId`, and the prefix of the events the kit forwards to it. */
  readonly id: string
  /**
   * Other prefixes of the events it takes (a host's `pay.*` for a payment capability). An event of its own sent
   * before it runs loads it (when offered) and reaches its statechart once it does.
   */
  readonly takes?: readonly string[]
  /** Whether the kit offers it now: only then does it load (a view of it shows "unavailable" otherwise). */
  readonly offered: (scope: CapabilityScope) => boolean
  /** The modal views it owns: showing one loads it, for the account shown. */
  readonly views: readonly string[]
  /**
   * The code that draws its views, by view name, loaded when the view first shows (a React component as the
   * module's default export). The kit's own capabilities' views are in the kit's view registry instead.
   */
  readonly components?: Readonly<Record<string, () => Promise<{ default: unknown }>>>
  /** Its views that show the account's balances: showing one has the kit read them (fresh when due). */
  readonly balanceViews?: readonly string[]
  /** Loads its code: its statechart, with its slots filled from the kit's services, and its glue. */
  readonly load: (services: CapabilityServices) => Promise<LoadedCapability<Logic>>
  /** What its statechart starts from; `undefined`: not for this scope (the view shows it unavailable). */
  readonly input: (scope: CapabilityScope) => InputFrom<Logic> | undefined
  /** It is for one account: when the account, its chain or the namespace shown changes, it ends. */
  readonly perAccount?: boolean
  /** The event that hands it the account's latest balances (none: it reads its own). */
  readonly balances?: (balances: KitBalances) => EventFromLogic<Logic>
  /** Loads at the kit's start when this holds (e.g. a stored session to restore), not on its views. */
  readonly atStart?: (scope: CapabilityScope) => boolean
  /**
   * The event that tells its running statechart what changed in the kit's accounts (every namespace's, not
   * only the one shown), and which accounts are connected when it starts; `undefined`: nothing for it.
   */
  readonly accounts?: (
    change: AccountsChange,
  ) => EventFromLogic<Logic> | readonly EventFromLogic<Logic>[] | undefined
  /** The event that tells its running statechart the view the modal shows now (undefined: closed), if it follows them. */
  readonly view?: (view: string | undefined) => EventFromLogic<Logic> | undefined
  /**
   * While offered: the view the modal turns to after a fresh connect (the account just connected is in the
   * scope), instead of closing; `undefined`: the modal closes as usual.
   */
  readonly afterConnect?: (scope: CapabilityScope) => string | undefined
  /**
   * Its code did not load while events of its own waited for it (`held`, in order): what the kit is told
   * instead (e.g. a refusal for whoever waits on an answer). The next event or view loads it again.
   */
  readonly unavailable?: (held: readonly EventFromLogic<Logic>[]) => readonly CapabilityKitEvent[]
  /**
   * Its statechart is a namespace's connection (a connection machine, src/machines/connection.ts): the kit sends
   * it that namespace's connection events (connect, switch, disconnect, cancel) and hears its notices
   * (`account.connected`, …, sent to its parent) as its own. `embeddedConnectorId`: the embedded wallet's
   * connector there (a login in the frame carries over to it without Connect).
   */
  readonly connection?: {
    readonly chain: ChainNamespace
    readonly embeddedConnectorId?: string
    /**
     * Its connector for a multichain WalletConnect pairing's account on this namespace (SPEC §1 `multichain`):
     * the kit connects it once the default namespace's pairing, which proposed this namespace too, is approved.
     */
    readonly multichainConnectorId?: string
  }
  /** The event its statechart takes when the visitor leaves one of its views (back, close, Escape), if any. */
  readonly leave?: (view: string) => EventFromLogic<Logic> | undefined
}

/** The kit's connected accounts, by namespace. */
export type KitAccounts = Readonly<Partial<Record<ChainNamespace, ConnectionAccount>>>

/**
 * A change of the kit's accounts as a capability hears it: `started` when its statechart starts (the accounts
 * connected then), else a namespace's (`chain`) connect, chain change, account change (another of the wallet's
 * shared accounts shown) or disconnect, or the namespace shown turned to (`activated`), with the accounts after
 * it. `shown` is the account the views show after it; `shownChanged`, whether that is another account (or chain,
 * or none) than before.
 */
export type AccountsChange =
  | {
      readonly change: 'started'
      readonly accounts: KitAccounts
      readonly shown: ConnectionAccount | undefined
      readonly shownChanged: true
    }
  | {
      readonly change: 'connected' | 'chainChanged' | 'accountChanged' | 'disconnected' | 'activated'
      readonly chain: ChainNamespace
      readonly accounts: KitAccounts
      readonly shown: ConnectionAccount | undefined
      readonly shownChanged: boolean
    }

/** A capability as the kit holds it: its loader bound to the kit's services by the composition root. */
export interface RegisteredCapability<Logic extends AnyActorLogic = AnyActorLogic>
  extends Omit<Capability<Logic>, 'load'> {
  readonly load: () => Promise<LoadedCapability<Logic>>
}

/** What a capability's code gives the kit once loaded. */
export interface LoadedCapability<Logic extends AnyActorLogic = AnyActorLogic> {
  /** Its statechart, its slots filled. */
  logic: Logic
  /**
   * Its glue, run while its statechart runs: it follows the actor's notices and tells the kit what they mean.
   * Returns its stop.
   */
  glue?: (actor: ActorRefFrom<Logic>, kit: CapabilityKit) => () => void
}

/** The account's latest balances, as the kit shares them. */
export type KitBalances = Extract<AccountNotice, { type: 'account.balancesUpdated' }>['balances']

/** What a capability reads of the kit to decide whether it is offered and what it starts from. */
export interface CapabilityScope {
  readonly config: ResolvedKitConfig
  /** The account the views and the host act on (the namespace shown's), if any. */
  readonly connected: ConnectionAccount | undefined
  /** That account's latest balances. */
  readonly balances: KitBalances
  /** Every namespace's connected account. */
  readonly accounts: KitAccounts
  /** The visitor's time zone (IANA), read once at the edge. */
  readonly timeZone: string | undefined
}

/** What the composition root hands a capability's loader. */
export interface CapabilityServices {
  readonly config: ResolvedKitConfig
  readonly wagmi: WagmiConfig
  /** The kit's one QueryClient (the host's, once KitRoot adopted it): read it when used. */
  readonly queryClient: () => QueryClient
}

/** What a capability's glue may ask of the kit. */
export interface CapabilityKit {
  /** Tells the kit: a toast, a move of the modal, a refresh of the account, an alert, or its own event. */
  send(event: CapabilityKitEvent): void
  /** The view the modal shows now (undefined while it is closed). */
  view(): string | undefined
}

/**
 * The kit's events a capability's glue may send: toasts, the modal's moves, the account's refresh and pending
 * transactions (SPEC §9), a disconnect
 * (of `chain`'s account; the one shown without it), the request-timed-out alert (SPEC §8), a connection's failure
 * (SPEC §7 telemetry), and any capability's own events (by their prefix).
 */
export type CapabilityKitEvent =
  | ToastEvent
  | ModalEvent
  | Extract<
      AccountEvent,
      { type: 'account.refreshBalances' | 'account.transactionSent' | 'account.transactionSettled' }
    >
  | { type: 'connection.disconnect'; chain?: ChainNamespace }
  /** A connection's connectors changed (a namespace's connection capability's glue). */
  | { type: 'kit.connectors'; connectors: readonly ConnectorInfo[]; namespace?: ChainNamespace }
  | { type: 'request.timedOut'; request: string }
  /** A connection's failure, for the kit's error telemetry (SPEC §7; a namespace's connection capability's glue). */
  | { type: 'kit.reportError'; event: string; report: ErrorReport }
  | CapabilityEvent

/**
 * The events the capabilities take, by capability: each capability's module adds its own, so the kit's
 * `send` is typed for them without the root naming any.
 *
 * @example
 * ```ts
 * import type { CapabilityEvents } from 'walletstate'
 *
 * // In your capability's module: its events join the kit's `send` types.
 * declare module 'walletstate' {
 *   interface CapabilityEvents {
 *     greeter: { type: 'greeter.hello' }
 *   }
 * }
 * export type GreeterEvent = CapabilityEvents['greeter']
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one entry per capability
export interface CapabilityEvents {}

/** Any capability's own event. */
export type CapabilityEvent = CapabilityEvents[keyof CapabilityEvents]

/** Whether an event is for the capability `id` (its prefix). */
export const isEventFor = (id: string, type: string): boolean => type.startsWith(`${id}.`)
