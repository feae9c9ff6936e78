import * as v from 'valibot'
import { LAMPORTS_PER_SIGNATURE, type Ledger, LedgerRejection } from './ledger.ts'
import {
  base58Decode,
  base58Encode,
  decodePublicKey,
  type NativeAccount,
  parseMessage,
  seedBytes,
} from './svm.ts'

/** The SPL Token program and Token-2022 (both built into litesvm). */
export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP7VEh8j6PNkvoM3hLWcCBN2sYPPE9Y'

/** What `getVersion` answers: the validator line this SVM's runtime follows. */
const SOLANA_CORE_VERSION = '2.2.0'
/** `getGenesisHash`: fixed, so a wallet that keys networks by genesis hash sees the same sandbox every start. */
export const SANDBOX_GENESIS_HASH = base58Encode(seedBytes('walletstate solana sandbox genesis'))

/** A JSON-RPC error answer (code per the JSON-RPC spec and Solana's RPC). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

const Commitment = v.picklist([
  'processed',
  'confirmed',
  'finalized',
  'recent',
  'single',
  'singleGossip',
  'root',
  'max',
])
const Base58Key = v.pipe(
  v.string(),
  v.check((text) => decodePublicKey(text) !== undefined, 'not a base58 public key'),
)
const Signature = v.pipe(
  v.string(),
  v.check((text) => base58Decode(text)?.length === 64, 'not a base58 signature'),
)
const Encoding = v.picklist(['base64', 'base58', 'base64+zstd', 'jsonParsed'])
const ContextConfig = v.object({ commitment: v.optional(Commitment), minContextSlot: v.optional(v.number()) })
const AccountConfig = v.object({
  ...ContextConfig.entries,
  encoding: v.optional(Encoding),
  dataSlice: v.optional(v.object({ offset: v.number(), length: v.number() })),
})
const opt = <T extends v.GenericSchema>(schema: T) => v.optional(schema)

/** Each method's params, a tuple like Solana's RPC takes them. */
const PARAMS = {
  getBalance: v.tuple([Base58Key, opt(ContextConfig)]),
  getAccountInfo: v.tuple([Base58Key, opt(AccountConfig)]),
  getMultipleAccounts: v.tuple([v.pipe(v.array(Base58Key), v.maxLength(100)), opt(AccountConfig)]),
  getLatestBlockhash: v.tuple([opt(ContextConfig)]),
  getRecentBlockhash: v.tuple([opt(ContextConfig)]),
  sendTransaction: v.tuple([
    v.string(),
    opt(
      v.object({
        encoding: v.optional(v.picklist(['base64', 'base58'])),
        skipPreflight: v.optional(v.boolean()),
        preflightCommitment: v.optional(Commitment),
        maxRetries: v.optional(v.number()),
        minContextSlot: v.optional(v.number()),
      }),
    ),
  ]),
  simulateTransaction: v.tuple([
    v.string(),
    opt(
      v.object({
        ...ContextConfig.entries,
        encoding: v.optional(v.picklist(['base64', 'base58'])),
        sigVerify: v.optional(v.boolean()),
        replaceRecentBlockhash: v.optional(v.boolean()),
        innerInstructions: v.optional(v.boolean()),
        accounts: v.optional(v.object({ addresses: v.array(Base58Key), encoding: v.optional(Encoding) })),
      }),
    ),
  ]),
  getSignatureStatuses: v.tuple([
    v.pipe(v.array(Signature), v.maxLength(256)),
    opt(v.object({ searchTransactionHistory: v.optional(v.boolean()) })),
  ]),
  getTokenAccountsByOwner: v.tuple([
    Base58Key,
    v.union([v.strictObject({ mint: Base58Key }), v.strictObject({ programId: Base58Key })]),
    opt(AccountConfig),
  ]),
  getTokenAccountBalance: v.tuple([Base58Key, opt(ContextConfig)]),
  getMinimumBalanceForRentExemption: v.tuple([
    v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10 * 1024 * 1024)),
    opt(ContextConfig),
  ]),
  getFeeForMessage: v.tuple([v.string(), opt(ContextConfig)]),
  getSlot: v.tuple([opt(ContextConfig)]),
  getBlockHeight: v.tuple([opt(ContextConfig)]),
  getVersion: v.tuple([]),
  getGenesisHash: v.tuple([]),
  getHealth: v.tuple([]),
  isBlockhashValid: v.tuple([v.string(), opt(ContextConfig)]),
  requestAirdrop: v.tuple([
    Base58Key,
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000 * 1e9)),
    opt(ContextConfig),
  ]),
} as const

export type RpcMethod = keyof typeof PARAMS

type Params<M extends RpcMethod> = v.InferOutput<(typeof PARAMS)[M]>

