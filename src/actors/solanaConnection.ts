import { fromCallback, fromPromise } from 'xstate'
import type { DomainVerification } from '../api/verify'
import type { EmbeddedBridge } from '../chains/eip155/embeddedBridge'
import {
  createEmbeddedSolanaWallet,
  createSolanaWallet,
  EMBEDDED_SOLANA_WALLET,
  findSolanaWallet,
  type SolanaAccount,
  type SolanaWalletClient,
  type SolanaWalletInfo,
  subscribeSolanaWallets,
  watchEmbeddedSolana,
} from '../chains/solana'
import { MULTICHAIN_SOLANA_CONNECTOR_ID } from '../chains/solana/connectorIds'
import {
  createSolanaWalletConnect,
  type SignClientLike,
  SOLANA_WALLETCONNECT_ID,
  type SolanaWalletConnectClient,
} from '../chains/solana/walletConnect'
import type { WalletConnectParameters } from '../chains/walletConnectParameters'
import { CONNECTOR_IMAGE_IDS } from '../constants'
import { SwitchChainError, UserRejectedError } from '../errors/connection'
import { SolanaUserRejectedError, SolanaWalletNotFoundError } from '../errors/solana'
import type {
  ChainId,
  ConnectInput,
  ConnectionEvent,
  ConnectOutput,
  ConnectorInfo,
  PersistRequest,
  ReconnectOutput,
  SolanaConnectionAccount,
} from '../machines/connection'
import type { KitStore } from '../storage'

/**
 * Solana's implementations of the connection machine's actor slots (issue 17), over the Solana adapter
 * (src/chains/solana: Wallet Standard discovery and the wallet adapter). Loaded with Solana's chunk, only when
 * a Solana network is configured.
 *
 * A Solana wallet does not switch networks: the network is the kit's choice (the transactions it builds name
 * their RPC). `switchChain` checks the network is configured and keeps it; the account stays.
 */
export interface SolanaActorDependencies {
  store: KitStore
  /** The configured Solana networks' CAIP-2 ids; the first is used when nothing was chosen. */
  chainIds: readonly `solana:${string}`[]
  /** How long reconnect waits for the stored wallet to register itself (the Wallet Standard is asynchronous). */
  registerWaitMs?: number
  /** The kit's login-frame bridge: with it, the embedded wallet is a Solana connector too (issue 17). */
  embeddedBridge?: Pick<EmbeddedBridge, 'frame' | 'watch'>
  /** WalletConnect's project id, relay and app metadata: with them, WalletConnect is one of Solana's connectors. */
  walletConnect?: WalletConnectParameters
  /**
   * eip155's WalletConnect sign client (its provider's, loaded on first use): with it, a multichain pairing's
   * Solana account is a connector too (`MULTICHAIN_SOLANA_CONNECTOR_ID`, type `multichain`).
   */
  sharedSignClient?: () => Promise<SignClientLike>
}

/** The page's Solana wallet clients, one per connector (a Wallet Standard wallet is one per page too). */
const clients = new Map<string, SolanaWalletClient>()

/**
 * The client of a Solana connector (made on first use): what the connection connects and the host's
 * `useKitSolana` signs with. Throws `SolanaWalletNotFoundError` when no such wallet is registered.
 */
export function solanaWalletClient(connectorId: string): SolanaWalletClient {
  let client = clients.get(connectorId)
  if (!client) {
    client = walletConnectClient(connectorId) ?? createSolanaWallet(connectorId)
    clients.set(connectorId, client)
  }
  return client
}

