import { FRAME_LOAD_TIMEOUT_MS } from '../../constants'
import type { FrameActorRef } from '../../machines/frame'

/**
 * The bridge between the kit's login frame and the embedded wallet's wagmi connector (`./embedded.ts`): the kit
 * attaches the frame it runs and says how to load it; the connector waits for it.
 */
/** What the connector needs of the frame actor. */
export type EmbeddedFrame = Pick<FrameActorRef, 'send' | 'on' | 'getSnapshot' | 'subscribe'>

export interface EmbeddedBridge {
  /** The kit hands over the running frame (or takes it back). */
  attach(frame: EmbeddedFrame | undefined): void
  /** The kit says how to ask it to load the frame. */
  setLoader(load: (() => void) | undefined): void
  /**
   * The frame, loading it if needed; rejects with `timedOut()` when it does not come within `timeoutMs` (the
   * connector, loaded on demand, names the error: the kit's first-click bundle carries no error classes for it).
   */
  frame(timedOut: () => Error, timeoutMs?: number): Promise<EmbeddedFrame>
  current(): EmbeddedFrame | undefined
  /**
   * Calls `listener` with the frame attached now and on every attach or detach; returns the stop. Solana's
   * embedded connector lists itself only while the frame has a visitor logged in (issue 17).
   */
  watch(listener: (frame: EmbeddedFrame | undefined) => void): () => void
}

export function createEmbeddedBridge(): EmbeddedBridge {
  let attached: EmbeddedFrame | undefined
  let loader: (() => void) | undefined
  let waiters: ((frame: EmbeddedFrame) => void)[] = []
  const watchers = new Set<(frame: EmbeddedFrame | undefined) => void>()
  return {
    attach(frame) {
      attached = frame
      for (const watcher of [...watchers]) watcher(frame)
      if (!frame) return
      const ready = waiters
      waiters = []
      for (const resolve of ready) resolve(frame)
    },
    setLoader(load) {
      loader = load
    },
    current: () => attached,
    watch(listener) {
      watchers.add(listener)
      listener(attached)
      return () => {
        watchers.delete(listener)
      }
    },
    frame(timedOut, timeoutMs = FRAME_LOAD_TIMEOUT_MS) {
      if (attached) return Promise.resolve(attached)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== settle)
          reject(timedOut())
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
