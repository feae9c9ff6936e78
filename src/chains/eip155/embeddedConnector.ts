import { getAddress, numberToHex } from 'viem'
import type { CreateConnectorFn } from 'wagmi'
import { FRAME_LOAD_TIMEOUT_MS, FRAME_SIGN_OUT_TIMEOUT_MS } from '../../constants'
import { FrameError } from '../../errors/frame'
import type { FrameUser } from '../../frame/protocol'
import { frameRpc } from '../../frame/rpc'
import type { KitStore } from '../../storage'
import type { EmbeddedBridge, EmbeddedFrame } from './embeddedBridge'

/** SPEC §8: the login frame did not come within its load time. */
const frameNotLoaded = () => new FrameError('Unable to load email login dependency')

/**
 * The embedded wallet connector's body: connecting, the EIP-1193 provider whose signing goes through the login
 * frame (`frameRpc`), switching chains, signing out, following the frame's events. Its own chunk: the connector
 * in `./embedded.ts` loads it when the visitor logs in by e-mail or social, or a stored login is restored.
 */

const userOf = (frame: EmbeddedFrame): FrameUser | undefined => frame.getSnapshot().context.user
const chainIdOf = (user: FrameUser | undefined, frame: EmbeddedFrame) =>
  Number(user?.chainId ?? frame.getSnapshot().context.chainId)

/**
 * Waits until the frame knows whether a visitor is logged in: not while it loads, nor while it checks a stored
 * login. `undefined` when nobody is, or the frame failed.
 */
function settledUser(frame: EmbeddedFrame, timeoutMs: number): Promise<FrameUser | undefined> {
  const decided = () => {
    const snapshot = frame.getSnapshot()
    if (snapshot.context.user) return { user: snapshot.context.user }
    if (snapshot.hasTag('failed')) return { user: undefined }
    if (snapshot.hasTag('loading') || snapshot.context.restoring) return undefined
    return { user: undefined }
  }
  const now = decided()
  if (now) return Promise.resolve(now.user)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      subscription.unsubscribe()
      resolve(undefined)
    }, timeoutMs)
    const subscription = frame.subscribe(() => {
      const result = decided()
      if (!result) return
      clearTimeout(timer)
      subscription.unsubscribe()
      resolve(result.user)
    })
  })
}

export interface EmbeddedConnectorParameters {
  bridge: EmbeddedBridge
  store: KitStore
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
  { bridge, store }: EmbeddedConnectorParameters,
  config: Parameters<CreateConnectorFn>[0],
): EmbeddedConnectorBody {
  let unfollow: (() => void) | undefined
  const follow = (frame: EmbeddedFrame) => {
    unfollow?.()
    const subscriptions = [
      frame.on('embedded.userUpdated', (event) => {
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
    const user = await settledUser(frame, FRAME_LOAD_TIMEOUT_MS)
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
      const user = frame ? userOf(frame) : undefined
      return user ? [getAddress(user.address)] : []
    },
    async getChainId() {
      const frame = bridge.current()
      return frame ? chainIdOf(userOf(frame), frame) : config.chains[0].id
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
          const user = userOf(frame)
          switch (method) {
            case 'eth_accounts':
            case 'eth_requestAccounts':
              return user ? [getAddress(user.address)] : []
            case 'eth_chainId':
              return numberToHex(chainIdOf(user, frame))
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
