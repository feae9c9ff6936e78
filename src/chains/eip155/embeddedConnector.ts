import { getAddress, numberToHex } from 'viem'
import type { CreateConnectorFn } from 'wagmi'
import { FRAME_LOAD_TIMEOUT_MS, FRAME_SIGN_OUT_TIMEOUT_MS } from '../../constants'
import { FrameError } from '../../errors/frame'
import { FRAME_NOT_LOADED } from '../../errors/frameReport'
import { type FrameUser, isSolanaFrameUser } from '../../frame/protocol'
import { frameRpc } from '../../frame/rpc'
import { settledUser } from '../../frame/user'
import type { KitStore } from '../../storage'
import type { WalletAssetsSources } from './assets'
import type { EmbeddedBridge, EmbeddedFrame } from './embeddedBridge'

/** SPEC §8: the login frame did not come within its load time. */
const frameNotLoaded = () => new FrameError(FRAME_NOT_LOADED)

/**
 * The embedded wallet connector's body: connecting, the EIP-1193 provider whose signing goes through the login
 * frame (`frameRpc`), switching chains, signing out, following the frame's events. Its own chunk: the connector
 * in `./embedded.ts` loads it when the visitor logs in by e-mail or social, or a stored login is restored.
 */

const userOf = (frame: EmbeddedFrame): FrameUser | undefined => frame.getSnapshot().context.user

export interface EmbeddedConnectorParameters {
  bridge: EmbeddedBridge
  store: KitStore
  /** What `wallet_getAssets` is answered from (the kit's Data API and chain reads). */
  assets?: WalletAssetsSources
  /**
   * The bundler's URL for a chain (`bundlerUrlFor`, ./bundler.ts): the kit answers `wallet_getCallsStatus` from
   * it (SPEC §7). Without it the login frame is asked.
   */
  bundlerUrl?: ((chainId: number) => string) | undefined
}

/** The connector's EIP-1193 provider. */
export type EmbeddedProvider = { request(args: { method: string; params?: unknown }): Promise<unknown> }

type Connector = ReturnType<CreateConnectorFn<EmbeddedProvider>>

/** What the connector shell (`./embedded.ts`) delegates to once it is loaded. */
export type EmbeddedConnectorBody = Pick<
  Connector,
  'connect' | 'disconnect' | 'getAccounts' | 'getChainId' | 'isAuthorized' | 'switchChain' | 'getProvider'
> & {
  switchChain: NonNullable<Connector['switchChain']>
  /** Stops following the frame's events (the connector was disconnected). */
  unfollow(): void
}

