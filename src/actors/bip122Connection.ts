import { fromCallback, fromPromise } from 'xstate'
import type { DomainVerification } from '../api/verify'
import {
  type Bip122Account,
  type Bip122WalletConnectClient,
  createBip122WalletConnect,
  MULTICHAIN_BIP122_CONNECTOR_ID,
} from '../chains/bip122/walletConnect'
import type { SignClientLike } from '../chains/solana/walletConnect'
import { Bip122AccountError } from '../errors/bip122'
import { SwitchChainError } from '../errors/connection'
import type {
  Bip122ConnectionAccount,
  ChainId,
  ConnectInput,
  ConnectionEvent,
  ConnectOutput,
  ConnectorInfo,
  PersistRequest,
  ReconnectOutput,
} from '../machines/connection'
import type { KitStore } from '../storage'

/**
 * Bitcoin's (bip122) implementations of the connection machine's slots: one connector, a multichain WalletConnect
 * pairing's Bitcoin account (`MULTICHAIN_BIP122_CONNECTOR_ID`, type `multichain`), read through eip155's
 * provider's sign client. The network is the one the session's account is on; a switch to another configured
 * Bitcoin network is refused (the account is the wallet's on its chain).
 */
export interface Bip122ActorDependencies {
  store: KitStore
  /** The configured Bitcoin networks' CAIP-2 ids. */
  chainIds: readonly `bip122:${string}`[]
  /** eip155's WalletConnect sign client (its provider's, loaded on first use). */
  sharedSignClient: () => Promise<SignClientLike>
}

let client: Bip122WalletConnectClient | undefined

/** The Bitcoin client of the page (made by `createBip122ConnectionActors`): what `useKitBitcoin` signs with. */
export function bip122WalletClient(): Bip122WalletConnectClient | undefined {
  return client
}

export function createBip122ConnectionActors({ store, chainIds, sharedSignClient }: Bip122ActorDependencies) {
  const wallet = createBip122WalletConnect({ init: sharedSignClient, chainIds })
  client = wallet
  const toAccount = (account: Bip122Account): Bip122ConnectionAccount => ({
    namespace: 'bip122',
    address: account.address,
    addresses: [account.address],
    chainId: account.chainId,
    connectorId: MULTICHAIN_BIP122_CONNECTOR_ID,
  })
  const output = (account: Bip122Account): ConnectOutput => ({
    account: toAccount(account),
    connections: {
      [MULTICHAIN_BIP122_CONNECTOR_ID]: { accounts: [account.address], chainId: account.chainId },
    },
  })
  const connector: ConnectorInfo = {
    id: MULTICHAIN_BIP122_CONNECTOR_ID,
    name: 'WalletConnect',
    type: 'multichain',
    chain: 'bip122',
    chains: ['eip155', 'bip122'],
  }

  return {
    reconnect: fromPromise<ReconnectOutput>(async () => {
      const none = { account: undefined, connections: {}, recentWallets: [] }
      if (store.read('bip122ConnectionStatus') !== 'connected') return none
      const account = await wallet.connect({ silent: true })
      return account ? { ...output(account), recentWallets: [] } : none
    }),
    connect: fromPromise<ConnectOutput, ConnectInput>(async ({ input }) => {
      if (input.connectorId !== MULTICHAIN_BIP122_CONNECTOR_ID) throw new Bip122AccountError()
      const account = await wallet.connect()
      return output(account!)
    }),
    disconnect: fromPromise<void, { connectorId: string | undefined }>(() => wallet.disconnect()),
    switchChain: fromPromise<ChainId, { chainId: ChainId }>(async ({ input }) => {
      if (input.chainId === wallet.account?.chainId) return input.chainId
      throw new SwitchChainError({ details: `The wallet's Bitcoin account is on ${wallet.account?.chainId}` })
    }),
    watchConnection: fromCallback<ConnectionEvent, { connectorId: string }>(({ sendBack }) =>
      wallet.watch(() => sendBack({ type: 'connection.lost' })),
    ),
    watchConnectors: fromCallback<ConnectionEvent>(({ sendBack }) => {
      sendBack({ type: 'connection.connectors', connectors: [connector] })
      return () => {}
    }),
    verifyDomain: fromPromise<DomainVerification, { uri: string }>(async () => {
      throw new Bip122AccountError({ details: 'No pairing of its own on Bitcoin' })
    }),
    persistence: fromCallback<PersistRequest>(({ receive }) => {
      receive((request) => {
        if (request.type === 'persist.connected') store.write('bip122ConnectionStatus', 'connected')
        else if (request.type === 'persist.disconnected')
          store.write('bip122ConnectionStatus', 'disconnected')
      })
    }),
  }
}
