import { type Address, type Hex, parseEther, UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { type AnyActorLogic, createActor, createMachine, fromPromise, SimulatedClock } from 'xstate'
import { PENDING_TX_POLLING_MS, SEND_REQUEST_TIMEOUT_MS, TX_RECEIPT_TIMEOUT_MS } from '../constants'
import {
  SolanaInsufficientFundsError,
  SolanaRpcUnavailableError,
  SolanaUserRejectedError,
} from '../errors/solana'
import {
  type FeeEstimate,
  feeInUsd,
  hasWrongChecksum,
  isNativeToken,
  isSolanaAddress,
  isSolanaToken,
  type NonceCheck,
  type NonceReading,
  type NonceStatus,
  parseAmount,
  type ReceiptRequest,
  type ResolvedName,
  routeAfterSend,
  type SendEvent,
  type SendInput,
  type SendNotice,
  type SendReceipt,
  type SendRequest,
  type SendTransactionRequest,
  type SolanaSendRequest,
  sendMachine,
  solanaMint,
  type TokenBalance,
  type TokenOnChain,
  tokenContract,
  validateSend,
} from './send'

/** One call of a promise slot: what it was given, and the hands to settle it with. */
interface Call<TInput, TOutput> {
  input: TInput
  signal: AbortSignal
  resolve: (output: TOutput) => void
  reject: (error: unknown) => void
}

const CHAIN = 'eip155:31337'
const STK_ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const USDT_ADDRESS = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
/** Lower case on purpose: the machine hands the checksummed form to the slots. */
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const BOB_CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const HASH: Hex = `0x${'ab'.repeat(32)}`

const ETH: TokenBalance = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: CHAIN,
  value: 6000,
  price: 3000,
  quantity: { decimals: '18', numeric: '2' },
  iconUrl: 'http://127.0.0.1/icons/ETH.svg',
}
const STK: TokenBalance = {
  name: 'Sandbox Token',
  symbol: 'STK',
  chainId: CHAIN,
  address: `${CHAIN}:${STK_ADDRESS}`,
  value: 2000,
  price: 2,
  quantity: { decimals: '18', numeric: '1000' },
  iconUrl: 'http://127.0.0.1/icons/STK.svg',
}
const USDT: TokenBalance = {
  name: 'Sandbox Tether',
  symbol: 'USDT',
  chainId: CHAIN,
  address: `${CHAIN}:${USDT_ADDRESS}`,
  value: 10000,
  price: 1,
  quantity: { decimals: '6', numeric: '10000' },
  iconUrl: 'http://127.0.0.1/icons/USDT.svg',
}
/** A chain the kit does not send on (SPEC §1: send on eip155 and solana only). */
const BTC: TokenBalance = {
  ...USDT,
  name: 'Bitcoin',
  symbol: 'BTC',
  chainId: 'bip122:000000000019d6689c085ae165831e93',
  address: undefined,
  quantity: { decimals: '8', numeric: '1' },
}

/** 21 000 gas at 2 gwei: 0.000042 ETH. */
const FEE: FeeEstimate = {
  gas: '21000',
  maxFeePerGas: '2000000000',
  maxPriorityFeePerGas: '1000000000',
  fee: '42000000000000',
  formatted: '0.000042',
  symbol: 'ETH',
  decimals: 18,
}

/** What the fake chain's token contracts answer (`decimals()`, `symbol()`), whatever the balances say. */
const CONTRACTS: Record<string, { decimals: number; symbol: string }> = {
  [STK_ADDRESS.toLowerCase()]: { decimals: 18, symbol: 'STK' },
  [USDT_ADDRESS.toLowerCase()]: { decimals: 6, symbol: 'USDT' },
}
const SENDER: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
/** The account's next nonce on the fake chain. */
const NONCE = 5

/**
 * A slot that answers at once (a child that is final as it starts), so reading the chain's facts needs no
 * settling in tests about other things. Each input is recorded.
 */
function answerAtOnce<TInput, TOutput>(list: TInput[], answer: (input: TInput) => TOutput): AnyActorLogic {
  return createMachine({
    types: {} as { input: TInput; context: { input: TInput } },
    context: ({ input }) => {
      list.push(input)
      return { input }
    },
    initial: 'answered',
    states: { answered: { type: 'final' } },
    output: ({ context }) => answer(context.input),
  })
}

/** The fake chain's token contracts. */
const readContract = ({ chainId, address }: { chainId: number; address: Address }): TokenOnChain => {
  const contract = CONTRACTS[address.toLowerCase()]
  if (!contract) throw new Error(`no contract at ${address}`)
  return { chainId, address, ...contract }
}

