import type { QueryClient } from '@tanstack/react-query'
import { type Address, encodeFunctionData, formatUnits, type Hex } from 'viem'
import type { Config } from 'wagmi'
import {
  estimateFeesPerGas,
  estimateGas,
  getConnection,
  getPublicClient,
  sendTransaction,
  writeContract,
} from 'wagmi/actions'
import { fromPromise } from 'xstate'
import type { DataApiClient } from '../api/dataApi'
import { fetchQueryFor, resolvedNameQuery } from '../api/queries'
import { simulateBalanceChanges } from '../chains/eip155/simulate'
import { NATIVE_TOKEN_ADDRESS, PENDING_TX_POLL_INTERVAL_MS } from '../constants'
import {
  ResolveNameError,
  SendAccountNotFoundError,
  TransactionPendingError,
  toSendError,
  UnsupportedChainError,
} from '../errors/send'
import type {
  FeeEstimate,
  ReceiptRequest,
  ResolvedName,
  SendReceipt,
  SendRequest,
  SendSimulation,
  SendSimulationRequest,
  SendTransactionRequest,
  SolanaSendRequest,
} from '../machines/send'
import { evmAddressOf } from '../utils/caip'
import { pollReceipt, waitForReceipt } from './receipts'
import type { SolanaSender } from './solanaSend'

/**
 * The eip155 implementations of the send machine's actor slots, over wagmi core actions. The kit provides them;
 * tests provide fakes instead. Every error leaves as one of the kit's send errors (src/errors/send.ts).
 */

/**
 * ERC-20 `transfer` without outputs. Tether's USDT (and the sandbox's SandboxTether) returns nothing where the
 * standard returns a bool; an ABI that declares the bool makes a simulating caller decode nothing and fail. No
 * output declared, nothing is decoded, and standard tokens work the same (their bool is simply not read).
 */
export const erc20TransferAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
] as const

/** Resolves a name (an account name, ENS) to an address; undefined when it names no one. */
export type NameResolver = (
  name: string,
  options: { signal: AbortSignal },
) => Promise<{ address: string; name?: string; imageUrl?: string } | undefined>

export interface SendActorDependencies {
  wagmi: Config
  /**
   * The kit's Data API client and QueryClient: a receiver's name resolves through `/v1/profile/account/{name}`,
   * cached 5 min in the QueryClient (SPEC §9) and asked once however many callers wait.
   */
  names?: { api: DataApiClient; queryClient: QueryClient }
  /** Another name lookup (tests, other resolvers); used when `names` is not given. Without either, names fail. */
  resolveName?: NameResolver
  /** How often a pending transaction's receipt is asked for (SPEC §9 polling). */
  pollIntervalMs?: number
  /**
   * Loads Solana's send (src/actors/solanaSend.ts) on the first Solana send or fee estimate: an `import()`, so
   * an eip155 send never fetches @solana/web3.js. Without it, Solana sends fail as an unsupported chain.
   */
  solana?: () => Promise<SolanaSender>
}

/**
 * @example
 * const send = sendMachine.provide({ actors: createSendActors({ wagmi, names: { api, queryClient } }) })
 */
