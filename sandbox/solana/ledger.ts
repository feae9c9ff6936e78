import {
  base58Decode,
  base58Encode,
  type NativeAccount,
  type NativeFailedTransaction,
  type NativeLiteSvm,
  type NativeSimulated,
  type NativeTransactionMetadata,
  nativeSvm,
  parseWireTransaction,
  type RpcTransactionError,
  rpcTransactionError,
} from './svm.ts'

/** Blocks a blockhash stays valid for, as on Solana (`lastValidBlockHeight` = height + this). */
export const BLOCKHASH_VALIDITY = 150
/** Lamports per signature, litesvm's (and Solana's) base fee. */
export const LAMPORTS_PER_SIGNATURE = 5_000

export interface SignatureStatus {
  slot: number
  err: RpcTransactionError | null
}

export interface TransactionOutcome {
  signature: string
  /** False when the SVM refused it before running it (no fee payer funds, ...): it is in no block. */
  landed: boolean
  err: RpcTransactionError | null
  logs: string[]
  unitsConsumed: number
  returnData: { programId: string; data: [string, 'base64'] } | null
}

/** A transaction the ledger refuses before running it (bad bytes, unknown blockhash, bad signature). */
export class LedgerRejection extends Error {
  constructor(
    readonly kind: 'malformed' | 'signature' | 'blockhash',
    message: string,
  ) {
    super(message)
  }
}

/**
 * The sandbox Solana ledger: litesvm plus what a validator adds around it. Every landed transaction is a new
 * block: the slot advances and a new blockhash is issued, and the last {@link BLOCKHASH_VALIDITY} blockhashes
 * stay valid (litesvm alone only accepts its latest one, so the ledger checks blockhashes itself). Commitment
 * is instant: whatever landed is finalized.
 */
export class Ledger {
  readonly svm: NativeLiteSvm
  #slot = 1
  readonly #blockhashes: Array<{ hash: string; lastValid: number }> = []
  readonly #statuses = new Map<string, SignatureStatus>()
  readonly #listeners = new Set<(slot: number) => void>()

