import type { WalletAdapterCompatibleStandardWallet } from '@solana/wallet-adapter-base'
import { StandardWalletAdapter } from '@solana/wallet-standard-wallet-adapter-base'
import type {
  Connection,
  PublicKey,
  Transaction,
  TransactionSignature,
  VersionedTransaction,
} from '@solana/web3.js'
import bs58 from 'bs58'
import {
  SolanaAccountError,
  SolanaNotConnectedError,
  SolanaWalletNotFoundError,
  toSolanaError,
} from '../../errors/solana'
import { checkPreflightCommitment } from './commitment'
import { findSolanaWallet, type SolanaWalletInfo, toSolanaWalletInfos } from './discovery'
import {
  type SendSolParameters,
  type SendSplParameters,
  type SolanaSendOptions,
  sendSol,
  sendSpl,
} from './transfer'

export type { SendSolParameters, SendSplParameters, SolanaSendOptions }

/*
 * One chosen Solana wallet, through the wallet adapter's `StandardWalletAdapter` (the same class the Solana
 * wallet-adapter React kit wraps every Wallet Standard wallet in). Everything it throws is a `SolanaError`
 * (src/errors/solana.ts); a declined prompt is `SolanaUserRejectedError`, 'User rejected the request.'.
 */

/** The connected account. */
export interface SolanaAccount {
  /** The public key, base58. */
  address: string
  /** The Wallet Standard chains the account serves (`solana:mainnet`, `solana:localnet`, ...). */
  chains: string[]
}

export interface SolanaWalletClient {
  /** The wallet as discovery lists it. */
  readonly info: SolanaWalletInfo
  /** The account, once connected. */
  readonly account: SolanaAccount | null
  /**
   * Connects. `silent: true` asks nothing: it answers the account a wallet already authorised for this site,
   * else `null` (a reload's reconnect).
   */
  connect(options: { silent: true }): Promise<SolanaAccount | null>
  connect(options?: { silent?: false }): Promise<SolanaAccount>
  disconnect(): Promise<void>
  /** Account changes in the wallet (`onChange`) and a disconnect from either side; returns the unsubscribe. */
  watch(onChange: (account: SolanaAccount) => void, onDisconnect: () => void): () => void
  /** Signs `text` (UTF-8); the ed25519 signature, base58. */
  signMessage(text: string): Promise<string>
  /** Signs and submits (the wallet's own `signAndSendTransaction` when it has one); the signature, base58. */
  signAndSendTransaction(
    transaction: Transaction | VersionedTransaction,
    connection: Connection,
    options?: SolanaSendOptions,
  ): Promise<TransactionSignature>
  /** Builds, signs, sends and confirms a SOL transfer; the signature. */
  sendSol(parameters: SendSolParameters): Promise<TransactionSignature>
  /** Builds, signs, sends and confirms an SPL transfer (creating the recipient's token account); the signature. */
  sendSpl(parameters: SendSplParameters): Promise<TransactionSignature>
  /** Stops listening to the wallet; the client is not used afterwards. */
  destroy(): void
}

/**
 * A client for one Wallet Standard wallet with Solana features, by its discovery id or the wallet itself.
 * Throws `SolanaWalletNotFoundError` when no such wallet is registered.
 *
 * @example
 * const wallet = createSolanaWallet('solana:walletstate-solana-dev-wallet')
 * const { address } = await wallet.connect()
 * const signature = await wallet.sendSol({ to, lamports: 500_000_000n, connection })
 */
export function createSolanaWallet(
  wallet: string | WalletAdapterCompatibleStandardWallet,
): SolanaWalletClient {
  const standard = typeof wallet === 'string' ? findSolanaWallet(wallet) : wallet
  const info = standard && toSolanaWalletInfos([standard])[0]
  if (!standard || !info)
    throw new SolanaWalletNotFoundError({
      details: typeof wallet === 'string' ? `No Solana wallet ${wallet} is registered` : undefined,
    })
  const adapter = new StandardWalletAdapter({ wallet: standard })
  // The adapter emits every failure as an 'error' event besides throwing it; the throw is what we handle.
  adapter.on('error', () => {})

  const current = (): SolanaAccount | null => {
    const account = adapter.wallet.accounts[0]
    const key = adapter.publicKey
    if (!key) return null
    return {
      address: key.toBase58(),
      chains: [...(account?.chains ?? [])].filter((c) => typeof c === 'string' && c.startsWith('solana:')),
    }
  }
  const connectedKey = (): PublicKey => {
    const key = adapter.publicKey
    if (!key) throw new SolanaNotConnectedError()
    return key
  }

  async function connect(options?: { silent?: boolean }): Promise<SolanaAccount | null> {
    try {
      if (options?.silent) await adapter.autoConnect()
      else await adapter.connect()
    } catch (error) {
      // A silent connect to a wallet that has not authorised the site answers no account: not an error.
      if (options?.silent && isNoAccount(error)) return null
      if (isNoAccount(error)) throw new SolanaAccountError({ cause: error })
      throw toSolanaError(error, 'connect')
    }
    const account = current()
    if (!account) throw new SolanaAccountError()
    return account
  }

  async function signAndSendTransaction(
    transaction: Transaction | VersionedTransaction,
    connection: Connection,
    options: SolanaSendOptions = {},
  ): Promise<TransactionSignature> {
    const preflightCommitment = checkPreflightCommitment(options.preflightCommitment)
    connectedKey()
    try {
      return await adapter.sendTransaction(transaction, connection, {
        ...options,
        ...(preflightCommitment ? { preflightCommitment } : {}),
      })
    } catch (error) {
      throw toSolanaError(error, 'send')
    }
  }

  const signer = { payer: connectedKey, signAndSendTransaction }

  return {
    info,
    get account() {
      return current()
    },
    connect: connect as SolanaWalletClient['connect'],

    async disconnect() {
      try {
        await adapter.disconnect()
      } catch (error) {
        throw toSolanaError(error, 'disconnect')
      }
    },

    watch(onChange, onDisconnect) {
      const changed = () => {
        const account = current()
        if (account) onChange(account)
      }
      adapter.on('connect', changed)
      adapter.on('disconnect', onDisconnect)
      return () => {
        adapter.off('connect', changed)
        adapter.off('disconnect', onDisconnect)
      }
    },

    async signMessage(text) {
      connectedKey()
      const sign = adapter.signMessage
      if (!sign) throw new SolanaAccountError({ details: 'The wallet cannot sign messages' })
      try {
        return bs58.encode(await sign.call(adapter, new TextEncoder().encode(text)))
      } catch (error) {
        throw toSolanaError(error, 'sign')
      }
    },

    signAndSendTransaction,

    sendSol: (parameters) => sendSol(signer, parameters),

    sendSpl: (parameters) => sendSpl(signer, parameters),

    destroy() {
      adapter.removeAllListeners()
      adapter.destroy()
    },
  }
}

/** The wallet answered a connect without any account (wallet-adapter's `WalletAccountError`). */
function isNoAccount(error: unknown): boolean {
  return error instanceof Error && error.name === 'WalletAccountError'
}
