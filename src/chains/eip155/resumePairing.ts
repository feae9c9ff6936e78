import type { CreateConnectorFn } from 'wagmi'
import { UserRejectedError } from '../../errors/connection'

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
    client: SignClientLike
  }
}

/** The relay message event WalletConnect's sign engine handles. */
interface RelayMessageEvent {
  topic: string
  message: string
  publishedAt: number
  transportType: 'relay'
}
interface SignClientLike {
  session: { getAll(): WalletConnectSession[] }
  on(event: 'session_connect', listener: (event: { session: WalletConnectSession }) => void): void
  off(event: 'session_connect', listener: (event: { session: WalletConnectSession }) => void): void
  proposal?: { getAll(): Array<{ id: number; pairingTopic: string }> }
  engine?: {
    pendingSessions?: Map<number, unknown>
    onProviderMessageEvent?: (event: RelayMessageEvent) => Promise<void>
  }
  core?: {
    crypto?: { decode(topic: string, message: string): Promise<unknown> }
    history?: {
      records?: Map<number, unknown>
      set(topic: string, request: { id: number; jsonrpc: '2.0'; method: string; params: unknown }): void
    }
    relayer?: { messages?: { get(topic: string): Record<string, string> } }
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
    const session = await settledOrReplayed(provider.signer.client, signal)
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

/**
 * The wallet's answer to a proposal that the sign engine never saw, handed to it now.
 *
 * Started again, the sign client opens the relay before its engine listens: the relay hands over what it kept for
 * the pairing's topic as soon as the client subscribes again, and when that is before the engine's listener is
 * there (a slow start: a cold cache, a busy phone), only the pairing controller reads the answer. It cannot handle
 * it, drops the request record the answer is matched to, and marks the message read, so it never comes again. The
 * answer is still in the client's message store. For each pending proposal with no session being settled for it,
 * the answer found there goes to the engine, with the request record put back; the engine then subscribes to the
 * session's topic and settles it as usual. A proposal the wallet refused rejects with `UserRejectedError`.
 */
async function replayMissedAnswers(client: SignClientLike): Promise<void> {
  const { engine, core } = client
  const messages = core?.relayer?.messages
  if (!engine?.onProviderMessageEvent || !core?.crypto || !core.history || !messages) return
  for (const proposal of client.proposal?.getAll() ?? []) {
    // Seen by the engine: it waits for the session's settlement.
    if (engine.pendingSessions?.has(proposal.id)) continue
    for (const message of Object.values(messages.get(proposal.pairingTopic))) {
      const payload = await core.crypto.decode(proposal.pairingTopic, message).catch(() => undefined)
      if (!isAnswerTo(payload, proposal.id)) continue
      if ('error' in payload) throw new UserRejectedError()
      // Matched by the engine to its request (`wc_sessionPropose`) through the history's record.
      if (!core.history.records?.has(proposal.id)) {
        core.history.set(proposal.pairingTopic, {
          id: proposal.id,
          jsonrpc: '2.0',
          method: 'wc_sessionPropose',
          params: {},
        })
      }
      await engine.onProviderMessageEvent({
        topic: proposal.pairingTopic,
        message,
        publishedAt: Date.now(),
        transportType: 'relay',
      })
    }
  }
}

/** A JSON-RPC answer (a result or an error) to the request `id`. */
function isAnswerTo(
  payload: unknown,
  id: number,
): payload is { id: number } & ({ result: unknown } | { error: unknown }) {
  if (typeof payload !== 'object' || payload === null) return false
  const answer = payload as Record<string, unknown>
  return answer.id === id && !('method' in answer) && ('result' in answer || 'error' in answer)
}

/**
 * The session the sign client settles for the pairing, listened for before a missed answer is handed to the engine
 * (which settles it); a refusal found on the way, or `signal`, rejects and stops the listening.
 */
async function settledOrReplayed(client: SignClientLike, signal: AbortSignal): Promise<WalletConnectSession> {
  signal.throwIfAborted()
  const local = new AbortController()
  const onAbort = () => local.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    const settled = settledSession(client, local.signal)
    settled.catch(() => {})
    await replayMissedAnswers(client)
    return await settled
  } catch (error) {
    local.abort(error)
    throw error
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** The session the sign client settles (or has settled) for the pairing. */
function settledSession(client: SignClientLike, signal: AbortSignal): Promise<WalletConnectSession> {
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
