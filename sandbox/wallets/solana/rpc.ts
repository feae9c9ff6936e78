import type { SolanaSignAndSendTransactionInput } from '@solana/wallet-standard-features'
import * as v from 'valibot'
import { toBase64 } from './transaction.ts'

/*
 * What both Solana-signing wallet pages share (the injected Wallet Standard wallet and the WalletConnect wallet's
 * `solana` namespace): their request error and the send to the sandbox Solana JSON-RPC.
 */

export const NOT_CONFIGURED_MESSAGE = 'The sandbox Solana RPC is not configured'

/** An error answered to the app for a request the wallet cannot serve (bad input, wrong account or chain). */
export class WalletRequestError extends Error {
  override readonly name = 'WalletRequestError'
  readonly code: number
  constructor(message: string, code = -32602) {
    super(message)
    this.code = code
  }
}

/** Send options as the Wallet Standard and WalletConnect's `sendOptions` carry them. */
export type SendOptions = SolanaSignAndSendTransactionInput['options']

const RpcAnswerSchema = v.union([
  v.object({ result: v.string() }),
  v.object({ error: v.object({ code: v.number(), message: v.string() }) }),
])

/**
 * `sendTransaction` (base64 wire) on the sandbox Solana JSON-RPC; answers the transaction's signature (base58)
 * and throws the node's error as a {@link WalletRequestError} with its code.
 *
 * @example
 * const signature = await sendRawTransaction(config.rpcUrl, tx.serialize(), { skipPreflight: false })
 */
export async function sendRawTransaction(
  rpcUrl: string,
  wire: Uint8Array,
  options: SendOptions,
): Promise<string> {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'sendTransaction',
    params: [
      toBase64(wire),
      {
        encoding: 'base64',
        skipPreflight: options?.skipPreflight ?? false,
        preflightCommitment: options?.preflightCommitment ?? 'confirmed',
        ...(options?.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options?.minContextSlot === undefined ? {} : { minContextSlot: options.minContextSlot }),
      },
    ],
  }
  let response: Response
  try {
    response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  } catch (error) {
    throw new WalletRequestError(`The sandbox Solana RPC did not answer: ${String(error)}`, -32603)
  }
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new WalletRequestError(
      `The sandbox Solana RPC answered HTTP ${response.status}: ${text.slice(0, 200)}`,
      -32603,
    )
  }
  const parsed = v.safeParse(RpcAnswerSchema, json)
  if (!parsed.success) {
    throw new WalletRequestError(`The sandbox Solana RPC answered ${text.slice(0, 200)}`, -32603)
  }
  if ('error' in parsed.output) {
    throw new WalletRequestError(parsed.output.error.message, parsed.output.error.code)
  }
  return parsed.output.result
}
