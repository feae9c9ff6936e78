import type { QueryClient } from '@tanstack/react-query'
import type { Address, Hex } from 'viem'
import type { Config } from 'wagmi'
import { getPublicClient, sendTransaction } from 'wagmi/actions'
import { fromPromise } from 'xstate'
import { type ConvertClient, eip155Chain } from '../api/convert'
import { createKitQueryClient } from '../api/queryClient'
import { createCallsClient } from '../chains/eip155/calls'
import { simulateBalanceChanges } from '../chains/eip155/simulate'
import { checkSwapBuild } from '../chains/eip155/swapBuildCheck'
import { createTokenMetadataReader } from '../chains/eip155/tokenMetadata'
import { PENDING_TX_POLL_INTERVAL_MS, SWAP_DEADLINE_MAX_S } from '../constants'
import { SwapPendingError, toSwapError } from '../errors/swap'
import type {
  SwapAllowanceRequest,
  SwapApproveRequest,
  SwapBuildRequest,
  SwapCheckRequest,
  SwapPrepared,
  SwapQuote,
  SwapQuoteRequest,
  SwapReceipt,
  SwapReceiptRequest,
  SwapSendRequest,
  SwapSimulation,
  SwapSimulationRequest,
  SwapToken,
  SwapTokensRequest,
  SwapTransaction,
} from '../machines/swap/types'
import { createCallsActors } from './calls'
import { pollReceipt, waitForReceipt } from './receipts'
import { createSwapPairCheck } from './swapPairCheck'

export interface SwapActorsParameters {
  wagmi: Config
  convert: ConvertClient
  /** How often `pollReceipt` asks (default PENDING_TX_POLL_INTERVAL_MS). */
  pollIntervalMs?: number
  /** The swap router allow-list by CAIP-2 id (`KitConfig.swapRouters`): builds for other targets are refused. */
  routers: Readonly<Record<string, string>>
  /** Milliseconds since the epoch (default `Date.now`), for the deadline check. */
  now?: () => number
  /** Where the pair's on-chain decimals are cached (the kit's QueryClient); a private one without it. */
  queryClient?: QueryClient
}

/**
 * The swap machine's slots (src/machines/swap.ts): the convert endpoints of the Data API (src/api/convert.ts)
 * for tokens, quotes, allowances and the transactions to send; the build check (src/chains/eip155/swapBuildCheck.ts)
 * against the router allow-list; wagmi for sending them and their receipts, and for the wallet's capabilities and
 * the approvals and swap as one batch (the calls machine's own slots, ./calls.ts). Every error leaves as one of the
 * swap's errors (src/errors/swap.ts).
 *
 * @example
 * const convert = createConvertClient({ api, projectId })
 * swapMachine.provide({ actors: createSwapActors({ wagmi, convert, routers: config.swapRouters }) })
 */
