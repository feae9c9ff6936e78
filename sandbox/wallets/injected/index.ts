import config from 'virtual:walletstate-wallets/injected-config'
import * as v from 'valibot'
import { type Address, type Hex, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  chainIdNumber,
  describeTransaction,
  FORWARDED_METHODS,
  forwardRpc,
  parsePersonalSign,
  parseTransaction,
  parseTypedDataV4,
  rpcErrors,
  sendTransaction,
  signerFor,
  signTypedData,
  toProviderError,
  toViemChain,
  unsupportedChainFor,
} from '../common/eth.ts'
import { DEV_WALLET_ICON } from '../common/icon.ts'
import { createPrompter } from '../common/prompt.ts'
import type { InjectedWalletConfig } from '../config.ts'

/*
 * The injected dev wallet: a host page loads this module (`<script type="module" src=...>`), and it announces
 * an EIP-1193 provider by EIP-6963. It holds the first anvil dev account (and shares a second one after it) and asks, in its own prompt, before it
 * connects, signs, sends or switches chain. Authorisation and the chosen chain persist in the page origin's
 * localStorage, so a reload reconnects silently (eth_accounts) as a browser extension would.
 */

const WALLET_NAME = 'Walletstate Dev Wallet'
const RDNS = 'io.walletstate.devwallet'
const STORAGE_KEY = 'walletstate-devwallet:v1'
/** Guards against a second copy of the module on one page (e.g. loaded with another query string). */
const INSTALLED = Symbol.for('io.walletstate.devwallet.installed')

type Listener = (...args: unknown[]) => void
type ProviderEvent = 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect' | 'message'

const RequestArgsSchema = v.object({
  method: v.pipe(v.string(), v.minLength(1)),
  params: v.optional(v.union([v.array(v.unknown()), v.record(v.string(), v.unknown())])),
})
const StoredSchema = v.object({
  account: v.nullable(v.string()),
  chainId: v.pipe(v.number(), v.integer()),
})
const ChainParamSchema = v.looseTuple([
  v.looseObject({ chainId: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,16}$/)) }),
])

interface Stored {
  account: string | null
  chainId: number
}

/** The EIP-1193 provider the wallet announces. */
export interface DevWalletProvider {
  readonly isWalletstateDevWallet: true
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on(event: ProviderEvent, listener: Listener): DevWalletProvider
  addListener(event: ProviderEvent, listener: Listener): DevWalletProvider
  once(event: ProviderEvent, listener: Listener): DevWalletProvider
  removeListener(event: ProviderEvent, listener: Listener): DevWalletProvider
  off(event: ProviderEvent, listener: Listener): DevWalletProvider
}

