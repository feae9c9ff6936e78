import {
  type Address,
  type Chain,
  type Client,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  type Log,
  type Transport,
} from 'viem'
import { readContract, simulateBlocks } from 'viem/actions'
import { NATIVE_TOKEN_ADDRESS } from '../../constants'
import { safeText } from '../../utils/links'

/**
 * "See before you sign": the calls the kit built, run against the chain in one simulated block before the wallet
 * is asked, and the account's balance changes they cause.
 *
 * How (facts checked against the sandbox's anvil 1.7.1, viem 2.57):
 * - anvil answers `eth_simulateV1` (viem `simulateBlocks`/`simulateCalls`): calls of one block run in sequence on
 *   the same state (an approve is seen by the swap after it), and `traceTransfers: true` reports every movement
 *   of the native currency, top-level or internal, as an ERC-20 `Transfer` log of 0xeeee…eeee.
 * - viem's `simulateCalls({ traceAssetChanges: true })` fails on anvil ("eip1559 transaction can't be built due
 *   to missing keys: to": it reads balances through a contract-creation call). So this module reads balances
 *   itself: `balanceOf(account)` of each known token before and after the calls, in the same block.
 * - `debug_traceCall` (prestateTracer, diffMode) also works there but simulates one call only.
 *
 * Rules:
 * - Known tokens (`tokens`): the delta is the balance read after the calls minus the one before (exact, whatever
 *   the token logs), in the decimals the token's contract states (the caller's only when it states none). Unknown tokens that move from or to the account (ERC-20/721 `Transfer`, ERC-1155
 *   `TransferSingle`) are reported too, from their logs, with their `symbol()`/`decimals()` read from the chain
 *   (else the address shortened, 0 decimals): "other tokens moving" must be visible.
 * - The native currency: the sum of the traced value transfers from and to the account. **Gas is not included**:
 *   the preview shows the network fee on its own line. On chain, the account's native change is this delta minus
 *   `gasUsed × effectiveGasPrice` of its receipts; ERC-20 deltas equal the on-chain changes exactly.
 * - A node without `eth_simulateV1` (or any failure to simulate) is `unavailable`: the preview shows no line,
 *   never a guessed one. A call that reverts is `reverted` (its index and the node's reason).
 */

/** A call the kit built, as the wallet will be asked to send it from the account. */
export interface SimulationCall {
  to: Address
  data?: Hex
  value?: bigint
}

/** A token the preview knows (symbol and decimals as the kit shows them). */
export interface SimulationToken {
  address: Address
  symbol: string
  decimals: number
}

/** One balance change of the account: `token` is NATIVE_TOKEN_ADDRESS for the native currency. */
export interface BalanceChange {
  token: Address
  symbol: string
  decimals: number
  /** Signed, in base units: negative leaves the account. Never 0 (no change is no entry). */
  delta: bigint
}

export type BalanceSimulation =
  | { status: 'simulated'; changes: BalanceChange[] }
  | { status: 'reverted'; callIndex: number; reason: string }
  | { status: 'unavailable'; reason: string }

export interface SimulateBalanceChangesParameters {
  account: Address
  calls: readonly SimulationCall[]
  tokens: readonly SimulationToken[]
}

/** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 (and the native transfers traced). */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** keccak256("TransferSingle(address,address,address,uint256,uint256)"): ERC-1155. */
const TRANSFER_SINGLE_TOPIC = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
/** A symbol read from an unknown token's contract is cut to this many characters. */
const MAX_SYMBOL_LENGTH = 12
/** Decimals above this from an unknown contract are not believed (0 is used). */
const MAX_DECIMALS = 36

const isNative = (address: string) => address.toLowerCase() === NATIVE_TOKEN_ADDRESS

/** `0x1234…abcd`: how an unknown token without a readable symbol is named. */
export function shortAddress(address: Address): string {
  return `${address.slice(0, 6)}\u2026${address.slice(-4)}`
}

/** The address in a 32-byte indexed topic. */
function topicAddress(topic: Hex | undefined): Address | undefined {
  if (topic?.length !== 66) return undefined
  return getAddress(`0x${topic.slice(26)}`)
}

/** What a log moves from or to `account`: [token, signed amount], or undefined when it is no transfer of its. */
function movementOf(
  log: Pick<Log, 'address' | 'topics' | 'data'>,
  account: Address,
): [Address, bigint] | undefined {
  const [topic0] = log.topics
  let from: Address | undefined
  let to: Address | undefined
  let amount: bigint
  if (topic0 === TRANSFER_TOPIC && log.topics.length === 3 && log.data.length === 66) {
    from = topicAddress(log.topics[1])
    to = topicAddress(log.topics[2])
    amount = hexToBigInt(log.data)
  } else if (topic0 === TRANSFER_TOPIC && log.topics.length === 4) {
    // ERC-721: one token id moves.
    from = topicAddress(log.topics[1])
    to = topicAddress(log.topics[2])
    amount = 1n
  } else if (topic0 === TRANSFER_SINGLE_TOPIC && log.topics.length === 4 && log.data.length === 130) {
    from = topicAddress(log.topics[2])
    to = topicAddress(log.topics[3])
    amount = hexToBigInt(`0x${log.data.slice(66)}`)
  } else return undefined
  const out = from !== undefined && isAddressEqual(from, account)
  const into = to !== undefined && isAddressEqual(to, account)
  if (out === into) return undefined
  const token = isNative(log.address) ? NATIVE_TOKEN_ADDRESS : getAddress(log.address)
  return [token as Address, out ? -amount : amount]
}

