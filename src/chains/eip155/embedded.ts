import { getAddress } from 'viem'
import { createConnector } from 'wagmi'
import type { KitStore } from '../../storage'
import type { WalletAssetsSources } from './assets'
import type { EmbeddedBridge } from './embeddedBridge'
import type { EmbeddedConnectorBody, EmbeddedProvider } from './embeddedConnector'

/**
 * The embedded wallet as a wagmi connector: an EIP-1193 provider whose signing goes through the login frame
 * (`frameRpc`), so a host's `useSignMessage` or `useSendTransaction` works with it as with any wallet. The
 * frame machine runs in the kit; the connector reaches it through a bridge the kit attaches it to, and asks
 * the kit to load it when it is needed first (a stored login restored at start).
 *
 * This is the connector's shell, what wagmi reads when the config is created and at `reconnect`: its id, name
 * and type, a provider, and whether a login is stored. The body (`./embeddedConnector.ts`, its own chunk) is
 * imported when the visitor logs in by e-mail or social, or a stored login is restored.
 */
export const EMBEDDED_CONNECTOR_ID = 'walletstateEmbedded'

export interface EmbeddedWalletParameters {
  bridge: EmbeddedBridge
  store: KitStore
  /** What the connector answers `wallet_getAssets` from (the kit's Data API and chain reads). */
  assets?: WalletAssetsSources
  /** The bundler's URL for a chain: the kit answers the smart account's `wallet_getCallsStatus` from it. */
  bundlerUrl?: ((chainId: number) => string) | undefined
}

export function embeddedWallet(parameters: EmbeddedWalletParameters) {
  const { bridge, store } = parameters
  return createConnector<EmbeddedProvider>((config) => {
    let body: EmbeddedConnectorBody | undefined
    let loading: Promise<EmbeddedConnectorBody> | undefined
    const load = (): Promise<EmbeddedConnectorBody> => {
      loading ??= import('./embeddedConnector').then(
        ({ createEmbeddedConnectorBody }) => {
          body = createEmbeddedConnectorBody(parameters, config)
          return body
        },
        (error: unknown) => {
          loading = undefined
          throw error
        },
      )
      return loading
    }
    /** A provider for wagmi's `reconnect` (it asks every connector for one) that loads nothing until used. */
    const provider: EmbeddedProvider = {
      request: async (args) => (await (await load()).getProvider()).request(args),
    }

    return {
      id: EMBEDDED_CONNECTOR_ID,
      name: 'Email',
      type: 'auth',
      async connect(options) {
        return (await load()).connect(options)
      },
      async disconnect() {
        // Nothing to sign out of when the body never loaded and the frame has no visitor logged in.
        if (!body && !bridge.current()?.getSnapshot().context.user) return
        await (await load()).disconnect()
      },
      async getAccounts() {
        return (await load()).getAccounts()
      },
      async getChainId() {
        return (await load()).getChainId()
      },
      async isAuthorized() {
        // Only a visitor who logged in (and did not sign out) is checked; the body and the frame load for that.
        if (store.read('emailLoginFlag') !== true) return false
        return (await load()).isAuthorized()
      },
      async switchChain(options) {
        return (await load()).switchChain(options)
      },
      async getProvider() {
        return provider
      },
      onAccountsChanged(accounts) {
        if (accounts.length === 0) config.emitter.emit('disconnect')
        else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) })
      },
      onChainChanged(chainId) {
        config.emitter.emit('change', { chainId: Number(chainId) })
      },
      onDisconnect() {
        body?.unfollow()
        config.emitter.emit('disconnect')
      },
    }
  })
}
