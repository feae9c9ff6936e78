import { type CreateConnectorFn, createConnector } from 'wagmi'

/**
 * WalletConnect for wagmi, loaded only when used. wagmi's own `walletConnect` connector initialises its
 * provider (and so fetches @walletconnect/ethereum-provider) as soon as the config is created; this wrapper
 * defers both until the visitor picks WalletConnect, or until a stored WalletConnect session is restored.
 */
export interface LazyWalletConnectParameters {
  projectId: string
  relayUrl: string
  metadata: { name: string; description: string; url: string; icons: string[] }
  /** Whether a WalletConnect session may be stored (the kit's storage says it was the last connector). */
  hasStoredSession: () => boolean
}

type Inner = ReturnType<CreateConnectorFn>

export const WALLETCONNECT_CONNECTOR_ID = 'walletConnect'

export function lazyWalletConnect(parameters: LazyWalletConnectParameters): CreateConnectorFn {
  return createConnector((config) => {
    let inner: Inner | undefined
    let loading: Promise<Inner> | undefined
    const load = (): Promise<Inner> => {
      loading ??= import('./vendor/walletconnect.js').then(async ({ createInnerWalletConnect }) => {
        const created = createInnerWalletConnect(parameters)(config)
        await created.setup?.()
        inner = created
        return created
      })
      return loading
    }
    return {
      id: WALLETCONNECT_CONNECTOR_ID,
      name: 'WalletConnect',
      type: 'walletConnect',
      async setup() {
        if (parameters.hasStoredSession()) await load()
      },
      async connect(options) {
        return (await load()).connect(options) as never
      },
      async disconnect() {
        if (!inner && !parameters.hasStoredSession()) return
        await (await load()).disconnect()
      },
      async getAccounts() {
        return (await load()).getAccounts()
      },
      async getChainId() {
        return (await load()).getChainId()
      },
      async getProvider(options) {
        return (await load()).getProvider(options)
      },
      async isAuthorized() {
        if (!inner && !parameters.hasStoredSession()) return false
        return (await load()).isAuthorized()
      },
      async switchChain(options) {
        const loaded = await load()
        if (!loaded.switchChain) throw new Error('WalletConnect cannot switch chains')
        return loaded.switchChain(options)
      },
      onAccountsChanged(accounts) {
        inner?.onAccountsChanged(accounts)
      },
      onChainChanged(chainId) {
        inner?.onChainChanged(chainId)
      },
      onDisconnect(error) {
        inner?.onDisconnect(error)
      },
    }
  })
}
