import { type PublicKey, VersionedTransaction } from '@solana/web3.js'
import type { PromptLine } from '../common/prompt.ts'

/*
 * What the Solana dev wallet can tell the visitor about a transaction before signing it: its version, fee
 * payer, blockhash and each instruction's program (named when well known; a System transfer spelled out).
 */

const KNOWN_PROGRAMS: Record<string, string> = {
  '11111111111111111111111111111111': 'System Program',
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'Token Program',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'Token-2022 Program',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'Associated Token Account Program',
  ComputeBudget111111111111111111111111111111: 'Compute Budget Program',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'Memo Program',
}
const SYSTEM_PROGRAM = '11111111111111111111111111111111'
/** SystemInstruction::Transfer's index in the System program's instruction enum. */
const SYSTEM_TRANSFER = 2
const LAMPORTS_PER_SOL = 1_000_000_000n

/** Parses wire bytes, legacy or versioned; throws a readable error for anything else. */
export function decodeTransaction(bytes: Uint8Array): VersionedTransaction {
  try {
    return VersionedTransaction.deserialize(bytes)
  } catch (error) {
    throw new Error(`Invalid transaction: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** Refuses a transaction that does not ask for the signer's signature (VersionedTransaction.sign would throw less clearly). */
export function requireSigner(tx: VersionedTransaction, signer: PublicKey): void {
  const required = tx.message.staticAccountKeys.slice(0, tx.message.header.numRequiredSignatures)
  if (!required.some((key) => key.equals(signer))) {
    throw new Error(`The transaction does not ask for the signature of ${signer.toBase58()}`)
  }
}

function formatSol(lamports: bigint): string {
  const whole = lamports / LAMPORTS_PER_SOL
  const fraction = (lamports % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '')
  return `${whole}${fraction ? `.${fraction}` : ''} SOL`
}

/** The prompt's lines for a transaction. */
export function describeTransaction(tx: VersionedTransaction): PromptLine[] {
  const message = tx.message
  const keys = message.staticAccountKeys
  const key = (index: number): string => keys[index]?.toBase58() ?? `account #${index} (address lookup table)`
  const lines: PromptLine[] = [
    { label: 'Version', value: tx.version === 'legacy' ? 'legacy' : `v${tx.version}` },
    { label: 'Fee payer', value: key(0) },
    { label: 'Blockhash', value: message.recentBlockhash },
  ]
  message.compiledInstructions.forEach((instruction, i) => {
    const program = key(instruction.programIdIndex)
    const name = KNOWN_PROGRAMS[program]
    let value = name ? `${name} (${program})` : program
    const data = instruction.data
    if (program === SYSTEM_PROGRAM && data.length === 12) {
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
      const to = instruction.accountKeyIndexes[1]
      if (view.getUint32(0, true) === SYSTEM_TRANSFER && to !== undefined) {
        value += `: transfer ${formatSol(view.getBigUint64(4, true))} to ${key(to)}`
      }
    }
    lines.push({ label: `Instruction ${i + 1}`, value })
  })
  const lookups = message.addressTableLookups.length
  if (lookups > 0) lines.push({ label: 'Address lookup tables', value: String(lookups) })
  return lines
}

/** Base64 of bytes without Node's Buffer (this runs in the page). */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** Bytes of a base64 text (standard alphabet, padded), or undefined when it is not one. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
