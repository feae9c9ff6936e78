import { type Config, type Connector, ConnectorAlreadyConnectedError } from 'wagmi'
import {
  connect,
  disconnect,
  getConnection,
  getConnections,
  reconnect,
  switchChain,
  watchConnection,
  watchConnectors,
} from 'wagmi/actions'
import { fromCallback, fromPromise } from 'xstate'
import { EMBEDDED_CONNECTOR_ID } from '../chains/eip155/embedded'
import { WALLETCONNECT_CONNECTOR_ID } from '../chains/eip155/walletConnect'
import { DISCONNECT_TIMEOUT_MS } from '../constants'
import { walkError } from '../errors/base'
import {
  ConnectorAccountNotFoundError,
  ConnectorNotFoundError,
  DisconnectError,
  SwitchChainError,
  toConnectionError,
  UserRejectedError,
} from '../errors/connection'
import type {
  ConnectionAccount,
  ConnectionContext,
  ConnectionEvent,
  ConnectOutput,
  ConnectorInfo,
  PersistRequest,
  ReconnectOutput,
} from '../machines/connection'
import type { KitStore } from '../storage'

/**
 * The eip155 implementations of the connection machine's actor slots, over wagmi core actions. The kit
 * provides them; tests provide fakes instead.
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

/** How long reconnect waits for wagmi's own reconnect in flight. */
const SETTLE_TIMEOUT_MS = 10_000

/** A pairing URI without its own expiry is treated as valid this long (WalletConnect's default is 5 min). */
const DEFAULT_PAIRING_TTL_MS = 5 * 60_000

export function createEip155ConnectionActors({
  wagmi,
  store,
  announceWaitMs = 1_000,
  endingWaitMs = DISCONNECT_TIMEOUT_MS,
}: Eip155ActorDependencies) {
  const findConnector = (id: string): Connector | undefined => wagmi.connectors.find((c) => c.id === id)
  /** Connectors whose cancelled attempt is still being ended. */
  const ending = new Map<string, Promise<void>>()

  return {
    reconnect: fromPromise<ReconnectOutput>(async () => {
      const recentWallets = store.read('recentWallets') ?? []
      const connectorId = store.read('connectorId')
      // A visitor who disconnected is not reconnected behind their back; nor is an unknown wallet probed.
      if (store.read('connectionStatus') !== 'connected' || !connectorId) {
        return { account: undefined, connections: {}, recentWallets }
      }
      const connector =
        findConnector(connectorId) ?? (await waitForConnector(wagmi, connectorId, announceWaitMs))
      if (!connector) return { account: undefined, connections: {}, recentWallets }
      await reconnect(wagmi, { connectors: [connector] })
      // wagmi runs one reconnect at a time and answers a second caller at once (React's strict mode starts
      // the kit twice): wait for the reconnect in flight to settle before reading the result.
      await settled(wagmi, SETTLE_TIMEOUT_MS)
      return { account: currentAccount(wagmi), connections: connectionsOf(wagmi), recentWallets }
    }),

    connect: fromPromise<ConnectOutput, { connectorId: string }>(async ({ input, signal }) => {
      const connector = findConnector(input.connectorId)
      if (!connector) throw new ConnectorNotFoundError({ details: input.connectorId })
      // An attempt that replaces a cancelled one (a retry, a fresh QR code) starts once the cancelled one has
      // ended: its disconnect must not land on the new pairing.
      const previous = ending.get(connector.id)
      if (previous) await Promise.race([previous, delay(endingWaitMs)])
      // A cancelled attempt must not finish in the background: the wallet's pending prompt or pairing ends.
      const onAbort = () => {
        const ended = connector.disconnect().catch(() => {})
        ending.set(connector.id, ended)
        void ended.then(() => {
          if (ending.get(connector.id) === ended) ending.delete(connector.id)
        })
      }
      signal.addEventListener('abort', onAbort, { once: true })
      try {
        const result = await connect(wagmi, { connector })
        const address = result.accounts[0]
        if (!address) throw new ConnectorAccountNotFoundError()
        const account: ConnectionAccount = {
          address,
          addresses: result.accounts,
          chainId: result.chainId,
          connectorId: connector.id,
        }
        return { account, connections: connectionsOf(wagmi) }
      } catch (error) {
        // wagmi refuses a connector that is already connected: that connection is the answer.
        if (walkError(error, (e) => e instanceof ConnectorAlreadyConnectedError)) {
          const account = currentAccount(wagmi)
          if (account && account.connectorId === connector.id) {
            return { account, connections: connectionsOf(wagmi) }
          }
        }
        throw toConnectionError(error)
      } finally {
        signal.removeEventListener('abort', onAbort)
      }
    }),

    disconnect: fromPromise<void, { connectorId: string | undefined }>(async ({ input }) => {
      const connector = input.connectorId ? findConnector(input.connectorId) : undefined
      try {
        await disconnect(wagmi, connector ? { connector } : {})
      } catch (error) {
        throw new DisconnectError({ cause: error })
      }
    }),

    switchChain: fromPromise<number, { chainId: number }>(async ({ input }) => {
      try {
        const chain = await switchChain(wagmi, { chainId: input.chainId })
        return chain.id
      } catch (error) {
        // A decline stays a decline; anything else is the SPEC's 'Failed to switch to chain'.
        const mapped = toConnectionError(error)
        if (mapped instanceof UserRejectedError) throw mapped
        throw new SwitchChainError({ cause: error })
      }
    }),

    watchConnection: fromCallback<ConnectionEvent, { connectorId: string }>(({ sendBack }) =>
      watchConnection(wagmi, {
        onChange(connection) {
          if (connection.status === 'connected') {
            sendBack({
              type: 'connection.changed',
              account: {
                address: connection.address,
                addresses: connection.addresses,
                chainId: connection.chainId,
                connectorId: connection.connector.id,
              },
            })
          } else if (connection.status === 'disconnected') {
            sendBack({ type: 'connection.lost' })
          }
        },
      }),
    ),

    watchConnectors: fromCallback<ConnectionEvent>(({ sendBack }) => {
      const publish = (connectors: readonly Connector[]) =>
        sendBack({ type: 'connection.connectors', connectors: connectors.map(toConnectorInfo) })
      publish(wagmi.connectors)
      return watchConnectors(wagmi, { onChange: publish })
    }),

    watchPairing: fromCallback<ConnectionEvent, { connectorId: string }>(({ sendBack, input }) => {
      if (input.connectorId !== WALLETCONNECT_CONNECTOR_ID) return () => {}
      const connector = findConnector(input.connectorId)
      if (!connector) return () => {}
      // The URI's expiry is shown as a countdown; when the proposal behind it expires is the remote session
      // client's to say (`remoteSessions.proposalExpired` in the kit), so one clock decides.
      const onMessage = (message: { type: string; data?: unknown }) => {
        if (message.type !== 'display_uri' || typeof message.data !== 'string') return
        sendBack({ type: 'connection.wcUri', uri: message.data, expiry: pairingExpiry(message.data) })
      }
      connector.emitter.on('message', onMessage)
      return () => connector.emitter.off('message', onMessage)
    }),

    persistence: fromCallback<PersistRequest>(({ receive }) => {
      receive((request) => {
        if (request.type === 'persist.connected') {
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
        }
      })
    }),
  }
}