  constructor() {
    const { LiteSvm } = nativeSvm()
    this.svm = new LiteSvm()
    this.svm.setBlockhashCheck(false)
    this.svm.warpToSlot(BigInt(this.#slot))
    this.#blockhashes.push({ hash: this.svm.latestBlockhash(), lastValid: this.#slot + BLOCKHASH_VALIDITY })
  }

  get slot(): number {
    return this.#slot
  }

  /** Block height: one block per slot here. */
  get blockHeight(): number {
    return this.#slot
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const latest = this.#blockhashes[this.#blockhashes.length - 1]!
    return { blockhash: latest.hash, lastValidBlockHeight: latest.lastValid }
  }

  isBlockhashValid(hash: string): boolean {
    return this.#blockhashes.some((entry) => entry.hash === hash && entry.lastValid >= this.#slot)
  }

  /** Called with the new slot after every block. Answers an unsubscribe. */
  onSlot(listener: (slot: number) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  account(pubkey: Uint8Array): NativeAccount | null {
    return this.svm.getAccount(pubkey)
  }

  status(signature: string): SignatureStatus | undefined {
    return this.#statuses.get(signature)
  }

  minimumBalanceForRentExemption(dataLength: number): number {
    return Number(this.svm.minimumBalanceForRentExemption(BigInt(dataLength)))
  }

  /** Credits lamports from litesvm's faucet, as a validator's `requestAirdrop` does. */
  airdrop(pubkey: Uint8Array, lamports: bigint): TransactionOutcome {
    const result = this.svm.airdrop(pubkey, lamports)
    if (result === null) throw new Error('airdrop failed')
    return this.#land(result)
  }

  /** Runs a wire transaction and, whatever its outcome, lands it in a new block (fees are charged on failure). */
  send(wire: Uint8Array): TransactionOutcome {
    const parsed = this.#check(wire, { sigVerify: true })
    const signature = base58Encode(parsed.signatures[0]!)
    if (this.#statuses.has(signature)) {
      throw new LedgerRejection('blockhash', 'This transaction has already been processed')
    }
    const result =
      parsed.version === 'legacy'
        ? this.svm.sendLegacyTransaction(wire)
        : this.svm.sendVersionedTransaction(wire)
    return this.#land(result)
  }

  /** Runs a wire transaction without landing it. `sigVerify: false` accepts unsigned transactions. */
  simulate(
    wire: Uint8Array,
    options: { sigVerify: boolean; replaceRecentBlockhash: boolean },
  ): Omit<TransactionOutcome, 'signature' | 'landed'> {
    let bytes = wire
    if (options.replaceRecentBlockhash) {
      const parsed = parseWireTransaction(wire)
      bytes = Uint8Array.from(wire)
      bytes.set(base58Decode(this.latestBlockhash().blockhash)!, parsed.blockhashOffset)
    }
    const parsed = this.#check(bytes, { sigVerify: options.sigVerify })
    const before = this.svm.getSigverify()
    this.svm.setSigverify(options.sigVerify)
    try {
      const result =
        parsed.version === 'legacy'
          ? this.svm.simulateLegacyTransaction(bytes)
          : this.svm.simulateVersionedTransaction(bytes)
      const { err, meta } = this.#outcome(result)
      return { err, ...describe(meta) }
    } finally {
      this.svm.setSigverify(before)
    }
  }

  #check(wire: Uint8Array, options: { sigVerify: boolean }) {
    let parsed: ReturnType<typeof parseWireTransaction>
    try {
      parsed = parseWireTransaction(wire)
    } catch (error) {
      throw new LedgerRejection('malformed', `failed to deserialize transaction: ${(error as Error).message}`)
    }
    if (options.sigVerify && parsed.signatures.some((sig) => sig.every((b) => b === 0))) {
      throw new LedgerRejection('signature', 'Transaction signature verification failure')
    }
    const blockhash = base58Encode(wire.slice(parsed.blockhashOffset, parsed.blockhashOffset + 32))
    if (!this.isBlockhashValid(blockhash)) throw new LedgerRejection('blockhash', 'Blockhash not found')
    return parsed
  }

  #outcome(result: NativeTransactionMetadata | NativeFailedTransaction | NativeSimulated) {
    if (result instanceof nativeSvm().FailedTransactionMetadata) {
      return { err: rpcTransactionError(result.err()), meta: result.meta() }
    }
    const meta = 'meta' in result ? result.meta() : result
    return { err: null, meta }
  }

  #land(result: NativeTransactionMetadata | NativeFailedTransaction): TransactionOutcome {
    const { err, meta } = this.#outcome(result)
    const signature = base58Encode(meta.signature())
    // A transaction refused before it ran (a fieldless error: bad signature, no fee payer funds) is in no block.
    const landed = typeof err !== 'string'
    if (landed) {
      this.#statuses.set(signature, { slot: this.#slot, err })
      this.#advance()
    }
    return { signature, landed, err, ...describe(meta) }
  }

  #advance(): void {
    this.#slot += 1
    this.svm.warpToSlot(BigInt(this.#slot))
    this.svm.expireBlockhash()
    this.#blockhashes.push({ hash: this.svm.latestBlockhash(), lastValid: this.#slot + BLOCKHASH_VALIDITY })
    while (this.#blockhashes.length > BLOCKHASH_VALIDITY + 1) this.#blockhashes.shift()
    for (const listener of this.#listeners) listener(this.#slot)
  }
}

function describe(meta: NativeTransactionMetadata): Omit<TransactionOutcome, 'signature' | 'err' | 'landed'> {
  const returned = meta.returnData()
  const data = returned.data()
  return {
    logs: meta.logs(),
    unitsConsumed: Number(meta.computeUnitsConsumed()),
    returnData:
      data.length === 0
        ? null
        : {
            programId: base58Encode(returned.programId()),
            data: [Buffer.from(data).toString('base64'), 'base64'],
          },
  }
}
