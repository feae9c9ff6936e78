import * as v from 'valibot'
import { createClient, custom, type Hex, hexToBigInt, MethodNotSupportedRpcError, numberToHex } from 'viem'
import { getCallsStatus as viemGetCallsStatus, sendCalls as viemSendCalls } from 'viem/actions'
import type { Config } from 'wagmi'
import { getConnection, getConnectorClient, getPublicClient } from 'wagmi/actions'
import { WALLET_CAPABILITIES_FRESH_MS } from '../../constants'
import { hasCode } from '../../errors/base'
import {
  InvalidCallsStatusError,
  InvalidCapabilitiesError,
  ShowCallsStatusUnsupportedError,
  UnknownCallsIdError,
} from '../../errors/calls'
import type { AtomicStatus, CallsReceipt, CallsStatus, KitBatchCall } from '../../machines/calls/types'
import { EMBEDDED_CONNECTOR_ID } from './embedded'

/*
 * EIP-5792 against the connected wallet, through wagmi's connector client: its capabilities per chain, a batch
 * sent (viem's `sendCalls`, falling back to one `eth_sendTransaction` per call for a wallet without
 * `wallet_sendCalls`), and a batch's status. Every answer of the wallet is read through a schema here.
 */

/** The codes a wallet answers a method it does not have with: EIP-1193's 4200, JSON-RPC's -32601 and -32004. */
const UNSUPPORTED_METHOD_CODES = [4200, -32601, -32004] as const
export const isUnsupportedMethod = (error: unknown) =>
  UNSUPPORTED_METHOD_CODES.some((code) => hasCode(error, code))

const HexChainId = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,16}$/))
const AtomicCapability = v.object({ status: v.picklist(['supported', 'ready', 'unsupported']) })
/** EIP-5792 before v2 (`atomicBatch: { supported }`), still answered by some wallets. */
const LegacyAtomicCapability = v.object({ supported: v.boolean() })
const ChainCapabilities = v.looseObject({
  atomic: v.optional(AtomicCapability),
  atomicBatch: v.optional(LegacyAtomicCapability),
})
/** `wallet_getCapabilities`: capabilities by hex chain id (`0x0`: every chain), at most a few hundred chains. */
const CapabilitiesSchema = v.pipe(
  v.record(HexChainId, ChainCapabilities),
  v.check((record) => Object.keys(record).length <= 512, 'too many chains'),
)

/**
 * The wallet's atomic batching on `chainId`, from its `wallet_getCapabilities` answer: that chain's entry, else
 * the one for every chain (`0x0`); none: `unsupported`. Anything that is not EIP-5792's shape is refused.
 *
 * @example
 * atomicStatusOf({ '0x7a69': { atomic: { status: 'supported' } } }, 31337) // 'supported'
 */
export function atomicStatusOf(answer: unknown, chainId: number): Exclude<AtomicStatus, 'unknown'> {
  if (Array.isArray(answer))
    throw new InvalidCapabilitiesError({ details: 'an array, not capabilities by chain' })
  const parsed = v.safeParse(CapabilitiesSchema, answer)
  if (!parsed.success) throw new InvalidCapabilitiesError({ details: v.summarize(parsed.issues) })
  const byChain = new Map(Object.entries(parsed.output).map(([key, value]) => [BigInt(key), value]))
  const entry = byChain.get(BigInt(chainId)) ?? byChain.get(0n)
  if (entry?.atomic) return entry.atomic.status
  if (entry?.atomicBatch) return entry.atomicBatch.supported ? 'supported' : 'unsupported'
  return 'unsupported'
}

const TxHash = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/))
const HexQuantity = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,64}$/))
const ReceiptSchema = v.looseObject({
  transactionHash: TxHash,
  blockNumber: HexQuantity,
  status: v.picklist(['0x0', '0x1']),
})
const StatusSchema = v.looseObject({
  status: v.union([
    v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(699)),
    v.picklist(['PENDING', 'CONFIRMED']),
  ]),
  atomic: v.optional(v.boolean()),
  receipts: v.optional(v.pipe(v.array(ReceiptSchema), v.maxLength(1024))),
})

