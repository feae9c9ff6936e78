import * as v from 'valibot'
import {
  Bip122AccountError,
  Bip122Error,
  Bip122NotConnectedError,
  Bip122UserRejectedError,
  Bip122WalletAnswerError,
} from '../../errors/bip122'
import type { SignClientLike, WalletConnectSession } from '../solana/walletConnect'

/*
 * Bitcoin (bip122) over WalletConnect: the account a multichain pairing's session gives (eip155's provider proposed
 * bip122 beside eip155), read through that provider's sign client. This client never proposes: it takes the
 * session's Bitcoin account, signs messages with it (WalletConnect's Bitcoin `signMessage`), and lets go of it
 * on a disconnect (the session is eip155's to end). No balance is read: there is no Bitcoin service.
 */

export { MULTICHAIN_BIP122_CONNECTOR_ID } from './connectorIds'

/** A Bitcoin address: legacy base58 (P2PKH, P2SH; mainnet and test networks) or bech32 (segwit, taproot). */
const ADDRESS = /^([13mn2][1-9A-HJ-NP-Za-km-z]{25,34}|(bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87})$/
/** A `bip122:<genesis hash, 32 hex>:<address>` account (CAIP-10) of a session. */
const Bip122AccountId = v.pipe(
  v.string(),
  v.maxLength(200),
  v.check((account) => {
    const [namespace, reference, address] = account.split(':')
    return namespace === 'bip122' && /^[0-9a-f]{32}$/.test(reference ?? '') && ADDRESS.test(address ?? '')
  }, 'not a bip122 CAIP-10 account'),
)
const SessionNamespace = v.object({ accounts: v.pipe(v.array(v.unknown()), v.maxLength(256)) })
/** `signMessage`'s answer: the address that signed and its signature (base64 or hex, as wallets give it). */
const SignAnswer = v.object({
  address: v.optional(v.pipe(v.string(), v.regex(ADDRESS, 'address must be a Bitcoin address'))),
  signature: v.pipe(
    v.string('signature must be a string'),
    v.minLength(1, 'signature must not be empty'),
    v.maxLength(1_024, 'signature is too long'),
    v.regex(/^([A-Za-z0-9+/]+={0,2}|(0x)?[0-9a-fA-F]+)$/, 'signature must be base64 or hex'),
  ),
})

/** A Bitcoin account of a session: its address and CAIP-2 chain. */
export interface Bip122Account {
  address: string
  chainId: `bip122:${string}`
}

/**
 * The Bitcoin account a session gives: its first well-formed `bip122` account on one of `chainIds` (any when none
 * matches), or `Bip122WalletAnswerError`.
 *
 * @example
 * sessionBip122Account({ namespaces: { bip122: { accounts: ['bip122:0f9188f13cb7b2c71f2a335e3a4fc328:mr…'] } } }, [])
 */
export function sessionBip122Account(
  session: Pick<WalletConnectSession, 'namespaces'>,
  chainIds: readonly string[],
): Bip122Account {
  const namespace = v.safeParse(SessionNamespace, session.namespaces?.bip122)
  if (!namespace.success)
    throw new Bip122WalletAnswerError({ details: 'session: no bip122 namespace with accounts' })
  const accounts = namespace.output.accounts
    .filter((account): account is string => v.is(Bip122AccountId, account))
    .map((account) => {
      const [, reference, address] = account.split(':') as [string, string, string]
      return { chainId: `bip122:${reference}` as const, address }
    })
  const chosen = accounts.find((a) => chainIds.includes(a.chainId)) ?? accounts[0]
  if (!chosen) throw new Bip122WalletAnswerError({ details: 'session: no Bitcoin account' })
  return chosen
}

export interface Bip122WalletConnectClient {
  readonly account: Bip122Account | null
  /** Takes the Bitcoin account of the shared client's newest live session; `silent`: null when there is none. */
  connect(options?: { silent?: boolean }): Promise<Bip122Account | null>
  /** Lets go of the account here (the session stays eip155's). */
  disconnect(): Promise<void>
  /** The session ended (deleted by the wallet, expired). Returns the unsubscribe. */
  watch(onDisconnect: () => void): () => void
  /** Signs `message` (WalletConnect's Bitcoin `signMessage`, ecdsa: the legacy message format); the answer checked. */
  signMessage(message: string): Promise<{ address: string; signature: string }>
}

/**
 * Bitcoin's account of a multichain WalletConnect session, over the sign client `init` gives (eip155's provider's).
 *
 * @example
 * const bitcoin = createBip122WalletConnect({ init: sharedSignClient, chainIds: [] })
 * const account = await bitcoin.connect()
 * const { signature } = await bitcoin.signMessage('Hello')
 */
export function createBip122WalletConnect(options: {
  init: () => Promise<SignClientLike>
  chainIds: readonly string[]
}): Bip122WalletConnectClient {
  let loading: Promise<SignClientLike> | undefined
  let session: { topic: string; account: Bip122Account } | undefined
  const endListeners = new Set<() => void>()
  const ended = ({ topic }: { topic: string }) => {
    if (topic !== session?.topic) return
    session = undefined
    for (const listener of endListeners) listener()
  }
  const load = () => {
    loading ??= options.init().then((client) => {
      client.on('session_delete', ended)
      client.on('session_expire', ended)
      return client
    })
    loading.catch(() => {
      loading = undefined
    })
    return loading
  }

  return {
    get account() {
      return session?.account ?? null
    },
    async connect(connectOptions) {
      const client = await load()
      const now = Date.now() / 1_000
      session = undefined
      for (const candidate of client.session.getAll().reverse()) {
        if (candidate.acknowledged === false || candidate.expiry <= now || !candidate.namespaces?.bip122)
          continue
        try {
          session = { topic: candidate.topic, account: sessionBip122Account(candidate, options.chainIds) }
          break
        } catch {
          // a session without a usable Bitcoin account
        }
      }
      if (!session && !connectOptions?.silent) throw new Bip122AccountError()
      return session?.account ?? null
    },
    async disconnect() {
      session = undefined
    },
    watch(onDisconnect) {
      endListeners.add(onDisconnect)
      return () => endListeners.delete(onDisconnect)
    },
    async signMessage(message) {
      if (!session) throw new Bip122NotConnectedError()
      const client = await load()
      const { topic, account } = session
      let answer: unknown
      try {
        answer = await client.request<unknown>({
          topic,
          chainId: account.chainId,
          request: {
            method: 'signMessage',
            params: { account: account.address, address: account.address, message, protocol: 'ecdsa' },
          },
        })
      } catch (error) {
        throw toBip122Error(error)
      }
      const parsed = v.safeParse(SignAnswer, answer)
      if (!parsed.success)
        throw new Bip122WalletAnswerError({ details: `signMessage: ${v.summarize(parsed.issues)}` })
      if (parsed.output.address !== undefined && parsed.output.address !== account.address)
        throw new Bip122WalletAnswerError({ details: 'signMessage: signed by another address' })
      return { address: account.address, signature: parsed.output.signature }
    },
  }
}

/** A wallet's refusal as the kit's error: a decline (5000, 4001) is `Bip122UserRejectedError`. */
function toBip122Error(error: unknown): Bip122Error {
  if (error instanceof Bip122Error) return error
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === 5000 || code === 4001) return new Bip122UserRejectedError({ code, cause: error as Error })
  const message = (error as { message?: unknown } | undefined)?.message
  return new Bip122Error('The Bitcoin request failed.', {
    ...(typeof message === 'string' ? { details: message } : {}),
    ...(error instanceof Error ? { cause: error } : {}),
    ...(typeof code === 'number' ? { code } : {}),
  })
}
