import type { Address, Hex } from 'viem'
import { expect } from 'vitest'
import {
  type AnyActorLogic,
  type AnyActorRef,
  type AnyMachineSnapshot,
  createActor,
  createMachine,
  fromPromise,
  SimulatedClock,
} from 'xstate'
import {
  type FeeEstimate,
  isNativeToken,
  type NonceCheck,
  type NonceReading,
  type NonceStatus,
  type ReceiptRequest,
  type ResolvedName,
  type SendEvent,
  type SendInput,
  type SendNotice,
  type SendReceipt,
  type SendRequest,
  type SendTransactionRequest,
  type SolanaSendRequest,
  sendMachine,
  type TokenBalance,
  type TokenOnChain,
} from '../send'

/**
 * Test support for the send machine's unit tests (`../send*.test.ts`), not part of the library (nothing in
 * `src` imports it): the real machine with every actor slot a fake the test settles, and the tokens, fees and
 * steps the tests share.
 */

/** One call of a promise slot: what it was given, and the hands to settle it with. */
export interface Call<TInput, TOutput> {
  input: TInput
  signal: AbortSignal
  resolve: (output: TOutput) => void
  reject: (error: unknown) => void
}

export const CHAIN = 'eip155:31337'
export const STK_ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
export const USDT_ADDRESS = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
/** Lower case on purpose: the machine hands the checksummed form to the slots. */
export const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
export const BOB_CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
export const HASH: Hex = `0x${'ab'.repeat(32)}`

export const ETH: TokenBalance = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: CHAIN,
  value: 6000,
  price: 3000,
  quantity: { decimals: '18', numeric: '2' },
  iconUrl: 'http://127.0.0.1/icons/ETH.svg',
}
export const STK: TokenBalance = {
  name: 'Sandbox Token',
  symbol: 'STK',
  chainId: CHAIN,
  address: `${CHAIN}:${STK_ADDRESS}`,
  value: 2000,
  price: 2,
  quantity: { decimals: '18', numeric: '1000' },
  iconUrl: 'http://127.0.0.1/icons/STK.svg',
}
export const USDT: TokenBalance = {
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
export const BTC: TokenBalance = {
  ...USDT,
  name: 'Bitcoin',
  symbol: 'BTC',
  chainId: 'bip122:000000000019d6689c085ae165831e93',
  address: undefined,
  quantity: { decimals: '8', numeric: '1' },
}

/** 21 000 gas at 2 gwei: 0.000042 ETH. */
export const FEE: FeeEstimate = {
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
export const SENDER: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
/** The account's next nonce on the fake chain. */
export const NONCE = 5

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
export function harness(
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
  const child = (parent: { children: unknown } | undefined, id: string) =>
    (parent?.children as Record<string, AnyActorRef | undefined> | undefined)?.[id]?.getSnapshot() as
      | AnyMachineSnapshot
      | undefined
  /** The send's transaction (src/machines/transaction.ts) while it runs: where it stands, the nonce it holds. */
  const transaction = () => child(actor.getSnapshot(), 'transaction')
  return {
    actor,
    calls,
    reads,
    clock,
    notices,
    send,
    snapshot: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
    transaction,
    /** Which of the send's slots the wallet is asked through ('native', 'erc20', 'solana'), while it is. */
    wallet: () => child(transaction(), 'ask')?.value,
  }
}

/** Lets settled slot promises reach the machine. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Fills the form and opens the preview with a fee estimate. */
export async function toReady(t: ReturnType<typeof harness>, token: TokenBalance, amount: string) {
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
export async function toWaiting(t: ReturnType<typeof harness>, token: TokenBalance, amount: string) {
  await toReady(t, token, amount)
  t.send({ type: 'send.confirm' })
  const calls = isNativeToken(token) ? t.calls.sendNative : t.calls.sendErc20
  calls.at(-1)!.resolve(HASH)
  await flush()
  expect(t.snapshot().value).toEqual({ transaction: 'confirming' })
  expect(t.transaction()?.value).toEqual({ confirming: 'waiting' })
}
