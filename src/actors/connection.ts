import type { Config, Connector } from 'wagmi'
import { watchConnectors } from 'wagmi/actions'
import { fromCallback, fromPromise } from 'xstate'
import { EMBEDDED_CONNECTOR_ID } from '../chains/eip155/embedded'
import { WALLETCONNECT_CONNECTOR_ID } from '../chains/eip155/walletConnect'
import { CONNECTOR_IMAGE_IDS, DISCONNECT_TIMEOUT_MS, WALLET_NAME_MAX_LENGTH } from '../constants'
import type {
  ChainId,
  ChosenWallet,
  ConnectInput,
  ConnectionEvent,
  ConnectOutput,
  ConnectorInfo,
  PersistRequest,
  ReconnectOutput,
} from '../machines/connection'
import type { KitStore } from '../storage'
import { safeText } from '../utils/links'
import type { ConnectionCalls } from './connectionCalls'

/**
 * The eip155 implementations of the connection machine's actor slots, over wagmi core actions. The kit
 * provides them; tests provide fakes instead.
 *
 * What runs for every visitor is here: the connectors' list, the persistence of a connection, and the check
 * that there is a stored connection to restore. wagmi's connect, reconnect, disconnect and chain switch and
 * the live connection's watchers are in ./connectionCalls.ts, which loads with the first of them: a visitor
 * who never connects never fetches it (issue 14), and a failed load is that call's failure.
 */
export interface Eip155ActorDependencies {
  wagmi: Config
  store: KitStore
  /** How long reconnect waits for the stored wallet to announce itself (EIP-6963 is asynchronous). */
  announceWaitMs?: number
  /**
   * How long a new attempt waits for a cancelled one's disconnect (default DISCONNECT_TIMEOUT_MS): a wallet
   * that never lets the old attempt go must not hold up the next one.
   */
  endingWaitMs?: number
}

