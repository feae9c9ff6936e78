import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import bs58 from 'bs58'

/**
 * The in-process SVM: litesvm's native binding (`litesvm-linux-x64-gnu`), used directly. The `litesvm` package
 * itself only wraps this binding in @solana/kit types, and its other-platform optional packages are missing
 * from the registry, which breaks `npm ci` (notes/stack.md); the binding speaks bytes, which is what a JSON-RPC
 * service has anyway (base64 wire transactions, base58 keys).
 */
export interface NativeAccount {
  lamports(): bigint
  data(): Uint8Array
  owner(): Uint8Array
  executable(): boolean
  rentEpoch(): bigint
}

export interface NativeTransactionMetadata {
  signature(): Uint8Array
  logs(): string[]
  computeUnitsConsumed(): bigint
  returnData(): { programId(): Uint8Array; data(): Uint8Array }
}

/** litesvm's transaction error: a fieldless enum value (a number) or one of the classes with fields. */
export type NativeTransactionError =
  | number
  | { index: number; err(): number | { code: number } | { msg: string } }
  | { index: number; constructor: { name: string } }
  | { accountIndex: number }

export interface NativeFailedTransaction {
  err(): NativeTransactionError
  meta(): NativeTransactionMetadata
}

export interface NativeSimulated {
  meta(): NativeTransactionMetadata
}

export interface NativeLiteSvm {
  minimumBalanceForRentExemption(dataLen: bigint): bigint
  getAccount(pubkey: Uint8Array): NativeAccount | null
  getProgramAccounts(programId: Uint8Array): Array<{ address: Uint8Array; account(): NativeAccount }>
  setAccount(pubkey: Uint8Array, account: NativeAccount): void
  getBalance(pubkey: Uint8Array): bigint | null
  latestBlockhash(): string
  airdrop(pubkey: Uint8Array, lamports: bigint): NativeTransactionMetadata | NativeFailedTransaction | null
  sendLegacyTransaction(tx: Uint8Array): NativeTransactionMetadata | NativeFailedTransaction
  sendVersionedTransaction(tx: Uint8Array): NativeTransactionMetadata | NativeFailedTransaction
  simulateLegacyTransaction(tx: Uint8Array): NativeSimulated | NativeFailedTransaction
  simulateVersionedTransaction(tx: Uint8Array): NativeSimulated | NativeFailedTransaction
  expireBlockhash(): void
  warpToSlot(slot: bigint): void
  setSigverify(on: boolean): void
  getSigverify(): boolean
  setBlockhashCheck(on: boolean): void
  setTransactionHistory(capacity: bigint): void
}

interface NativeBinding {
  LiteSvm: new () => NativeLiteSvm
  Account: new (
    lamports: bigint,
    data: Uint8Array,
    owner: Uint8Array,
    executable: boolean,
    rentEpoch: bigint,
  ) => NativeAccount
  FailedTransactionMetadata: abstract new (...args: never[]) => NativeFailedTransaction
  TransactionErrorInstructionError: abstract new (...args: never[]) => { index: number; err(): unknown }
  TransactionErrorDuplicateInstruction: abstract new (...args: never[]) => { index: number }
  TransactionErrorInsufficientFundsForRent: abstract new (...args: never[]) => { accountIndex: number }
  InstructionErrorCustom: abstract new (...args: never[]) => { code: number }
  InstructionErrorBorshIo: abstract new (...args: never[]) => { msg: string }
}

let binding: NativeBinding | undefined

/** Loads litesvm's native binding once. */
export function nativeSvm(): NativeBinding {
  binding ??= createRequire(import.meta.url)('litesvm-linux-x64-gnu') as NativeBinding
  return binding
}

/** Solana's `TransactionError` names, in litesvm's fieldless-enum order (its `TransactionErrorFieldless`). */
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const

/** Solana's `InstructionError` names, in litesvm's `InstructionErrorFieldless` order. */
const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
] as const

/** A transaction error in the JSON shape Solana's RPC answers (`"BlockhashNotFound"`, `{ InstructionError: [0, { Custom: 1 }] }`). */
export type RpcTransactionError = string | Record<string, unknown>