export function createSolanaConnectionActors({
  store,
  chainIds,
  registerWaitMs = 1_000,
  embeddedBridge,
  walletConnect,
  sharedSignClient,
}: SolanaActorDependencies) {
  setUpWalletConnect(walletConnect, chainIds, sharedSignClient)
  const stored = store.read('solanaNetwork') as `solana:${string}` | undefined
  let chainId: `solana:${string}` | undefined = stored && chainIds.includes(stored) ? stored : chainIds[0]

  // The embedded wallet on Solana (issue 17): its client over the login frame, on the network chosen here; listed
  // as a connector while the frame has a visitor logged in (`embeddedConnectors`).
  const embedded = embeddedBridge
    ? createEmbeddedSolanaWallet({ bridge: embeddedBridge, chainId: () => chainId ?? chainIds[0]! })
    : undefined
  if (embedded) clients.set(EMBEDDED_SOLANA_WALLET.id, embedded)
  const embeddedConnectors = (onChange: (connectors: ConnectorInfo[]) => void) =>
    embeddedBridge
      ? watchEmbeddedSolana(embeddedBridge, (available) =>
          onChange(
            available
              ? [
                  {
                    id: EMBEDDED_SOLANA_WALLET.id,
                    name: EMBEDDED_SOLANA_WALLET.name,
                    type: 'auth',
                    chain: 'solana',
                  },
                ]
              : [],
          ),
        )
      : () => {}

  const clientFor = solanaWalletClient
  const toAccount = (connectorId: string, account: SolanaAccount): SolanaConnectionAccount => ({
    namespace: 'solana',
    address: account.address,
    addresses: [account.address],
    chainId: chainId ?? chainIds[0]!,
    connectorId,
  })
  const output = (connectorId: string, account: SolanaAccount): ConnectOutput => {
    const connected = toAccount(connectorId, account)
    return {
      account: connected,
      connections: { [connectorId]: { accounts: connected.addresses, chainId: connected.chainId } },
    }
  }
  const configured = (id: ChainId | undefined): id is `solana:${string}` =>
    typeof id === 'string' && chainIds.includes(id as `solana:${string}`)

  return {
    reconnect: fromPromise<ReconnectOutput>(async ({ signal }) => {
      const connectorId = store.read('solanaConnectorId')
      const none = { account: undefined, connections: {}, recentWallets: [] }
      if (store.read('solanaConnectionStatus') !== 'connected' || !connectorId) return none
      // The embedded wallet's client is made at start (`clients`), WalletConnect's is remote; a Wallet Standard
      // wallet registers itself.
      const ready = clients.has(connectorId) || walletConnectClient(connectorId) !== undefined
      if (!ready && !(await registered(connectorId, registerWaitMs, signal))) return none
      const account = await clientFor(connectorId).connect({ silent: true })
      return account ? { ...output(connectorId, account), recentWallets: [] } : none
    }),

    connect: fromPromise<ConnectOutput, ConnectInput>(async ({ input }) => {
      if (configured(input.chainId)) chainId = input.chainId
      try {
        const account = await clientFor(input.connectorId).connect()
        return output(input.connectorId, account)
      } catch (error) {
        // The visitor declined in the wallet: the one refusal of every namespace (its text and its errorType), the
        // Solana error kept as the cause.
        throw error instanceof SolanaUserRejectedError ? new UserRejectedError({ cause: error }) : error
      }
    }),

    disconnect: fromPromise<void, { connectorId: string | undefined }>(async ({ input }) => {
      const client = input.connectorId ? clients.get(input.connectorId) : undefined
      await client?.disconnect()
    }),

    switchChain: fromPromise<ChainId, { chainId: ChainId }>(async ({ input }) => {
      if (!configured(input.chainId))
        throw new SwitchChainError({ details: `${String(input.chainId)} is not a configured Solana network` })
      chainId = input.chainId
      return chainId
    }),

    watchConnection: fromCallback<ConnectionEvent, { connectorId: string }>(({ sendBack, input }) => {
      const client = clients.get(input.connectorId)
      if (!client) return () => {}
      return client.watch(
        (account) => sendBack({ type: 'connection.changed', account: toAccount(input.connectorId, account) }),
        () => sendBack({ type: 'connection.lost' }),
      )
    }),

    watchConnectors: fromCallback<ConnectionEvent>(({ sendBack }) => {
      let announced: ConnectorInfo[] = []
      let own: ConnectorInfo[] = []
      const send = () => sendBack({ type: 'connection.connectors', connectors: [...announced, ...own] })
      const stopEmbedded = embeddedConnectors((connectors) => {
        own = connectors
        send()
      })
      const stopWallets = subscribeSolanaWallets((wallets) => {
        announced = [
          ...withWalletConnect(wallets).map(
            (wallet): ConnectorInfo => ({
              id: wallet.id,
              name: wallet.name,
              type: wallet.id === SOLANA_WALLETCONNECT_ID ? 'walletconnect' : 'announced',
              chain: 'solana',
              ...(wallet.icon ? { imageUrl: wallet.icon } : {}),
              ...(wallet.id === SOLANA_WALLETCONNECT_ID
                ? { imageId: CONNECTOR_IMAGE_IDS.walletConnect }
                : {}),
            }),
          ),
          ...(walletConnectSetup?.shared
            ? [
                {
                  id: MULTICHAIN_SOLANA_CONNECTOR_ID,
                  name: 'WalletConnect',
                  type: 'multichain',
                  chain: 'solana',
                  chains: ['eip155', 'solana'],
                  imageId: CONNECTOR_IMAGE_IDS.walletConnect,
                } satisfies ConnectorInfo,
              ]
            : []),
        ]
        send()
      })
      return () => {
        stopWallets()
        stopEmbedded()
      }
    }),

    watchPairing: fromCallback<ConnectionEvent, { connectorId: string }>(({ sendBack, input }) =>
      watchWalletConnectPairing(input.connectorId, sendBack),
    ),

    /** No pairing URI on the Wallet Standard wallets; WalletConnect's is attested by the kit's Verify slot (src/kit/load/solana.ts). */
    verifyDomain: fromPromise<DomainVerification, { uri: string }>(async () => {
      throw new SolanaWalletNotFoundError({ details: 'No pairing on a Solana wallet' })
    }),

    persistence: fromCallback<PersistRequest>(({ receive }) => {
      receive((request) => {
        if (request.type === 'persist.connected') {
          store.write('solanaConnectorId', request.wallet.connectorId)
          store.write('solanaConnectionStatus', 'connected')
          store.write('lastUsedChain', 'solana')
          if (configured(request.chainId)) store.write('solanaNetwork', request.chainId)
        } else if (request.type === 'persist.chain') {
          if (configured(request.chainId)) store.write('solanaNetwork', request.chainId)
        } else {
          store.write('solanaConnectionStatus', 'disconnected')
          store.remove('solanaConnectorId')
        }
      })
    }),
  }
}

