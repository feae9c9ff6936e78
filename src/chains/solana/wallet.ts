import type { WalletAdapterCompatibleStandardWallet } from '@solana/wallet-adapter-base'
import { StandardWalletAdapter } from '@solana/wallet-standard-wallet-adapter-base'
import {
  type Connection,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionSignature,
  type VersionedTransaction,
} from '@solana/web3.js'
import bs58 from 'bs58'
import {
  SolanaAccountError,
  SolanaInsufficientFundsError,
  SolanaInvalidAddressError,
  SolanaInvalidAmountError,
  SolanaNotConnectedError,
  SolanaRpcUnavailableError,
  SolanaWalletNotFoundError,
  toSolanaError,
} from '../../errors/solana'
import { checkPreflightCommitment, type PreflightCommitment } from './commitment'
import { findSolanaWallet, type SolanaWalletInfo, toSolanaWalletInfos } from './discovery'
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  mintDecimals,
} from './token'

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

/** How a transaction is sent (web3.js' `SendOptions`, the preflight commitment checked against SPEC §5). */
export interface SolanaSendOptions {
  preflightCommitment?: PreflightCommitment
  skipPreflight?: boolean
  maxRetries?: number
  minContextSlot?: number
}

export interface SendSolParameters {
  /** The recipient's public key, base58. */
  to: string
  /** Whole lamports (1 SOL = 10^9). */
  lamports: bigint | number
  connection: Connection
  options?: SolanaSendOptions
}

export interface SendSplParameters {
  /** The token's mint, base58. */
  mint: string
  /** The recipient's wallet address (its associated token account is created when missing), base58. */
  to: string
  /** Whole base units of the token (10 USDC with 6 decimals is `10_000_000n`). */
  amount: bigint | number
  /** The mint's decimals; checked by the token program (a wrong value fails the transfer). */
  decimals: number
  connection: Connection
  options?: SolanaSendOptions
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

/** What a send waits for before it answers. */
const CONFIRM_COMMITMENT = 'confirmed'
const U64_MAX = 2n ** 64n - 1n

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

  /** Signs, sends and waits for `confirmed`; a transaction the chain ran and failed throws. */
  async function sendAndConfirm(
    transaction: Transaction,
    connection: Connection,
    options: SolanaSendOptions | undefined,
  ): Promise<TransactionSignature> {
    const payer = connectedKey()
    const latest = await rpc(() => connection.getLatestBlockhash(CONFIRM_COMMITMENT))
    transaction.feePayer = payer
    transaction.recentBlockhash = latest.blockhash
    const signature = await signAndSendTransaction(transaction, connection, options)
    const result = await rpc(() =>
      connection.confirmTransaction({ signature, ...latest }, CONFIRM_COMMITMENT),
    )
    if (result.value.err) {
      // The chain's error object (e.g. `{InstructionError: [0, {Custom: 1}]}`) as text, for the mapping.
      throw toSolanaError(
        new Error(`Transaction ${signature} failed: ${JSON.stringify(result.value.err)}`),
        'send',
      )
    }
    return signature
  }

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

    async sendSol({ to, lamports, connection, options }) {
      const from = connectedKey()
      const recipient = publicKeyOf(to)
      const amount = baseUnits(lamports)
      const balance = BigInt(await rpc(() => connection.getBalance(from, CONFIRM_COMMITMENT)))
      if (balance < amount)
        throw new SolanaInsufficientFundsError({
          details: `Balance ${balance} lamports, sending ${amount}`,
        })
      const transaction = new Transaction().add(
        SystemProgram.transfer({ fromPubkey: from, toPubkey: recipient, lamports: amount }),
      )
      return sendAndConfirm(transaction, connection, options)
    },

    async sendSpl({ mint, to, amount, decimals, connection, options }) {
      const owner = connectedKey()
      const mintKey = publicKeyOf(mint)
      const recipient = publicKeyOf(to)
      const units = baseUnits(amount)
      const mintAccount = await rpc(() => connection.getAccountInfo(mintKey, CONFIRM_COMMITMENT))
      const onChainDecimals = mintDecimals(mintAccount)
      if (!mintAccount || onChainDecimals === undefined)
        throw new SolanaInvalidAddressError({ details: `${mint} is not a token mint` })
      if (onChainDecimals !== decimals)
        throw new SolanaInvalidAmountError({
          details: `The mint has ${onChainDecimals} decimals, not ${decimals}`,
        })
      const program = mintAccount.owner
      const source = associatedTokenAddress(mintKey, owner, program)
      let destination: PublicKey
      try {
        destination = associatedTokenAddress(mintKey, recipient, program)
      } catch (error) {
        throw new SolanaInvalidAddressError({ cause: error })
      }
      const [sourceBalance, destinationAccount] = await Promise.all([
        rpc(() => connection.getTokenAccountBalance(source, CONFIRM_COMMITMENT)).catch((error: unknown) => {
          // No token account: nothing to send from. Anything else (the RPC down) is itself.
          if (error instanceof SolanaRpcUnavailableError) throw error
          return null
        }),
        rpc(() => connection.getAccountInfo(destination, CONFIRM_COMMITMENT)),
      ])
      const held = sourceBalance ? BigInt(sourceBalance.value.amount) : 0n
      if (held < units)
        throw new SolanaInsufficientFundsError({ details: `Token balance ${held}, sending ${units}` })
      const transaction = new Transaction()
      if (!destinationAccount)
        transaction.add(
          createAssociatedTokenAccountIdempotentInstruction(owner, destination, recipient, mintKey, program),
        )
      transaction.add(
        createTransferCheckedInstruction(source, mintKey, destination, owner, units, decimals, program),
      )
      return sendAndConfirm(transaction, connection, options)
    },

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

/** A base58 public key, or `SolanaInvalidAddressError`. */
function publicKeyOf(address: string): PublicKey {
  if (typeof address !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address))
    throw new SolanaInvalidAddressError({ details: 'Not a base58 public key' })
  try {
    return new PublicKey(address)
  } catch (error) {
    throw new SolanaInvalidAddressError({ cause: error })
  }
}

/** A positive whole number of base units that fits a u64, or `SolanaInvalidAmountError`. */
function baseUnits(value: bigint | number): bigint {
  const units = typeof value === 'bigint' ? value : Number.isSafeInteger(value) ? BigInt(value) : -1n
  if (units <= 0n || units > U64_MAX)
    throw new SolanaInvalidAmountError({
      details: `${String(value)} is not a positive whole number of base units`,
    })
  return units
}

/** An RPC read, its failure mapped (an unreachable RPC is `SolanaRpcUnavailableError`). */
async function rpc<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    throw toSolanaError(error, 'send')
  }
}
