import * as v from 'valibot'
import { type Hex, numberToHex } from 'viem'
import { BundlerAnswerError, UnknownCallsIdError } from '../../errors/calls'
import { type KitTransportParameters, kitTransport } from './transport'

export { BUNDLER_NAME, type BundlerUrlParameters, bundlerUrlFor } from './transport'

/*
 * The embedded smart account's batches, read from the bundler (SPEC §7: `wallet_getCallsStatus` is handled
 * locally; the bundler call is a POST with projectId, chainId and bundler, sending `eth_getUserOperationReceipt`).
 * A batch's id is its user operation's hash (the secure site's `wallet_sendCalls`). The call goes through the
 * kit's RPC transport (`kitTransport`): SPEC §7's retries (HTTP 403, 408, 413, 429, 5xx, code -1, unsupported
 * method; 3 retries, 150 ms doubling, Retry-After) and its strict reading of JSON-RPC answers. What the bundler
 * answers is read through a schema here; anything else is a `BundlerAnswerError`.
 */

const Hash = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/))
const Quantity = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,64}$/))
const Address = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/))
const LogSchema = v.looseObject({
  address: Address,
  data: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]*$/), v.maxLength(1_000_000)),
  topics: v.pipe(v.array(Hash), v.maxLength(4)),
})
/** ERC-4337 `eth_getUserOperationReceipt`: null until the operation is mined. */
const ReceiptAnswer = v.nullable(
  v.looseObject({
    userOpHash: Hash,
    success: v.boolean(),
    logs: v.optional(v.pipe(v.array(LogSchema), v.maxLength(1024)), []),
    receipt: v.looseObject({
      transactionHash: Hash,
      blockHash: Hash,
      blockNumber: Quantity,
      gasUsed: Quantity,
    }),
  }),
)

/** A batch's status as EIP-5792's `wallet_getCallsStatus` answers it (what viem's `getCallsStatus` reads). */
export interface Eip5792CallsStatus {
  version: '2.0.0'
  id: Hex
  chainId: Hex
  atomic: true
  /** 100 pending, 200 confirmed, 500 reverted (the user operation's calls, as one). */
  status: 100 | 200 | 500
  receipts?: {
    logs: { address: Hex; data: Hex; topics: Hex[] }[]
    status: '0x1' | '0x0'
    blockHash: Hex
    blockNumber: Hex
    gasUsed: Hex
    transactionHash: Hex
  }[]
}

/**
 * The bundler's answer to `eth_getUserOperationReceipt(id)`, as EIP-5792's status: pending while null, confirmed
 * (200) or reverted (500) with the one receipt of the transaction that carried the operation (an atomic batch has
 * one). An answer that is not ERC-4337's, or for another operation, is refused.
 *
 * @example
 * userOperationStatusOf(null, '0x…', 31337) // { …, status: 100 }
 */
export function userOperationStatusOf(answer: unknown, id: Hex, chainId: number): Eip5792CallsStatus {
  const parsed = v.safeParse(ReceiptAnswer, answer)
  if (!parsed.success) throw new BundlerAnswerError({ details: v.summarize(parsed.issues) })
  const base = { version: '2.0.0', id, chainId: numberToHex(chainId), atomic: true } as const
  const receipt = parsed.output
  if (receipt === null) return { ...base, status: 100 }
  if (receipt.userOpHash.toLowerCase() !== id.toLowerCase())
    throw new BundlerAnswerError({ details: `a receipt for ${receipt.userOpHash}, not ${id}` })
  return {
    ...base,
    status: receipt.success ? 200 : 500,
    receipts: [
      {
        logs: receipt.logs.map((log) => ({
          address: log.address as Hex,
          data: log.data as Hex,
          topics: log.topics as Hex[],
        })),
        status: receipt.success ? '0x1' : '0x0',
        blockHash: receipt.receipt.blockHash as Hex,
        blockNumber: receipt.receipt.blockNumber as Hex,
        gasUsed: receipt.receipt.gasUsed as Hex,
        transactionHash: receipt.receipt.transactionHash as Hex,
      },
    ],
  }
}

const CallsIdParams = v.tuple([Hash])

/**
 * `wallet_getCallsStatus` for the embedded smart account, answered by the kit: `eth_getUserOperationReceipt`
 * POSTed to the bundler (`url`, {@link bundlerUrlFor}). An id that is not a user operation's hash is no batch of
 * this wallet (EIP-5792's 5730, unknown bundle id).
 *
 * @example
 * const status = await bundlerCallsStatus({ params: [userOpHash], chainId: 31337, url })
 */
export async function bundlerCallsStatus({
  params,
  chainId,
  url,
  transport,
}: {
  params: unknown
  chainId: number
  url: string
  /** The transport's options (tests: `fetch`, retry delays). */
  transport?: Omit<KitTransportParameters, 'urls'>
}): Promise<Eip5792CallsStatus> {
  const id = v.safeParse(CallsIdParams, params)
  if (!id.success) throw new UnknownCallsIdError({ details: 'wallet_getCallsStatus takes [id], a 0x hash' })
  const hash = id.output[0] as Hex
  const { request } = kitTransport({ ...transport, urls: [url], name: 'Walletstate bundler' })({})
  const answer = await request({ method: 'eth_getUserOperationReceipt', params: [hash] } as never)
  return userOperationStatusOf(answer, hash, chainId)
}
