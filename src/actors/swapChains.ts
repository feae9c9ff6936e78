import { type AnyActorLogic, createActor, fromPromise, toPromise } from 'xstate'
import type { SolanaSwapSlots } from './solanaSwap'

/*
 * The swap flow's slots for both namespaces: a request on a Solana network (its `chainId` is `solana:…`) goes to
 * Solana's slots, loaded on first use (an `import()`, so an eip155-only host never fetches them), every other one
 * to the eip155 slot as it is.
 */

/** The slots that differ on Solana; the others (allowance, approvals, receipts, batches) are never reached there. */
const SOLANA_SLOTS = [
  'fetchTokens',
  'fetchQuote',
  'buildSwap',
  'checkBuild',
  'simulate',
  'sendTransaction',
] as const

const onSolana = (input: unknown) => {
  const chainId = (input as { chainId?: unknown } | undefined)?.chainId
  return typeof chainId === 'string' && chainId.startsWith('solana:')
}

/** Runs an actor logic to its output, stopped when `signal` aborts. */
function run(logic: AnyActorLogic, input: unknown, signal: AbortSignal): Promise<unknown> {
  const actor = createActor(logic, { input })
  signal.addEventListener('abort', () => actor.stop(), { once: true })
  return toPromise(actor.start())
}

/**
 * The eip155 slots, each that differs on Solana routed by its request's chain.
 *
 * @example
 * swapMachine.provide({ actors: withSolanaSwap(createSwapActors(...), () => import('./solanaSwap').then(...)) })
 */
export function withSolanaSwap<T extends Record<(typeof SOLANA_SLOTS)[number], AnyActorLogic>>(
  evm: T,
  solana: () => Promise<SolanaSwapSlots>,
): T {
  let loaded: Promise<SolanaSwapSlots> | undefined
  const slots = () => {
    loaded ??= solana().catch((error: unknown) => {
      loaded = undefined
      throw error
    })
    return loaded
  }
  const routed = { ...evm }
  for (const name of SOLANA_SLOTS) {
    const own = evm[name]
    routed[name] = fromPromise(async ({ input, signal }: { input: unknown; signal: AbortSignal }) => {
      if (!onSolana(input)) return run(own, input, signal)
      const solanaSlots = await slots()
      return (solanaSlots[name] as (input: unknown, signal: AbortSignal) => Promise<unknown>)(input, signal)
    }) as unknown as T[typeof name]
  }
  return routed
}
