import type { FrameUser } from './protocol'

/** What `settledUser` reads of the running frame actor. */
export interface FrameUserSource {
  getSnapshot(): {
    context: { user: FrameUser | undefined; restoring: boolean }
    hasTag(tag: 'failed' | 'loading'): boolean
  }
  subscribe(listener: () => void): { unsubscribe(): void }
}

/**
 * Waits until the frame knows whether a visitor is logged in: not while it loads, nor while it checks a stored
 * login. `undefined` when nobody is, or the frame failed. The embedded wallet's connectors (eip155's and
 * Solana's) start from it.
 *
 * @example
 * const user = await settledUser(frame, FRAME_LOAD_TIMEOUT_MS)
 */
export function settledUser(frame: FrameUserSource, timeoutMs: number): Promise<FrameUser | undefined> {
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