/**
 * The real machine with every actor slot replaced by a fake the test settles, on a simulated clock, with every
 * emitted notice recorded. The token contracts and the account's nonce are read from a fake chain at once.
 */
function harness(
  input: SendInput = { tokenBalances: [ETH, STK, USDT] },
  chain: { readTokenMetadata?: AnyActorLogic } = {},
) {
  const calls = {
    resolveName: [] as Call<{ name: string }, ResolvedName>[],
    estimateFee: [] as Call<SendRequest, FeeEstimate>[],
    sendNative: [] as Call<SendTransactionRequest, Hex>[],
    sendErc20: [] as Call<SendTransactionRequest & { token: Address }, Hex>[],
    waitForReceipt: [] as Call<ReceiptRequest, SendReceipt>[],
    pollReceipt: [] as Call<{ hash: Hex; chainId: number }, SendReceipt>[],
    estimateSolanaFee: [] as Call<SolanaSendRequest, FeeEstimate>[],
    sendSolana: [] as Call<SolanaSendRequest & { fee?: FeeEstimate }, string>[],
    checkNonce: [] as Call<NonceCheck, NonceStatus>[],
    watchNonce: [] as Call<NonceCheck, NonceStatus>[],
  }
  const reads = {
    readTokenMetadata: [] as { chainId: number; address: Address }[],
    readNonce: [] as { chainId: number }[],
  }
  const slot = <TInput, TOutput>(list: Call<TInput, TOutput>[]) =>
    fromPromise<TOutput, TInput>(
      ({ input, signal }) =>
        new Promise<TOutput>((resolve, reject) => {
          list.push({ input, signal, resolve, reject })
        }),
    )
  const machine = sendMachine.provide({
    actors: {
      resolveName: slot(calls.resolveName),
      estimateFee: slot(calls.estimateFee),
      sendNative: slot(calls.sendNative),
      sendErc20: slot(calls.sendErc20),
      waitForReceipt: slot(calls.waitForReceipt),
      pollReceipt: slot(calls.pollReceipt),
      estimateSolanaFee: slot(calls.estimateSolanaFee),
      sendSolana: slot(calls.sendSolana),
      readTokenMetadata: chain.readTokenMetadata ?? answerAtOnce(reads.readTokenMetadata, readContract),
      readNonce: answerAtOnce(
        reads.readNonce,
        (): NonceReading => ({ from: SENDER, nonce: NONCE, fromBlock: '100' }),
      ),
      checkNonce: slot(calls.checkNonce),
      watchNonce: slot(calls.watchNonce),
    } as never,
  })
  const clock = new SimulatedClock()
  const actor = createActor(machine, { input, clock })
  const notices: SendNotice[] = []
  actor.on('*', (notice) => notices.push(notice))
  actor.start()
  const send = (...events: SendEvent[]) => {
    for (const event of events) actor.send(event)
  }
  return {
    actor,
    calls,
    reads,
    clock,
    notices,
    send,
    snapshot: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
  }
}

/** Lets settled slot promises reach the machine. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Fills the form and opens the preview with a fee estimate. */
async function toReady(t: ReturnType<typeof harness>, token: TokenBalance, amount: string) {
  t.send(
    { type: 'send.setToken', token },
    { type: 'send.setAmount', amount },
    { type: 'send.setReceiver', receiverAddress: BOB },
    { type: 'send.preview' },
  )
  t.calls.estimateFee.at(-1)!.resolve(FEE)
  await flush()
  expect(t.snapshot().value).toEqual({ previewing: 'ready' })
}

/** From a ready preview to waiting for the receipt of HASH. */
async function toWaiting(t: ReturnType<typeof harness>, token: TokenBalance, amount: string) {
  await toReady(t, token, amount)
  t.send({ type: 'send.confirm' })
  const calls = isNativeToken(token) ? t.calls.sendNative : t.calls.sendErc20
  calls.at(-1)!.resolve(HASH)
  await flush()
  expect(t.snapshot().value).toEqual({ confirming: 'waiting' })
}

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