export function createSwapActors({
  wagmi,
  convert,
  pollIntervalMs = PENDING_TX_POLL_INTERVAL_MS,
  routers,
  now = Date.now,
  queryClient = createKitQueryClient(),
}: SwapActorsParameters) {
  // The pair is checked against its contracts before each quote (./swapPairCheck.ts).
  const pair = createSwapPairCheck({
    read: createTokenMetadataReader(wagmi, queryClient),
    tokens: (chainId, signal) => convert.tokens(chainId, signal),
  })
  const mapped =
    <I, O>(stage: Parameters<typeof toSwapError>[1], run: (input: I, signal: AbortSignal) => Promise<O>) =>
    async ({ input, signal }: { input: I; signal: AbortSignal }) => {
      try {
        return await run(input, signal)
      } catch (error) {
        throw toSwapError(error, stage)
      }
    }
  // Capabilities, the batch and its status: exactly the host's batches' (src/chains/eip155/calls.ts).
  const { capabilities, sendCalls, callsStatus } = createCallsActors(createCallsClient(wagmi))
  return {
    capabilities,
    sendCalls,
    callsStatus,
    fetchTokens: fromPromise<SwapToken[], SwapTokensRequest>(
      mapped('tokens', async (input, signal) => {
        const chainId = eip155Chain(input.chainId)
        return pair.remember(chainId, await convert.tokens(chainId, signal))
      }),
    ),
    fetchQuote: fromPromise<SwapQuote, SwapQuoteRequest>(
      mapped('quote', async (input, signal) => {
        await pair.check(input, signal)
        return convert.quote(input, await convert.gasPrice(eip155Chain(input.chainId), signal), signal)
      }),
    ),
    fetchAllowance: fromPromise<string, SwapAllowanceRequest>(
      mapped('allowance', (input, signal) => convert.allowance(input, signal)),
    ),
    buildApprove: fromPromise<SwapTransaction, SwapApproveRequest>(
      mapped('build', (input, signal) => convert.buildApprove(input, signal)),
    ),
    buildSwap: fromPromise<SwapTransaction, SwapBuildRequest>(
      mapped('build', (input, signal) => convert.buildSwap(input, signal)),
    ),
    checkBuild: fromPromise<SwapPrepared, SwapCheckRequest>(async ({ input }) => {
      const nowSeconds = BigInt(Math.floor(now() / 1000))
      const problem = checkSwapBuild(
        { approvals: input.approvals, swap: input.swap },
        {
          chainId: eip155Chain(input.chainId),
          routers,
          account: input.account as Address,
          tokenIn: input.tokenIn,
          tokenOut: input.tokenOut,
          amountIn: BigInt(input.amountIn),
          minAmountOut: BigInt(input.minAmountOut),
          nowSeconds,
          maxDeadlineSeconds: SWAP_DEADLINE_MAX_S,
        },
      )
      if (problem) throw problem
      // The check bounds the deadline, so the bound is never shorter than the swap's life.
      return { approvals: input.approvals, swap: input.swap, validForMs: SWAP_DEADLINE_MAX_S * 1000 }
    }),
    // See before you sign: the checked transactions simulated in order from the account on the chain's node
    // (src/chains/eip155/simulate.ts). A node that cannot simulate answers `unavailable`, never a guess.
    simulate: fromPromise<SwapSimulation, SwapSimulationRequest>(async ({ input }) => {
      const client = getPublicClient(wagmi, { chainId: eip155Chain(input.chainId) })
      const account = input.account as Address
      if (!client)
        return {
          account,
          result: { status: 'unavailable', reason: 'No client for the chain' },
        }
      const result = await simulateBalanceChanges(client, {
        account,
        calls: input.calls.map((call) => ({ to: call.to, data: call.data, value: BigInt(call.value) })),
        tokens: input.tokens,
      })
      if (result.status !== 'simulated') return { account, result }
      const changes = result.changes.map((change) => ({ ...change, delta: change.delta.toString() }))
      return { account, result: { status: 'simulated', changes } }
    }),
    sendTransaction: fromPromise<Hex, SwapSendRequest>(
      mapped('send', (input) =>
        sendTransaction(wagmi, {
          chainId: input.chainId as never,
          to: input.to,
          data: input.data,
          value: BigInt(input.value),
          ...(input.gas ? { gas: BigInt(input.gas) } : {}),
        }),
      ),
    ),
    waitForReceipt: fromPromise<SwapReceipt, SwapReceiptRequest>(
      mapped('receipt', (input) => waitForReceipt(wagmi, input)),
    ),
    pollReceipt: fromPromise<SwapReceipt, { hash: Hex; chainId: number }>(async ({ input, signal }) => {
      const receipt = await pollReceipt(wagmi, input, pollIntervalMs, signal)
      if (!receipt) throw new SwapPendingError({ hash: input.hash })
      return receipt
    }),
  }
}

/** After a swap: the account's data read again (./refreshAccount.ts). */
export { refreshAccountData as refreshAfterSwap } from './refreshAccount'
