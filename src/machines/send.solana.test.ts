import { describe, expect, it } from 'vitest'
import { SEND_REQUEST_TIMEOUT_MS } from '../constants'
import {
  SolanaInsufficientFundsError,
  SolanaRpcUnavailableError,
  SolanaUserRejectedError,
} from '../errors/solana'
import {
  type FeeEstimate,
  isNativeToken,
  isSolanaAddress,
  isSolanaToken,
  routeAfterSend,
  type SendNotice,
  solanaMint,
  type TokenBalance,
  validateSend,
} from './send'
import { BOB, ETH, flush, harness } from './send/harness'

// Solana (issue 17): SOL and SPL through the same flow, signed by the kit's Solana sender.
const SOLANA_CHAIN = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const ALICE_SOL = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const BOB_SOL = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW'
const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
const SOLANA_SENDER = {
  namespace: 'solana',
  address: ALICE_SOL,
  addresses: [ALICE_SOL],
  chainId: SOLANA_CHAIN,
  connectorId: 'solana:walletstate-solana-dev-wallet',
} as const
const SOL: TokenBalance = {
  name: 'Solana',
  symbol: 'SOL',
  chainId: SOLANA_CHAIN,
  value: 150,
  price: 150,
  quantity: { decimals: '9', numeric: '1' },
}
const USDC_SPL: TokenBalance = {
  name: 'USD Coin',
  symbol: 'USDC',
  chainId: SOLANA_CHAIN,
  address: `${SOLANA_CHAIN}:${MINT}`,
  value: 100,
  price: 1,
  quantity: { decimals: '6', numeric: '100' },
}
/** One signature. */
const SOL_FEE: FeeEstimate = { gas: '1', fee: '5000', formatted: '0.000005', symbol: 'SOL', decimals: 9 }
/** One signature and the recipient's new token account. */
const SPL_FEE: FeeEstimate = {
  gas: '1',
  fee: '2044280',
  rent: '2039280',
  formatted: '0.00204428',
  symbol: 'SOL',
  decimals: 9,
}
const solanaHarness = () => harness({ tokenBalances: [SOL, USDC_SPL], sender: SOLANA_SENDER })
/** 0.5 SOL to Bob, previewed with its fee. */
async function solReady() {
  const t = solanaHarness()
  t.send(
    { type: 'send.setToken', token: SOL },
    { type: 'send.setAmount', amount: '0.5' },
    { type: 'send.setReceiver', receiverAddress: BOB_SOL },
    { type: 'send.preview' },
  )
  t.calls.estimateSolanaFee[0]!.resolve(SOL_FEE)
  await flush()
  return t
}
const noEip155Calls = (t: ReturnType<typeof harness>) => {
  for (const slot of ['resolveName', 'estimateFee', 'sendNative', 'sendErc20', 'waitForReceipt'] as const)
    expect(t.calls[slot], slot).toHaveLength(0)
}