export function createEmbeddedConnectorBody(
  { bridge, store, assets, bundlerUrl }: EmbeddedConnectorParameters,
  config: Parameters<CreateConnectorFn>[0],
): EmbeddedConnectorBody {
  /**
   * The frame's user on eip155. The frame may be on Solana for the kit's other namespace (issue 17): this
   * connector's account is then still the last eip155 user it had.
   */
  let evmUser: FrameUser | undefined
  const evmUserOf = (frame: EmbeddedFrame): FrameUser | undefined => {
    const user = userOf(frame)
    if (!user) evmUser = undefined
    else if (!isSolanaFrameUser(user)) evmUser = user
    return evmUser
  }
  const chainIdOf = (user: FrameUser | undefined, frame: EmbeddedFrame) => {
    const id = Number(user?.chainId ?? frame.getSnapshot().context.chainId)
    return Number.isSafeInteger(id) ? id : config.chains[0].id
  }
  let unfollow: (() => void) | undefined
  const follow = (frame: EmbeddedFrame) => {
    unfollow?.()
    const subscriptions = [
      frame.on('embedded.userUpdated', (event) => {
        // The frame turned to Solana: Solana's connector follows that; this account stays.
        if (isSolanaFrameUser(event.user)) return
        evmUser = event.user
        config.emitter.emit('change', {
          accounts: [getAddress(event.user.address)],
          chainId: Number(event.user.chainId),
        })
      }),
      frame.on('embedded.disconnected', () => {
        unfollow?.()
        config.emitter.emit('disconnect')
      }),
    ]
    unfollow = () => {
      for (const subscription of subscriptions) subscription.unsubscribe()
      unfollow = undefined
    }
  }
  const loggedInFrame = async () => {
    const frame = await bridge.frame(frameNotLoaded)
    await settledUser(frame, FRAME_LOAD_TIMEOUT_MS)
    const user = evmUserOf(frame)
    if (!user) throw new FrameError('Not logged in to the embedded wallet')
    return { frame, user }
  }

  const body: EmbeddedConnectorBody = {
    async connect(parameters) {
      const { frame, user } = await loggedInFrame()
      follow(frame)
      let chainId = chainIdOf(user, frame)
      if (parameters?.chainId && parameters.chainId !== chainId) {
        chainId = (await body.switchChain({ chainId: parameters.chainId })).id
      }
      const address = getAddress(user.address)
      return {
        accounts: (parameters?.withCapabilities ? [{ address, capabilities: {} }] : [address]) as never,
        chainId,
      }
    },
    async disconnect() {
      unfollow?.()
      const frame = bridge.current()
      if (!frame || !userOf(frame)) return
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, FRAME_SIGN_OUT_TIMEOUT_MS + 500)
        const subscription = frame.on('embedded.disconnected', done)
        function done() {
          clearTimeout(timer)
          subscription.unsubscribe()
          resolve()
        }
        frame.send({ type: 'frame.signOut' })
      })
    },
    async getAccounts() {
      const frame = bridge.current()
      const user = frame ? evmUserOf(frame) : undefined
      return user ? [getAddress(user.address)] : []
    },
    async getChainId() {
      const frame = bridge.current()
      return frame ? chainIdOf(evmUserOf(frame), frame) : config.chains[0].id
    },
    async isAuthorized() {
      // Only a visitor who logged in (and did not sign out) is checked; the frame is loaded for that.
      if (store.read('emailLoginFlag') !== true) return false
      try {
        await loggedInFrame()
        return true
      } catch {
        return false
      }
    },
    async switchChain({ chainId }) {
      const chain = config.chains.find((c) => c.id === chainId)
      if (!chain) throw new FrameError('Unsupported chain', { details: String(chainId) })
      const frame = await bridge.frame(frameNotLoaded)
      frame.send({ type: 'frame.switchNetwork', chainId })
      config.emitter.emit('change', { chainId })
      return chain
    },
    async getProvider() {
      return {
        request: async ({ method, params }: { method: string; params?: unknown }) => {
          const frame = await bridge.frame(frameNotLoaded)
          const user = evmUserOf(frame)
          switch (method) {
            case 'eth_accounts':
            case 'eth_requestAccounts':
              return user ? [getAddress(user.address)] : []
            case 'eth_chainId':
              return numberToHex(chainIdOf(user, frame))
            case 'wallet_getCapabilities':
              // Answered here (SPEC §7, handled locally): the embedded smart account batches atomically (its
              // calls go as one user operation through the login frame); its EOA does not.
              return embeddedCapabilities(
                user,
                config.chains,
                params,
                frame.getSnapshot().context.smartAccountNetworks,
              )
            case 'wallet_getAssets': {
              // Answered here (EIP-7811), never by the frame: the Data API says which tokens are held, the chain
              // every amount and decimals. Its code loads with the first request.
              const { walletAssets } = await import('./assets')
              return walletAssets(assets, { params, connected: user?.address, chains: config.chains })
            }
            case 'wallet_getCallsStatus':
              // Answered here (SPEC §7, handled locally): the smart account's batch is one user operation, its
              // id the operation's hash, its receipt read from the bundler (\`eth_getUserOperationReceipt\`). The
              // EOA has no batches of its own (the kit sends its calls one by one; viem reads those receipts).
              if (bundlerUrl) {
                const chainId = chainIdOf(user, frame)
                const { bundlerCallsStatus } = await import('./bundler')
                return bundlerCallsStatus({ params, chainId, url: bundlerUrl(chainId) })
              }
              return frameRpc(frame, {
                method,
                ...(Array.isArray(params) ? { params } : {}),
                chainId: chainIdOf(user, frame),
              })
            case 'wallet_switchEthereumChain': {
              const [{ chainId }] = params as [{ chainId: `0x${string}` }]
              await body.switchChain({ chainId: Number(chainId) })
              return null
            }
            default:
              return frameRpc(frame, {
                method,
                ...(Array.isArray(params) ? { params } : {}),
                chainId: chainIdOf(user, frame),
              })
          }
        },
      }
    },
    unfollow() {
      unfollow?.()
    },
  }
  return body
}

/** What the embedded wallet's smart account grants (ERC-7715, as the secure site's `wallet_getCapabilities` says). */
const EMBEDDED_PERMISSIONS = {
  supported: true,
  signerTypes: ['key', 'keys', 'account'],
  permissionTypes: ['erc20-token-transfer'],
  policyTypes: ['token-allowance'],
} as const

type EmbeddedCapabilities = Record<
  `0x${string}`,
  { atomic: { status: 'supported' | 'unsupported' }; permissions?: typeof EMBEDDED_PERMISSIONS }
>

/**
 * The embedded wallet's EIP-5792 capabilities, by hex chain id: atomic batching and ERC-7715 permissions (a key
 * signer's `erc20-token-transfer` limit) where the account shown is the smart account and the login frame has it
 * on the chain (`smartAccountNetworks`), neither for the EOA. The chains asked for (`params[1]`), else every
 * configured one.
 * @internal
 */
export function embeddedCapabilities(
  user: FrameUser | undefined,
  chains: readonly { id: number }[],
  params: unknown,
  smartAccountNetworks?: readonly string[],
): EmbeddedCapabilities {
  const shown = user?.address.toLowerCase()
  const type = user?.accounts.find((account) => account.address.toLowerCase() === shown)?.type
  const smart = (type ?? user?.preferredAccountType) === 'smartAccount'
  const asked = Array.isArray(params) && Array.isArray(params[1]) ? (params[1] as unknown[]) : undefined
  const ids = chains
    .map((chain) => chain.id)
    .filter(
      (id) =>
        !asked ||
        asked.some((hex) => typeof hex === 'string' && /^0x[0-9a-f]+$/i.test(hex) && Number(hex) === id),
    )
  return Object.fromEntries(
    ids.map((id) => [
      numberToHex(id),
      // Per chain: only where the login frame has the smart account (a network it said has none batches nothing).
      smart && (smartAccountNetworks?.includes(`eip155:${id}`) ?? true)
        ? { atomic: { status: 'supported' }, permissions: EMBEDDED_PERMISSIONS }
        : { atomic: { status: 'unsupported' } },
    ]),
  ) as EmbeddedCapabilities
}