/** Account JSON in the RPC's shape for the requested encoding. */
function accountJson(
  ledger: Ledger,
  account: NativeAccount,
  encoding: v.InferOutput<typeof Encoding> = 'base64',
  slice?: { offset: number; length: number },
) {
  const owner = base58Encode(account.owner())
  let data: unknown
  const raw = account.data()
  const parsed = encoding === 'jsonParsed' ? parseTokenData(ledger, owner, raw) : undefined
  if (parsed) data = parsed
  else {
    const bytes = slice ? raw.slice(slice.offset, slice.offset + slice.length) : raw
    data =
      encoding === 'base58'
        ? [base58Encode(bytes), 'base58']
        : [Buffer.from(bytes).toString('base64'), 'base64']
  }
  return {
    data,
    executable: account.executable(),
    lamports: Number(account.lamports()),
    owner,
    // u64::MAX, written as a JSON number as validators do.
    rentEpoch: Number(account.rentEpoch()),
    space: raw.length,
  }
}

const readU64 = (bytes: Uint8Array, at: number) =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(at, true)
const readOptionKey = (bytes: Uint8Array, at: number) =>
  bytes[at] === 1 ? base58Encode(bytes.slice(at + 4, at + 36)) : null

/** A token amount as the RPC writes it: base units as a string plus the decimal reading. */
export function tokenAmount(amount: bigint, decimals: number) {
  const scale = 10n ** BigInt(decimals)
  const whole = amount / scale
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '')
  const uiAmountString = fraction === '' ? whole.toString() : `${whole}.${fraction}`
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
}

/** The SPL mint's decimals, or `undefined` when `mint` is not a mint. */
function mintDecimals(ledger: Ledger, mint: Uint8Array): number | undefined {
  const account = ledger.account(mint)
  const owner = account && base58Encode(account.owner())
  if (!account || (owner !== TOKEN_PROGRAM_ID && owner !== TOKEN_2022_PROGRAM_ID)) return undefined
  const data = account.data()
  return data.length >= 82 && data[45] === 1 ? data[44] : undefined
}

const ACCOUNT_STATES = ['uninitialized', 'initialized', 'frozen'] as const

/** jsonParsed data of SPL token accounts and mints (the base layout; Token-2022 extensions are not parsed). */
function parseTokenData(ledger: Ledger, owner: string, data: Uint8Array) {
  const program =
    owner === TOKEN_PROGRAM_ID ? 'spl-token' : owner === TOKEN_2022_PROGRAM_ID ? 'spl-token-2022' : undefined
  if (!program) return undefined
  if (data.length === 82 || (data.length > 165 && data[165] === 1)) {
    return {
      program,
      space: data.length,
      parsed: {
        type: 'mint',
        info: {
          mintAuthority: readOptionKey(data, 0),
          supply: readU64(data, 36).toString(),
          decimals: data[44],
          isInitialized: data[45] === 1,
          freezeAuthority: readOptionKey(data, 46),
        },
      },
    }
  }
  if (data.length < 165) return undefined
  const mint = data.slice(0, 32)
  const decimals = mintDecimals(ledger, mint) ?? 0
  const isNative = data[109] === 1
  const delegate = readOptionKey(data, 72)
  return {
    program,
    space: data.length,
    parsed: {
      type: 'account',
      info: {
        isNative,
        mint: base58Encode(mint),
        owner: base58Encode(data.slice(32, 64)),
        state: ACCOUNT_STATES[data[108] ?? 0] ?? 'uninitialized',
        tokenAmount: tokenAmount(readU64(data, 64), decimals),
        ...(delegate ? { delegate, delegatedAmount: tokenAmount(readU64(data, 121), decimals) } : {}),
        ...(readOptionKey(data, 129) ? { closeAuthority: readOptionKey(data, 129) } : {}),
        ...(isNative ? { rentExemptReserve: tokenAmount(readU64(data, 113), 9) } : {}),
      },
    },
  }
}

function decodeWire(text: string, encoding: 'base64' | 'base58' = 'base58'): Uint8Array {
  const bytes =
    encoding === 'base64'
      ? /^[A-Za-z0-9+/]*={0,2}$/.test(text)
        ? new Uint8Array(Buffer.from(text, 'base64'))
        : undefined
      : base58Decode(text)
  if (!bytes || bytes.length === 0) throw new RpcError(-32602, `invalid transaction: not ${encoding}`)
  return bytes
}

/**
 * Answers one JSON-RPC method from the ledger. Params are validated first: a bad one is `-32602`, an unknown
 * method `-32601`.
 */
