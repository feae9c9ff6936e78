import type { Hex } from 'viem'
import { waitForTransactionReceipt } from 'viem/actions'
import type { Config } from 'wagmi'
import { getTransactionReceipt } from 'wagmi/actions'

/** A mined transaction as the send and swap machines read it. */
export interface MinedReceipt {
  status: 'success' | 'reverted'
  /** Decimal string. */
  blockNumber: string
}

/**
 * The receipt, waited for up to `timeoutMs` (SPEC §9). viem's wait rather than wagmi's: wagmi throws on a
 * reverted receipt (after replaying the call for a reason); a reverted receipt is an answer the machines show.
 */
export async function waitForReceipt(
  wagmi: Config,
  input: { hash: Hex; chainId: number; timeoutMs: number },
): Promise<MinedReceipt> {
  const client = wagmi.getClient({ chainId: input.chainId })
  const receipt = await waitForTransactionReceipt(client, { hash: input.hash, timeout: input.timeoutMs })
  return { status: receipt.status, blockNumber: receipt.blockNumber.toString() }
}

/**
 * The receipt, asked for every `intervalMs` until it is there or `signal` aborts (the machine bounds the
 * polling, SPEC §9: 30 s, and stops the actor); undefined when aborted first.
 */
export async function pollReceipt(
  wagmi: Config,
  input: { hash: Hex; chainId: number },
  intervalMs: number,
  signal: AbortSignal,
): Promise<MinedReceipt | undefined> {
  while (!signal.aborted) {
    try {
      const receipt = await getTransactionReceipt(wagmi, { chainId: input.chainId, hash: input.hash })
      return { status: receipt.status, blockNumber: receipt.blockNumber.toString() }
    } catch {
      // Not mined yet (TransactionReceiptNotFoundError) or a passing RPC failure: ask again.
    }
    await sleep(intervalMs, signal)
  }
  return undefined
}

/** Waits `ms`, or less when `signal` aborts (it resolves either way: the caller checks the signal). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