/** The status code's class (EIP-5792: 1xx pending, 2xx confirmed, 4xx–6xx failed, in part or whole). */
const statusOf = (code: number | 'PENDING' | 'CONFIRMED'): CallsStatus['status'] => {
  if (code === 'PENDING' || (typeof code === 'number' && code < 200)) return 'pending'
  if (code === 'CONFIRMED' || (typeof code === 'number' && code < 300)) return 'success'
  return 'failure'
}

/**
 * The wallet's `wallet_getCallsStatus` answer, checked: its status (pending, success, failure) and receipts.
 *
 * @example
 * callsStatusOf({ status: 200, atomic: true, receipts: [] }) // { status: 'success', atomic: true, receipts: [] }
 */
export function callsStatusOf(answer: unknown): CallsStatus {
  const parsed = v.safeParse(StatusSchema, answer)
  if (!parsed.success) throw new InvalidCallsStatusError({ details: v.summarize(parsed.issues) })
  const { status, atomic, receipts = [] } = parsed.output
  return {
    status: statusOf(status),
    atomic: atomic ?? false,
    receipts: receipts.map((receipt) => ({
      transactionHash: receipt.transactionHash as Hex,
      blockNumber: BigInt(receipt.blockNumber).toString(),
      status: receipt.status === '0x1' ? 'success' : 'reverted',
    })),
  }
}

/** A batch's id from `wallet_sendCalls`: a string of at most 8 KiB (a fallback's id holds one hash per call). */
const BatchIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(8192))
const SendCallsAnswer = v.union([BatchIdSchema, v.looseObject({ id: BatchIdSchema })])

/** viem's id of a batch it sent as separate transactions (its hashes, the chain, then this suffix). */
const FALLBACK_SUFFIX = '5792'.repeat(16)
export const isSequentialBatchId = (id: string) => id.toLowerCase().endsWith(FALLBACK_SUFFIX)

export interface CallsClient {
  /** The wallet's atomic batching on `chainId` (`unknown`: it does not answer `wallet_getCapabilities`). */
  capabilities(input: { address: Hex; chainId: number }): Promise<AtomicStatus>
  /**
   * Sends the batch; resolves with its id once the wallet took it. `atomicRequired`: the wallet must execute it
   * atomically (EIP-5792), and it is never split into separate transactions.
   */
  send(input: { calls: readonly KitBatchCall[]; chainId: number; atomicRequired?: boolean }): Promise<string>
  /** The batch's status now. */
  status(input: { id: string; chainId: number }): Promise<CallsStatus>
  /**
   * `wallet_showCallsStatus`: the wallet shows the batch's status (`null`). A wallet that does not show it itself
   * (the embedded wallet, or a batch sent as separate transactions) has its status read instead, for the kit to
   * show. A wallet without the method: `ShowCallsStatusUnsupportedError`.
   */
  showStatus(input: { id: string; chainId: number }): Promise<CallsStatus | null>
}

/** A wallet that answered `wallet_getCapabilities` as a method it does not have. */
export const NO_EIP5792 = Symbol('no EIP-5792')

/** The answers kept per wagmi config: by connector, account and chain, each with when it was asked. */
const capabilityAnswers = new WeakMap<Config, Map<string, { at: number; answer: Promise<unknown> }>>()

/**
 * The connected wallet's `wallet_getCapabilities` answer for one chain, unread (each caller reads its part), or
 * `NO_EIP5792` for a wallet without the method. One request, never retried; its answer serves the same connector,
 * account and chain for `WALLET_CAPABILITIES_FRESH_MS` (a grant right after a batch check asks once), a failed
 * request none.
 * @internal
 */
export function walletCapabilitiesOf(
  wagmi: Config,
  { address, chainId }: { address: string; chainId: number },
  now: () => number = Date.now,
): Promise<unknown> {
  const connector = getConnection(wagmi).connector
  const key = connector ? `${connector.uid} ${address.toLowerCase()} ${chainId}` : undefined
  const kept = capabilityAnswers.get(wagmi) ?? new Map<string, { at: number; answer: Promise<unknown> }>()
  capabilityAnswers.set(wagmi, kept)
  const fresh = key === undefined ? undefined : kept.get(key)
  if (fresh && now() - fresh.at < WALLET_CAPABILITIES_FRESH_MS) return fresh.answer
  const answer = askCapabilities(wagmi, address, chainId)
  if (key !== undefined) {
    const entry = { at: now(), answer }
    kept.set(key, entry)
    answer.catch(() => {
      if (kept.get(key) === entry) kept.delete(key)
    })
  }
  return answer
}

