import type { QueryClient } from '@tanstack/react-query'
import type { Hex } from 'viem'
import type { Config } from 'wagmi'
import { sendTransaction } from 'wagmi/actions'
import { fromPromise } from 'xstate'
import type { ConvertClient } from '../api/convert'
import { createKitQueryClient } from '../api/queryClient'
import { createTokenMetadataReader } from '../chains/eip155/tokenMetadata'
import { PENDING_TX_POLL_INTERVAL_MS } from '../constants'
import { SwapPendingError, toSwapError } from '../errors/swap'
import type {
  SwapAllowanceRequest,
  SwapApproveRequest,
  SwapBuildRequest,
  SwapQuote,
  SwapQuoteRequest,
  SwapReceipt,
  SwapReceiptRequest,
  SwapSendRequest,
  SwapToken,
  SwapTokensRequest,
  SwapTransaction,
} from '../machines/swap/types'
import { pollReceipt, waitForReceipt } from './receipts'
import { createSwapPairCheck } from './swapPairCheck'

export interface SwapActorsParameters {
  wagmi: Config
  convert: ConvertClient
  /** How often `pollReceipt` asks (default PENDING_TX_POLL_INTERVAL_MS). */
  pollIntervalMs?: number
  /** Where the pair's on-chain decimals are cached (the kit's QueryClient); a private one without it. */
  queryClient?: QueryClient
}

/**
 * The swap machine's slots (src/machines/swap.ts): the convert endpoints of the Data API (src/api/convert.ts)
 * for tokens, quotes, allowances and the transactions to send; wagmi for sending them and their receipts.
 * Every error leaves as one of the swap's errors (src/errors/swap.ts).
 *
 * @example
 * swapMachine.provide({ actors: createSwapActors({ wagmi, convert: createConvertClient({ api, projectId }) }) })
 */
export function createSwapActors({
  wagmi,
  convert,
  pollIntervalMs = PENDING_TX_POLL_INTERVAL_MS,
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
  return {
    fetchTokens: fromPromise<SwapToken[], SwapTokensRequest>(
      mapped('tokens', async (input, signal) =>
        pair.remember(input.chainId, await convert.tokens(input.chainId, signal)),
      ),
    ),
    fetchQuote: fromPromise<SwapQuote, SwapQuoteRequest>(
      mapped('quote', async (input, signal) => {
        await pair.check(input, signal)
        return convert.quote(input, await convert.gasPrice(input.chainId, signal), signal)
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