export function callMethod(ledger: Ledger, method: string, params: unknown): unknown {
  if (!Object.hasOwn(PARAMS, method)) throw new RpcError(-32601, `Method not found: ${method}`)
  const schema = PARAMS[method as RpcMethod]
  const checked = v.safeParse(schema, params ?? [])
  if (!checked.success) throw new RpcError(-32602, `Invalid params: ${v.summarize(checked.issues)}`)
  return HANDLERS[method as RpcMethod](ledger, checked.output as never)
}

const key = (text: string) => decodePublicKey(text)!
const context = (ledger: Ledger) => ({ apiVersion: SOLANA_CORE_VERSION, slot: ledger.slot })
const withContext = (ledger: Ledger, value: unknown) => ({ context: context(ledger), value })

const HANDLERS: { [M in RpcMethod]: (ledger: Ledger, params: Params<M>) => unknown } = {
  getBalance: (ledger, [pubkey]) => withContext(ledger, Number(ledger.svm.getBalance(key(pubkey)) ?? 0n)),
  getAccountInfo: (ledger, [pubkey, config]) => {
    const account = ledger.account(key(pubkey))
    return withContext(ledger, account && accountJson(ledger, account, config?.encoding, config?.dataSlice))
  },
  getMultipleAccounts: (ledger, [pubkeys, config]) =>
    withContext(
      ledger,
      pubkeys.map((pubkey) => {
        const account = ledger.account(key(pubkey))
        return account && accountJson(ledger, account, config?.encoding, config?.dataSlice)
      }),
    ),
  getLatestBlockhash: (ledger) => withContext(ledger, ledger.latestBlockhash()),
  getRecentBlockhash: (ledger) =>
    withContext(ledger, {
      blockhash: ledger.latestBlockhash().blockhash,
      feeCalculator: { lamportsPerSignature: LAMPORTS_PER_SIGNATURE },
    }),
  sendTransaction: (ledger, [text, config]) => {
    const wire = decodeWire(text, config?.encoding)
    try {
      if (!config?.skipPreflight) {
        const preflight = ledger.simulate(wire, { sigVerify: true, replaceRecentBlockhash: false })
        if (preflight.err !== null) {
          throw new RpcError(-32002, `Transaction simulation failed: ${describeError(preflight.err)}`, {
            err: preflight.err,
            logs: preflight.logs,
            accounts: null,
            unitsConsumed: preflight.unitsConsumed,
            returnData: preflight.returnData,
          })
        }
      }
      const outcome = ledger.send(wire)
      if (!outcome.landed) {
        throw new RpcError(-32002, `Transaction failed: ${describeError(outcome.err)}`, {
          err: outcome.err,
          logs: outcome.logs,
        })
      }
      return outcome.signature
    } catch (error) {
      throw rejection(error)
    }
  },
  simulateTransaction: (ledger, [text, config]) => {
    if (config?.sigVerify && config.replaceRecentBlockhash) {
      throw new RpcError(-32602, 'Invalid params: sigVerify may not be used with replaceRecentBlockhash')
    }
    const wire = decodeWire(text, config?.encoding)
    try {
      const outcome = ledger.simulate(wire, {
        sigVerify: config?.sigVerify ?? false,
        replaceRecentBlockhash: config?.replaceRecentBlockhash ?? false,
      })
      return withContext(ledger, { ...outcome, accounts: null, innerInstructions: null })
    } catch (error) {
      if (error instanceof LedgerRejection && error.kind === 'blockhash') {
        return withContext(ledger, {
          err: 'BlockhashNotFound',
          logs: [],
          accounts: null,
          unitsConsumed: 0,
          returnData: null,
        })
      }
      throw rejection(error)
    }
  },
  getSignatureStatuses: (ledger, [signatures]) =>
    withContext(
      ledger,
      signatures.map((signature) => {
        const status = ledger.status(signature)
        if (!status) return null
        return {
          slot: status.slot,
          confirmations: null,
          err: status.err,
          status: status.err === null ? { Ok: null } : { Err: status.err },
          confirmationStatus: 'finalized',
        }
      }),
    ),
  getTokenAccountsByOwner: (ledger, [owner, filter, config]) => {
    const programs =
      'programId' in filter
        ? [filter.programId]
        : [base58Encode(ledger.account(key(filter.mint))?.owner() ?? new Uint8Array(32))]
    const ownerBytes = key(owner)
    const mintBytes = 'mint' in filter ? key(filter.mint) : undefined
    const found: Array<{ pubkey: string; account: unknown }> = []
    for (const program of programs) {
      if (program !== TOKEN_PROGRAM_ID && program !== TOKEN_2022_PROGRAM_ID) {
        throw new RpcError(-32602, `Invalid param: unrecognized Token program id`)
      }
      for (const entry of ledger.svm.getProgramAccounts(key(program))) {
        const account = entry.account()
        const data = account.data()
        if (data.length < 165 || (data.length > 165 && data[165] !== 2)) continue
        if (!sameBytes(data.subarray(32, 64), ownerBytes)) continue
        if (mintBytes && !sameBytes(data.subarray(0, 32), mintBytes)) continue
        found.push({
          pubkey: base58Encode(entry.address),
          account: accountJson(ledger, account, config?.encoding, config?.dataSlice),
        })
      }
    }
    return withContext(ledger, found)
  },
  getTokenAccountBalance: (ledger, [pubkey]) => {
    const account = ledger.account(key(pubkey))
    const data = account?.data()
    const owner = account && base58Encode(account.owner())
    const decimals = data && data.length >= 165 ? mintDecimals(ledger, data.slice(0, 32)) : undefined
    if (!data || decimals === undefined || (owner !== TOKEN_PROGRAM_ID && owner !== TOKEN_2022_PROGRAM_ID)) {
      throw new RpcError(-32602, 'Invalid param: not a Token account')
    }
    return withContext(ledger, tokenAmount(readU64(data, 64), decimals))
  },
  getMinimumBalanceForRentExemption: (ledger, [length]) => ledger.minimumBalanceForRentExemption(length),
  getFeeForMessage: (ledger, [text]) => {
    const bytes = decodeWire(text, 'base64')
    let message: ReturnType<typeof parseMessage>
    try {
      message = parseMessage(bytes)
    } catch (error) {
      throw new RpcError(-32602, `Invalid params: not a message (${(error as Error).message})`)
    }
    const blockhash = base58Encode(bytes.slice(message.blockhashOffset, message.blockhashOffset + 32))
    const fee = ledger.isBlockhashValid(blockhash)
      ? message.requiredSignatures * LAMPORTS_PER_SIGNATURE
      : null
    return withContext(ledger, fee)
  },
  getSlot: (ledger) => ledger.slot,
  getBlockHeight: (ledger) => ledger.blockHeight,
  getVersion: () => ({ 'solana-core': SOLANA_CORE_VERSION, 'feature-set': 0 }),
  getGenesisHash: () => SANDBOX_GENESIS_HASH,
  getHealth: () => 'ok',
  isBlockhashValid: (ledger, [hash]) => withContext(ledger, ledger.isBlockhashValid(hash)),
  requestAirdrop: (ledger, [pubkey, lamports]) => ledger.airdrop(key(pubkey), BigInt(lamports)).signature,
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}

