import config from 'virtual:walletstate-wallets/solana-config'
import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
  type SolanaSignAndSendTransactionInput,
  type SolanaSignAndSendTransactionOutput,
  SolanaSignMessage,
  type SolanaSignMessageFeature,
  type SolanaSignMessageInput,
  type SolanaSignMessageOutput,
  SolanaSignTransaction,
  type SolanaSignTransactionFeature,
  type SolanaSignTransactionInput,
  type SolanaSignTransactionOutput,
} from '@solana/wallet-standard-features'
import { Keypair } from '@solana/web3.js'
import type { IdentifierString, Wallet, WalletAccount } from '@wallet-standard/base'
import {
  StandardConnect,
  type StandardConnectFeature,
  type StandardConnectOutput,
  StandardDisconnect,
  type StandardDisconnectFeature,
  StandardEvents,
  type StandardEventsFeature,
  type StandardEventsListeners,
} from '@wallet-standard/features'
import { registerWallet } from '@wallet-standard/wallet'
import nacl from 'tweetnacl'
import * as v from 'valibot'
import { SOLANA_DEV_WALLET_ICON } from '../common/icon.ts'
import { createPrompter, type PromptRequest } from '../common/prompt.ts'
import type { SolanaWalletConfig } from '../config.ts'
import { seedBytes } from '../solana-account.ts'
import { NOT_CONFIGURED_MESSAGE, sendRawTransaction, WalletRequestError } from './rpc.ts'
import { decodeTransaction, describeTransaction, requireSigner } from './transaction.ts'

export { NOT_CONFIGURED_MESSAGE, WalletRequestError }

/*
 * The injected Solana dev wallet: a host page loads this module (`<script type="module" src=...>`) and it
 * registers itself with the Wallet Standard (`wallet-standard:register-wallet` / `app-ready`), the way Phantom
 * and Solflare are found. It holds the fixed public dev keypair of solana-account.ts (its seed served in its config) and asks, in the same
 * prompt as the EVM dev wallet, before it connects or signs. Authorisation persists in the page origin's
 * localStorage, so a silent connect after a reload succeeds as it does with an extension.
 */

export const SOLANA_WALLET_NAME = 'Walletstate Solana Dev Wallet'
const STORAGE_KEY = 'walletstate-solana-devwallet:v1'
const INSTALLED = Symbol.for('io.walletstate.solana-devwallet.installed')

const StoredSchema = v.object({ account: v.nullable(v.string()) })

/**
 * A refusal by the visitor. Code 4001 as EIP-1193 and Solana extension wallets use it, so adapters that look
 * at the code (as well as the message) recognise it.
 */
export class WalletUserRejectedError extends Error {
  override readonly name = 'WalletUserRejectedError'
  readonly code = 4001
  constructor() {
    super('User rejected the request.')
  }
}

type Features = StandardConnectFeature &
  StandardDisconnectFeature &
  StandardEventsFeature &
  SolanaSignMessageFeature &
  SolanaSignTransactionFeature &
  SolanaSignAndSendTransactionFeature

