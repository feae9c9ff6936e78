import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, toPromise } from 'xstate'
import { InvalidTransactionHashError } from '../errors/frame'
import { type TransactionInput, type TransactionReceipt, transactionMachine } from './transaction'

/** A test wallet that answers every transaction request with `answer`; the chain is never asked. */
function withWallet(answer: string) {
  const unexpected = () => {
    throw new Error('the chain was asked')
  }
  return transactionMachine.provide({
    actors: {
      ask: fromPromise(async () => answer),
      readNonce: fromPromise(unexpected),
      checkNonce: fromPromise(unexpected),
      watchNonce: fromPromise(unexpected),
      waitForReceipt: fromPromise(
        async (): Promise<TransactionReceipt> => ({ status: 'success', blockNumber: '1' }),
      ),
      pollReceipt: fromPromise(unexpected),
    },
  })
}

const REQUEST = { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '1' }
const SWAP: TransactionInput = {
  chainId: 31337,
  request: REQUEST,
  rules: { holdsNonce: false, deadlineMs: 60_000 },
}

describe('transaction machine: SPEC §5 transaction hash 0x plus 64 hex characters', () => {
  it('a wallet answering no transaction hash, no nonce held: the transaction fails with InvalidTransactionHashError, no receipt awaited', async () => {
    for (const answer of [
      '0x',
      `0x${'ab'.repeat(31)}`,
      `0x${'ab'.repeat(33)}`,
      `0x${'zz'.repeat(32)}`,
      'ab'.repeat(32),
    ]) {
      const actor = createActor(withWallet(answer), { input: SWAP }).start()
      const output = await toPromise(actor)
      expect(output).toMatchObject({ status: 'failed', reason: 'declined' })
      const error = (output as { error: unknown }).error
      expect(error).toBeInstanceOf(InvalidTransactionHashError)
      expect((error as InvalidTransactionHashError).shortMessage).toBe('Invalid transaction hash')
      expect(actor.getSnapshot().context.hash).toBeUndefined()
    }
  })

  it('a transaction hash is taken and its receipt awaited', async () => {
    const hash = `0x${'ab'.repeat(32)}`
    const output = await toPromise(createActor(withWallet(hash), { input: SWAP }).start())
    expect(output).toEqual({ status: 'mined', hash, receipt: { status: 'success', blockNumber: '1' } })
  })

  it("a wallet that confirms itself answers its own namespace's signature (Solana's base58): not checked as a hash", async () => {
    const signature =
      '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
    const output = await toPromise(
      createActor(withWallet(signature), {
        input: {
          chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
          request: REQUEST,
          rules: { holdsNonce: false, confirmedByWallet: true },
        },
      }).start(),
    )
    expect(output).toEqual({ status: 'mined', hash: signature, receipt: undefined })
  })
})