describe('send machine: Solana', () => {
  it('sends SOL: the fee from estimateSolanaFee, one sendSolana that confirms, then done and back to Account', async () => {
    const t = solanaHarness()
    t.send(
      { type: 'send.setToken', token: SOL },
      { type: 'send.setAmount', amount: '0.5' },
      { type: 'send.setReceiver', receiverAddress: ` ${BOB_SOL} ` },
      { type: 'send.preview' },
    )
    expect(t.snapshot().value).toEqual({ previewing: { estimating: 'solana' } })
    expect(t.snapshot().hasTag('busy')).toBe(true)
    const request = {
      chainId: SOLANA_CHAIN,
      from: ALICE_SOL,
      connectorId: SOLANA_SENDER.connectorId,
      to: BOB_SOL,
      amount: 500_000_000n,
      decimals: 9,
    }
    expect(t.calls.estimateSolanaFee[0]!.input).toEqual(request)
    t.calls.estimateSolanaFee[0]!.resolve(SOL_FEE)
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: 'ready' })
    expect(t.context().fee).toEqual(SOL_FEE)

    t.send({ type: 'send.confirm' })
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('solana')
    expect(t.snapshot().hasTag('loading')).toBe(true)
    expect(t.calls.sendSolana[0]!.input).toEqual({ ...request, fee: SOL_FEE })
    t.calls.sendSolana[0]!.resolve(SIGNATURE)
    await flush()
    expect(t.snapshot().value).toBe('done')
    // No receipt to wait for: sendSolana answered once 'confirmed'. No send.submitted (no eip155 hash).
    expect(t.notices).toEqual([
      { type: 'send.previewing' },
      {
        type: 'send.succeeded',
        hash: SIGNATURE,
        chainId: SOLANA_CHAIN,
        namespace: 'solana',
        native: true,
        symbol: 'SOL',
        amount: '0.5',
        to: BOB_SOL,
      },
    ])
    // SPEC §2: after a Solana send, SOL included, the modal returns to Account.
    expect(routeAfterSend(t.notices[1] as Extract<SendNotice, { type: 'send.succeeded' }>)).toEqual({
      type: 'router.replace',
      view: 'Account',
    })
    expect(t.context()).toMatchObject({ token: undefined, sendTokenAmount: undefined, hash: SIGNATURE })
    expect(t.context().sender).toEqual(SOLANA_SENDER)
    noEip155Calls(t)
  })

  it('sends an SPL token by its mint and decimals; the fee includes the new token account', async () => {
    const t = solanaHarness()
    t.send(
      { type: 'send.setToken', token: USDC_SPL },
      { type: 'send.setAmount', amount: '10' },
      { type: 'send.setReceiver', receiverAddress: BOB_SOL },
      { type: 'send.preview' },
    )
    expect(t.calls.estimateSolanaFee[0]!.input).toMatchObject({
      mint: MINT,
      amount: 10_000_000n,
      decimals: 6,
    })
    t.calls.estimateSolanaFee[0]!.resolve(SPL_FEE)
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: 'ready' })
    t.send({ type: 'send.confirm' })
    expect(t.calls.sendSolana[0]!.input).toMatchObject({ mint: MINT, to: BOB_SOL, amount: 10_000_000n })
    t.calls.sendSolana[0]!.resolve(SIGNATURE)
    await flush()
    const succeeded = t.notices.at(-1) as Extract<SendNotice, { type: 'send.succeeded' }>
    expect(succeeded).toMatchObject({ namespace: 'solana', native: false, symbol: 'USDC', amount: '10' })
    expect(routeAfterSend(succeeded)).toEqual({ type: 'router.replace', view: 'Account' })
    noEip155Calls(t)
  })

  it('takes only a base58 public key as receiver: a name says names are EVM-only, nothing is resolved', () => {
    const t = solanaHarness()
    const previewError = (receiverAddress: string) => {
      t.send({ type: 'send.setReceiver', receiverAddress }, { type: 'send.preview' })
      return t.context().error
    }
    t.send({ type: 'send.setToken', token: SOL }, { type: 'send.setAmount', amount: '0.1' })
    expect(previewError('bob.reown.id')).toEqual({
      name: 'NameOnSolanaError',
      message: 'Invalid address: names work on EVM networks only',
    })
    expect(previewError(BOB)).toEqual({ name: 'InvalidReceiverError', message: 'Invalid address' })
    // 31 bytes of base58, and a character outside the alphabet.
    expect(previewError('1111111111111111111111111111111')?.message).toBe('Invalid address')
    expect(previewError(`${BOB_SOL.slice(0, -1)}0`)?.message).toBe('Invalid address')
    expect(t.snapshot().value).toBe('editing')
    expect(previewError(BOB_SOL)).toBeUndefined()
    expect(t.snapshot().value).toEqual({ previewing: { estimating: 'solana' } })
    expect(t.context().resolvedAddress).toBe(BOB_SOL)
    expect(t.calls.resolveName).toHaveLength(0)
  })

  it('a wallet that never answers: past the time limit the send fails (no nonce to watch), the alert raised', async () => {
    const t = await solReady()
    t.send({ type: 'send.confirm' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS - 1)
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    t.clock.increment(1)
    expect(t.snapshot().value).toEqual({ failed: 'retryable' })
    expect(t.calls.sendSolana[0]!.signal.aborted).toBe(true)
    expect(t.context()).toMatchObject({
      error: { name: 'SendTimeoutError' },
      hash: undefined,
      loading: false,
    })
    expect(t.notices.slice(-2)).toEqual([
      { type: 'request.timedOut', request: 'send' },
      { type: 'send.failed', error: expect.objectContaining({ name: 'SendTimeoutError' }), hash: undefined },
    ])
    // Nothing is read from the chain for a Solana send.
    expect(t.reads.readNonce).toEqual([])
    expect(t.calls.checkNonce).toEqual([])
  })

  it('a declined prompt fails as a declined EVM send does, the form kept for another try or an edit', async () => {
    const t = await solReady()
    t.send({ type: 'send.confirm' })
    t.calls.sendSolana[0]!.reject(new SolanaUserRejectedError())
    await flush()
    expect(t.snapshot().value).toEqual({ failed: 'retryable' })
    expect(t.context().error).toEqual({
      name: 'TransactionRejectedError',
      message: 'Transaction declined in the wallet.',
      code: 4001,
    })
    expect(t.notices.at(-1)).toMatchObject({
      type: 'send.failed',
      error: { name: 'TransactionRejectedError' },
    })
    expect(t.context()).toMatchObject({ sendTokenAmount: '0.5', receiverAddress: BOB_SOL, token: SOL })
    t.send({ type: 'send.retry' })
    expect(t.snapshot().value).toEqual({ transaction: 'sending' })
    expect(t.wallet()).toBe('solana')
    t.calls.sendSolana[1]!.reject(new SolanaUserRejectedError())
    await flush()
    t.send({ type: 'send.edit' })
    expect(t.snapshot().value).toBe('editing')
    expect(t.context()).toMatchObject({ sendTokenAmount: '0.5', receiverAddress: BOB_SOL, error: undefined })
  })

  it("keeps a Solana error's own message where the send flow has no text of its own", async () => {
    const t = solanaHarness()
    t.send(
      { type: 'send.setToken', token: USDC_SPL },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: BOB_SOL },
      { type: 'send.preview' },
    )
    t.calls.estimateSolanaFee[0]!.reject(new SolanaRpcUnavailableError())
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: 'unavailable' })
    expect(t.context().error).toEqual({
      name: 'SolanaRpcUnavailableError',
      message: 'The Solana network is unavailable. Try again later.',
    })
    t.send({ type: 'send.retry' })
    t.calls.estimateSolanaFee[1]!.resolve(SPL_FEE)
    await flush()
    t.send({ type: 'send.confirm' })
    t.calls.sendSolana[0]!.reject(new SolanaInsufficientFundsError())
    await flush()
    expect(t.context().error).toEqual({ name: 'InsufficientBalanceError', message: 'Insufficient funds' })
  })

  it('SOL: the amount and the fee must fit the balance; Max leaves the fee', async () => {
    const t = solanaHarness()
    t.send(
      { type: 'send.setToken', token: SOL },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: BOB_SOL },
      { type: 'send.preview' },
    )
    t.calls.estimateSolanaFee[0]!.resolve(SOL_FEE)
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: 'unavailable' })
    expect(t.context().error?.name).toBe('InsufficientFeeFundsError')
    t.send({ type: 'send.edit' }, { type: 'send.setMax' })
    expect(t.context().sendTokenAmount).toBe('0.999995')
    expect(validateSend({ ...t.context(), sendTokenAmount: '1.000000001' })?.shortMessage).toBe(
      'Insufficient funds',
    )
  })

  it("follows the kit's sender (send.setSender) in every state", () => {
    const t = harness()
    expect(t.context().sender).toBeUndefined()
    t.send({ type: 'send.setSender', sender: SOLANA_SENDER })
    expect(t.context().sender).toEqual(SOLANA_SENDER)
    t.send({ type: 'send.setSender', sender: undefined })
    expect(t.context().sender).toBeUndefined()
  })

  it('reads Solana tokens and addresses', () => {
    expect(isSolanaToken(SOL)).toBe(true)
    expect(isSolanaToken(ETH)).toBe(false)
    expect(isNativeToken(SOL)).toBe(true)
    expect(solanaMint(USDC_SPL)).toBe(MINT)
    expect(solanaMint({ address: MINT })).toBe(MINT)
    expect(solanaMint(SOL)).toBeUndefined()
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true)
    expect(isSolanaAddress(BOB_SOL)).toBe(true)
    for (const bad of ['1111111111111111111111111111111', BOB, 'bob.sol', `${BOB_SOL}1`, `${BOB_SOL}I`, ''])
      expect(isSolanaAddress(bad), bad).toBe(false)
    expect(
      validateSend({
        token: { ...USDC_SPL, address: `${SOLANA_CHAIN}:0x12` },
        sendTokenAmount: '1',
        receiverAddress: BOB_SOL,
      })?.shortMessage,
    ).toBe('Invalid token')
  })
})
