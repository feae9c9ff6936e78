import {
  type Connection,
  PublicKey,
  type Transaction,
  type TransactionSignature,
  VersionedTransaction,
} from '@solana/web3.js'
import bs58 from 'bs58'
import * as v from 'valibot'
import { KIT_SOLANA_METHODS, SESSION_DEFAULT_EVENTS } from '../../constants'
import {
  SolanaAccountError,
  SolanaNotConnectedError,
  SolanaWalletAnswerError,
  toSolanaError,
} from '../../errors/solana'
import { pairingExpiry } from '../pairingExpiry'
import { offHostedVerify, type WalletConnectParameters } from '../walletConnectParameters'
import { checkPreflightCommitment } from './commitment'
import type { SolanaWalletInfo } from './discovery'
import { solanaTransfers } from './send'
import type { SolanaAccount, SolanaSendOptions, SolanaWalletClient } from './wallet'

/*
 * WalletConnect on Solana (issue 17): a `SolanaWalletClient` over its own WalletConnect SignClient, proposing the
 * `solana` namespace with the kit's Solana chains. The sign client (and so WalletConnect's core) is fetched on the
 * first connect, or on a reload's reconnect of a stored session; never before.
 *
 * The page may already run eip155's WalletConnect provider: this client keeps its own core under its own storage
 * prefix, so neither sees (or deletes) the other's pairings and sessions.
 *
 * Everything the wallet answers is checked before use (the wallet is untrusted): a malformed answer is
 * `SolanaWalletAnswerError`; a declined request is `SolanaUserRejectedError` (WalletConnect's 5000, 'User
 * rejected.', mapped by `toSolanaError`).
 */

/** The connector id of WalletConnect on Solana, beside the Wallet Standard wallets' `solana:<name>` ids. */
export const SOLANA_WALLETCONNECT_ID = 'solana:walletconnect'

/** The methods proposed: WalletConnect's Solana RPC, as the sandbox wallet page and the Solana wallets serve it. */
export const SOLANA_WALLETCONNECT_METHODS = KIT_SOLANA_METHODS

/** The storage prefix of this client's core: apart from eip155's (`walletstate`). */
export const SOLANA_WALLETCONNECT_STORAGE_PREFIX = 'walletstate-solana'

/** What `SignClient.init` is given. */
export interface SignClientOptions {
  projectId: string
  relayUrl: string
  metadata: WalletConnectParameters['metadata']
  customStoragePrefix: string
  telemetryEnabled: boolean
}

/** What of a WalletConnect session this client reads (`SessionTypes.Struct`). */
export interface WalletConnectSession {
  topic: string
  expiry: number
  acknowledged?: boolean
  namespaces: Record<string, { accounts: string[]; methods?: string[]; chains?: string[] } | undefined>
}

/** The part of @walletconnect/sign-client's `SignClient` this client uses (tests give a fake). */
export interface SignClientLike {
  core: unknown
  session: { getAll(): WalletConnectSession[] }
  connect(parameters: {
    optionalNamespaces: Record<string, { chains: string[]; methods: string[]; events: string[] }>
  }): Promise<{ uri?: string; approval: () => Promise<WalletConnectSession> }>
  request<T>(parameters: {
    topic: string
    chainId: string
    request: { method: string; params: unknown }
  }): Promise<T>
  disconnect(parameters: { topic: string; reason: { code: number; message: string } }): Promise<void>
  // biome-ignore lint/suspicious/noExplicitAny: SignClient's events carry different payloads; each listener narrows its own
  on(event: string, listener: (payload: any) => void): unknown
  // biome-ignore lint/suspicious/noExplicitAny: as `on`
  off(event: string, listener: (payload: any) => void): unknown
}

export interface SolanaWalletConnectOptions extends WalletConnectParameters {
  /** The kit's Solana networks (CAIP-2); the session is proposed on all of them. */
  chainIds: readonly `solana:${string}`[]
  /** The core's storage prefix; `SOLANA_WALLETCONNECT_STORAGE_PREFIX` unless set. */
  storagePrefix?: string
  /** Makes the sign client; `SignClient.init` of the kit's WalletConnect bundle, fetched on first use, unless set. */
  init?: (options: SignClientOptions) => Promise<SignClientLike>
  /**
   * A multichain pairing's Solana side (SPEC §1 `multichain`): the sign client is eip155's provider's (`init`),
   * whose pairing proposed Solana too. This client never proposes: a connect takes the Solana account of the
   * session that pairing made, and a disconnect lets go of it here only (the session is eip155's to end).
   */
  shared?: boolean
}