export function createSendActors({
  wagmi,
  names,
  pollIntervalMs = PENDING_TX_POLL_INTERVAL_MS,
  solana,
  ...rest
}: SendActorDependencies) {
  let solanaSender: Promise<SolanaSender> | undefined
  const loadSolana = (): Promise<SolanaSender> => {
    if (!solana) return Promise.reject(new UnsupportedChainError({ details: 'Solana is not configured.' }))
    // A failed load is tried again next time (a flaky network), a loaded one kept.
    solanaSender ??= solana().catch((error: unknown) => {
      solanaSender = undefined
      throw error
    })
    return solanaSender
  }
  const resolveName: NameResolver | undefined = names
    ? async (name, { signal }) =>
        (await fetchQueryFor(names.queryClient, resolvedNameQuery(names.api, { name }), signal)) ?? undefined
    : rest.resolveName
  return {
    resolveName: fromPromise<ResolvedName, { name: string }>(async ({ input, signal }) => {
      if (!resolveName) throw new ResolveNameError({ details: 'No name resolver is configured.' })
      let found: Awaited<ReturnType<NameResolver>>
      try {
        found = await resolveName(input.name, { signal })
      } catch (error) {
        throw new ResolveNameError({ cause: error })
      }
      const address = found ? evmAddressOf(found.address.toLowerCase()) : undefined
      if (!found || !address) {
        throw new ResolveNameError({ details: `${input.name} does not resolve to an address.` })
      }
      return {
        address,
        name: found.name ?? input.name,
        ...(found.imageUrl ? { imageUrl: found.imageUrl } : {}),
      }
    }),

    estimateFee: fromPromise<FeeEstimate, SendRequest>(async ({ input }) => {
      try {
        const chain = chainOf(wagmi, input.chainId)
        const account = senderOf(wagmi)
        const [gas, fees] = await Promise.all([
          estimateGas(wagmi, { chainId: input.chainId, account, ...callOf(input) }),
          feesPerGas(wagmi, input.chainId),
        ])
        const perGas = fees.maxFeePerGas ?? fees.gasPrice ?? 0n
        const fee = gas * perGas
        return {
          gas: gas.toString(),
          ...(fees.maxFeePerGas === undefined
            ? { gasPrice: perGas.toString() }
            : {
                maxFeePerGas: fees.maxFeePerGas.toString(),
                maxPriorityFeePerGas: (fees.maxPriorityFeePerGas ?? 0n).toString(),
              }),
          fee: fee.toString(),
          formatted: formatUnits(fee, chain.nativeCurrency.decimals),
          symbol: chain.nativeCurrency.symbol,
          decimals: chain.nativeCurrency.decimals,
        }
      } catch (error) {
        throw toSendError(error, 'estimate')
      }
    }),

    sendNative: fromPromise<Hex, SendTransactionRequest>(async ({ input }) => {
      try {
        chainOf(wagmi, input.chainId)
        return await sendTransaction(wagmi, {
          chainId: input.chainId,
          to: input.to,
          value: input.amount,
          ...feeFieldsOf(input.fee),
        })
      } catch (error) {
        throw toSendError(error, 'send')
      }
    }),

    sendErc20: fromPromise<Hex, SendTransactionRequest & { token: Address }>(async ({ input }) => {
      try {
        chainOf(wagmi, input.chainId)
        // wagmi's writeContract sends without simulating, and the ABI declares no output: USDT-style tokens work.
        return await writeContract(wagmi, {
          chainId: input.chainId,
          address: input.token,
          abi: erc20TransferAbi,
          functionName: 'transfer',
          args: [input.to, input.amount],
          ...feeFieldsOf(input.fee),
        })
      } catch (error) {
        throw toSendError(error, 'send')
      }
    }),

    waitForReceipt: fromPromise<SendReceipt, ReceiptRequest>(async ({ input }) => {
      try {
        return await waitForReceipt(wagmi, input)
      } catch (error) {
        throw toSendError(error, 'receipt')
      }
    }),

    pollReceipt: fromPromise<SendReceipt, { hash: Hex; chainId: number }>(async ({ input, signal }) => {
      const receipt = await pollReceipt(wagmi, input, pollIntervalMs, signal)
      if (!receipt) throw new TransactionPendingError({ hash: input.hash })
      return receipt
    }),

    estimateSolanaFee: fromPromise<FeeEstimate, SolanaSendRequest>(async ({ input }) => {
      try {
        return await (await loadSolana()).estimateFee(input)
      } catch (error) {
        throw toSendError(error, 'estimate')
      }
    }),

    sendSolana: fromPromise<string, SolanaSendRequest>(async ({ input }) => {
      try {
        return await (await loadSolana()).send(input)
      } catch (error) {
        throw toSendError(error, 'send')
      }
    }),

    // See before you sign: the call the wallet will be asked for, simulated from the account on the chain's
    // node (src/chains/eip155/simulate.ts). A node that cannot simulate answers `unavailable`, never a guess.
    simulate: fromPromise<SendSimulation, SendSimulationRequest>(async ({ input }) => {
      const account = senderOf(wagmi)
      chainOf(wagmi, input.chainId)
      const client = getPublicClient(wagmi, { chainId: input.chainId })
      if (!client) return { account, result: { status: 'unavailable', reason: 'No client for the chain' } }
      const token = {
        address: input.token ?? (NATIVE_TOKEN_ADDRESS as Address),
        symbol: input.symbol,
        decimals: input.decimals,
      }
      const result = await simulateBalanceChanges(client, {
        account,
        calls: [callOf(input)],
        tokens: [token],
      })
      // Plain data for the snapshot: the deltas as decimal strings.
      if (result.status !== 'simulated') return { account, result }
      const changes = result.changes.map((change) => ({ ...change, delta: change.delta.toString() }))
      return { account, result: { status: 'simulated', changes } }
    }),
  }
}

function chainOf(wagmi: Config, chainId: number) {
  const chain = wagmi.chains.find((c) => c.id === chainId)
  if (!chain) throw new UnsupportedChainError({ details: `Chain ${chainId} is not configured.` })
  return chain
}

function senderOf(wagmi: Config): Address {
  const connection = getConnection(wagmi)
  if (connection.status !== 'connected') throw new SendAccountNotFoundError()
  return connection.address
}

function callOf(request: SendRequest): { to: Address; value?: bigint; data?: Hex } {
  if (!request.token) return { to: request.to, value: request.amount }
  return {
    to: request.token,
    data: encodeFunctionData({
      abi: erc20TransferAbi,
      functionName: 'transfer',
      args: [request.to, request.amount],
    }),
  }
}

/** EIP-1559 fees, or the gas price on a chain without them. */
async function feesPerGas(
  wagmi: Config,
  chainId: number,
): Promise<{ maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; gasPrice?: bigint }> {
  try {
    const fees = await estimateFeesPerGas(wagmi, { chainId })
    return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
  } catch {
    const fees = await estimateFeesPerGas(wagmi, { chainId, type: 'legacy' })
    return { gasPrice: fees.gasPrice }
  }
}

/**
 * The fees per gas the visitor was shown, so the wallet is asked for no more than the preview said (and a Max
 * send of the native currency, which leaves exactly that fee, fits). The gas limit is left to the wallet: a
 * stale limit would only turn a refusal into a mined revert.
 */
function feeFieldsOf(
  fee: FeeEstimate | undefined,
): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint } | Record<string, never> {
  if (fee?.maxFeePerGas !== undefined) {
    return {
      maxFeePerGas: BigInt(fee.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(fee.maxPriorityFeePerGas ?? '0'),
    }
  }
  if (fee?.gasPrice !== undefined) return { gasPrice: BigInt(fee.gasPrice) }
  return {}
}
