import { type CreateConnectorFn, createConnector } from 'wagmi'
import { offHostedVerify } from '../walletConnectParameters'
import type { OneClickAuthenticate } from './oneClickPairing'

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
  /**
   * One-click auth (issue 15, with `siwx`): called instead of a plain pairing when the visitor connects, with the
   * provider's `authenticate` (the session and the sign-in in one approval) and the chains the kit has. The
   * pairing URI it shows reaches the kit as a plain pairing's does. A wallet without one-click auth answers
   * the session alone, and the kit then asks for the signature as for any wallet.
   */
  authenticate?: OneClickAuthenticate
  /**
   * The kit's other namespaces as a pairing proposes them (SPEC §1: methods and events per namespace): a
   * `multichain` wallet's pairing proposes those it names beside eip155 (`alsoPropose`), in one approval.
   */
  otherNamespaces?: Readonly<Record<string, ProposedNamespace>>
}

/** A namespace of a session proposal (its chains, methods and events). */
export interface ProposedNamespace {
  chains: string[]
  methods: string[]
  events: string[]
}

/** The parts of WalletConnect's provider a multichain pairing reaches (it has no public types here). */
interface MultichainProvider {
  session?: unknown
  signer: {
    client?: unknown
    connect: (
      params: { optionalNamespaces?: Record<string, ProposedNamespace> } & Record<string, unknown>,
    ) => Promise<unknown>
  }
}

type Inner = ReturnType<CreateConnectorFn>

export const WALLETCONNECT_CONNECTOR_ID = 'walletConnect'

/**
 * WalletConnect's client registers each pairing with its hosted Verify service: each pairing waited 5 s for it,
 * and two at once (one-click auth) waited forever. The kit registers the pairing with the configured
 * `endpoints.verify` itself (the connection's `verifyDomain`); see `offHostedVerify`.
 */
function offProviderHostedVerify(provider: unknown): void {
  offHostedVerify(
    (provider as { signer?: { client?: { core?: unknown } } } | undefined)?.signer?.client?.core,
  )
}

export function lazyWalletConnect(parameters: LazyWalletConnectParameters): CreateConnectorFn {
  return createConnector((config) => {
    let inner: Inner | undefined
    let loading: Promise<Inner> | undefined
    const load = (): Promise<Inner> => {
      loading ??= import('./vendor/walletconnect.js').then(async ({ createInnerWalletConnect }) => {
        const created = createInnerWalletConnect(parameters)(config)
        await created.setup?.()
        offProviderHostedVerify(await created.getProvider())
        inner = created
        return created
      })
      return loading
    }
    /** The other namespaces the next pairing proposes (`alsoPropose`), once. */
    let proposing: readonly string[] = []
    return {
      id: WALLETCONNECT_CONNECTOR_ID,
      name: 'WalletConnect',
      type: 'walletConnect',
      async setup() {
        if (parameters.hasStoredSession()) await load()
      },
      async connect(options) {
        const loaded = await load()
        const extra = proposing
        proposing = []
        if (parameters.authenticate && !options?.isReconnecting) {
          const { pairByOneClickAuth } = await import('./oneClickPairing')
          await pairByOneClickAuth(loaded, config, parameters.authenticate)
        }
        const namespaces = Object.fromEntries(
          extra.flatMap((name) => {
            const namespace = parameters.otherNamespaces?.[name]
            return namespace ? [[name, namespace] as const] : []
          }),
        )
        if (options?.isReconnecting || Object.keys(namespaces).length === 0)
          return loaded.connect(options) as never
        return proposingAlso((await loaded.getProvider()) as MultichainProvider, namespaces, () =>
          loaded.connect(options),
        ) as never
      },
      /** The next pairing also proposes these of the kit's other namespaces (a `multichain` wallet). */
      alsoPropose(namespaces: readonly string[]) {
        proposing = namespaces
      },
      /**
       * The sign client the provider runs on (WalletConnect's code loads if it has not): a multichain session's
       * other namespaces are read and used through it (Solana's multichain client).
       */
      async sharedSignClient() {
        const provider = (await (await load()).getProvider()) as MultichainProvider
        return provider.signer.client
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
      /**
       * Nothing before WalletConnect is used or a session is stored: a host's `WagmiProvider` reconnects every
       * connector on mount and asks each for its provider first, which must not fetch WalletConnect's code.
       */
      async getProvider(options) {
        if (!loading && !parameters.hasStoredSession()) return undefined as never
        return (await load()).getProvider(options)
      },
      /** The provider, loading WalletConnect's code if it has not loaded (the kit's session client). */
      async loadProvider() {
        return (await load()).getProvider()
      },
      /** Before the page goes to a wallet by its mobile link: the pending pairing written to storage. */
      async storePendingPairing() {
        const [loaded, { storePendingPairing }] = await Promise.all([load(), import('./resumePairing')])
        await storePendingPairing(loaded)
      },
      /** Back on the page after opening a wallet by its mobile link: its pending pairing, once settled. */
      async resumePendingPairing(signal: AbortSignal) {
        const [loaded, { resumePendingPairing }] = await Promise.all([load(), import('./resumePairing')])
        await resumePendingPairing(loaded, config, signal)
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

/**
 * Runs `connect` (wagmi's connect of the provider) with the provider's session proposal widened: the namespaces
 * given join its `optionalNamespaces` (2.25 dapps propose everything as optional), so the wallet's one approval
 * covers eip155 and them. The provider keeps its eip155 part as ever; the rest is read from the session.
 */
async function proposingAlso<T>(
  provider: MultichainProvider,
  namespaces: Record<string, ProposedNamespace>,
  connect: () => Promise<T>,
): Promise<T> {
  if (provider.session) return connect()
  const { signer } = provider
  const original = signer.connect
  signer.connect = (params) =>
    original.call(signer, { ...params, optionalNamespaces: { ...params.optionalNamespaces, ...namespaces } })
  try {
    return await connect()
  } finally {
    signer.connect = original
  }
}