/** The expiry a WalletConnect URI carries (`expiryTimestamp`, seconds), else five minutes from now. */
export function pairingExpiry(uri: string, now = Date.now()): number {
  const match = /[?&]expiryTimestamp=(\d{9,11})(?:&|$)/.exec(uri)
  if (!match) return now + DEFAULT_PAIRING_TTL_MS
  return Number(match[1]) * 1_000
}

/** Only image data URIs are kept as connector icons (EIP-6963 requires one); anything else is dropped. */
export function safeIcon(icon: string | undefined): string | undefined {
  if (!icon || icon.length > 200_000) return undefined
  return /^data:image\/(png|jpeg|gif|webp|svg\+xml)(;base64)?,/i.test(icon) ? icon : undefined
}

function toConnectorInfo(connector: Connector): ConnectorInfo {
  const rdns = typeof connector.rdns === 'string' ? connector.rdns : connector.rdns?.[0]
  const type =
    connector.id === WALLETCONNECT_CONNECTOR_ID
      ? 'walletconnect'
      : connector.id === EMBEDDED_CONNECTOR_ID
        ? 'auth'
        : rdns
          ? 'announced'
          : 'injected'
  const imageUrl = safeIcon(connector.icon)
  return {
    id: connector.id,
    name: connector.name.slice(0, 80),
    type,
    chain: 'eip155',
    ...(imageUrl ? { imageUrl } : {}),
    ...(rdns ? { rdns } : {}),
  }
}

function currentAccount(wagmi: Config): ConnectionAccount | undefined {
  const connection = getConnection(wagmi)
  if (connection.status !== 'connected') return undefined
  return {
    address: connection.address,
    addresses: connection.addresses,
    chainId: connection.chainId,
    connectorId: connection.connector.id,
  }
}

function connectionsOf(wagmi: Config): ConnectionContext['connections'] {
  return Object.fromEntries(
    getConnections(wagmi).map((c) => [c.connector.id, { accounts: c.accounts, chainId: c.chainId }]),
  )
}

function settled(wagmi: Config, timeoutMs: number): Promise<void> {
  const busy = () => {
    const { status } = getConnection(wagmi)
    return status === 'reconnecting' || status === 'connecting'
  }
  if (!busy()) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop()
      resolve()
    }, timeoutMs)
    const stop = watchConnection(wagmi, {
      onChange() {
        if (busy()) return
        clearTimeout(timer)
        stop()
        resolve()
      },
    })
  })
}

function waitForConnector(wagmi: Config, id: string, timeoutMs: number): Promise<Connector | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop()
      resolve(undefined)
    }, timeoutMs)
    const stop = watchConnectors(wagmi, {
      onChange(connectors) {
        const found = connectors.find((c) => c.id === id)
        if (!found) return
        clearTimeout(timer)
        stop()
        resolve(found)
      },
    })
  })
}

/** Resolves after `ms` (its timer does not keep a process alive). */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    if (typeof timer === 'object' && 'unref' in timer) timer.unref()
  })
}
