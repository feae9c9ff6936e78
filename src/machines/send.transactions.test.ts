import { type Address, parseEther, UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { PENDING_TX_POLLING_MS, SEND_REQUEST_TIMEOUT_MS, TX_RECEIPT_TIMEOUT_MS } from '../constants'
import { routeAfterSend, type SendNotice, sendMachine } from './send'
import {
  BOB,
  BOB_CHECKSUMMED,
  ETH,
  FEE,
  flush,
  HASH,
  harness,
  NONCE,
  SENDER,
  STK,
  STK_ADDRESS,
  toReady,
  toWaiting,
  USDT,
  USDT_ADDRESS,
} from './send/harness'

describe('send machine: sending and confirming', () => {
  it('a native send: loading on, the wallet asked with the fee shown, receipt awaited, send state reset', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('native')
    expect(t.context().loading).toBe(true)
    expect(t.snapshot().hasTag('loading')).toBe(true)
    // A reset (the kit's, on disconnect) abandons the request: issue 13 item 2.
    expect(t.snapshot().can({ type: 'send.reset' })).toBe(true)
    expect(t.calls.sendErc20).toHaveLength(0)
    expect(t.calls.sendNative[0]!.input).toEqual({
      chainId: 31337,
      to: BOB_CHECKSUMMED,
      amount: parseEther('0.01'),
      fee: FEE,
      // The account's nonce, read just before (one payment, one transaction).
      nonce: NONCE,
    })
    expect(t.reads.readNonce).toEqual([{ chainId: 31337 }])
    t.calls.sendNative[0]!.resolve(HASH)
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'waiting' })
    expect(t.context()).toMatchObject({ loading: true, hash: HASH })
    expect(t.notices).toEqual([
      { type: 'send.previewing' },
      { type: 'send.submitted', hash: HASH, chainId: 31337 },
    ])
    expect(t.calls.waitForReceipt[0]!.input).toEqual({ hash: HASH, chainId: 31337, timeoutMs: 25_000 })
    t.calls.waitForReceipt[0]!.resolve({ status: 'success', blockNumber: '7' })
    await flush()
    expect(t.snapshot().value).toBe('done')
    const succeeded = t.notices[2]
    expect(succeeded).toEqual({
      type: 'send.succeeded',
      hash: HASH,
      chainId: 31337,
      namespace: 'eip155',
      native: true,
      symbol: 'ETH',
      amount: '0.01',
      to: BOB_CHECKSUMMED,
    })
    // SPEC §2: a native send goes back without naming a view.
    expect(routeAfterSend(succeeded as Extract<SendNotice, { type: 'send.succeeded' }>)).toEqual({
      type: 'router.back',
    })
    // SPEC §4: then the send state is reset; the hash stays for the success view.
    expect(t.context()).toMatchObject({
      token: undefined,
      sendTokenAmount: undefined,
      receiverAddress: undefined,
      resolvedAddress: undefined,
      fee: undefined,
      loading: false,
      error: undefined,
      hash: HASH,
      tokenBalances: [ETH, STK, USDT],
    })
    expect(t.snapshot().hasTag('loading')).toBe(false)
  })

  it('an ERC-20 send goes through sendErc20 with the contract, and returns to Account', async () => {
    const t = harness()
    await toWaiting(t, USDT, '1.5')
    expect(t.calls.sendNative).toHaveLength(0)
    expect(t.calls.sendErc20[0]!.input).toEqual({
      chainId: 31337,
      to: BOB_CHECKSUMMED,
      amount: 1_500_000n,
      token: USDT_ADDRESS,
      fee: FEE,
      nonce: NONCE,
    })
    // The contract was read before the preview: its decimals scale the amount.
    expect(t.reads.readTokenMetadata).toEqual([{ chainId: 31337, address: USDT_ADDRESS }])
    t.calls.waitForReceipt[0]!.resolve({ status: 'success', blockNumber: '8' })
    await flush()
    const succeeded = t.notices.at(-1) as Extract<SendNotice, { type: 'send.succeeded' }>
    expect(succeeded).toMatchObject({ type: 'send.succeeded', native: false, symbol: 'USDT', amount: '1.5' })
    expect(routeAfterSend(succeeded)).toEqual({ type: 'router.replace', view: 'Account' })
  })

  it('declined in the wallet: a clear error, the form keeps its values; retry asks again, edit returns', async () => {
    const t = harness()
    await toReady(t, STK, '1.5')
    t.send({ type: 'send.confirm' })
    t.calls.sendErc20[0]!.reject(new UserRejectedRequestError(new Error('User rejected the request.')))
    await flush()
    expect(t.snapshot().value).toEqual({ failed: 'retryable' })
    expect(t.snapshot().hasTag('failed')).toBe(true)
    expect(t.context()).toMatchObject({
      error: { name: 'TransactionRejectedError', message: 'Transaction declined in the wallet.', code: 4001 },
      token: STK,
      sendTokenAmount: '1.5',
      receiverAddress: BOB,
      resolvedAddress: BOB_CHECKSUMMED,
      fee: FEE,
      loading: false,
      hash: undefined,
    })
    expect(t.notices).toEqual([
      { type: 'send.previewing' },
      {
        type: 'send.failed',
        error: {
          name: 'TransactionRejectedError',
          message: 'Transaction declined in the wallet.',
          code: 4001,
        },
        hash: undefined,
      },
    ])
    t.send({ type: 'send.retry' })
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('erc20')
    expect(t.context().error).toBeUndefined()
    expect(t.calls.sendErc20).toHaveLength(2)
    expect(t.calls.sendErc20[1]!.input).toEqual(t.calls.sendErc20[0]!.input)
    t.calls.sendErc20[1]!.reject(new Error('boom'))
    await flush()
    expect(t.context().error?.message).toBe('Failed to send the transaction.')
    t.send({ type: 'send.edit' })
    expect(t.snapshot().value).toBe('editing')
    expect(t.context()).toMatchObject({
      token: STK,
      sendTokenAmount: '1.5',
      receiverAddress: BOB,
      error: undefined,
    })
  })

  it('a reverted receipt fails the send, with the hash to look it up', async () => {
    const t = harness()
    await toWaiting(t, STK, '1')
    t.calls.waitForReceipt[0]!.resolve({ status: 'reverted', blockNumber: '9' })
    await flush()
    expect(t.snapshot().value).toEqual({ failed: 'retryable' })
    expect(t.context()).toMatchObject({
      error: { name: 'TransactionRevertedError', message: 'The transaction failed.' },
      hash: HASH,
      sendTokenAmount: '1',
    })
    expect(t.notices.at(-1)).toMatchObject({ type: 'send.failed', hash: HASH })
  })

  it('no receipt in 25 s (SPEC §9): the wait stops and polling starts, not a moment earlier', async () => {
    const t = harness()
    await toWaiting(t, ETH, '0.01')
    t.clock.increment(TX_RECEIPT_TIMEOUT_MS - 1)
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'waiting' })
    t.clock.increment(1)
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'polling' })
    expect(t.calls.waitForReceipt[0]!.signal.aborted).toBe(true)
    expect(t.calls.pollReceipt[0]!.input).toEqual({ hash: HASH, chainId: 31337 })
    expect(t.context().loading).toBe(true)
    t.calls.pollReceipt[0]!.resolve({ status: 'success', blockNumber: '12' })
    await flush()
    expect(t.snapshot().value).toBe('done')
    expect(t.notices.at(-1)).toMatchObject({ type: 'send.succeeded', hash: HASH })
  })

  it('a wait that fails (its own timeout, a dropped connection) polls too: never a second send', async () => {
    const t = harness()
    await toWaiting(t, ETH, '0.01')
    t.calls.waitForReceipt[0]!.reject(new Error('Timed out while waiting for transaction'))
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'polling' })
    expect(t.calls.sendNative).toHaveLength(1)
    t.calls.pollReceipt[0]!.resolve({ status: 'reverted', blockNumber: '12' })
    await flush()
    expect(t.snapshot().value).toEqual({ failed: 'retryable' })
  })

  it('after 30 s of polling (SPEC §9) the send is unconfirmed; retry polls again, reset leaves it', async () => {
    const t = harness()
    await toWaiting(t, ETH, '0.01')
    t.clock.increment(TX_RECEIPT_TIMEOUT_MS)
    t.clock.increment(PENDING_TX_POLLING_MS - 1)
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'polling' })
    t.clock.increment(1)
    expect(t.snapshot().value).toEqual({ failed: 'unconfirmed' })
    expect(t.calls.pollReceipt[0]!.signal.aborted).toBe(true)
    expect(t.context()).toMatchObject({
      error: { name: 'TransactionPendingError', message: 'The transaction is still pending.' },
      hash: HASH,
      loading: false,
      sendTokenAmount: '0.01',
    })
    expect(t.notices.at(-1)).toMatchObject({ type: 'send.failed', hash: HASH })
    // Editing and sending again could pay twice: not offered.
    expect(t.snapshot().can({ type: 'send.edit' })).toBe(false)
    t.send({ type: 'send.retry' })
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'polling' })
    expect(t.calls.sendNative).toHaveLength(1)
    expect(t.calls.pollReceipt).toHaveLength(2)
    t.clock.increment(PENDING_TX_POLLING_MS)
    expect(t.snapshot().value).toEqual({ failed: 'unconfirmed' })
    t.send({ type: 'send.reset' })
    expect(t.snapshot().value).toBe('editing')
    expect(t.context()).toMatchObject({ sendTokenAmount: undefined, hash: undefined, error: undefined })
  })

  it('done: a new token or a reset starts a new send', async () => {
    const t = harness()
    await toWaiting(t, STK, '1')
    t.calls.waitForReceipt[0]!.resolve({ status: 'success', blockNumber: '3' })
    await flush()
    expect(t.snapshot().can({ type: 'send.setAmount', amount: '1' })).toBe(false)
    t.send({ type: 'send.setToken', token: USDT })
    expect(t.snapshot().value).toBe('editing')
    expect(t.context()).toMatchObject({ token: USDT, hash: undefined })
  })

  it('nothing is sent, and nothing reset, while a transaction is in flight', async () => {
    const t = harness()
    await toReady(t, STK, '1')
    t.send({ type: 'send.confirm' })
    for (const event of [
      { type: 'send.edit' },
      { type: 'send.confirm' },
      { type: 'send.setAmount', amount: '2' },
    ] as const) {
      expect(t.snapshot().can(event), event.type).toBe(false)
    }
    t.calls.sendErc20[0]!.resolve(HASH)
    await flush()
    expect(t.snapshot().can({ type: 'send.reset' })).toBe(false)
    expect(t.snapshot().can({ type: 'send.retry' })).toBe(false)
  })

  // One payment, one transaction: the old chart failed the send at the time limit and "Try again" sent a
  // second request with a nonce of its own, so two live wallet requests could both be mined.
  it('a wallet that never answers: past SEND_REQUEST_TIMEOUT_MS the chain is asked before anything is offered', async () => {
    const t = harness()
    await toReady(t, STK, '1.5')
    t.send({ type: 'send.confirm' })
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('erc20')
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS - 1)
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('erc20')
    t.clock.increment(1)
    expect(t.snapshot().value).toEqual({ transaction: { overdue: 'checking' } })
    // The wallet's request is left: its actor stopped, its signal aborted.
    expect(t.calls.sendErc20[0]!.signal.aborted).toBe(true)
    expect(t.context()).toMatchObject({
      error: {
        name: 'SendTimeoutError',
        message: 'The wallet did not answer in time. Check its activity before sending again.',
      },
      token: STK,
      sendTokenAmount: '1.5',
      resolvedAddress: BOB_CHECKSUMMED,
      loading: false,
      hash: undefined,
    })
    // The payment's transaction holds the nonce of the request left to the wallet.
    expect(t.transaction()?.context).toMatchObject({
      chainId: 31337,
      nonce: { from: SENDER, nonce: NONCE, fromBlock: '100', abandoned: true },
    })
    // Not offered before the chain was looked at.
    expect(t.snapshot().can({ type: 'send.retry' })).toBe(false)
    expect(t.snapshot().can({ type: 'send.edit' })).toBe(false)
    expect(t.calls.checkNonce[0]!.input).toEqual({
      chainId: 31337,
      from: SENDER,
      nonce: NONCE,
      fromBlock: '100',
      request: { chainId: 31337, to: BOB_CHECKSUMMED, amount: parseEther('1.5'), token: STK_ADDRESS },
    })
    // The kit's alert; the payment is not reported failed (it may still go through).
    expect(t.notices.slice(1)).toEqual([{ type: 'request.timedOut', request: 'send' }])
    // A hash the wallet sends after the time limit is not taken from it: only the chain's word counts.
    t.calls.sendErc20[0]!.resolve(HASH)
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: { overdue: 'checking' } })
    expect(t.notices.map((n) => n.type)).not.toContain('send.submitted')
  })

  it('"Send again" after the time limit asks for the same nonce, and the chain stays watched meanwhile', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    t.calls.checkNonce[0]!.resolve({ status: 'open' })
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: { overdue: 'open' } })
    expect(t.context().error?.name).toBe('SendStillOpenError')
    expect(t.calls.watchNonce).toHaveLength(1)
    expect(t.snapshot().can({ type: 'send.retry' })).toBe(true)
    t.send({ type: 'send.retry' })
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('native')
    expect(t.calls.watchNonce[0]!.signal.aborted).toBe(true)
    // The same transaction slot as the first request: at most one of the two can be mined.
    expect(t.calls.sendNative.map((c) => c.input.nonce)).toEqual([NONCE, NONCE])
    expect(t.reads.readNonce).toHaveLength(1)
    // The time limit is per request: the second one gets its full time.
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS - 1)
    t.calls.sendNative[1]!.resolve(HASH)
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'waiting' })
    // Its transaction is known: the nonce is let go, the next payment reads its own.
    expect(t.transaction()?.context.nonce).toBeUndefined()
  })

  it('the first request mined while overdue: its hash is the payment, its receipt awaited, nothing sent again', async () => {
    const t = harness()
    await toReady(t, STK, '1.5')
    t.send({ type: 'send.confirm' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    t.calls.checkNonce[0]!.resolve({ status: 'open' })
    await flush()
    t.calls.watchNonce[0]!.resolve({ status: 'mined', hash: HASH })
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'waiting' })
    expect(t.context()).toMatchObject({ hash: HASH })
    expect(t.transaction()?.context.nonce).toBeUndefined()
    expect(t.notices.at(-1)).toEqual({ type: 'send.submitted', hash: HASH, chainId: 31337 })
    t.calls.waitForReceipt[0]!.resolve({ status: 'success', blockNumber: '9' })
    await flush()
    expect(t.snapshot().value).toBe('done')
    expect(t.calls.sendErc20).toHaveLength(1)
  })

  it('the request sent again fails (nonce used) while the first went through: the chain names the payment', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    t.calls.checkNonce[0]!.resolve({ status: 'open' })
    await flush()
    t.send({ type: 'send.retry' })
    t.calls.sendNative[1]!.reject(new Error('nonce too low'))
    await flush()
    // Not "failed, try again": the earlier request may be the one that was mined.
    expect(t.snapshot().value).toEqual({ transaction: { overdue: 'checking' } })
    t.calls.checkNonce[1]!.resolve({ status: 'mined', hash: HASH })
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.transaction()?.value).toEqual({ confirming: 'waiting' })
    expect(t.context().hash).toBe(HASH)
  })

  it('SPEC §5 transaction hash 0x plus 64 hex characters: a wallet answering another is never shown or stored; the chain is asked about the nonce, never "try again"', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    // The test wallet answers 62 hex characters: not a transaction hash.
    t.calls.sendNative[0]!.resolve(`0x${'ab'.repeat(31)}` as typeof HASH)
    await flush()
    // It may have sent a transaction with the payment's nonce all the same: the chain tells, nothing is offered.
    expect(t.snapshot().value).toEqual({ transaction: { overdue: 'checking' } })
    expect(t.snapshot().can({ type: 'send.retry' })).toBe(false)
    expect(t.context()).toMatchObject({
      hash: undefined,
      error: { name: 'InvalidTransactionHashError', message: 'Invalid transaction hash' },
    })
    expect(t.notices.map((n) => n.type)).not.toContain('send.submitted')
    expect(t.calls.waitForReceipt).toHaveLength(0)
    expect(t.transaction()?.context.hash).toBeUndefined()
    expect(t.transaction()?.context.nonce).toMatchObject({ nonce: NONCE, abandoned: true })
    expect(t.calls.checkNonce[0]!.input).toMatchObject({ from: SENDER, nonce: NONCE })
    // The chain names the payment's transaction: its receipt is awaited under the chain's hash.
    t.calls.checkNonce[0]!.resolve({ status: 'mined', hash: HASH })
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.context().hash).toBe(HASH)
    expect(t.calls.sendNative).toHaveLength(1)
  })

  it('SPEC §5 transaction hash: a well-formed one (0x plus 64 hex characters, any case) is taken as is', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    const upper = `0x${'AB'.repeat(32)}` as typeof HASH
    t.calls.sendNative[0]!.resolve(upper)
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
    expect(t.context().hash).toBe(upper)
  })

  it('another transaction took the nonce: said, and "Send again" reads a new one', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    t.calls.checkNonce[0]!.resolve({ status: 'taken' })
    await flush()
    expect(t.snapshot().value).toEqual({ transaction: { overdue: 'taken' } })
    expect(t.context()).toMatchObject({ error: { name: 'SendNonceTakenError' } })
    expect(t.transaction()?.context.nonce).toBeUndefined()
    t.send({ type: 'send.retry' })
    expect(t.reads.readNonce).toHaveLength(2)
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('native')
  })

  it('another account connected meanwhile: "Send again" reads that account’s nonce', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    t.calls.checkNonce[0]!.resolve({ status: 'open' })
    await flush()
    const other = BOB_CHECKSUMMED as Address
    t.send({
      type: 'send.setSender',
      sender: { address: other, addresses: [other], chainId: 31337, connectorId: 'injected' },
    })
    t.send({ type: 'send.retry' })
    expect(t.reads.readNonce).toHaveLength(2)
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('native')
  })

  it('a declined request leaves nothing open: the nonce is let go, a retry reads it again', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.calls.sendNative[0]!.reject(new UserRejectedRequestError(new Error('User rejected the request.')))
    await flush()
    expect(t.snapshot().value).toEqual({ failed: 'retryable' })
    expect(t.transaction()?.context.nonce).toBeUndefined()
    t.send({ type: 'send.retry' })
    expect(t.reads.readNonce).toHaveLength(2)
  })

  it('send.reset while the wallet is asked (a disconnect): the request is abandoned and the form reset', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.send({ type: 'send.reset' })
    expect(t.snapshot().value).toBe('editing')
    expect(t.calls.sendNative[0]!.signal.aborted).toBe(true)
    expect(t.context()).toMatchObject({ token: undefined, sendTokenAmount: undefined, loading: false })
    expect(t.context().tokenBalances).toHaveLength(3)
    // Its late answer changes nothing.
    t.calls.sendNative[0]!.resolve(HASH)
    await flush()
    expect(t.snapshot().value).toBe('editing')
    expect(t.context().hash).toBeUndefined()
  })

  it('without provided slots a step fails as the visitor sees it; the actor itself does not fail', async () => {
    const actor = createActor(sendMachine, { input: {} })
    const errors: unknown[] = []
    actor.subscribe({ error: (error) => errors.push(error) })
    actor.start()
    actor.send({ type: 'send.setToken', token: STK })
    actor.send({ type: 'send.setAmount', amount: '1' })
    actor.send({ type: 'send.setReceiver', receiverAddress: BOB })
    actor.send({ type: 'send.preview' })
    await flush()
    // An ERC-20's contract is read first: without the slot, the form says the token could not be read.
    expect(actor.getSnapshot().value).toBe('editing')
    expect(actor.getSnapshot().context.error?.name).toBe('TokenMetadataUnavailableError')
    actor.send({ type: 'send.setToken', token: ETH })
    actor.send({ type: 'send.preview' })
    await flush()
    expect(actor.getSnapshot().value).toEqual({ previewing: 'unavailable' })
    expect(errors).toEqual([])
    actor.stop()
  })
})
