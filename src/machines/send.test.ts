import { type Address, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import {
  feeInUsd,
  hasWrongChecksum,
  isNativeToken,
  parseAmount,
  type TokenBalance,
  type TokenOnChain,
  tokenContract,
  validateSend,
} from './send'
import {
  BOB,
  BOB_CHECKSUMMED,
  BTC,
  CHAIN,
  ETH,
  FEE,
  flush,
  harness,
  STK,
  STK_ADDRESS,
  toReady,
  toWaiting,
  USDT,
  USDT_ADDRESS,
} from './send/harness'

describe('send machine: the form', () => {
  it('starts editing an empty form, with the balances it was given (decimals 0 dropped, SPEC §5)', () => {
    const nft = { ...STK, symbol: 'PUNK', quantity: { decimals: '0', numeric: '3' } }
    const t = harness({ tokenBalances: [ETH, nft, STK] })
    expect(t.snapshot().value).toBe('editing')
    expect(t.context()).toMatchObject({
      token: undefined,
      sendTokenAmount: undefined,
      receiverAddress: undefined,
      receiverProfileName: undefined,
      receiverProfileImageUrl: undefined,
      loading: false,
      tokenBalances: [ETH, STK],
      networkBalanceInUsd: '6000',
      fee: undefined,
      error: undefined,
      hash: undefined,
    })
  })

  it('takes a token given as input', () => {
    const t = harness({ tokenBalances: [ETH, STK], token: STK })
    expect(t.context().token).toEqual(STK)
  })

  it('keeps what is typed, as typed', () => {
    const t = harness()
    t.send(
      { type: 'send.setToken', token: STK },
      { type: 'send.setAmount', amount: ' 1.5' },
      { type: 'send.setReceiver', receiverAddress: BOB },
    )
    expect(t.context()).toMatchObject({ token: STK, sendTokenAmount: ' 1.5', receiverAddress: BOB })
  })

  it('shows the SPEC §5 texts in order when previewing an incomplete form, and calls nothing', () => {
    const t = harness()
    const previewError = () => {
      t.send({ type: 'send.preview' })
      expect(t.snapshot().value).toBe('editing')
      return t.context().error?.message
    }
    expect(previewError()).toBe('An amount and receiver address are required')
    t.send({ type: 'send.setAmount', amount: '1' })
    expect(t.context().error).toBeUndefined()
    expect(previewError()).toBe('An amount and receiver address are required')
    t.send({ type: 'send.setReceiver', receiverAddress: BOB })
    expect(previewError()).toBe('A token is required')
    t.send({ type: 'send.setToken', token: BTC })
    expect(previewError()).toBe('Unsupported chain')
    t.send({ type: 'send.setToken', token: USDT }, { type: 'send.setAmount', amount: '1.0000001' })
    expect(previewError()).toBe('Invalid amount')
    t.send({ type: 'send.setAmount', amount: '10000.000001' })
    expect(previewError()).toBe('Insufficient funds')
    t.send({ type: 'send.setAmount', amount: '10000' }, { type: 'send.setReceiver', receiverAddress: 'bob' })
    expect(previewError()).toBe('Invalid address')
    expect(t.context().error).toEqual({ name: 'InvalidReceiverError', message: 'Invalid address' })
    for (const list of Object.values(t.calls)) expect(list).toHaveLength(0)
  })

  it('modal shake (SPEC §2): an invalid amount, or any form refused on review, is told; a valid one is not', () => {
    const t = harness()
    const refusals = () => t.notices.filter((n) => n.type === 'send.refused').length
    t.send(
      { type: 'send.setToken', token: USDT },
      { type: 'send.setReceiver', receiverAddress: BOB },
      { type: 'send.setAmount', amount: '1.0000001' },
      { type: 'send.preview' },
    )
    expect(t.context().error?.message).toBe('Invalid amount')
    expect(refusals()).toBe(1)
    t.send({ type: 'send.setAmount', amount: '1' }, { type: 'send.preview' })
    expect(t.snapshot().value).not.toBe('editing')
    expect(refusals()).toBe(1)
  })

  it('send.setMax fills the balance; for the native currency less the last fee estimate', async () => {
    const t = harness()
    expect(t.snapshot().can({ type: 'send.setMax' })).toBe(false)
    t.send({ type: 'send.setToken', token: USDT }, { type: 'send.setMax' })
    expect(t.context().sendTokenAmount).toBe('10000')
    t.send({ type: 'send.setToken', token: ETH }, { type: 'send.setMax' })
    // No estimate yet for ETH: the whole balance, which the preview then finds too much to pay a fee on.
    expect(t.context().sendTokenAmount).toBe('2')
    t.send({ type: 'send.setReceiver', receiverAddress: BOB }, { type: 'send.preview' })
    t.calls.estimateFee[0]!.resolve(FEE)
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: 'unavailable' })
    expect(t.context().error?.message).toBe('Insufficient funds for the network fee')
    t.send({ type: 'send.edit' }, { type: 'send.setMax' })
    expect(t.context().sendTokenAmount).toBe('1.999958')
    t.send({ type: 'send.preview' })
    t.calls.estimateFee[1]!.resolve(FEE)
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: 'ready' })
    // Another token: the ETH fee no longer applies.
    t.send({ type: 'send.edit' }, { type: 'send.setToken', token: STK })
    expect(t.context().fee).toBeUndefined()
  })

  it('follows fresh balances in every state: the selected token, the network balance in USD', async () => {
    const t = harness()
    t.send({ type: 'send.setToken', token: STK })
    const richer = { ...STK, value: 4000, quantity: { decimals: '18', numeric: '2000' } }
    const ethLater = { ...ETH, value: 3000, quantity: { decimals: '18', numeric: '1' } }
    t.send({ type: 'send.setTokenBalances', tokenBalances: [ethLater, richer, USDT] })
    expect(t.context().token).toEqual(richer)
    expect(t.context().networkBalanceInUsd).toBe('3000')
    await toWaiting(t, richer, '1500')
    t.send({ type: 'send.setTokenBalances', tokenBalances: [ETH, STK] })
    expect(t.context().tokenBalances).toEqual([ETH, STK])
    expect(t.context().token).toEqual(STK)
    // A token no longer listed stays selected as it was.
    t.send({ type: 'send.setTokenBalances', tokenBalances: [ETH] })
    expect(t.context().token).toEqual(STK)
  })

  it('send.reset clears the form, keeps the balances', () => {
    const t = harness()
    t.send(
      { type: 'send.setToken', token: STK },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: BOB },
      { type: 'send.reset' },
    )
    expect(t.context()).toMatchObject({
      token: undefined,
      sendTokenAmount: undefined,
      receiverAddress: undefined,
      tokenBalances: [ETH, STK, USDT],
    })
  })
})

