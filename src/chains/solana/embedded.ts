import type { Connection, Transaction, TransactionSignature, VersionedTransaction } from '@solana/web3.js'
import { PublicKey } from '@solana/web3.js'
import bs58 from 'bs58'
import * as v from 'valibot'
import { FRAME_LOAD_TIMEOUT_MS, FRAME_REQUEST_TIMEOUT_MS } from '../../constants'
import { BaseError } from '../../errors/base'
import { FrameError } from '../../errors/frame'
import { FRAME_NOT_LOADED } from '../../errors/frameReport'
import { SolanaAccountError, SolanaNotConnectedError, toSolanaError } from '../../errors/solana'
import { type FrameUser, isSolanaFrameUser } from '../../frame/protocol'
import { frameRpc } from '../../frame/rpc'
import { settledUser } from '../../frame/user'
import type { EmbeddedBridge, EmbeddedFrame } from '../eip155/embeddedBridge'
import type { SolanaChainId } from './chains'
import { EMBEDDED_SOLANA_CONNECTOR_ID } from './connectorIds'
import type { SolanaWalletInfo } from './discovery'
import { checkedSendOptions, type SolanaSendOptions, solanaTransfers } from './send'
import type { SolanaAccount, SolanaWalletClient } from './wallet'

/*
 * The embedded wallet on Solana (issue 17): a `SolanaWalletClient` over the login frame. The visitor logged in
 * by e-mail or social (eip155's connector did); connecting here turns the frame to the chosen Solana chain
 * (`switchNetwork`, which answers the account's base58 address), and signing goes through the frame's RPC
 * (`solana_signMessage`, `solana_signAndSendTransaction`), each approved by the visitor in the frame as on
 * eip155. Transfers are built as for any Solana wallet (./send.ts).
 */

export { EMBEDDED_SOLANA_CONNECTOR_ID } from './connectorIds'

/** The connector as Connect and the connection list it. */
export const EMBEDDED_SOLANA_WALLET: SolanaWalletInfo = {
  id: EMBEDDED_SOLANA_CONNECTOR_ID,
  name: 'Email',
  chains: [],
}

/** SPEC §8: the login frame did not come within its load time. */
const frameNotLoaded = () => new FrameError(FRAME_NOT_LOADED)

/** A base58 signature (64 bytes: 86 to 88 characters, fewer with leading zero bytes). */
const Signature = v.pipe(v.string(), v.regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, 'A base58 signature'))
const SignatureResult = v.object({ signature: Signature })

export interface EmbeddedSolanaParameters {
  /** The bridge the kit attaches its running login frame to (the one eip155's embedded connector uses). */
  bridge: Pick<EmbeddedBridge, 'frame' | 'watch'>
  /** The Solana network chosen now (the connection's): where the frame is turned and the requests go. */
  chainId: () => SolanaChainId
}

/**
 * The embedded wallet's Solana client. `connect` needs a visitor logged in to the frame (else
 * `SolanaAccountError`); a silent connect answers `null` instead.
 *
 * @example
 * const wallet = createEmbeddedSolanaWallet({ bridge, chainId: () => 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx' })
 * const { address } = await wallet.connect()
 * const signature = await wallet.sendSol({ to, lamports: 10_000_000n, connection })
 */
