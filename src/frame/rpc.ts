import type { FrameErrorInfo } from '../errors/frame'
import { toFrameError } from '../errors/frame'

/**
 * The embedded wallet's EIP-1193 `request` core, apart from the frame machine so the wallet connector can use
 * it without loading the machine: it needs only an actor that takes `frame.rpc` and emits the result.
 */
interface FrameRpcActor {
  send(event: {
    type: 'frame.rpc'
    ref: string
    method: string
    params?: unknown[]
    chainId?: string | number
  }): void
  on(
    type: 'embedded.rpcResult' | 'embedded.rpcError',
    listener: (event: { ref: string; result?: unknown; error?: FrameErrorInfo }) => void,
  ): { unsubscribe(): void }
}

let rpcCounter = 0

/**
 * Sends one RPC request through the frame and settles with its result: the core of the embedded wallet's
 * EIP-1193 `request`. Rejects with the kit's FrameError (code 4001 when declined or aborted).
 *
 * @example
 * const signature = await frameRpc(frameActor, { method: 'personal_sign', params: [message, address] })
 */
export function frameRpc(
  actor: FrameRpcActor,
  request: { method: string; params?: unknown[]; chainId?: string | number },
): Promise<unknown> {
  rpcCounter += 1
  const ref = `rpc-${rpcCounter}`
  return new Promise((resolve, reject) => {
    const done = actor.on('embedded.rpcResult', (event) => {
      if (event.ref !== ref) return
      stop()
      resolve(event.result)
    })
    const failed = actor.on('embedded.rpcError', (event) => {
      if (event.ref !== ref) return
      stop()
      reject(toFrameError(event.error!))
    })
    const stop = () => {
      done.unsubscribe()
      failed.unsubscribe()
    }
    actor.send({ type: 'frame.rpc', ref, ...request })
  })
}