describe('send machine: receiver and preview', () => {
  it('an address goes straight to the fee estimate, with the form parsed', () => {
    const t = harness()
    t.send(
      { type: 'send.setToken', token: USDT },
      { type: 'send.setAmount', amount: '1.5' },
      { type: 'send.setReceiver', receiverAddress: ` ${BOB} ` },
      { type: 'send.preview' },
    )
    expect(t.snapshot().value).toEqual({ previewing: { estimating: 'eip155' } })
    expect(t.snapshot().hasTag('busy')).toBe(true)
    expect(t.calls.resolveName).toHaveLength(0)
    expect(t.calls.estimateFee[0]!.input).toEqual({
      chainId: 31337,
      to: BOB_CHECKSUMMED,
      amount: 1_500_000n,
      token: USDT_ADDRESS,
    })
    expect(t.context().resolvedAddress).toBe(BOB_CHECKSUMMED)
  })

  it('shows the fee once estimated; the native send has no token contract', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    expect(t.calls.estimateFee[0]!.input).toEqual({
      chainId: 31337,
      to: BOB_CHECKSUMMED,
      amount: parseEther('0.01'),
    })
    expect(t.context().fee).toEqual(FEE)
    expect(feeInUsd(t.context())).toBeCloseTo(0.126)
    expect(t.snapshot().hasTag('busy')).toBe(false)
  })

  it('a name is resolved first; its address and profile are kept', async () => {
    const t = harness()
    t.send(
      { type: 'send.setToken', token: STK },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: 'bob.reown.id' },
      { type: 'send.preview' },
    )
    expect(t.snapshot().value).toBe('resolving')
    expect(t.calls.resolveName[0]!.input).toEqual({ name: 'bob.reown.id' })
    t.calls.resolveName[0]!.resolve({
      address: BOB as Address,
      name: 'bob.reown.id',
      imageUrl: 'http://127.0.0.1/avatar/bob.png',
    })
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: { estimating: 'eip155' } })
    expect(t.context()).toMatchObject({
      receiverAddress: 'bob.reown.id',
      resolvedAddress: BOB_CHECKSUMMED,
      receiverProfileName: 'bob.reown.id',
      receiverProfileImageUrl: 'http://127.0.0.1/avatar/bob.png',
    })
    expect(t.calls.estimateFee[0]!.input.to).toBe(BOB_CHECKSUMMED)
    // A new receiver drops the old one's profile.
    t.send({ type: 'send.edit' }, { type: 'send.setReceiver', receiverAddress: BOB })
    expect(t.context()).toMatchObject({ resolvedAddress: undefined, receiverProfileName: undefined })
  })

  it('a name that does not resolve: back to the form with SPEC §8’s text, values kept', async () => {
    const t = harness()
    t.send(
      { type: 'send.setToken', token: STK },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: 'nobody.reown.id' },
      { type: 'send.preview' },
    )
    t.calls.resolveName[0]!.reject(new Error('404'))
    await flush()
    expect(t.snapshot().value).toBe('editing')
    expect(t.context()).toMatchObject({
      error: { name: 'ResolveNameError', message: 'Error resolving name' },
      token: STK,
      sendTokenAmount: '1',
      receiverAddress: 'nobody.reown.id',
    })
  })

  it('leaving a lookup in flight stops it', () => {
    const t = harness()
    t.send(
      { type: 'send.setToken', token: STK },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: 'bob.eth' },
      { type: 'send.preview' },
      { type: 'send.edit' },
    )
    expect(t.snapshot().value).toBe('editing')
    expect(t.calls.resolveName[0]!.signal.aborted).toBe(true)
  })

  it('a failed estimate is shown on the preview; retry estimates again, edit keeps the values', async () => {
    const t = harness()
    t.send(
      { type: 'send.setToken', token: STK },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: BOB },
      { type: 'send.preview' },
    )
    t.calls.estimateFee[0]!.reject(new Error('RPC down'))
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: 'unavailable' })
    expect(t.snapshot().hasTag('failed')).toBe(true)
    expect(t.context().error).toEqual({
      name: 'FeeEstimateError',
      message: 'Unable to estimate the network fee.',
    })
    expect(t.snapshot().can({ type: 'send.confirm' })).toBe(false)
    t.send({ type: 'send.retry' })
    expect(t.snapshot().value).toEqual({ previewing: { estimating: 'eip155' } })
    expect(t.context().error).toBeUndefined()
    expect(t.calls.estimateFee).toHaveLength(2)
    t.send({ type: 'send.edit' })
    expect(t.snapshot().value).toBe('editing')
    expect(t.context()).toMatchObject({ token: STK, sendTokenAmount: '1', receiverAddress: BOB })
  })

  it('an ERC-20 send whose fee the listed native balance cannot pay is not offered', async () => {
    const poor = { ...ETH, value: 0.03, quantity: { decimals: '18', numeric: '0.00001' } }
    const t = harness({ tokenBalances: [poor, STK] })
    t.send(
      { type: 'send.setToken', token: STK },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: BOB },
      { type: 'send.preview' },
    )
    t.calls.estimateFee[0]!.resolve(FEE)
    await flush()
    expect(t.snapshot().value).toEqual({ previewing: 'unavailable' })
    expect(t.context().error?.message).toBe('Insufficient funds for the network fee')
  })

  it('without the native balance listed, the fee is not judged here (the wallet will)', async () => {
    const t = harness({ tokenBalances: [STK] })
    await toReady(t, STK, '1')
  })
})

