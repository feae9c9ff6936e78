import {
  Keypair,
  type PublicKey,
  SystemProgram,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { describe, expect, it } from 'vitest'
import { SolanaSwapMismatchError } from '../../errors/swap'
import { checkSolanaSwap, type SolanaSwapExpectation } from './swapCheck'
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
} from './token'

const seed = (n: number) => Keypair.fromSeed(new Uint8Array(32).fill(n))
const visitor = seed(1)
const maker = seed(2)
const stranger = seed(3)
const usdc = seed(4).publicKey
const BLOCKHASH = seed(5).publicKey.toBase58()
const ata = (owner: PublicKey) => associatedTokenAddress(usdc, owner)

/** 10 USDC → SOL: what the preview shows. */
const usdcForSol: SolanaSwapExpectation = {
  account: visitor.publicKey.toBase58(),
  maker: maker.publicKey.toBase58(),
  feePayer: visitor.publicKey.toBase58(),
  tokenIn: { mint: usdc.toBase58() },
  tokenOut: {},
  amountIn: 10_000_000n,
  minAmountOut: 66_000_000n,
}
/** 1 SOL → USDC, the visitor's USDC account created in it. */
const solForUsdc: SolanaSwapExpectation = {
  ...usdcForSol,
  tokenIn: {},
  tokenOut: { mint: usdc.toBase58() },
  amountIn: 1_000_000_000n,
  minAmountOut: 148_000_000n,
}

const pay = (from: Keypair | PublicKey, to: PublicKey, amount: bigint) => {
  const owner = from instanceof Keypair ? from.publicKey : from
  return createTransferCheckedInstruction(ata(owner), usdc, ata(to), owner, amount, 6)
}
const lamports = (from: PublicKey, to: PublicKey, amount: bigint) =>
  SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: amount })

function wire(
  instructions: TransactionInstruction[],
  { payer = visitor.publicKey, signers = [maker] }: { payer?: PublicKey; signers?: Keypair[] } = {},
) {
  const message = new TransactionMessage({ payerKey: payer, recentBlockhash: BLOCKHASH, instructions })
  const tx = new VersionedTransaction(message.compileToV0Message())
  tx.sign(signers)
  return Buffer.from(tx.serialize()).toString('base64')
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SolanaSwapMismatchError)
  return (error as SolanaSwapMismatchError).mismatch
}

const honest = () => [
  pay(visitor, maker.publicKey, 10_000_000n),
  lamports(maker.publicKey, visitor.publicKey, 66_500_000n),
]

describe('checkSolanaSwap', () => {
  it("accepts the maker's swap: exactly the amount to the maker, at least the least amount back", async () => {
    const tx = await checkSolanaSwap(wire(honest()), usdcForSol)
    expect(tx.message.staticAccountKeys[0]!.equals(visitor.publicKey)).toBe(true)
  })

  it("accepts the creation of the visitor's token account of the token received, paid by the maker", async () => {
    const instructions = [
      createAssociatedTokenAccountIdempotentInstruction(
        maker.publicKey,
        ata(visitor.publicKey),
        visitor.publicKey,
        usdc,
      ),
      lamports(visitor.publicKey, maker.publicKey, 1_000_000_000n),
      pay(maker, visitor.publicKey, 148_500_000n),
    ]
    await expect(checkSolanaSwap(wire(instructions), solForUsdc)).resolves.toBeInstanceOf(
      VersionedTransaction,
    )
  })

  it("refuses the visitor's tokens sent anywhere but the maker", async () => {
    const instructions = [
      pay(visitor, stranger.publicKey, 10_000_000n),
      lamports(maker.publicKey, visitor.publicKey, 66_500_000n),
    ]
    expect(await refusal(checkSolanaSwap(wire(instructions), usdcForSol))).toBe('recipient')
  })

  it('refuses more than the amount, or a second transfer from the visitor', async () => {
    const more = [
      pay(visitor, maker.publicKey, 10_000_001n),
      lamports(maker.publicKey, visitor.publicKey, 66_500_000n),
    ]
    expect(await refusal(checkSolanaSwap(wire(more), usdcForSol))).toBe('amountIn')
    const twice = [...honest(), lamports(visitor.publicKey, stranger.publicKey, 1n)]
    expect(await refusal(checkSolanaSwap(wire(twice), usdcForSol))).toBe('amountIn')
  })

  it('refuses less than the least amount shown, or the inflow to another account', async () => {
    const less = [
      pay(visitor, maker.publicKey, 10_000_000n),
      lamports(maker.publicKey, visitor.publicKey, 65_999_999n),
    ]
    expect(await refusal(checkSolanaSwap(wire(less), usdcForSol))).toBe('minAmountOut')
    const elsewhere = [
      pay(visitor, maker.publicKey, 10_000_000n),
      lamports(maker.publicKey, stranger.publicKey, 66_500_000n),
    ]
    expect(await refusal(checkSolanaSwap(wire(elsewhere), usdcForSol))).toBe('minAmountOut')
  })

  it("refuses another instruction touching the visitor's accounts, or a token account made for someone else", async () => {
    const created = createAssociatedTokenAccountIdempotentInstruction(
      visitor.publicKey,
      ata(visitor.publicKey),
      visitor.publicKey,
      usdc,
    )
    expect(await refusal(checkSolanaSwap(wire([created, ...honest()]), usdcForSol))).toBe('instruction')
  })

  it('refuses a bad maker signature, another fee payer, or other signers', async () => {
    const forged = Buffer.from(wire(honest()), 'base64')
    forged[1 + 64 + 5]! ^= 0xff // the maker's signature (second slot)
    expect(await refusal(checkSolanaSwap(forged.toString('base64'), usdcForSol))).toBe('makerSignature')
    const makerPays = wire(honest(), { payer: maker.publicKey })
    expect(await refusal(checkSolanaSwap(makerPays, usdcForSol))).toBe('feePayer')
    const threeSigners = wire([...honest(), lamports(stranger.publicKey, maker.publicKey, 1n)], {
      signers: [maker, stranger],
    })
    expect(await refusal(checkSolanaSwap(threeSigners, usdcForSol))).toBe('signers')
    expect(await refusal(checkSolanaSwap('not base64!', usdcForSol))).toBe('transaction')
  })
})
