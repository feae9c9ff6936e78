import { type ActorRefFrom, assertEvent, assign } from 'xstate'
import { CONNECT_TIMEOUT_MS } from '../constants'
import { ConnectTimeoutError, DisconnectError } from '../errors/connection'
import { connectionSetup, DISCONNECTED } from './connection/setup'
import type {
  ChainId,
  ChainNamespace,
  ConnectInput,
  ConnectionAccount,
  ConnectionContext,
  ConnectionStatus,
  ConnectionTag,
} from './connection/types'

/**
 * The connection lifecycle of one chain namespace (SPEC §4), over wagmi for eip155.
 *
 * reconnecting → connected | disconnected at start (existing connections are synced; a failure is
 * disconnected with empty connections). disconnected → connecting → connected, or back to disconnected with
 * the error kept (the `failed` substate, which offers retry). connected follows the wallet: account and chain
 * changes, a disconnect from the wallet's side, network switching, and another of the accounts the wallet
 * shares made the one shown (`connected.selectingAccount`, SPEC §3 allAccounts). disconnecting → disconnected, always: a
 * connector whose disconnect throws or never settles is reported ('Failed to disconnect', SPEC §8, as a toast)
 * and the kit is disconnected anyway.
 *
 * No state waits on a wallet forever (issue 13 item 2): each has a named delay (src/constants.ts) or a way out.
 * `reconnecting` ends after `reconnectTimeout` (disconnected, silently: nobody asked) and gives way to a
 * `connection.connect` or `connection.reset`; `connecting.requesting` fails after `connectTimeout` with
 * ConnectTimeoutError (the kit raises SPEC §8's REQUEST_TIMED_OUT on `request.timedOut`), while a shown pairing
 * URI waits for the visitor to scan, ended by its expiry or `connection.cancel`; `connected.switching` ends
 * after `switchChainTimeout`; `connected.selectingAccount` after `selectAccountTimeout`; `disconnecting` after
 * `disconnectTimeout`. A wallet answering after its time limit is ignored: the invoked actor was stopped (its
 * signal aborted) when the state was left.
 *
 * Every effect is a named actor slot (`reconnect`, `connect`, `disconnect`, `switchChain`, `watchConnection`,
 * `watchConnectors`, `watchPairing`, `persistence`, `selectAccount`); the kit fills them for wagmi, tests with fakes.
 *
 * The chart is here; its types (context, events, notices) are in `connection/types.ts`, and its slots, delays,
 * guards and actions in `connection/setup.ts`.
 */

export type * from './connection/types'

/** The namespace an account is on. */
export const chainNamespaceOf = (account: Pick<ConnectionAccount, 'namespace'>): ChainNamespace =>
  account.namespace ?? 'eip155'

/** The namespace a connection's notice (a disconnect, a chain change, its connectors) is about: eip155 unless it says. */
export const chainOfNotice = (notice: { namespace?: ChainNamespace }): ChainNamespace =>
  notice.namespace ?? 'eip155'

/**
 * The connection's statechart (SPEC §3). `createKit` builds the one a page runs from `defineConnectionMachine`,
 * with its slots filled; a host that never imports `connectionMachine` itself then holds one tree of it, not
 * two (issue 14), since the bundler drops the unused `connectionMachine`.
 */
export const connectionMachine: ConnectionMachine = /* @__PURE__ */ defineConnectionMachine()