describe('send machine: amounts from the chain', () => {
  /** The Data API's word on the sandbox's 6-decimal token, with 7 decimals stated (a wrong or hostile answer). */
  const USDC_SAYS_7: TokenBalance = {
    ...USDT,
    name: 'USD Coin',
    quantity: { decimals: '7', numeric: '10000' },
  }

  // The old chart scaled "5" by the stated 7 decimals: 50 000 000 base units, 50 tokens of a 6-decimal contract.
  it('"5" of a token the API says has 7 decimals, the contract 6: refused, never 50 sent', async () => {
    const t = harness({ tokenBalances: [ETH, USDC_SAYS_7] })
    t.send(
      { type: 'send.setToken', token: USDC_SAYS_7 },
      { type: 'send.setAmount', amount: '5' },
      { type: 'send.setReceiver', receiverAddress: BOB },
      { type: 'send.preview' },
    )
    await flush()
    expect(t.reads.readTokenMetadata).toEqual([{ chainId: 31337, address: USDT_ADDRESS }])
    expect(t.snapshot().value).toBe('editing')
    expect(t.context().error).toEqual({
      name: 'TokenDecimalsMismatchError',
      message: 'This token cannot be sent: its contract does not match its listing.',
    })
    expect(t.context().tokenOnChain).toBeUndefined()
    // Nothing estimated, nothing asked of the wallet, and no preview shown.
    expect(t.calls.estimateFee).toHaveLength(0)
    expect(t.calls.sendErc20).toHaveLength(0)
    expect(t.notices).toEqual([])
  })

  it('another symbol on the contract than listed is refused too', async () => {
    const renamed = { ...USDT, symbol: 'USDC' }
    const t = harness({ tokenBalances: [ETH, renamed] })
    t.send(
      { type: 'send.setToken', token: renamed },
      { type: 'send.setAmount', amount: '5' },
      { type: 'send.setReceiver', receiverAddress: BOB },
      { type: 'send.preview' },
    )
    await flush()
    expect(t.snapshot().value).toBe('editing')
    expect(t.context().error?.name).toBe('TokenDecimalsMismatchError')
  })

  it('the listing changing its decimals after the check does not rescale the amount: the contract’s are used', async () => {
    const t = harness()
    await toReady(t, USDT, '5')
    expect(t.context().tokenOnChain).toEqual({
      chainId: 31337,
      address: USDT_ADDRESS,
      decimals: 6,
      symbol: 'USDT',
    })
    t.send({ type: 'send.setTokenBalances', tokenBalances: [ETH, USDC_SAYS_7] })
    expect(t.context().token?.quantity.decimals).toBe('7')
    t.send({ type: 'send.confirm' })
    expect(t.calls.sendErc20[0]!.input.amount).toBe(5_000_000n)
  })

  it('a contract that cannot be read: the form says so, nothing is previewed', async () => {
    const failing = fromPromise<TokenOnChain, { chainId: number; address: Address }>(async () => {
      throw new Error('execution reverted')
    })
    const t = harness(undefined, { readTokenMetadata: failing })
    t.send(
      { type: 'send.setToken', token: STK },
      { type: 'send.setAmount', amount: '1' },
      { type: 'send.setReceiver', receiverAddress: BOB },
      { type: 'send.preview' },
    )
    expect(t.snapshot().value).toBe('checkingToken')
    expect(t.snapshot().hasTag('busy')).toBe(true)
    await flush()
    expect(t.snapshot().value).toBe('editing')
    expect(t.context().error?.name).toBe('TokenMetadataUnavailableError')
  })

  it('a receiver with a wrong checksum: refused by its own rule, before any slot', () => {
    const t = harness()
    const mistyped = BOB_CHECKSUMMED.replace('C51812', 'c51812')
    t.send(
      { type: 'send.setToken', token: ETH },
      { type: 'send.setAmount', amount: '0.01' },
      { type: 'send.setReceiver', receiverAddress: mistyped },
      { type: 'send.preview' },
    )
    expect(t.snapshot().value).toBe('editing')
    expect(t.context().error?.name).toBe('ReceiverChecksumError')
    expect(t.calls.estimateFee).toHaveLength(0)
  })
})