export function createEip155ConnectionActors({
  wagmi,
  store,
  announceWaitMs = 1_000,
  endingWaitMs = DISCONNECT_TIMEOUT_MS,
}: Eip155ActorDependencies) {
  let loading: Promise<ConnectionCalls> | undefined
  /** The calls, loaded once; a load that failed (the network) is tried again by the next call. */
  const calls = (): Promise<ConnectionCalls> => {
    loading ??= import('./connectionCalls').then(
      ({ createConnectionCalls }) => createConnectionCalls({ wagmi, announceWaitMs, endingWaitMs }),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }

  async function reconnectStored(): Promise<ReconnectOutput> {
    const recentWallets = store.read('recentWallets') ?? []
    const connectorId = store.read('connectorId')
    // A visitor who disconnected is not reconnected behind their back; nor is an unknown wallet probed. A wallet
    // opened by its mobile link before the page went away has its pairing resumed (the `resumePairing` slot).
    if (store.read('connectionStatus') !== 'connected' || !connectorId) {
      const linking = store.read('wcLinking')
      return { account: undefined, connections: {}, recentWallets, ...(linking ? { linking } : {}) }
    }
    return { ...(await (await calls()).reconnect(connectorId)), recentWallets }
  }

  /** The reconnect at start while it runs (it goes on after the machine stops waiting for it). */
  let reconnecting: Promise<unknown> | undefined

  return {
    reconnect: fromPromise<ReconnectOutput>(() => {
      const run = reconnectStored()
      reconnecting = run
      return run
    }),

    connect: fromPromise<ConnectOutput, ConnectInput>(async ({ input, signal }) =>
      (await calls()).connect(input.connectorId, signal, input.alsoPropose),
    ),

    disconnect: fromPromise<void, { connectorId: string | undefined }>(async ({ input }) =>
      (await calls()).disconnect(input.connectorId),
    ),

    /** The kit routes only eip155's numbers here (a Solana chain id goes to Solana's connection). */
    switchChain: fromPromise<ChainId, { chainId: ChainId }>(async ({ input }) =>
      (await calls()).switchChain(input.chainId as number),
    ),

    /** The kit's choice among the wallet's shared accounts becomes wagmi's active address (./connectionCalls.ts). */
    selectAccount: fromPromise<string, { connectorId: string; address: string }>(async ({ input }) =>
      (await calls()).selectAccount(input.connectorId, input.address),
    ),

    watchConnection: fromCallback<ConnectionEvent, { connectorId: string }>(({ sendBack }) =>
      whenLoaded(calls, (loaded) => loaded.watchConnection(sendBack)),
    ),

    watchConnectors: fromCallback<ConnectionEvent>(({ sendBack }) => {
      const publish = (connectors: readonly Connector[]) =>
        sendBack({ type: 'connection.connectors', connectors: connectors.map(toConnectorInfo) })
      publish(wagmi.connectors)
      return watchConnectors(wagmi, { onChange: publish })
    }),

    watchPairing: fromCallback<ConnectionEvent, { connectorId: string }>(({ sendBack, input }) =>
      input.connectorId === WALLETCONNECT_CONNECTOR_ID
        ? whenLoaded(calls, (loaded) => loaded.watchPairing(input.connectorId, sendBack))
        : () => {},
    ),

    /** After the reconnect at start ran past its limit: wagmi's reconnect still finishing (the calls are loaded). */
    watchLateReconnect: fromCallback<ConnectionEvent>(({ sendBack }) => {
      // wagmi is read once the reconnect at start has finished its work (it may still be loading the calls or
      // waiting for the wallet to announce itself), then followed until it settles.
      let stop: (() => void) | undefined
      let stopped = false
      void (reconnecting ?? Promise.resolve())
        .catch(() => {})
        .then(calls)
        .then(
          (loaded) => {
            if (!stopped) stop = loaded.watchLateReconnect(sendBack)
          },
          () => {
            if (!stopped) sendBack({ type: 'connection.lost' })
          },
        )
      return () => {
        stopped = true
        stop?.()
      }
    }),

    /** Computes the wallet's link with the pairing URI and opens it, in the calls' chunk (./connectionCalls.ts). */
    openWallet: fromCallback<ConnectionEvent, { connectorId: string; wallet: ChosenWallet; uri: string }>(
      ({ sendBack, input }) =>
        whenLoaded(calls, (loaded) => {
          void loaded.openWallet(input, sendBack)
          return () => {}
        }),
    ),

    resumePairing: fromPromise<ConnectOutput, { connectorId: string }>(async ({ input, signal }) =>
      (await calls()).resumePairing(input.connectorId, signal),
    ),

    persistence: fromCallback<PersistRequest>(({ receive }) => {
      receive((request) => {
        if (request.type === 'persist.linking') {
          store.write('wcLinking', request.linking)
        } else if (request.type === 'persist.linkingForgotten') {
          store.remove('wcLinking')
        } else if (request.type === 'persist.connected') {
          store.write('walletId', request.wallet.id)
          store.write('walletName', request.wallet.name)
          store.write('connectorId', request.wallet.connectorId)
          store.write('recentWallets', request.recentWallets)
          store.write('connectionStatus', 'connected')
          store.write('lastUsedChain', 'eip155')
          if (request.chainId) store.write('activeNetwork', `eip155:${request.chainId}`)
        } else if (request.type === 'persist.chain') {
          if (request.chainId) store.write('activeNetwork', `eip155:${request.chainId}`)
        } else {
          store.write('connectionStatus', 'disconnected')
          store.remove('connectorId')
          store.remove('wcLinking')
        }
      })
    }),
  }
}

/**
 * A watcher from the loaded calls: it starts once they are there (a connection already loaded them, so at
 * once) and never starts if it was stopped first.
 */
function whenLoaded(
  calls: () => Promise<ConnectionCalls>,
  start: (loaded: ConnectionCalls) => () => void,
): () => void {
  let stop: (() => void) | undefined
  let stopped = false
  calls().then(
    (loaded) => {
      if (!stopped) stop = start(loaded)
    },
    () => {},
  )
  return () => {
    stopped = true
    stop?.()
  }
}

/** Only image data URIs are kept as connector icons (EIP-6963 requires one); anything else is dropped. */
export function safeIcon(icon: string | undefined): string | undefined {
  if (!icon || icon.length > 200_000) return undefined
  return /^data:image\/(png|jpeg|gif|webp|svg\+xml)(;base64)?,/i.test(icon) ? icon : undefined
}

/**
 * A wagmi connector as the kit's Connect view sees it (SPEC §1 connector types): the kit's WalletConnect and
 * embedded wallet, injected wallets (announced by EIP-6963 when they have an rdns), and `external` for any
 * other connector of a host's own wagmi config (the `wagmiConfig` option: e.g. wagmi's `metaMask`, `mock`).
 * The name is whatever the announcement or the injected provider says, so it is cleaned as the listing's is
 * (`safeText`: no bidi overrides, invisible characters or lone surrogates, bounded); the connector's own id
 * stays as it is (it is matched, never shown).
 */
export function toConnectorInfo(connector: Connector): ConnectorInfo {
  const rdns = typeof connector.rdns === 'string' ? connector.rdns : connector.rdns?.[0]
  const type =
    connector.id === WALLETCONNECT_CONNECTOR_ID
      ? 'walletconnect'
      : connector.id === EMBEDDED_CONNECTOR_ID
        ? 'auth'
        : connector.type !== 'injected'
          ? 'external'
          : rdns
            ? 'announced'
            : 'injected'
  const imageUrl = safeIcon(connector.icon)
  const imageId = connectorImageId(type)
  return {
    id: connector.id,
    name:
      safeText(connector.name, WALLET_NAME_MAX_LENGTH) ||
      safeText(rdns ?? connector.id, WALLET_NAME_MAX_LENGTH),
    type,
    chain: 'eip155',
    ...(imageUrl ? { imageUrl } : {}),
    ...(imageId ? { imageId } : {}),
    ...(rdns ? { rdns } : {}),
  }
}

/** SPEC §3 Connector `imageId`: the provider's image of the kit's own connectors and of a plain injected wallet. */
export function connectorImageId(type: ConnectorInfo['type']): string | undefined {
  return type === 'walletconnect'
    ? CONNECTOR_IMAGE_IDS.walletConnect
    : type === 'auth'
      ? CONNECTOR_IMAGE_IDS.auth
      : type === 'injected'
        ? CONNECTOR_IMAGE_IDS.injected
        : undefined
}