function install(config: SolanaWalletConfig): void {
  const scope = window as unknown as Record<symbol, unknown>
  if (scope[INSTALLED]) return
  scope[INSTALLED] = true

  const keypair = Keypair.fromSeed(seedBytes(config.account.seedHex))
  const address = keypair.publicKey.toBase58()
  if (address !== config.account.address) {
    throw new Error(
      `[${SOLANA_WALLET_NAME}] the configured address ${config.account.address} is not the dev key's`,
    )
  }
  const chains = [...config.chains] as IdentifierString[]
  const origin = window.location.origin
  const prompter = createPrompter({ name: SOLANA_WALLET_NAME, icon: SOLANA_DEV_WALLET_ICON })
  const networkLine = { label: 'Network', value: `${config.chainName} (${chains[0] ?? 'solana'})` }
  const accountLine = { label: 'Account', value: address }

  const featureNames = [
    SolanaSignMessage,
    SolanaSignTransaction,
    SolanaSignAndSendTransaction,
  ] as const satisfies readonly IdentifierString[]
  const account: WalletAccount = Object.freeze({
    address,
    publicKey: keypair.publicKey.toBytes(),
    chains: Object.freeze([...chains]),
    features: Object.freeze([...featureNames]),
    label: 'Solana dev account',
    icon: SOLANA_DEV_WALLET_ICON,
  })

  // ----- persisted state -----
  const memory: { value: string | null } = { value: null }
  const readAuthorised = (): boolean => {
    let text: string | null
    try {
      text = window.localStorage.getItem(STORAGE_KEY)
    } catch {
      text = memory.value // storage blocked (sandboxed frame): state lives as long as the page
    }
    if (text === null) return false
    try {
      const parsed = v.safeParse(StoredSchema, JSON.parse(text))
      // Authorisation given to another key (config changed since) does not carry over.
      return parsed.success && parsed.output.account === address
    } catch {
      return false
    }
  }
  let authorised = readAuthorised()
  const writeAuthorised = (next: boolean) => {
    authorised = next
    const text = JSON.stringify({ account: next ? address : null })
    try {
      window.localStorage.setItem(STORAGE_KEY, text)
    } catch {
      memory.value = text
    }
  }
  const accounts = (): readonly WalletAccount[] => (authorised ? [account] : [])

  // ----- events -----
  const listeners: { [E in keyof StandardEventsListeners]?: Set<StandardEventsListeners[E]> } = {}
  const emitChange = () => {
    for (const listener of [...(listeners.change ?? [])]) {
      try {
        listener({ accounts: accounts() })
      } catch (error) {
        console.error(`[${SOLANA_WALLET_NAME}] change listener threw`, error)
      }
    }
  }

  // ----- serialised user-facing steps -----
  let tail: Promise<unknown> = Promise.resolve()
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task)
    tail = run.catch(() => undefined)
    return run
  }
  const confirm = async (request: PromptRequest) => {
    if (!(await prompter.ask(request))) throw new WalletUserRejectedError()
  }
  const requireAuthorised = () => {
    if (!authorised) throw new WalletRequestError(`${SOLANA_WALLET_NAME} is not connected to ${origin}`, 4100)
  }
  const requireAccount = (input: { account: WalletAccount }) => {
    if (input?.account?.address !== address) {
      throw new WalletRequestError(`${SOLANA_WALLET_NAME} has no account ${String(input?.account?.address)}`)
    }
  }
  const requireChain = (chain: IdentifierString | undefined, required: boolean) => {
    if (chain === undefined && !required) return
    if (chain === undefined || !chains.includes(chain)) {
      throw new WalletRequestError(
        `${SOLANA_WALLET_NAME} does not serve chain ${String(chain)}; it serves ${chains.join(', ')}`,
      )
    }
  }
  const requireBytes = (value: unknown, what: string): Uint8Array => {
    if (!(value instanceof Uint8Array)) throw new WalletRequestError(`${what} must be a Uint8Array`)
    return value
  }

  const connect = ({ silent }: { silent?: boolean } = {}): Promise<StandardConnectOutput> =>
    serial(async () => {
      if (authorised || silent) return { accounts: accounts() }
      await confirm({
        title: 'Connection request',
        intro: `${origin} wants to connect to your wallet and see your address.`,
        lines: [accountLine, networkLine],
      })
      writeAuthorised(true)
      emitChange()
      return { accounts: accounts() }
    })

  const disconnect = async (): Promise<void> => {
    if (!authorised) return
    writeAuthorised(false)
    emitChange()
  }

  const signMessage = async (
    ...inputs: readonly SolanaSignMessageInput[]
  ): Promise<SolanaSignMessageOutput[]> => {
    const outputs: SolanaSignMessageOutput[] = []
    for (const input of inputs) {
      requireAuthorised()
      requireAccount(input)
      const message = requireBytes(input.message, 'message')
      outputs.push(
        await serial(async () => {
          requireAuthorised()
          await confirm({
            title: 'Signature request',
            intro: `${origin} asks you to sign a message.`,
            lines: [accountLine],
            detail: { label: 'Message', text: displayMessage(message) },
          })
          const signature = nacl.sign.detached(message, keypair.secretKey)
          return { signedMessage: message, signature, signatureType: 'ed25519' as const }
        }),
      )
    }
    return outputs
  }

  /** Decodes, asks, signs; the caller says what the prompt asks for. */
  const signOne = async (input: SolanaSignTransactionInput, title: string, intro: string) => {
    requireAuthorised()
    requireAccount(input)
    const tx = decodeTransaction(requireBytes(input.transaction, 'transaction'))
    requireSigner(tx, keypair.publicKey)
    return serial(async () => {
      requireAuthorised()
      await confirm({ title, intro, lines: [accountLine, networkLine, ...describeTransaction(tx)] })
      tx.sign([keypair])
      return tx
    })
  }

  const signTransaction = async (
    ...inputs: readonly SolanaSignTransactionInput[]
  ): Promise<SolanaSignTransactionOutput[]> => {
    const outputs: SolanaSignTransactionOutput[] = []
    for (const input of inputs) {
      requireChain(input.chain, false)
      const tx = await signOne(
        input,
        'Transaction signature request',
        `${origin} asks you to sign a transaction.`,
      )
      outputs.push({ signedTransaction: tx.serialize() })
    }
    return outputs
  }

  const signAndSendTransaction = async (
    ...inputs: readonly SolanaSignAndSendTransactionInput[]
  ): Promise<SolanaSignAndSendTransactionOutput[]> => {
    const outputs: SolanaSignAndSendTransactionOutput[] = []
    for (const input of inputs) {
      // Checked before asking: the visitor is never asked to approve what cannot be sent.
      if (!config.rpcUrl) throw new WalletRequestError(NOT_CONFIGURED_MESSAGE, -32603)
      requireChain(input.chain, true)
      const tx = await signOne(
        input,
        'Transaction request',
        `${origin} asks you to sign and send a transaction.`,
      )
      const signature = tx.signatures[0]
      if (!signature) throw new WalletRequestError('The signed transaction has no signature', -32603)
      await sendRawTransaction(config.rpcUrl, tx.serialize(), input.options)
      outputs.push({ signature })
    }
    return outputs
  }

  const features: Features = {
    [StandardConnect]: { version: '1.0.0', connect },
    [StandardDisconnect]: { version: '1.0.0', disconnect },
    [StandardEvents]: {
      version: '1.0.0',
      on(event, listener) {
        let set = listeners[event]
        if (!set) {
          set = new Set()
          listeners[event] = set
        }
        set.add(listener)
        return () => {
          set.delete(listener)
        }
      },
    },
    [SolanaSignMessage]: { version: '1.1.0', signMessage },
    [SolanaSignTransaction]: {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      signTransaction,
    },
    [SolanaSignAndSendTransaction]: {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      signAndSendTransaction,
    },
  }

  const wallet: Wallet = {
    version: '1.0.0',
    name: SOLANA_WALLET_NAME,
    icon: SOLANA_DEV_WALLET_ICON,
    chains,
    features,
    get accounts() {
      return accounts()
    },
  }

  // Another tab of the same origin connected or disconnected: follow it, as an extension would.
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY) return
    const before = authorised
    authorised = readAuthorised()
    if (before !== authorised) emitChange()
  })

  registerWallet(wallet)

  // Read-only diagnostics for tests and curious people; prompts are answered by clicking only.
  Object.defineProperty(window, '__walletstateSolanaDevWallet', {
    value: Object.freeze({
      name: SOLANA_WALLET_NAME,
      address,
      chains: [...chains],
      rpcConfigured: config.rpcUrl !== null,
      get authorised() {
        return authorised
      },
      get pendingPrompts() {
        return prompter.pending
      },
    }),
  })
}

/** UTF-8 text when the bytes are valid UTF-8, else hex: the prompt shows what is really signed. */
function displayMessage(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return `0x${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
  }
}

install(config)