/** litesvm's error object → the RPC's JSON shape. */
export function rpcTransactionError(err: unknown): RpcTransactionError {
  const native = nativeSvm()
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? `TransactionError(${err})`
  if (err instanceof native.TransactionErrorInstructionError) {
    const inner = err.err()
    let detail: unknown
    if (typeof inner === 'number') detail = INSTRUCTION_ERRORS[inner] ?? `InstructionError(${inner})`
    else if (inner instanceof native.InstructionErrorCustom) detail = { Custom: inner.code }
    else if (inner instanceof native.InstructionErrorBorshIo) detail = { BorshIoError: inner.msg }
    else detail = String(inner)
    return { InstructionError: [err.index, detail] }
  }
  if (err instanceof native.TransactionErrorDuplicateInstruction) return { DuplicateInstruction: err.index }
  if (err instanceof native.TransactionErrorInsufficientFundsForRent) {
    return { InsufficientFundsForRent: { account_index: err.accountIndex } }
  }
  const index = typeof err === 'object' && err !== null && 'accountIndex' in err ? err.accountIndex : 0
  return { ProgramExecutionTemporarilyRestricted: { account_index: index } }
}

/** Base58 (Bitcoin alphabet), as Solana writes keys, signatures and blockhashes (the `bs58` package). */
export function base58Encode(bytes: Uint8Array): string {
  return bs58.encode(bytes)
}

/** Decodes base58; `undefined` when the text is not base58. */
export function base58Decode(text: string): Uint8Array | undefined {
  return bs58.decodeUnsafe(text)
}

/** A 32-byte public key from base58, or `undefined`. */
export function decodePublicKey(text: string): Uint8Array | undefined {
  const bytes = base58Decode(text)
  return bytes?.length === 32 ? bytes : undefined
}

/** Where the parts of a wire transaction are (legacy or versioned). */
export interface WireTransaction {
  signatures: Uint8Array[]
  /** Offset of the message in the wire bytes. */
  messageOffset: number
  /** Offset of the 32-byte recent blockhash in the wire bytes. */
  blockhashOffset: number
  version: 'legacy' | number
  requiredSignatures: number
}

function shortVec(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[at + i]
    if (byte === undefined) throw new Error('truncated')
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, at + i + 1]
  }
  throw new Error('bad length')
}

/** Reads the layout of a wire transaction; throws on bytes that are not one. */
export function parseWireTransaction(bytes: Uint8Array): WireTransaction {
  const [count, afterCount] = shortVec(bytes, 0)
  const signatures: Uint8Array[] = []
  for (let i = 0; i < count; i++) signatures.push(bytes.slice(afterCount + i * 64, afterCount + (i + 1) * 64))
  const messageOffset = afterCount + count * 64
  const { version, blockhashOffset, requiredSignatures } = parseMessage(bytes, messageOffset)
  if (count !== requiredSignatures) throw new Error('signature count does not match the message header')
  return { signatures, messageOffset, blockhashOffset, version, requiredSignatures }
}

/** Reads a message's version, header and where its blockhash is (offsets from the start of `bytes`). */
export function parseMessage(
  bytes: Uint8Array,
  offset = 0,
): { version: 'legacy' | number; requiredSignatures: number; blockhashOffset: number } {
  let at = offset
  const first = bytes[at]
  if (first === undefined) throw new Error('empty message')
  let version: 'legacy' | number = 'legacy'
  if (first & 0x80) {
    version = first & 0x7f
    at++
  }
  const requiredSignatures = bytes[at]
  if (requiredSignatures === undefined) throw new Error('truncated header')
  at += 3
  const [keys, afterKeys] = shortVec(bytes, at)
  const blockhashOffset = afterKeys + keys * 32
  if (blockhashOffset + 32 > bytes.length) throw new Error('truncated message')
  return { version, requiredSignatures, blockhashOffset }
}

/** A 32-byte value from a seed text, for deterministic keys and hashes. */
export function seedBytes(text: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(text).digest())
}