describe('send machine: sending and confirming', () => {
  it('a native send: loading on, the wallet asked with the fee shown, receipt awaited, send state reset', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    expect(t.snapshot().value).toEqual({ sending: 'native' })
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
    expect(t.snapshot().value).toEqual({ confirming: 'waiting' })
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
    expect(t.snapshot().value).toEqual({ sending: 'erc20' })
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
    expect(t.snapshot().value).toEqual({ confirming: 'waiting' })
    t.clock.increment(1)
    expect(t.snapshot().value).toEqual({ confirming: 'polling' })
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
    expect(t.snapshot().value).toEqual({ confirming: 'polling' })
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
    expect(t.snapshot().value).toEqual({ confirming: 'polling' })
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
    expect(t.snapshot().value).toEqual({ confirming: 'polling' })
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
    expect(t.snapshot().value).toEqual({ sending: 'erc20' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS - 1)
    expect(t.snapshot().value).toEqual({ sending: 'erc20' })
    t.clock.increment(1)
    expect(t.snapshot().value).toEqual({ overdue: 'checking' })
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
      nonce: { chainId: 31337, from: SENDER, nonce: NONCE, fromBlock: '100', abandoned: true },
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
    expect(t.snapshot().value).toEqual({ overdue: 'checking' })
    expect(t.notices.map((n) => n.type)).not.toContain('send.submitted')
  })

  it('"Send again" after the time limit asks for the same nonce, and the chain stays watched meanwhile', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    t.calls.checkNonce[0]!.resolve({ status: 'open' })
    await flush()
    expect(t.snapshot().value).toEqual({ overdue: 'open' })
    expect(t.context().error?.name).toBe('SendStillOpenError')
    expect(t.calls.watchNonce).toHaveLength(1)
    expect(t.snapshot().can({ type: 'send.retry' })).toBe(true)
    t.send({ type: 'send.retry' })
    expect(t.snapshot().value).toEqual({ sending: 'native' })
    expect(t.calls.watchNonce[0]!.signal.aborted).toBe(true)
    // The same transaction slot as the first request: at most one of the two can be mined.
    expect(t.calls.sendNative.map((c) => c.input.nonce)).toEqual([NONCE, NONCE])
    expect(t.reads.readNonce).toHaveLength(1)
    // The time limit is per request: the second one gets its full time.
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS - 1)
    t.calls.sendNative[1]!.resolve(HASH)
    await flush()
    expect(t.snapshot().value).toEqual({ confirming: 'waiting' })
    // Its transaction is known: the nonce is let go, the next payment reads its own.
    expect(t.context().nonce).toBeUndefined()
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
    expect(t.snapshot().value).toEqual({ confirming: 'waiting' })
    expect(t.context()).toMatchObject({ hash: HASH, nonce: undefined })
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
    expect(t.snapshot().value).toEqual({ overdue: 'checking' })
    t.calls.checkNonce[1]!.resolve({ status: 'mined', hash: HASH })
    await flush()
    expect(t.snapshot().value).toEqual({ confirming: 'waiting' })
    expect(t.context().hash).toBe(HASH)
  })

  it('another transaction took the nonce: said, and "Send again" reads a new one', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.clock.increment(SEND_REQUEST_TIMEOUT_MS)
    t.calls.checkNonce[0]!.resolve({ status: 'taken' })
    await flush()
    expect(t.snapshot().value).toEqual({ overdue: 'taken' })
    expect(t.context()).toMatchObject({ nonce: undefined, error: { name: 'SendNonceTakenError' } })
    t.send({ type: 'send.retry' })
    expect(t.reads.readNonce).toHaveLength(2)
    expect(t.snapshot().value).toEqual({ sending: 'native' })
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
    expect(t.snapshot().value).toEqual({ sending: 'native' })
  })

  it('a declined request leaves nothing open: the nonce is let go, a retry reads it again', async () => {
    const t = harness()
    await toReady(t, ETH, '0.01')
    t.send({ type: 'send.confirm' })
    t.calls.sendNative[0]!.reject(new UserRejectedRequestError(new Error('User rejected the request.')))
    await flush()
    expect(t.snapshot().value).toEqual({ failed: 'retryable' })
    expect(t.context().nonce).toBeUndefined()
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
    expect(t.snapshot().value).toEqual({ sending: 'solana' })
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

  it('a declined prompt fails as a declined EVM send does, the form kept for another try or an edit', async () => {
    const t = solanaHarness()
    t.send(
      { type: 'send.setToken', token: SOL },
      { type: 'send.setAmount', amount: '0.5' },
      { type: 'send.setReceiver', receiverAddress: BOB_SOL },
      { type: 'send.preview' },
    )
    t.calls.estimateSolanaFee[0]!.resolve(SOL_FEE)
    await flush()
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
    expect(t.snapshot().value).toEqual({ sending: 'solana' })
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
