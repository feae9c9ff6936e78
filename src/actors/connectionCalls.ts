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
import { pairingExpiry } from '../chains/pairingExpiry'
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
  ChosenWallet,
  ConnectionAccount,
  ConnectionContext,
  ConnectionEvent,
  ConnectOutput,
} from '../machines/connection'
import { walletLinkWithUri } from '../utils/walletLinks'

/**
 * wagmi's connect, reconnect, disconnect and chain switch, and the watchers of a live connection: what the
 * eip155 connection slots (./connection.ts) call once a visitor connects or has a connection to restore. This
 * module loads with the first of those calls, so a page whose visitor never connects never fetches it
 * (issue 14: the host's JS before the first click).
 */
export interface ConnectionCallsDependencies {
  wagmi: Config
  /** How long reconnect waits for the stored wallet to announce itself (EIP-6963 is asynchronous). */
  announceWaitMs: number
  /** How long a new attempt waits for a cancelled one's disconnect. */
  endingWaitMs: number
  /** Opens a wallet's link: the page navigates to it (default `location.assign`). */
  navigate?: (href: string) => void
}

/** A connector that can take up a WalletConnect pairing left pending by a page that went away. */
interface ResumableConnector {
  resumePendingPairing?: (signal: AbortSignal) => Promise<void>
  /** Resolves once what the pairing needs after a reload (keys, proposal, subscriptions) is in storage. */
  storePendingPairing?: () => Promise<void>
}

/** The most the page waits for the pairing to be in storage before it goes to the wallet. */
const STORE_PAIRING_WAIT_MS = 2_000

const assignLocation = (href: string) => window.location.assign(href)

/** How long reconnect waits for wagmi's own reconnect in flight. */
const SETTLE_TIMEOUT_MS = 10_000

type SendBack = (event: ConnectionEvent) => void