export function defineConnectionMachine() {
  return connectionSetup.createMachine({
    id: 'connection',
    context: ({ input }) => ({
      namespace: input.namespace ?? 'eip155',
      connectors: [],
      ...DISCONNECTED,
      recentWallets: [],
      supportedChainIds: input.supportedChainIds,
      preferredChainId: input.preferredChainId,
      reusePairing: input.reusePairing ?? false,
      mobile: input.mobile ?? false,
    }),
    invoke: [
      { id: 'persistence', src: 'persistence' },
      { id: 'watchConnectors', src: 'watchConnectors' },
    ],
    on: {
      'connection.connectors': { actions: 'setConnectors' },
      'connection.preferChain': {
        actions: assign(({ event }) => ({ preferredChainId: event.chainId })),
      },
    },
    initial: 'reconnecting',
    states: {
      reconnecting: {
        tags: 'busy',
        invoke: {
          src: 'reconnect',
          onDone: [
            {
              guard: { type: 'hasAccount', params: ({ event }) => event.output },
              target: 'connected',
              actions: [
                { type: 'applyReconnect', params: ({ event }) => event.output },
                'notifyReconnected',
                'notifyChain',
              ],
            },
            {
              guard: { type: 'hasLinking', params: ({ event }) => event.output },
              target: 'resuming',
              actions: [
                'reset',
                { type: 'keepRecentWallets', params: ({ event }) => event.output },
                { type: 'setResumeTarget', params: ({ event }) => event.output.linking! },
              ],
            },
            {
              target: 'disconnected',
              actions: ['reset', { type: 'keepRecentWallets', params: ({ event }) => event.output }],
            },
          ],
          onError: { target: 'disconnected', actions: 'reset' },
        },
        // SPEC §4: a failed reconnect is disconnected; one that never settles is too, but wagmi's reconnect goes
        // on: `disconnected.lateReconnect` watches it and adopts a connection it makes after all. The visitor may
        // pick a wallet meanwhile (their choice wins). `connection.cancel` is not taken here: the kit sends it
        // whenever the modal closes, which must not drop a reconnect; after a connect, cancel works as anywhere.
        after: { reconnectTimeout: { target: 'disconnected.lateReconnect', actions: 'reset' } },
        on: {
          'connection.connect': { target: 'connecting', actions: 'setTarget' },
          'connection.reset': { target: 'disconnected', actions: 'reset' },
        },
      },
      // Back on the page after the wallet was opened by its mobile link (issue 18 item 5): the pairing left pending
      // completes once the wallet's approval is read from the relay. It ends after `resumeLinkingTimeout`, and
      // gives way to a wallet the visitor picks; like `reconnecting`, it ignores the modal's `connection.cancel`.
      resuming: {
        tags: ['busy', 'connecting'],
        invoke: {
          src: 'resumePairing',
          input: ({ context }) => ({ connectorId: context.target!.connectorId }),
          onDone: {
            target: 'connected',
            actions: [
              { type: 'applyConnect', params: ({ event }) => event.output },
              'notifyConnected',
              'persistConnected',
              'notifyChain',
            ],
          },
          onError: { target: 'disconnected', actions: ['forgetLinking', 'reset'] },
        },
        after: { resumeLinkingTimeout: { target: 'disconnected', actions: ['forgetLinking', 'reset'] } },
        on: {
          'connection.connect': { target: 'connecting', actions: ['forgetLinking', 'setTarget'] },
          'connection.reset': { target: 'disconnected', actions: ['forgetLinking', 'reset'] },
        },
      },
      disconnected: {
        initial: 'idle',
        on: {
          'connection.connect': [
            // The pairing is reused, but the wallet picked may be another one (it is the one remembered).
            {
              guard: 'canReusePairing',
              target: 'connecting.pairing',
              actions: ['setTarget', 'openWallet'],
            },
            { target: 'connecting', actions: 'setTarget' },
          ],
          'connection.reset': { target: '.idle', actions: ['forgetLinking', 'reset'] },
        },
        states: {
          idle: {},
          /**
           * The reconnect at start ran past its limit and the kit shows disconnected, but wagmi's own reconnect
           * has not given up. Kit and wagmi must not disagree: a connection wagmi makes now is adopted (connected,
           * as a reconnect); wagmi settling disconnected ends the watch. A connect or reset leaves it as `idle`.
           */
          lateReconnect: {
            invoke: { src: 'watchLateReconnect' },
            on: {
              'connection.reconnectedLate': {
                guard: 'lateConnectionAdoptable',
                target: '#connection.connected',
                actions: ['adoptLateReconnect', 'notifyReconnected', 'notifyChain'],
              },
              'connection.lost': { target: 'idle' },
            },
          },
          failed: {
            tags: 'failed',
            on: { 'connection.retry': { guard: 'hasTarget', target: '#connection.connecting' } },
          },
        },
      },
      connecting: {
        tags: ['busy', 'connecting'],
        invoke: [
          {
            src: 'connect',
            input: ({ context }): ConnectInput => ({
              connectorId: context.target!.connectorId,
              ...(context.target!.alsoPropose ? { alsoPropose: context.target!.alsoPropose } : {}),
              ...(context.preferredChainId !== undefined ? { chainId: context.preferredChainId } : {}),
            }),
            onDone: {
              target: 'connected',
              actions: [
                { type: 'applyConnect', params: ({ event }) => event.output },
                'notifyConnected',
                'persistConnected',
                'notifyChain',
              ],
            },
            onError: [
              // SPEC §1 multichain: the pairing made for another namespace holds no account here (the wallet did
              // not approve this one): nothing was asked of the visitor here, so nothing failed.
              { guard: 'connectingAlong', target: 'disconnected.idle', actions: ['forgetLinking', 'reset'] },
              {
                target: 'disconnected.failed',
                actions: [
                  'forgetLinking',
                  {
                    type: 'setError',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                  {
                    type: 'reportConnectFailure',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                ],
              },
            ],
          },
          {
            src: 'watchPairing',
            input: ({ context }) => ({ connectorId: context.target!.connectorId }),
          },
        ],
        on: {
          // A mobile browser opens the wallet by its mobile link as soon as the pairing URI exists.
          'connection.wcUri': { target: '.pairing', actions: ['setWcUri', 'openWallet'] },
          'connection.wcLinking': { actions: ['setWcLinking', 'persistLinking'] },
          'connection.cancel': { target: 'disconnected.idle', actions: ['forgetLinking', 'reset'] },
          // An expired pairing URI is replaced by a fresh attempt (the QR view shows the new one).
          'connection.pairingExpired': { target: 'connecting', reenter: true },
        },
        initial: 'requesting',
        states: {
          // Buffering starts here, not on entering `connecting`: a reused pairing (SPEC §4) enters `pairing`
          // directly and must keep the URI it shows.
          requesting: {
            entry: 'startBuffering',
            // The wallet asked (or the pairing URI fetched) and nothing came back: the attempt is abandoned.
            after: {
              connectTimeout: {
                target: '#connection.disconnected.failed',
                actions: [
                  'forgetLinking',
                  'setConnectTimedOut',
                  'notifyTimedOut',
                  {
                    type: 'reportConnectFailure',
                    params: () => new ConnectTimeoutError({ timeoutMs: CONNECT_TIMEOUT_MS }),
                  },
                ],
              },
            },
          },
          // Waits for the visitor to scan: ended by the pairing's expiry (a fresh attempt) or cancel. Meanwhile the
          // page's domain is attested for this pairing; a domain wallets will flag raises SPEC §8's alert.
          pairing: {
            // The warning speaks of the pairing shown; once it is gone (connected, failed, replaced) so is it.
            exit: assign({ domainVerification: undefined }),
            invoke: {
              src: 'verifyDomain',
              input: ({ context }) => ({ uri: context.wcUri ?? '' }),
              onDone: [
                {
                  guard: { type: 'domainUnverified', params: ({ event }) => event.output },
                  actions: [
                    { type: 'setDomainVerification', params: ({ event }) => event.output },
                    { type: 'notifyDomainUnverified', params: ({ event }) => event.output },
                  ],
                },
                { actions: { type: 'setDomainVerification', params: ({ event }) => event.output } },
              ],
              // No answer from the Verify service: the domain is UNKNOWN, as wallets will see it; no alert.
              onError: { actions: 'setDomainUnknown' },
            },
          },
        },
      },
      connected: {
        tags: 'connected',
        invoke: {
          src: 'watchConnection',
          input: ({ context }) => ({ connectorId: context.account?.connectorId ?? '' }),
        },
        on: {
          'connection.changed': [
            // The wallet switched accounts (or made the one the visitor chose its active one): the kit follows.
            {
              guard: 'addressChanged',
              actions: ['applyChange', 'persistChain', 'notifyAccount', 'notifyChain'],
            },
            { actions: ['applyChange', 'persistChain', 'notifyChain'] },
          ],
          'connection.lost': {
            target: 'disconnected',
            actions: ['reset', 'persistDisconnected', 'notifyDisconnected'],
          },
          'connection.disconnect': 'disconnecting',
        },
        initial: 'idle',
        states: {
          idle: {
            on: {
              'connection.switchChain': 'switching',
              // SPEC §3 allAccounts: another of the accounts the wallet shares becomes the one shown.
              'connection.selectAccount': { guard: 'accountShared', target: 'selectingAccount' },
            },
          },
          selectingAccount: {
            tags: 'busy',
            invoke: {
              src: 'selectAccount',
              input: ({ context, event }) => {
                assertEvent(event, 'connection.selectAccount')
                return { connectorId: context.account?.connectorId ?? '', address: event.address }
              },
              onDone: [
                {
                  guard: { type: 'notShownYet', params: ({ event }) => event.output },
                  target: 'idle',
                  actions: [
                    { type: 'showSelectedAccount', params: ({ event }) => event.output },
                    'notifyAccount',
                  ],
                },
                { target: 'idle', actions: 'clearError' },
              ],
              onError: {
                target: 'idle',
                actions: {
                  type: 'setSelectAccountError',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
              },
            },
            after: { selectAccountTimeout: { target: 'idle', actions: 'setSelectAccountTimedOut' } },
          },
          switching: {
            tags: ['busy', 'switching'],
            invoke: {
              src: 'switchChain',
              input: ({ event }) => {
                assertEvent(event, 'connection.switchChain')
                return { chainId: event.chainId }
              },
              onDone: {
                target: 'idle',
                actions: [
                  {
                    type: 'applySwitch',
                    params: ({ event }: { event: { output: ChainId } }) => event.output,
                  },
                  'persistChain',
                  'notifyChain',
                ],
              },
              onError: {
                target: 'idle',
                actions: {
                  type: 'setSwitchError',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
              },
            },
            after: { switchChainTimeout: { target: 'idle', actions: 'setSwitchTimedOut' } },
          },
        },
      },
      disconnecting: {
        tags: ['busy', 'disconnecting'],
        invoke: {
          src: 'disconnect',
          input: ({ context }) => ({ connectorId: context.account?.connectorId }),
          onDone: {
            target: 'disconnected',
            actions: ['reset', 'persistDisconnected', 'notifyDisconnected'],
          },
          // A disconnect always ends disconnected (issue 13): the failure is reported, the kit is not left
          // half-connected to a wallet it can no longer reach.
          onError: {
            target: 'disconnected',
            actions: [
              'reset',
              {
                type: 'setDisconnectError',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
              'persistDisconnected',
              'notifyDisconnected',
              'notifyFailure',
              {
                type: 'reportDisconnectFailure',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            ],
          },
        },
        after: {
          disconnectTimeout: {
            target: 'disconnected',
            actions: [
              'reset',
              'setDisconnectTimedOut',
              'persistDisconnected',
              'notifyDisconnected',
              'notifyFailure',
              {
                type: 'reportDisconnectFailure',
                params: () => new DisconnectError({ details: 'The connector did not answer in time' }),
              },
            ],
          },
        },
      },
    },
  })
}

/** The SPEC §4 status of a snapshot. */
export function selectStatus(snapshot: {
  matches: (value: 'reconnecting' | 'connecting' | 'resuming' | 'connected' | 'disconnecting') => boolean
}): ConnectionStatus {
  if (snapshot.matches('reconnecting')) return 'reconnecting'
  // A pairing resumed on return to the page (issue 18 item 5) is a connection being made.
  if (snapshot.matches('connecting') || snapshot.matches('resuming')) return 'connecting'
  if (snapshot.matches('connected') || snapshot.matches('disconnecting')) return 'connected'
  return 'disconnected'
}

type ConnectionTagged = { hasTag: (tag: ConnectionTag) => boolean }

/** A connection is being made (the wallet asked, or its QR code shown). */
export const selectIsConnecting = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('connecting')
/** An account is connected (and not being disconnected). */
export const selectIsConnected = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('connected')
/** A network switch is under way. */
export const selectIsSwitching = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('switching')
/** The disconnect is under way. */
export const selectIsDisconnecting = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('disconnecting')
/** The last connection attempt failed. */
export const selectConnectFailed = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('failed')
/** An operation is under way (reconnecting, connecting, switching, disconnecting). */
export const selectIsBusy = (snapshot: ConnectionTagged): boolean => snapshot.hasTag('busy')
export type ConnectionActorRef = ActorRefFrom<typeof connectionMachine>

/**
 * What the connecting view warns of for the pairing shown (SPEC §3 Verify context): `scam` when wallets will
 * flag the page's origin as a known scam, `unverified` when it is not one of the project's verified domains,
 * else `undefined` (VALID, UNKNOWN, or no answer yet).
 */
export function selectDomainWarning(snapshot: {
  context: Pick<ConnectionContext, 'domainVerification'>
}): { kind: 'scam' | 'unverified'; origin: string } | undefined {
  const verification = snapshot.context.domainVerification
  if (!verification) return undefined
  if (verification.isScam) return { kind: 'scam', origin: verification.origin }
  if (verification.validation === 'INVALID') return { kind: 'unverified', origin: verification.origin }
  return undefined
}

/**
 * `connectionMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface ConnectionMachine extends ConnectionMachineType {}
type ConnectionMachineType = ReturnType<typeof defineConnectionMachine>