/** A pairing URI to show (as a QR code) while a connect waits for the wallet, and when it expires (epoch ms). */
export interface SolanaPairing {
  uri: string
  expiry: number
}

export interface SolanaWalletConnectClient extends SolanaWalletClient {
  /**
   * The pairing URI of each connect under way, and the expiry of a proposal nobody approved (the caller starts
   * a fresh connect, a fresh URI). Returns the unsubscribe.
   */
  watchPairing(onPairing: (pairing: SolanaPairing) => void, onExpired?: () => void): () => void
}

/** The account of a session: the base58 key of its first `solana` account on one of `chainIds`. */
interface SessionAccount extends SolanaAccount {
  /** The CAIP-2 chain requests go to. */
  chainId: string
}

/** WalletConnect's USER_DISCONNECTED reason. */
const USER_DISCONNECTED = { code: 6000, message: 'User disconnected.' }
/** sign-client's message when a proposal's time ran out (PROPOSAL_EXPIRY_MESSAGE). */
const PROPOSAL_EXPIRED = /proposal expired/i

const Base58 = /^[1-9A-HJ-NP-Za-km-z]+$/
/** A base58 string that decodes to exactly `bytes` bytes. */
const base58Bytes = (bytes: number, what: string) =>
  v.pipe(
    v.string(`${what} must be a string`),
    v.maxLength(128, `${what} is too long`),
    v.regex(Base58, `${what} must be base58`),
    v.check((text) => decodesTo(text, bytes), `${what} must be ${bytes} bytes`),
  )