export function createEmbeddedSolanaWallet({
  bridge,
  chainId,
}: EmbeddedSolanaParameters): SolanaWalletClient {
  let account: SolanaAccount | null = null

  const connectedKey = (): PublicKey => {
    if (!account) throw new SolanaNotConnectedError()
    return new PublicKey(account.address)
  }
  /** One signing request through the frame, for the connected account's chain; its `{ signature }`. */
  async function sign(method: string, request: Record<string, unknown>): Promise<string> {
    connectedKey()
    const frame = await bridge.frame(frameNotLoaded)
    // The request names its chain: the frame signs on Solana even while it shows the eip155 account.
    if (!frame.getSnapshot().context.user) throw new SolanaNotConnectedError()
    const result = await frameRpc(frame, { method, params: [request], chainId: chainId() })
    const parsed = v.safeParse(SignatureResult, result)
    if (!parsed.success)
      throw new FrameError('An error occurred', { details: `${method} answered an unexpected result.` })
    return parsed.output.signature
  }

  async function connect(options?: { silent?: boolean }): Promise<SolanaAccount | null> {
    let user: FrameUser | undefined
    let frame: EmbeddedFrame
    try {
      frame = await bridge.frame(frameNotLoaded)
      user = await settledUser(frame, FRAME_LOAD_TIMEOUT_MS)
    } catch (error) {
      if (options?.silent) return null
      throw passThrough(error, 'connect')
    }
    if (!user) {
      if (options?.silent) return null
      throw new SolanaAccountError({ details: 'Log in to the embedded wallet (e-mail or social) first.' })
    }
    const target = chainId()
    try {
      const onSolana = userOn(frame, target) ?? (await switchTo(frame, target))
      account = { address: onSolana.address, chains: [target] }
      return account
    } catch (error) {
      if (options?.silent) return null
      throw passThrough(error, 'connect')
    }
  }

  async function signAndSendTransaction(
    transaction: Transaction | VersionedTransaction,
    _connection: Connection,
    options?: SolanaSendOptions,
  ): Promise<TransactionSignature> {
    const sendOptions = checkedSendOptions(options)
    // Not signed yet: the frame signs as the fee payer, and sends it to its Solana RPC.
    const wire =
      'version' in transaction
        ? transaction.serialize()
        : transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
    return sign('solana_signAndSendTransaction', {
      transaction: base64(wire),
      ...(Object.keys(sendOptions).length > 0 ? { options: sendOptions } : {}),
    })
  }

  return {
    info: EMBEDDED_SOLANA_WALLET,
    get account() {
      return account
    },
    connect: connect as SolanaWalletClient['connect'],
    async disconnect() {
      // The login stays: signing out is the frame's (the EVM account's Disconnect). Solana stops using it.
      account = null
    },
    watch(onChange, onDisconnect) {
      let frame: EmbeddedFrame | undefined
      let subscriptions: { unsubscribe(): void }[] = []
      const stop = () => {
        for (const subscription of subscriptions) subscription.unsubscribe()
        subscriptions = []
      }
      const follow = (next: EmbeddedFrame | undefined) => {
        if (next === frame) return
        stop()
        frame = next
        if (!next) return
        subscriptions = [
          next.on('embedded.userUpdated', ({ user }) => {
            // Turned back to eip155 for the other namespace: this account stays.
            if (!account || !isSolanaFrameUser(user) || user.address === account.address) return
            account = { address: user.address, chains: [user.chainId] }
            onChange(account)
          }),
          next.on('embedded.disconnected', () => {
            account = null
            onDisconnect()
          }),
        ]
      }
      // The frame the kit runs now, and a new one after a retry.
      const unwatch = bridge.watch(follow)
      return () => {
        unwatch()
        stop()
        frame = undefined
      }
    },
    async signMessage(text) {
      return sign('solana_signMessage', { message: bs58.encode(new TextEncoder().encode(text)) })
    },
    signAndSendTransaction,
    ...solanaTransfers({ payer: connectedKey, signAndSendTransaction }),
    destroy() {
      account = null
    },
  }
}

/** The frame's user if it is on `chainId` now. */
function userOn(frame: EmbeddedFrame, chainId: string | undefined) {
  const user = frame.getSnapshot().context.user
  return isSolanaFrameUser(user) && user.chainId === chainId ? user : undefined
}

/**
 * Turns the frame to `chainId` and waits for its user there (the frame asks `switchNetwork`, then reads the
 * user again); rejects with the frame's error when it could not.
 */
function switchTo(frame: EmbeddedFrame, chainId: SolanaChainId) {
  return new Promise<NonNullable<ReturnType<typeof userOn>>>((resolve, reject) => {
    const settle = () => {
      const snapshot = frame.getSnapshot()
      if (snapshot.hasTag('busy')) return false
      const user = userOn(frame, chainId)
      if (user) resolve(user)
      else
        reject(
          snapshot.context.error
            ? new FrameError(snapshot.context.error.message, { details: snapshot.context.error.details })
            : new SolanaAccountError({ details: `The embedded wallet did not switch to ${chainId}.` }),
        )
      return true
    }
    frame.send({ type: 'frame.switchNetwork', chainId })
    if (settle()) return
    const timer = setTimeout(() => {
      subscription.unsubscribe()
      reject(new SolanaAccountError({ details: `The embedded wallet did not switch to ${chainId} in time.` }))
    }, FRAME_REQUEST_TIMEOUT_MS * 2)
    const subscription = frame.subscribe(() => {
      if (!settle()) return
      clearTimeout(timer)
      subscription.unsubscribe()
    })
  })
}

/** Bytes as base64 (no Node `Buffer` in the page). */
function base64(bytes: Uint8Array): string {
  let text = ''
  for (const byte of bytes) text += String.fromCharCode(byte)
  return btoa(text)
}

/** The kit's own errors (the frame's 'Signature declined', 4001) stay as they are; the rest become Solana's. */
function passThrough(error: unknown, operation: 'connect' | 'sign') {
  return error instanceof BaseError ? error : toSolanaError(error, operation)
}

/**
 * Calls `onChange` with whether the embedded wallet can connect on Solana: while the kit's login frame has a
 * visitor logged in (now, and on every change); returns the stop.
 *
 * @example
 * const stop = watchEmbeddedSolana(bridge, (available) => list(available ? [EMBEDDED_SOLANA_WALLET] : []))
 */
export function watchEmbeddedSolana(
  bridge: Pick<EmbeddedBridge, 'watch'>,
  onChange: (available: boolean) => void,
): () => void {
  let available: boolean | undefined
  let subscription: { unsubscribe(): void } | undefined
  const tell = (frame: EmbeddedFrame | undefined) => {
    const now = !!frame?.getSnapshot().context.user
    if (now === available) return
    available = now
    onChange(now)
  }
  const unwatch = bridge.watch((frame) => {
    subscription?.unsubscribe()
    subscription = frame?.subscribe(() => tell(frame))
    tell(frame)
  })
  return () => {
    unwatch()
    subscription?.unsubscribe()
  }
}
