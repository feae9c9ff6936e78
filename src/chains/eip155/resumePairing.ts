import type { CreateConnectorFn } from 'wagmi'

/**
 * The parts of WalletConnect's EthereumProvider (2.25) that taking up a pending pairing reaches: it has no public
 * API for a session that settles after the page that proposed it was reloaded.
 */
interface WalletConnectSession {
  topic: string
  namespaces: Record<
    string,
    { accounts?: string[]; chains?: string[]; methods?: string[]; events?: string[] }
  >
}
interface EthereumProviderLike {
  session?: WalletConnectSession
  loadPersistedSession?: () => Promise<void>
  signer: {
    session?: WalletConnectSession
    namespaces?: Record<string, unknown>
    persist?: (key: string, value: unknown) => Promise<void>
    onConnect?: () => void
    client: {
      session: { getAll(): WalletConnectSession[] }
      on(event: 'session_connect', listener: (event: { session: WalletConnectSession }) => void): void
      off(event: 'session_connect', listener: (event: { session: WalletConnectSession }) => void): void
    }
  }
}

type ConnectorConfig = Parameters<CreateConnectorFn>[0]
type Inner = ReturnType<CreateConnectorFn> & { setRequestedChainsIds?: (chains: number[]) => Promise<void> }

/**
 * Takes up the WalletConnect pairing a page left pending when it opened the wallet by its mobile link (issue 18
 * item 5). The sign client, started again, re-subscribes to the pairing's topic and reads the wallet's approval
 * the relay kept, and settles the session; nothing in the provider waits for it any more (the `connect` that
 * proposed it went with the page). This waits for that session, then does what the provider's own connect does
 * with it (the session and its namespaces on the provider, its accounts and chains) and records the chains asked
 * for as wagmi's connector does, so wagmi's reconnect finds the connector authorised. Rejects on `signal`.
 */
export async function resumePendingPairing(
  loaded: Inner,
  config: ConnectorConfig,
  signal: AbortSignal,
): Promise<void> {
  const provider = (await loaded.getProvider()) as EthereumProviderLike
  if (!provider.session) {
    const session = await settledSession(provider.signer.client, signal)
    const signer = provider.signer
    signer.session = session
    signer.namespaces = Object.fromEntries(
      Object.entries(session.namespaces).map(([key, namespace]) => [
        key,
        {
          chains: namespace.chains ?? chainsOf(namespace.accounts ?? []),
          methods: namespace.methods ?? [],
          events: namespace.events ?? [],
          accounts: namespace.accounts ?? [],
        },
      ]),
    )
    await signer.persist?.('namespaces', signer.namespaces)
    signer.onConnect?.()
    await provider.loadPersistedSession?.()
  }
  await loaded.setRequestedChainsIds?.(config.chains.map((chain) => chain.id))
}

/** One of WalletConnect's stores (keychain, history, subscriptions, ...): `persist` writes it now. */
interface Persisted {
  persist?: () => Promise<void>
}
interface SignClientStores {
  proposal?: Persisted
  core?: {
    crypto?: { keychain?: Persisted }
    history?: Persisted
    expirer?: Persisted
    pairing?: { pairings?: Persisted }
    relayer?: { subscriber?: Persisted; messages?: Persisted }
  }
}

/**
 * Writes what a pending pairing needs to complete after the page is reloaded (its keys, the proposal, the
 * request record its answer is matched to, the subscription to its topic) to storage now. WalletConnect writes
 * these in the background; a page that goes to a wallet by a universal link right after the pairing URI
 * exists could otherwise be gone before they are written.
 */
export async function storePendingPairing(loaded: Inner): Promise<void> {
  const provider = (await loaded.getProvider()) as { signer?: { client?: SignClientStores } }
  const client = provider.signer?.client
  const core = client?.core
  const stores: Array<Persisted | undefined> = [
    core?.crypto?.keychain,
    core?.history,
    core?.expirer,
    core?.pairing?.pairings,
    core?.relayer?.subscriber,
    core?.relayer?.messages,
    client?.proposal,
  ]
  await Promise.all(stores.map((store) => store?.persist?.()))
}

/** The session the sign client settles (or has settled) for the pairing. */
function settledSession(
  client: EthereumProviderLike['signer']['client'],
  signal: AbortSignal,
): Promise<WalletConnectSession> {
  return new Promise((resolve, reject) => {
    const done = () => {
      client.off('session_connect', onConnect)
      signal.removeEventListener('abort', onAbort)
    }
    const onConnect = ({ session }: { session: WalletConnectSession }) => {
      done()
      resolve(session)
    }
    const onAbort = () => {
      done()
      reject(signal.reason)
    }
    if (signal.aborted) return reject(signal.reason)
    client.on('session_connect', onConnect)
    signal.addEventListener('abort', onAbort, { once: true })
    // Settled while the provider started, before the listener was there.
    const existing = client.session.getAll().at(-1)
    if (existing) onConnect({ session: existing })
  })
}

/** `eip155:1` from `eip155:1:0xabc…`, each once. */
function chainsOf(accounts: readonly string[]): string[] {
  return [...new Set(accounts.map((account) => account.split(':').slice(0, 2).join(':')))]
}