/** Whether the wallet is registered, waiting up to `waitMs` for it to register (a reload's race). */
function registered(connectorId: string, waitMs: number, signal: AbortSignal): Promise<boolean> {
  if (findSolanaWallet(connectorId)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const done = (found: boolean) => {
      clearTimeout(timer)
      stop()
      resolve(found)
    }
    const timer = setTimeout(() => done(false), waitMs)
    const stop = subscribeSolanaWallets(() => {
      if (findSolanaWallet(connectorId)) done(true)
    })
    signal.addEventListener('abort', () => done(false), { once: true })
  })
}

/*
 * WalletConnect on Solana (issue 17): one more Solana connector, `solana:walletconnect`, beside the Wallet Standard
 * wallets, made with the kit's WalletConnect parameters. Its sign client loads on its first connect (or the
 * reconnect of its stored session), never before.
 */
let walletConnectSetup:
  | {
      parameters: WalletConnectParameters
      chainIds: readonly `solana:${string}`[]
      shared: (() => Promise<SignClientLike>) | undefined
    }
  | undefined

function setUpWalletConnect(
  parameters: WalletConnectParameters | undefined,
  chainIds: readonly `solana:${string}`[],
  shared: (() => Promise<SignClientLike>) | undefined,
): void {
  walletConnectSetup = parameters ? { parameters, chainIds, shared } : undefined
}

/**
 * WalletConnect's client when `connectorId` is its connector (Solana's own pairing, or a multichain pairing's
 * Solana side over eip155's sign client) and the kit configured it; else undefined.
 */
function walletConnectClient(connectorId: string): SolanaWalletConnectClient | undefined {
  const shared = connectorId === MULTICHAIN_SOLANA_CONNECTOR_ID ? walletConnectSetup?.shared : undefined
  if ((connectorId !== SOLANA_WALLETCONNECT_ID && !shared) || !walletConnectSetup) return undefined
  let client = clients.get(connectorId) as SolanaWalletConnectClient | undefined
  if (!client) {
    client = createSolanaWalletConnect({
      ...walletConnectSetup.parameters,
      chainIds: walletConnectSetup.chainIds,
      ...(shared ? { shared: true, init: shared } : {}),
    })
    clients.set(connectorId, client)
  }
  return client
}

/**
 * The Wallet Standard wallets and, when configured, WalletConnect. A page's wallet that names itself
 * "WalletConnect" (and so gets its id) gives way: the id is WalletConnect's.
 */
function withWalletConnect(wallets: SolanaWalletInfo[]): Pick<SolanaWalletInfo, 'id' | 'name' | 'icon'>[] {
  if (!walletConnectSetup) return wallets
  return [
    ...wallets.filter((wallet) => wallet.id !== SOLANA_WALLETCONNECT_ID),
    { id: SOLANA_WALLETCONNECT_ID, name: 'WalletConnect' },
  ]
}

/** The pairing URIs of a WalletConnect connect under way, and the expiry of one not scanned in time. */
function watchWalletConnectPairing(connectorId: string, sendBack: (event: ConnectionEvent) => void) {
  const client = walletConnectClient(connectorId)
  if (!client) return () => {}
  return client.watchPairing(
    ({ uri, expiry }) => sendBack({ type: 'connection.wcUri', uri, expiry }),
    () => sendBack({ type: 'connection.pairingExpired' }),
  )
}