/** symbol() and decimals() of a token the caller did not name, read from the chain; fallbacks when unreadable. */
async function describeUnknown(
  client: Client,
  token: Address,
): Promise<{ symbol: string; decimals: number }> {
  const [symbol, decimals] = await Promise.allSettled([
    readContract(client, { address: token, abi: erc20Abi, functionName: 'symbol' }),
    readContract(client, { address: token, abi: erc20Abi, functionName: 'decimals' }),
  ])
  const text = symbol.status === 'fulfilled' ? safeText(symbol.value, MAX_SYMBOL_LENGTH) : ''
  const places = decimals.status === 'fulfilled' && decimals.value <= MAX_DECIMALS ? decimals.value : 0
  return { symbol: text || shortAddress(token), decimals: places }
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object') {
    if ('shortMessage' in error && typeof error.shortMessage === 'string') return error.shortMessage
    if ('message' in error && typeof error.message === 'string') return error.message.split('\n')[0] ?? ''
  }
  return String(error)
}

/**
 * Simulates `calls` from `account`, in order, in one block on top of the latest one, and returns the account's
 * balance changes (native first, then the known tokens in their order, then unknown tokens as they moved).
 *
 * @example
 * const result = await simulateBalanceChanges(publicClient, {
 *   account,
 *   calls: [{ to: usdc, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 5_000_000n] }) }],
 *   tokens: [{ address: usdc, symbol: 'USDC', decimals: 6 }],
 * })
 * // { status: 'simulated', changes: [{ token: usdc, symbol: 'USDC', decimals: 6, delta: -5_000_000n }] }
 * @internal
 */
export async function simulateBalanceChanges<transport extends Transport, chain extends Chain | undefined>(
  client: Client<transport, chain>,
  { account, calls, tokens }: SimulateBalanceChangesParameters,
): Promise<BalanceSimulation> {
  const erc20s = tokens.filter((t) => !isNative(t.address))
  const balanceRead = (token: SimulationToken) => ({
    to: token.address,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [account] }),
  })
  // The decimals of the known tokens are read from the chain (the caller's may come from a service): a change is
  // written in the token's real units, so a preview built on wrong decimals disagrees with it.
  const chainDecimals = Promise.allSettled(
    erc20s.map((token) =>
      readContract(client, { address: token.address, abi: erc20Abi, functionName: 'decimals' }),
    ),
  )
  let results: readonly { status: string; data: Hex; logs?: Log[] | undefined; error?: Error | undefined }[]
  try {
    const [block] = await simulateBlocks(client, {
      blocks: [
        {
          calls: [
            ...erc20s.map(balanceRead),
            ...calls.map((call) => ({ account, to: call.to, data: call.data, value: call.value })),
            ...erc20s.map(balanceRead),
          ],
        },
      ],
      traceTransfers: true,
    })
    if (!block) return { status: 'unavailable', reason: 'The node answered no simulated block' }
    results = block.calls as typeof results
  } catch (error) {
    return { status: 'unavailable', reason: messageOf(error) }
  }
  if (results.length !== erc20s.length * 2 + calls.length) {
    return { status: 'unavailable', reason: 'The node answered another number of call results' }
  }

  const own = results.slice(erc20s.length, erc20s.length + calls.length)
  const failed = own.findIndex((result) => result.status !== 'success')
  if (failed >= 0) return { status: 'reverted', callIndex: failed, reason: messageOf(own[failed]?.error) }

  // What the logs say moved, per token (every token, known or not).
  const moved = new Map<Address, bigint>()
  const order: Address[] = []
  for (const result of own) {
    for (const log of result.logs ?? []) {
      const movement = movementOf(log, account)
      if (!movement) continue
      const [token, amount] = movement
      const key = getAddress(token)
      if (!moved.has(key)) order.push(key)
      moved.set(key, (moved.get(key) ?? 0n) + amount)
    }
  }

  const changes: BalanceChange[] = []
  const nativeKey = getAddress(NATIVE_TOKEN_ADDRESS)
  const nativeDelta = moved.get(nativeKey) ?? 0n
  if (nativeDelta !== 0n) {
    const named = tokens.find((t) => isNative(t.address))
    const currency = client.chain?.nativeCurrency
    changes.push({
      token: NATIVE_TOKEN_ADDRESS as Address,
      symbol: named?.symbol ?? currency?.symbol ?? 'ETH',
      decimals: named?.decimals ?? currency?.decimals ?? 18,
      delta: nativeDelta,
    })
  }
  const known = new Set<Address>([nativeKey])
  const decimalsRead = await chainDecimals
  erc20s.forEach((token, index) => {
    const key = getAddress(token.address)
    known.add(key)
    const before = results[index]
    const after = results[erc20s.length + calls.length + index]
    const balance = (r: typeof before) =>
      r?.status === 'success' && r.data.length === 66 ? hexToBigInt(r.data) : undefined
    const [b, a] = [balance(before), balance(after)]
    // The balance read is the truth; a token whose balanceOf cannot be read falls back to its logs.
    const delta = b !== undefined && a !== undefined ? a - b : (moved.get(key) ?? 0n)
    const read = decimalsRead[index]
    const decimals = read?.status === 'fulfilled' && read.value <= MAX_DECIMALS ? read.value : token.decimals
    if (delta !== 0n) changes.push({ token: key, symbol: token.symbol, decimals, delta })
  })
  const unknown = order.filter((token) => !known.has(token) && moved.get(token) !== 0n)
  const described = await Promise.all(unknown.map((token) => describeUnknown(client, token)))
  unknown.forEach((token, i) => {
    changes.push({
      token,
      ...(described[i] as { symbol: string; decimals: number }),
      delta: moved.get(token) ?? 0n,
    })
  })
  return { status: 'simulated', changes }
}