/** A Solana signature (ed25519, 64 bytes), base58. */
const SignatureAnswer = v.object({ signature: base58Bytes(64, 'signature') })
/** A `solana:<chain>:<base58 key>` account (CAIP-10) of a session. */
const SolanaAccountId = v.pipe(
  v.string(),
  v.maxLength(256),
  v.regex(/^solana:[-_a-zA-Z0-9]{1,32}:[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'not a Solana CAIP-10 account'),
  v.check((account) => decodesTo(account.split(':')[2] ?? '', 32), 'not a 32-byte public key'),
)
const SessionNamespace = v.object({ accounts: v.pipe(v.array(v.unknown()), v.maxLength(256)) })

function decodesTo(text: string, bytes: number): boolean {
  try {
    return bs58.decode(text).length === bytes
  } catch {
    return false
  }
}

function refuse(method: string, issues: v.BaseIssue<unknown>[] | string): SolanaWalletAnswerError {
  const summary = typeof issues === 'string' ? issues : v.summarize(issues as [v.BaseIssue<unknown>])
  return new SolanaWalletAnswerError({ details: `${method}: ${summary}` })
}

/**
 * The base58 signature of a `solana_signMessage`, `solana_signTransaction` or `solana_signAndSendTransaction`
 * answer (`{ signature }`), or `SolanaWalletAnswerError`.
 *
 * @example
 * parseSignatureAnswer('solana_signMessage', { signature: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnb...' })
 */
export function parseSignatureAnswer(method: string, answer: unknown): string {
  const parsed = v.safeParse(SignatureAnswer, answer)
  if (!parsed.success) return throwing(refuse(method, parsed.issues))
  return parsed.output.signature
}

/**
 * The account a session gives this client: its first well-formed `solana` account on one of `chainIds` (any
 * Solana chain when none matches), or `SolanaWalletAnswerError` when the session has no such account.
 */
export function sessionAccount(
  session: Pick<WalletConnectSession, 'namespaces'>,
  chainIds: readonly string[],
): SessionAccount {
  const namespace = v.safeParse(SessionNamespace, session.namespaces?.solana)
  if (!namespace.success) throw refuse('session', 'no solana namespace with accounts')
  const accounts = namespace.output.accounts
    .filter((account): account is string => v.is(SolanaAccountId, account))
    .map((account) => {
      const [, reference, address] = account.split(':') as [string, string, string]
      return { chainId: `solana:${reference}`, address }
    })
  const chosen = accounts.find((a) => chainIds.includes(a.chainId)) ?? accounts[0]
  if (!chosen) throw refuse('session', 'no Solana account')
  return {
    address: chosen.address,
    chainId: chosen.chainId,
    chains: [...new Set(accounts.filter((a) => a.address === chosen.address).map((a) => a.chainId))],
  }
}

function throwing(error: Error): never {
  throw error
}

/** Bytes as base64 (the wire form of a transaction in WalletConnect's Solana RPC). */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

async function defaultInit(options: SignClientOptions): Promise<SignClientLike> {
  // The sign client inside the kit's WalletConnect bundle (the one eip155's provider runs on).
  const { SignClient } = await import('../eip155/vendor/walletconnect.js')
  return (await SignClient.init(options)) as unknown as SignClientLike
}

/**
 * A Solana wallet client over WalletConnect. Nothing is fetched or opened until the first `connect`.
 *
 * @example
 * const wallet = createSolanaWalletConnect({ ...walletConnectParameters(config), chainIds: ['solana:5eykt4...'] })
 * const stop = wallet.watchPairing(({ uri }) => showQr(uri))
 * const { address } = await wallet.connect()
 * const signature = await wallet.signMessage('Hello')
 */
export function createSolanaWalletConnect(options: SolanaWalletConnectOptions): SolanaWalletConnectClient {
  const { chainIds, init = defaultInit } = options
  const info: SolanaWalletInfo = { id: SOLANA_WALLETCONNECT_ID, name: 'WalletConnect', chains: [...chainIds] }
  let loading: Promise<SignClientLike> | undefined
  let client: SignClientLike | undefined
  let session: { topic: string; account: SessionAccount } | undefined
  const pairingListeners = new Set<{ onPairing: (p: SolanaPairing) => void; onExpired?: () => void }>()
  const changeListeners = new Set<(account: SolanaAccount) => void>()
  const endListeners = new Set<() => void>()

  const load = (): Promise<SignClientLike> => {
    loading ??= init({
      projectId: options.projectId,
      relayUrl: options.relayUrl,
      metadata: options.metadata,
      customStoragePrefix: options.storagePrefix ?? SOLANA_WALLETCONNECT_STORAGE_PREFIX,
      telemetryEnabled: false,
    }).then((made) => {
      offHostedVerify(made.core)
      made.on('session_delete', ({ topic }: { topic: string }) => ended(topic))
      made.on('session_expire', ({ topic }: { topic: string }) => ended(topic))
      made.on('session_update', ({ topic, params }: { topic: string; params: unknown }) => {
        if (topic !== session?.topic) return
        try {
          const namespaces = (params as { namespaces?: WalletConnectSession['namespaces'] })?.namespaces
          const account = sessionAccount({ namespaces: namespaces ?? {} }, chainIds)
          session = { topic, account }
          for (const listener of changeListeners) listener(publicAccount(account))
        } catch {
          // An update without a usable Solana account: the session as it was stays.
        }
      })
      client = made
      return made
    })
    loading.catch(() => {
      loading = undefined
    })
    return loading
  }

  function ended(topic: string) {
    if (topic !== session?.topic) return
    session = undefined
    for (const listener of endListeners) listener()
  }

  const publicAccount = ({ address, chains }: SessionAccount): SolanaAccount => ({ address, chains })

  const connected = (): { topic: string; account: SessionAccount; client: SignClientLike } => {
    if (!session || !client) throw new SolanaNotConnectedError()
    return { ...session, client }
  }

  /** A stored session of this client's core (a reload), the newest live one with a Solana account. */
  function restored(made: SignClientLike) {
    const now = Date.now() / 1_000
    const live = made.session
      .getAll()
      .filter((s) => s.acknowledged !== false && s.expiry > now && s.namespaces?.solana)
      .reverse()
    for (const candidate of live) {
      try {
        return { topic: candidate.topic, account: sessionAccount(candidate, chainIds) }
      } catch {
        // a session without a usable Solana account: not ours to restore
      }
    }
    return undefined
  }

  async function connect(connectOptions?: { silent?: boolean }): Promise<SolanaAccount | null> {
    if (connectOptions?.silent || options.shared) {
      let made: SignClientLike
      try {
        made = await load()
      } catch (error) {
        throw toSolanaError(error, 'connect')
      }
      session = restored(made)
      if (!session && options.shared && !connectOptions?.silent)
        throw new SolanaAccountError({ details: 'The wallet approved no Solana account in the session' })
      return session ? publicAccount(session.account) : null
    }
    let approved: WalletConnectSession
    try {
      const made = await load()
      const { uri, approval } = await made.connect({
        optionalNamespaces: {
          // SPEC §1's default events beside the methods (the wallet grants those it has).
          solana: {
            chains: [...chainIds],
            methods: [...SOLANA_WALLETCONNECT_METHODS],
            events: [...SESSION_DEFAULT_EVENTS],
          },
        },
      })
      // sign-client 2.25 settles only an approval already awaited: ask for it before showing the URI.
      const settled = approval()
      settled.catch(() => {})
      if (uri) for (const { onPairing } of pairingListeners) onPairing({ uri, expiry: pairingExpiry(uri) })
      approved = await settled
    } catch (error) {
      if (error instanceof Error || (error && typeof error === 'object')) {
        const message = (error as { message?: unknown }).message
        if (typeof message === 'string' && PROPOSAL_EXPIRED.test(message))
          for (const { onExpired } of pairingListeners) onExpired?.()
      }
      throw toSolanaError(error, 'connect')
    }
    let account: SessionAccount
    try {
      account = sessionAccount(approved, chainIds)
    } catch (error) {
      // The wallet settled a session this client cannot use: it is ended, not left open.
      await client?.disconnect({ topic: approved.topic, reason: USER_DISCONNECTED }).catch(() => {})
      throw new SolanaAccountError({ cause: error })
    }
    session = { topic: approved.topic, account }
    return publicAccount(account)
  }

  /** Sends one request of the session and checks its `{ signature }` answer. */
  async function requestSignature(method: string, params: unknown): Promise<string> {
    const { topic, account, client } = connected()
    let answer: unknown
    try {
      answer = await client.request<unknown>({ topic, chainId: account.chainId, request: { method, params } })
    } catch (error) {
      throw toSolanaError(error, method === 'solana_signMessage' ? 'sign' : 'send')
    }
    return parseSignatureAnswer(method, answer)
  }

  async function signAndSendTransaction(
    transaction: Transaction | VersionedTransaction,
    connection: Connection,
    sendOptions: SolanaSendOptions = {},
  ): Promise<TransactionSignature> {
    const preflightCommitment = checkPreflightCommitment(sendOptions.preflightCommitment)
    const { account } = connected()
    let bytes: Uint8Array
    try {
      if (transaction instanceof VersionedTransaction) bytes = transaction.serialize()
      else {
        // As the wallet adapter prepares one: this account pays, on a recent blockhash, unless already set.
        transaction.feePayer ??= new PublicKey(account.address)
        if (!transaction.recentBlockhash)
          transaction.recentBlockhash = (await connection.getLatestBlockhash('confirmed')).blockhash
        bytes = transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
      }
    } catch (error) {
      throw toSolanaError(error, 'send')
    }
    const options = {
      ...(sendOptions.skipPreflight !== undefined ? { skipPreflight: sendOptions.skipPreflight } : {}),
      ...(preflightCommitment ? { preflightCommitment } : {}),
      ...(sendOptions.maxRetries !== undefined ? { maxRetries: sendOptions.maxRetries } : {}),
      ...(sendOptions.minContextSlot !== undefined ? { minContextSlot: sendOptions.minContextSlot } : {}),
    }
    return requestSignature('solana_signAndSendTransaction', {
      transaction: toBase64(bytes),
      pubkey: account.address,
      ...(Object.keys(options).length > 0 ? { sendOptions: options } : {}),
    })
  }

  const transfers = solanaTransfers({
    payer: () => new PublicKey(connected().account.address),
    signAndSendTransaction,
  })

  return {
    info,
    get account() {
      return session ? publicAccount(session.account) : null
    },
    connect: connect as SolanaWalletClient['connect'],

    async disconnect() {
      const current = session
      session = undefined
      if (!current || !client || options.shared) return
      try {
        await client.disconnect({ topic: current.topic, reason: USER_DISCONNECTED })
      } catch (error) {
        throw toSolanaError(error, 'disconnect')
      }
    },

    watch(onChange, onDisconnect) {
      changeListeners.add(onChange)
      endListeners.add(onDisconnect)
      return () => {
        changeListeners.delete(onChange)
        endListeners.delete(onDisconnect)
      }
    },

    watchPairing(onPairing, onExpired) {
      const listener = { onPairing, ...(onExpired ? { onExpired } : {}) }
      pairingListeners.add(listener)
      return () => pairingListeners.delete(listener)
    },

    async signMessage(text) {
      const { account } = connected()
      return requestSignature('solana_signMessage', {
        message: bs58.encode(new TextEncoder().encode(text)),
        pubkey: account.address,
      })
    },

    signAndSendTransaction,
    ...transfers,

    destroy() {
      pairingListeners.clear()
      changeListeners.clear()
      endListeners.clear()
    },
  }
}
