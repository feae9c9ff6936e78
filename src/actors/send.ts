import type { QueryClient } from '@tanstack/react-query'
import { type Address, encodeFunctionData, formatUnits, type Hex } from 'viem'
import type { Config } from 'wagmi'
import {
  estimateFeesPerGas,
  estimateGas,
  getBlock,
  getBlockNumber,
  getConnection,
  getPublicClient,
  getTransactionCount,
  sendTransaction,
  writeContract,
} from 'wagmi/actions'
import { fromPromise } from 'xstate'
import type { DataApiClient } from '../api/dataApi'
import { fetchQueryFor, resolvedNameQuery } from '../api/queries'
import { createKitQueryClient } from '../api/queryClient'
import { simulateBalanceChanges } from '../chains/eip155/simulate'
import { createTokenMetadataReader } from '../chains/eip155/tokenMetadata'
import { NATIVE_TOKEN_ADDRESS, PENDING_TX_POLL_INTERVAL_MS, SEND_NONCE_SCAN_BLOCKS } from '../constants'
import {
  ResolveNameError,
  SendAccountNotFoundError,
  TokenMetadataUnavailableError,
  TransactionPendingError,
  toSendError,
  UnsupportedChainError,
} from '../errors/send'
import type {
  FeeEstimate,
  NonceCheck,
  NonceReading,
  NonceStatus,
  ReceiptRequest,
  ResolvedName,
  SendReceipt,
  SendRequest,
  SendSimulation,
  SendSimulationRequest,
  SendTransactionRequest,
  SolanaSendRequest,
  TokenOnChain,
} from '../machines/send'
import { evmAddressOf } from '../utils/caip'
import { pollReceipt, sleep, waitForReceipt } from './receipts'
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
  /** How often a pending transaction's receipt is asked for (SPEC §9 polling); also a held nonce's. */
  pollIntervalMs?: number
  /**
   * Where tokens' on-chain decimals are cached (one entry per token): the kit's QueryClient. Without it, that of
   * `names`, else a private one.
   */
  queryClient?: QueryClient
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
  const readToken = createTokenMetadataReader(
    wagmi,
    rest.queryClient ?? names?.queryClient ?? createKitQueryClient(),
  )
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
          ...nonceFieldOf(input),
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
          ...nonceFieldOf(input),
        })
      } catch (error) {
        throw toSendError(error, 'send')
      }
    }),

    readTokenMetadata: fromPromise<TokenOnChain, { chainId: number; address: Address }>(
      async ({ input, signal }) => {
        try {
          chainOf(wagmi, input.chainId)
          return await readToken(input, signal)
        } catch (error) {
          throw new TokenMetadataUnavailableError({ cause: error, details: `Token ${input.address}` })
        }
      },
    ),

    readNonce: fromPromise<NonceReading, { chainId: number }>(async ({ input }) => {
      try {
        chainOf(wagmi, input.chainId)
        const from = senderOf(wagmi)
        // 'pending': a transaction the wallet already sent and the node holds counts, as the wallet would count it.
        const [nonce, block] = await Promise.all([
          getTransactionCount(wagmi, { chainId: input.chainId, address: from, blockTag: 'pending' }),
          getBlockNumber(wagmi, { chainId: input.chainId }),
        ])
        return { from, nonce, fromBlock: block.toString() }
      } catch (error) {
        throw toSendError(error, 'send')
      }
    }),

    checkNonce: fromPromise<NonceStatus, NonceCheck>(({ input }) => nonceStatus(wagmi, input)),

    watchNonce: fromPromise<NonceStatus, NonceCheck>(async ({ input, signal }) => {
      while (!signal.aborted) {
        try {
          const status = await nonceStatus(wagmi, input)
          if (status.status !== 'open') return status
        } catch {
          // A passing RPC failure: look again.
        }
        await sleep(pollIntervalMs, signal)
      }
      return { status: 'open' }
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

/** The payment's nonce, when it holds one: the wallet is asked for exactly that transaction slot. */
function nonceFieldOf(request: SendTransactionRequest): { nonce: number } | Record<string, never> {
  return request.nonce === undefined ? {} : { nonce: request.nonce }
}

/**
 * What the chain says of a held nonce: `open` while the account's mined transactions do not reach it; else the
 * transaction that took it, looked for from the newest block back to the block the nonce was read at (at most
 * SEND_NONCE_SCAN_BLOCKS), is this payment's (`mined`) or another (`taken`, also when it is not found).
 */
async function nonceStatus(wagmi: Config, check: NonceCheck): Promise<NonceStatus> {
  const { chainId } = check
  const mined = await getTransactionCount(wagmi, { chainId, address: check.from, blockTag: 'latest' })
  if (mined <= check.nonce) return { status: 'open' }
  const latest = await getBlockNumber(wagmi, { chainId })
  const floor = BigInt(check.fromBlock)
  const oldest =
    latest - BigInt(SEND_NONCE_SCAN_BLOCKS) > floor ? latest - BigInt(SEND_NONCE_SCAN_BLOCKS) : floor
  for (let number = latest; number >= oldest; number--) {
    const block = await getBlock(wagmi, { chainId, blockNumber: number, includeTransactions: true })
    const tx = block.transactions.find(
      (t) => t.from.toLowerCase() === check.from.toLowerCase() && t.nonce === check.nonce,
    )
    if (tx) return isPayment(tx, check.request) ? { status: 'mined', hash: tx.hash } : { status: 'taken' }
  }
  return { status: 'taken' }
}

/** A mined transaction is the payment: the same recipient (or token contract), value and call. */
function isPayment(tx: { to: Address | null; value: bigint; input: Hex }, request: SendRequest): boolean {
  const call = callOf(request)
  return (
    tx.to?.toLowerCase() === call.to.toLowerCase() &&
    tx.value === (call.value ?? 0n) &&
    (tx.input === '0x' ? undefined : tx.input.toLowerCase()) === call.data?.toLowerCase()
  )
}