async function askCapabilities(wagmi: Config, address: string, chainId: number): Promise<unknown> {
  const client = await getConnectorClient(wagmi, { chainId })
  try {
    return await client.request(
      { method: 'wallet_getCapabilities', params: [address, [numberToHex(chainId)]] } as never,
      { retryCount: 0 },
    )
  } catch (error) {
    if (isUnsupportedMethod(error)) return NO_EIP5792
    throw error
  }
}

/**
 * EIP-5792 through the wallet wagmi has connected (`wagmi`'s current connection).
 *
 * @example
 * const calls = createCallsClient(wagmi)
 * const atomic = await calls.capabilities({ address, chainId: 31337 })
 */
export function createCallsClient(wagmi: Config): CallsClient {
  const client: CallsClient = {
    async capabilities({ address, chainId }) {
      const answer = await walletCapabilitiesOf(wagmi, { address, chainId })
      return answer === NO_EIP5792 ? 'unknown' : atomicStatusOf(answer, chainId)
    },
    async send({ calls, chainId, atomicRequired = false }) {
      const connector = await getConnectorClient(wagmi, { chainId })
      // A wallet that answers `wallet_sendCalls` as a method it does not have, with any of the codes for that, has
      // no EIP-5792: viem then sends the calls one by one (`experimental_fallback`), which it does for -32004.
      const client = createClient({
        account: connector.account,
        chain: connector.chain,
        transport: custom(
          {
            async request({ method, params }) {
              try {
                return await connector.request({ method, params } as never, { retryCount: 0 })
              } catch (error) {
                if (method === 'wallet_sendCalls' && isUnsupportedMethod(error))
                  throw new MethodNotSupportedRpcError(error as Error)
                throw error
              }
            },
          },
          { retryCount: 0 },
        ),
      })
      const answer = await viemSendCalls(client, {
        calls: calls.map((call) => ({
          to: call.to,
          data: call.data,
          value: call.value === undefined ? undefined : hexToBigInt(call.value),
        })),
        experimental_fallback: true,
        // viem refuses to fall back to separate transactions for a batch that must be atomic.
        forceAtomic: atomicRequired,
      })
      const parsed = v.safeParse(SendCallsAnswer, answer)
      if (!parsed.success) throw new InvalidCallsStatusError({ details: v.summarize(parsed.issues) })
      return typeof parsed.output === 'string' ? parsed.output : parsed.output.id
    },
    async status({ id, chainId }) {
      if (isSequentialBatchId(id)) {
        // Separate transactions: their receipts, read from the chain.
        const status = await viemGetCallsStatus(getPublicClient(wagmi, { chainId }) as never, { id })
        return {
          status: status.status ?? 'failure',
          atomic: false,
          receipts: (status.receipts ?? []).map(
            (receipt): CallsReceipt => ({
              transactionHash: receipt.transactionHash,
              blockNumber: receipt.blockNumber.toString(),
              status: receipt.status,
            }),
          ),
        }
      }
      const client = await getConnectorClient(wagmi, { chainId })
      const answer = await client.request({ method: 'wallet_getCallsStatus', params: [id] } as never, {
        retryCount: 0,
      })
      return callsStatusOf(answer)
    },
    async showStatus({ id, chainId }) {
      if (!v.is(BatchIdSchema, id)) throw new UnknownCallsIdError({ details: 'not a batch id' })
      if (isSequentialBatchId(id) || getConnection(wagmi).connector?.id === EMBEDDED_CONNECTOR_ID)
        return client.status({ id, chainId })
      const connector = await getConnectorClient(wagmi, { chainId })
      try {
        // EIP-5792: the wallet shows the status in its own interface; its answer carries nothing.
        await connector.request({ method: 'wallet_showCallsStatus', params: [id] } as never, {
          retryCount: 0,
        })
      } catch (error) {
        if (isUnsupportedMethod(error)) throw new ShowCallsStatusUnsupportedError({ cause: error as Error })
        throw error
      }
      return null
    },
  }
  return client
}