export function createConnectionCalls({
  wagmi,
  announceWaitMs,
  endingWaitMs,
  navigate = assignLocation,
}: ConnectionCallsDependencies) {
  const findConnector = (id: string): Connector | undefined => wagmi.connectors.find((c) => c.id === id)
  /** Connectors whose cancelled attempt is still being ended. */
  const ending = new Map<string, Promise<void>>()

  return {
    /** The stored wallet's connection again, when it is (still) there. */
    async reconnect(
      connectorId: string,
    ): Promise<Omit<ConnectOutput, 'account'> & { account: ConnectionAccount | undefined }> {
      const connector =
        findConnector(connectorId) ?? (await waitForConnector(wagmi, connectorId, announceWaitMs))
      if (!connector) return { account: undefined, connections: {} }
      await reconnect(wagmi, { connectors: [connector] })
      // wagmi runs one reconnect at a time and answers a second caller at once (React's strict mode starts
      // the kit twice): wait for the reconnect in flight to settle before reading the result.
      await settled(wagmi, SETTLE_TIMEOUT_MS)
      return { account: currentAccount(wagmi), connections: connectionsOf(wagmi) }
    },

    async connect(
      connectorId: string,
      signal: AbortSignal,
      alsoPropose?: readonly string[],
    ): Promise<ConnectOutput> {
      const connector = findConnector(connectorId)
      if (!connector)
        throw new ConnectorNotFoundError({ details: connectorId })
        // A multichain wallet: WalletConnect's next pairing proposes its other namespaces too (one approval).
      ;(connector as { alsoPropose?: (namespaces: readonly string[]) => void }).alsoPropose?.(
        alsoPropose ?? [],
      )
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
    },

    async disconnect(connectorId: string | undefined): Promise<void> {
      const connector = connectorId ? findConnector(connectorId) : undefined
      try {
        await disconnect(wagmi, connector ? { connector } : {})
      } catch (error) {
        throw new DisconnectError({ cause: error })
      }
    },

    async switchChain(chainId: number): Promise<number> {
      try {
        const chain = await switchChain(wagmi, { chainId })
        return chain.id
      } catch (error) {
        // A decline stays a decline; anything else is the SPEC's 'Failed to switch to chain'.
        const mapped = toConnectionError(error)
        if (mapped instanceof UserRejectedError) throw mapped
        throw new SwitchChainError({ cause: error })
      }
    },

    /**
     * Makes `address`, one of the accounts the connector shares, wagmi's active one: its connection lists it first,
     * as wagmi does when a wallet switches accounts itself, so every request the kit or the host sends through
     * wagmi (transactions, signatures, the sender it reads) comes from it. The wallet is not asked: it shared them.
     */
    async selectAccount(connectorId: string, address: string): Promise<string> {
      const { current, connections } = wagmi.state
      const connection = current === null ? undefined : connections.get(current)
      const chosen = connection?.accounts.find((a) => a.toLowerCase() === address.toLowerCase())
      if (!connection || connection.connector.id !== connectorId || !chosen || current === null)
        throw new ConnectorAccountNotFoundError({ details: address })
      const accounts = [chosen, ...connection.accounts.filter((a) => a !== chosen)] as const
      wagmi.setState((state) => {
        const next = new Map(state.connections)
        next.set(current, { ...connection, accounts })
        return { ...state, connections: next }
      })
      return chosen
    },

    /** The live connection's changes of account or chain, and its loss. */
    watchConnection(sendBack: SendBack): () => void {
      return watchConnection(wagmi, {
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
      })
    },

    /**
     * wagmi's reconnect after the kit stopped waiting for it: its connection once it is (or becomes) connected,
     * and `connection.lost` once it settles disconnected. Checked at once, as well as on every change, so a
     * reconnect that finished just as the kit's limit passed is not missed.
     */
    watchLateReconnect(sendBack: SendBack): () => void {
      let done = false
      const check = () => {
        if (done) return
        const account = currentAccount(wagmi)
        if (account) {
          done = true
          sendBack({ type: 'connection.reconnectedLate', account, connections: connectionsOf(wagmi) })
        } else if (getConnection(wagmi).status === 'disconnected') {
          done = true
          sendBack({ type: 'connection.lost' })
        }
      }
      const stop = watchConnection(wagmi, { onChange: check })
      check()
      return stop
    },

    /**
     * Opens the wallet by its mobile link with the pairing URI (issue 18 item 5): the link is told to the
     * connection first (which stores it), then the page goes to it. A listing link that fails `safeDeepLink` is
     * never opened.
     */
    async openWallet(
      { connectorId, wallet, uri }: { connectorId: string; wallet: ChosenWallet; uri: string },
      sendBack: SendBack,
    ): Promise<void> {
      const href = walletLinkWithUri(wallet.mobileLink, uri)
      if (!href) return
      sendBack({ type: 'connection.wcLinking', name: wallet.name, href })
      // A universal link may replace this page: what the pairing needs to complete after a reload is written
      // first (WalletConnect writes it in the background), within a bound.
      const connector = findConnector(connectorId) as (Connector & ResumableConnector) | undefined
      const stored = connector?.storePendingPairing?.().catch(() => {})
      if (stored) await Promise.race([stored, delay(STORE_PAIRING_WAIT_MS)])
      navigate(href)
    },

    /**
     * The pairing the page left pending when it opened the wallet by its mobile link: once the wallet's approval
     * is read from the relay, the session is taken up and connected as wagmi's reconnect would a stored one.
     */
    async resumePairing(connectorId: string, signal: AbortSignal): Promise<ConnectOutput> {
      const connector = findConnector(connectorId) as (Connector & ResumableConnector) | undefined
      if (!connector?.resumePendingPairing) throw new ConnectorNotFoundError({ details: connectorId })
      await connector.resumePendingPairing(signal)
      await reconnect(wagmi, { connectors: [connector] })
      await settled(wagmi, SETTLE_TIMEOUT_MS)
      const account = currentAccount(wagmi)
      if (!account || account.connectorId !== connectorId) throw new ConnectorAccountNotFoundError()
      return { account, connections: connectionsOf(wagmi) }
    },

    /** WalletConnect's pairing URIs while an attempt waits for the wallet. */
    watchPairing(connectorId: string, sendBack: SendBack): () => void {
      const connector = findConnector(connectorId)
      if (!connector) return () => {}
      // The URI's expiry is shown as a countdown; when the proposal behind it expires is the remote session
      // client's to say (`remoteSessions.proposalExpired` in the kit), so one clock decides.
      const onMessage = (message: { type: string; data?: unknown }) => {
        if (message.type !== 'display_uri' || typeof message.data !== 'string') return
        sendBack({ type: 'connection.wcUri', uri: message.data, expiry: pairingExpiry(message.data) })
      }
      connector.emitter.on('message', onMessage)
      return () => connector.emitter.off('message', onMessage)
    },
  }
}

export type ConnectionCalls = ReturnType<typeof createConnectionCalls>

export { pairingExpiry }

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