describe('validateSend and the token helpers', () => {
  const form = (token: TokenBalance | undefined, amount: string | undefined, receiver: string | undefined) =>
    validateSend({ token, sendTokenAmount: amount, receiverAddress: receiver })?.shortMessage

  it('passes a complete form with an address or a name', () => {
    expect(form(STK, '1.5', BOB)).toBeUndefined()
    expect(form(STK, '.5', 'alice.reown.id')).toBeUndefined()
    expect(form(ETH, '2', 'vitalik.eth')).toBeUndefined()
    expect(form(USDT, '0.000001', BOB)).toBeUndefined()
  })

  it('names the first problem', () => {
    expect(form(undefined, undefined, undefined)).toBe('An amount and receiver address are required')
    expect(form(STK, '  ', BOB)).toBe('An amount and receiver address are required')
    expect(form(STK, '1', ' ')).toBe('An amount and receiver address are required')
    expect(form(undefined, '1', BOB)).toBe('A token is required')
    expect(form(BTC, '1', BOB)).toBe('Unsupported chain')
    expect(form({ ...STK, address: `${CHAIN}:0x1234` }, '1', BOB)).toBe('Invalid token')
    for (const amount of ['abc', '0', '0.0', '-1', '1e3', '1,5', '1.2.3', '0.0000001']) {
      expect(form(USDT, amount, BOB), amount).toBe('Invalid amount')
    }
    expect(form(STK, '1000.000000000000000001', BOB)).toBe('Insufficient funds')
    expect(form(STK, '1000', BOB)).toBeUndefined()
    for (const receiver of ['bob', '0x1234', 'alice .eth', 'alice.', '.eth']) {
      expect(form(STK, '1', receiver), receiver).toBe('Invalid address')
    }
  })

  // EIP-55 strict: the old check (isAddress with strict: false) took a mixed-case address with a wrong
  // checksum and getAddress silently "fixed" it into the address one mistyped letter named.
  it('refuses a mixed-case receiver whose EIP-55 checksum does not match; all-lower and all-upper stay valid', () => {
    const mistyped = `${BOB_CHECKSUMMED.slice(0, 10)}${BOB_CHECKSUMMED[10]!.toLowerCase()}${BOB_CHECKSUMMED.slice(11)}`
    expect(mistyped).not.toBe(BOB_CHECKSUMMED)
    expect(mistyped.toLowerCase()).toBe(BOB)
    expect(hasWrongChecksum(mistyped)).toBe(true)
    expect(form(STK, '1', mistyped)).toBe(
      'Invalid address: its checksum does not match. Check it for a mistyped letter.',
    )
    for (const receiver of [BOB, BOB_CHECKSUMMED, `0x${BOB.slice(2).toUpperCase()}`, ' bob.reown.id ']) {
      expect(hasWrongChecksum(receiver), receiver).toBe(false)
      expect(form(STK, '1', receiver), receiver).toBeUndefined()
    }
  })

  it('reads native and ERC-20 tokens from CAIP-10, plain and marker addresses', () => {
    expect(isNativeToken(ETH)).toBe(true)
    expect(isNativeToken({ address: `${CHAIN}:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE` })).toBe(true)
    expect(isNativeToken(STK)).toBe(false)
    expect(tokenContract(STK)).toBe(STK_ADDRESS)
    expect(tokenContract({ address: STK_ADDRESS.toLowerCase() })).toBe(STK_ADDRESS)
    expect(tokenContract(ETH)).toBeUndefined()
    expect(parseAmount('1.5', 6)).toBe(1_500_000n)
    expect(parseAmount('1.', 6)).toBe(1_000_000n)
    expect(parseAmount('1.0000001', 6)).toBeUndefined()
  })
})
