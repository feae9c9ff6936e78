import { getAddress, numberToHex } from 'viem'
import { createConnector } from 'wagmi'
import { FRAME_LOAD_TIMEOUT_MS, FRAME_SIGN_OUT_TIMEOUT_MS } from '../../constants'
import { FrameError } from '../../errors/frame'
import type { FrameUser } from '../../frame/protocol'
import { frameRpc } from '../../frame/rpc'
import type { FrameActorRef } from '../../machines/frame'
import type { KitStore } from '../../storage'

/**
 * The embedded wallet as a wagmi connector: an EIP-1193 provider whose signing goes through the login frame
 * (`frameRpc`), so a host's `useSignMessage` or `useSendTransaction` works with it as with any wallet. The
 * frame machine runs in the kit; the connector reaches it through a bridge the kit attaches it to, and asks
 * the kit to load it when it is needed first (a stored login restored at start).
 */
export const EMBEDDED_CONNECTOR_ID = 'walletstateEmbedded'

/** What the connector needs of the frame actor. */
export type EmbeddedFrame = Pick<FrameActorRef, 'send' | 'on' | 'getSnapshot' | 'subscribe'>

export interface EmbeddedBridge {
  /** The kit hands over the running frame (or takes it back). */
  attach(frame: EmbeddedFrame | undefined): void
  /** The kit says how to ask it to load the frame. */
  setLoader(load: (() => void) | undefined): void
  /** The frame, loading it if needed; rejects when it does not come within `timeoutMs`. */
  frame(timeoutMs?: number): Promise<EmbeddedFrame>
  current(): EmbeddedFrame | undefined
}

export function createEmbeddedBridge(): EmbeddedBridge {
  let attached: EmbeddedFrame | undefined
  let loader: (() => void) | undefined
  let waiters: ((frame: EmbeddedFrame) => void)[] = []
  return {
    attach(frame) {
      attached = frame
      if (!frame) return
      const ready = waiters
      waiters = []
      for (const resolve of ready) resolve(frame)
    },
    setLoader(load) {
      loader = load
    },
    current: () => attached,
    frame(timeoutMs = FRAME_LOAD_TIMEOUT_MS) {
      if (attached) return Promise.resolve(attached)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== settle)
          reject(new FrameError('Unable to load email login dependency'))
        }, timeoutMs)
        const settle = (frame: EmbeddedFrame) => {
          clearTimeout(timer)
          resolve(frame)
        }
        waiters.push(settle)
        loader?.()
      })
    },
  }
}

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

export interface EmbeddedWalletParameters {
  bridge: EmbeddedBridge
  store: KitStore
}

export function embeddedWallet({ bridge, store }: EmbeddedWalletParameters) {
  return createConnector<{ request(args: { method: string; params?: unknown }): Promise<unknown> }>(
    (config) => {
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
        const frame = await bridge.frame()
        const user = await settledUser(frame, FRAME_LOAD_TIMEOUT_MS)
        if (!user) throw new FrameError('Not logged in to the embedded wallet')
        return { frame, user }
      }

      return {
        id: EMBEDDED_CONNECTOR_ID,
        name: 'Email',
        type: 'auth',
        async connect(parameters) {
          const { frame, user } = await loggedInFrame()
          follow(frame)
          let chainId = chainIdOf(user, frame)
          if (parameters?.chainId && parameters.chainId !== chainId) {
            chainId = (await this.switchChain!({ chainId: parameters.chainId })).id
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
          const frame = await bridge.frame()
          frame.send({ type: 'frame.switchNetwork', chainId })
          config.emitter.emit('change', { chainId })
          return chain
        },
        async getProvider() {
          return {
            request: async ({ method, params }: { method: string; params?: unknown }) => {
              const frame = await bridge.frame()
              const user = userOf(frame)
              switch (method) {
                case 'eth_accounts':
                case 'eth_requestAccounts':
                  return user ? [getAddress(user.address)] : []
                case 'eth_chainId':
                  return numberToHex(chainIdOf(user, frame))
                case 'wallet_switchEthereumChain': {
                  const [{ chainId }] = params as [{ chainId: `0x${string}` }]
                  await this.switchChain!({ chainId: Number(chainId) })
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
        onAccountsChanged(accounts) {
          if (accounts.length === 0) config.emitter.emit('disconnect')
          else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) })
        },
        onChainChanged(chainId) {
          config.emitter.emit('change', { chainId: Number(chainId) })
        },
        onDisconnect() {
          unfollow?.()
          config.emitter.emit('disconnect')
        },
      }
    },
  )
}