function describeError(err: unknown): string {
  return typeof err === 'string' ? err : JSON.stringify(err)
}

function rejection(error: unknown): unknown {
  if (!(error instanceof LedgerRejection)) return error
  if (error.kind === 'signature') return new RpcError(-32003, error.message)
  if (error.kind === 'malformed') return new RpcError(-32602, `invalid transaction: ${error.message}`)
  return new RpcError(-32002, `Transaction simulation failed: ${error.message}`, {
    err: 'BlockhashNotFound',
    logs: [],
    accounts: null,
  })
}

/** One JSON-RPC request object; anything else is `-32600`. */
const RequestSchema = v.object({
  jsonrpc: v.literal('2.0'),
  id: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  method: v.string(),
  params: v.optional(v.union([v.array(v.unknown()), v.record(v.string(), v.unknown())])),
})

/**
 * Answers a JSON-RPC body (one request or a batch) as Solana's RPC does; notifications (no id) get no answer.
 * `call` is {@link callMethod} bound to the ledger, or the WebSocket's own method table.
 */
export function answerJsonRpc(
  body: unknown,
  call: (method: string, params: unknown) => unknown,
): unknown | undefined {
  if (Array.isArray(body)) {
    if (body.length === 0) return errorAnswer(null, new RpcError(-32600, 'Invalid request: empty batch'))
    const answers = body.map((item) => answerOne(item, call)).filter((a) => a !== undefined)
    return answers.length === 0 ? undefined : answers
  }
  return answerOne(body, call)
}

function answerOne(item: unknown, call: (method: string, params: unknown) => unknown) {
  const request = v.safeParse(RequestSchema, item)
  if (!request.success) {
    return errorAnswer(null, new RpcError(-32600, `Invalid request: ${v.summarize(request.issues)}`))
  }
  const { id, method, params } = request.output
  try {
    const result = call(method, params)
    return id === undefined ? undefined : { jsonrpc: '2.0', result, id }
  } catch (error) {
    if (id === undefined) return undefined
    if (error instanceof RpcError) return errorAnswer(id, error)
    return errorAnswer(id, new RpcError(-32603, `Internal error: ${(error as Error).message}`))
  }
}

function errorAnswer(id: string | number | null, error: RpcError) {
  return {
    jsonrpc: '2.0',
    error: {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    },
    id,
  }
}