function install(config: InjectedWalletConfig): void {
  const scope = window as unknown as Record<symbol, unknown>
  if (scope[INSTALLED]) return
  scope[INSTALLED] = true

  const account = privateKeyToAccount(config.account.privateKey)
  const address: Address = account.address
  // Every account it shares, the first one first: a connection starts on it, a dapp may use any of them.
  const shared = [
    account,
    ...(config.moreAccounts ?? []).map((more) => privateKeyToAccount(more.privateKey)),
  ] as const
  const servedChain = config.chain
  /** Every chain it has a node for: the sandbox chain and any further one (the second sandbox chain). */
  const servedChains = [servedChain, ...(config.moreChains ?? [])]
  const otherChain = unsupportedChainFor(servedChain.id)
  const knownChains = [...servedChains, otherChain]
  /** The served chain `id` names, or `undefined` for the chain it knows but has no node for. */
  const nodeFor = (id: number) => servedChains.find((chain) => chain.id === id)
  const chainName = (id: number) => knownChains.find((chain) => chain.id === id)?.name ?? `chain ${id}`
  const origin = window.location.origin
  const prompter = createPrompter({ name: WALLET_NAME, icon: DEV_WALLET_ICON })

  // ----- persisted state -----
  const memory: { value: string | null } = { value: null }
  const readStored = (): Stored => {
    let text: string | null
    try {
      text = window.localStorage.getItem(STORAGE_KEY)
    } catch {
      text = memory.value // storage blocked (sandboxed frame): state lives as long as the page
    }
    const fallback = { account: null, chainId: servedChain.id }
    if (text === null) return fallback
    try {
      const parsed = v.safeParse(StoredSchema, JSON.parse(text))
      if (!parsed.success) return fallback
      const chainId = knownChains.some((chain) => chain.id === parsed.output.chainId)
        ? parsed.output.chainId
        : servedChain.id
      return { account: parsed.output.account, chainId }
    } catch {
      return fallback
    }
  }
  let state = readStored()
  const writeStored = (next: Stored) => {
    state = next
    const text = JSON.stringify(next)
    try {
      window.localStorage.setItem(STORAGE_KEY, text)
    } catch {
      memory.value = text
    }
  }
  // Authorisation given to another account (config changed since) does not carry over.
  const authorised = () => state.account !== null && state.account.toLowerCase() === address.toLowerCase()
  const accounts = (): Address[] => (authorised() ? shared.map((each) => each.address) : [])

  // ----- events -----
  const listeners = new Map<string, Set<Listener>>()
  const emit = (event: ProviderEvent, payload: unknown) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(payload)
      } catch (error) {
        console.error(`[${WALLET_NAME}] ${event} listener threw`, error)
      }
    }
  }

  // ----- serialised user-facing steps -----
  // A check ("already authorised?") and the prompt that follows must not interleave with another request's.
  let tail: Promise<unknown> = Promise.resolve()
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task)
    tail = run.catch(() => undefined)
    return run
  }
  const confirm = async (request: Parameters<typeof prompter.ask>[0]) => {
    if (!(await prompter.ask(request))) throw rpcErrors.userRejected()
  }
  const requireAuthorised = () => {
    if (!authorised()) throw rpcErrors.unauthorized()
  }
  const accountLine = { label: 'Account', value: address }
  const accountLineOf = (signer: { address: Address }) => ({ label: 'Account', value: signer.address })
  const networkLine = () => ({ label: 'Network', value: `${chainName(state.chainId)} (${state.chainId})` })

  const requestAccounts = () =>
    serial(async () => {
      if (authorised()) return accounts()
      await confirm({
        title: 'Connection request',
        intro: `${origin} wants to connect to your wallet and see your address.`,
        lines: [
          ...shared.map((each, index) =>
            index === 0 ? accountLine : { label: 'Account', value: each.address },
          ),
          networkLine(),
        ],
      })
      writeStored({ ...state, account: address })
      emit('accountsChanged', accounts())
      return accounts()
    })

  const permissions = () =>
    authorised()
      ? [
          {
            parentCapability: 'eth_accounts',
            invoker: origin,
            caveats: [{ type: 'restrictReturnedAccounts', value: accounts() }],
          },
        ]
      : []

  const switchChain = (target: number) =>
    serial(async () => {
      if (target === state.chainId) return null
      await confirm({
        title: 'Switch network',
        intro: `${origin} wants to switch the network to ${chainName(target)}.`,
        lines: [
          { label: 'From', value: `${chainName(state.chainId)} (${state.chainId})` },
          { label: 'To', value: `${chainName(target)} (${target})` },
        ],
      })
      writeStored({ ...state, chainId: target })
      emit('chainChanged', toHex(target))
      return null
    })

  async function handle(method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case 'eth_chainId':
        return toHex(state.chainId)
      case 'net_version':
        return String(state.chainId)
      case 'eth_accounts':
        return accounts()
      case 'eth_coinbase':
        return accounts()[0] ?? null
      case 'eth_requestAccounts':
        return requestAccounts()
      case 'wallet_requestPermissions':
        await requestAccounts()
        return permissions()
      case 'wallet_getPermissions':
        return permissions()
      case 'wallet_revokePermissions':
        if (authorised()) {
          writeStored({ ...state, account: null })
          emit('accountsChanged', [])
        }
        return null
      case 'wallet_getCapabilities':
        // EIP-5792: this wallet has no atomic batching on any chain (and no wallet_sendCalls): a batch comes to it
        // as one eth_sendTransaction per call, each asked for.
        requireAuthorised()
        return Object.fromEntries(
          knownChains.map((chain) => [toHex(chain.id), { atomic: { status: 'unsupported' } }]),
        )
      case 'personal_sign': {
        requireAuthorised()
        const signer = signerFor(shared, method, params)
        const request = parsePersonalSign(params, signer.address)
        return serial(async () => {
          requireAuthorised()
          await confirm({
            title: 'Signature request',
            intro: `${origin} asks you to sign a message.`,
            lines: [accountLineOf(signer)],
            detail: { label: 'Message', text: request.text },
          })
          return signer.signMessage({ message: request.message })
        })
      }
      case 'eth_signTypedData_v4': {
        requireAuthorised()
        const signer = signerFor(shared, method, params)
        const request = parseTypedDataV4(params, signer.address, state.chainId)
        return serial(async () => {
          requireAuthorised()
          await confirm({
            title: 'Typed data signature request',
            intro: `${origin} asks you to sign ${request.primaryType}${request.domainName ? ` for ${request.domainName}` : ''}.`,
            lines: [accountLineOf(signer), networkLine()],
            detail: { label: 'Typed data', text: request.text },
          })
          return signTypedData(signer, request)
        })
      }
      case 'eth_sendTransaction': {
        requireAuthorised()
        const asked = nodeFor(state.chainId)
        if (asked === undefined) throw rpcErrors.chainDisconnected(otherChain)
        const signer = signerFor(shared, method, params)
        const tx = parseTransaction(params, signer.address, asked.id)
        return serial(async (): Promise<Hex> => {
          requireAuthorised()
          await confirm({
            title: 'Transaction request',
            intro: `${origin} asks you to send a transaction.`,
            lines: [accountLineOf(signer), networkLine(), ...describeTransaction(tx)],
          })
          // The chain may have been switched while this prompt waited in the queue: it is sent where it was asked.
          if (state.chainId !== asked.id) throw rpcErrors.chainDisconnected(otherChain)
          return sendTransaction(signer, toViemChain(asked), tx)
        })
      }
      case 'wallet_switchEthereumChain': {
        const parsed = v.safeParse(ChainParamSchema, params)
        if (!parsed.success)
          throw rpcErrors.invalidParams(`Invalid ${method} params: ${v.summarize(parsed.issues)}`)
        const target = chainIdNumber(parsed.output[0].chainId)
        if (!knownChains.some((chain) => chain.id === target))
          throw rpcErrors.unrecognizedChain(parsed.output[0].chainId)
        return switchChain(target)
      }
      case 'wallet_addEthereumChain': {
        const parsed = v.safeParse(ChainParamSchema, params)
        if (!parsed.success)
          throw rpcErrors.invalidParams(`Invalid ${method} params: ${v.summarize(parsed.issues)}`)
        const target = chainIdNumber(parsed.output[0].chainId)
        if (!knownChains.some((chain) => chain.id === target)) {
          throw rpcErrors.invalidParams(
            `${WALLET_NAME} cannot add chain ${target}: it knows ${knownChains.map((c) => `${c.name} (${c.id})`).join(' and ')} only.`,
          )
        }
        // Adding a chain the wallet knows is a switch to it, as extension wallets do.
        return switchChain(target)
      }
    }
    if (FORWARDED_METHODS.has(method)) {
      const node = nodeFor(state.chainId)
      if (node === undefined) throw rpcErrors.chainDisconnected(otherChain)
      return forwardRpc(node.rpcUrl, method, params)
    }
    throw rpcErrors.unsupportedMethod(method)
  }

  /** Every transaction the wallet was asked to send, in order (read by tests: "no request reached the wallet"). */
  const transactionRequests: Array<{ method: string; params: unknown }> = []
  const provider: DevWalletProvider = {
    isWalletstateDevWallet: true,
    async request(args) {
      const parsed = v.safeParse(RequestArgsSchema, args)
      if (!parsed.success) {
        throw rpcErrors.invalidRequest(`Invalid request arguments: ${v.summarize(parsed.issues)}`)
      }
      if (parsed.output.method === 'eth_sendTransaction' || parsed.output.method === 'wallet_sendCalls')
        transactionRequests.push({ method: parsed.output.method, params: parsed.output.params })
      try {
        return await handle(parsed.output.method, parsed.output.params)
      } catch (error) {
        throw toProviderError(error)
      }
    },
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) {
        set = new Set()
        listeners.set(event, set)
      }
      set.add(listener)
      return provider
    },
    addListener(event, listener) {
      return provider.on(event, listener)
    },
    once(event, listener) {
      const wrapped: Listener = (...args) => {
        provider.removeListener(event, wrapped)
        listener(...args)
      }
      return provider.on(event, wrapped)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
      return provider
    },
    off(event, listener) {
      return provider.removeListener(event, listener)
    },
  }

  // Another tab of the same origin connected, revoked or switched: follow it, as an extension would.
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY) return
    const before = state
    state = readStored()
    if (before.account !== state.account) emit('accountsChanged', accounts())
    if (before.chainId !== state.chainId) emit('chainChanged', toHex(state.chainId))
  })

  const info = Object.freeze({ uuid: uuidV4(), name: WALLET_NAME, icon: DEV_WALLET_ICON, rdns: RDNS })
  const detail = Object.freeze({ info, provider })
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  // EIP-1193: `connect` once the provider can serve requests; queued so listeners attached on announce hear it.
  queueMicrotask(() => emit('connect', { chainId: toHex(state.chainId) }))

  // Read-only diagnostics for tests and curious people; prompts are answered by clicking only.
  Object.defineProperty(window, '__walletstateDevWallet', {
    value: Object.freeze({
      info,
      get address() {
        return address
      },
      get addresses() {
        return shared.map((each) => each.address)
      },
      get authorised() {
        return authorised()
      },
      get chainId() {
        return state.chainId
      },
      get pendingPrompts() {
        return prompter.pending
      },
      get transactionRequests() {
        return structuredClone(transactionRequests)
      },
    }),
  })
}

/** A random v4 UUID; crypto.randomUUID needs a secure context, which a LAN-served host page may not be. */
function uuidV4(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

install(config)
