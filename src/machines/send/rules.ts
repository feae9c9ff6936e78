/**
 * The send flow's rules as pure functions of its context (src/machines/send.ts names them as guards and
 * actions): what a token is (native, ERC-20, Solana, its chain), the form's checks (SPEC §5: amount, receiver,
 * EIP-55 checksum, balance and fee), and what each slot (and the send's transaction) is asked for.
 */
import { type Address, formatUnits, getAddress, isAddress, parseUnits } from 'viem'
import { NATIVE_TOKEN_ADDRESS } from '../../constants'
import type { BaseError } from '../../errors/base'
import {
  AmountAndReceiverRequiredError,
  InsufficientBalanceError,
  InvalidAmountError,
  InvalidReceiverError,
  InvalidTokenError,
  NameOnSolanaError,
  ReceiverChecksumError,
  TokenRequiredError,
  UnsupportedChainError,
} from '../../errors/send'
import { eip155Reference, formatChainId, isCaip2, parseAccountId } from '../../utils/caip'
import type { ChainNamespace } from '../connection'
import type { TransactionInput } from '../transaction/types'
import type { PayContext } from './pay'
import type {
  FeeEstimate,
  SendContext,
  SendRequest,
  SendSimulationRequest,
  SendWalletRequest,
  SolanaSendRequest,
  TokenBalance,
  TokenOnChain,
} from './types'

/** True for the native currency: no contract address, or the 0xeee… marker. */
export function isNativeToken(token: Pick<TokenBalance, 'address'>): boolean {
  const address = addressPart(token.address)
  return !address || address.toLowerCase() === NATIVE_TOKEN_ADDRESS
}

/** The address of a CAIP-10 id (`eip155:1:0xab…`), or the value itself when it is a plain address. */
const addressPart = (value: string | undefined) =>
  value === undefined ? undefined : (parseAccountId(value.trim())?.address ?? value.trim())

/** The ERC-20 contract of a token (from CAIP-10 or a plain address); undefined for native or malformed ones. */
export function tokenContract(token: Pick<TokenBalance, 'address'>): Address | undefined {
  if (isNativeToken(token)) return undefined
  const address = addressPart(token.address) ?? ''
  return isAddress(address, { strict: false }) ? getAddress(address) : undefined
}

/** The eip155 reference of a CAIP-2 chain id (`eip155:1` → 1, or a bare `1`); undefined for other namespaces. */
export function chainReference(token: Pick<TokenBalance, 'chainId'>): number | undefined {
  const id = token.chainId.trim()
  return eip155Reference(isCaip2(id) ? id : formatChainId('eip155', id))
}

/** A token on a Solana chain (`solana:` + the genesis hash): SOL, or an SPL token. */
export function isSolanaToken(token: Pick<TokenBalance, 'chainId'>): boolean {
  return token.chainId.trim().startsWith('solana:') && isCaip2(token.chainId.trim())
}

/** The chain namespace a token is sent on. */
export const tokenNamespace = (token: Pick<TokenBalance, 'chainId'>): ChainNamespace =>
  isSolanaToken(token) ? 'solana' : 'eip155'

/** The SPL mint of a Solana token (from CAIP-10 or a plain base58 key); undefined for SOL or malformed ones. */
export function solanaMint(token: Pick<TokenBalance, 'address'>): string | undefined {
  if (isNativeToken(token)) return undefined
  const address = addressPart(token.address) ?? ''
  return isSolanaAddress(address) ? address : undefined
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * A Solana public key: base58 that decodes to exactly 32 bytes (web3.js' `PublicKey` takes no other). Checked
 * here, so the form needs no Solana code to say an address is wrong.
 *
 * @example isSolanaAddress('11111111111111111111111111111111') // true (the system program)
 */
export function isSolanaAddress(value: string): boolean {
  if (!BASE58.test(value)) return false
  let n = 0n
  for (const char of value) n = n * 58n + BigInt(BASE58_ALPHABET.indexOf(char))
  // Each leading '1' is a zero byte; the rest is the number's bytes.
  const zeros = value.length - value.replace(/^1+/, '').length
  const hex = n === 0n ? '' : n.toString(16)
  return zeros + Math.ceil(hex.length / 2) === 32
}

/**
 * The form is about a Solana token.
 * @internal
 */
export const isSolanaContext = (context: Pick<SendContext, 'token'>) =>
  context.token !== undefined && isSolanaToken(context.token)

const DECIMAL = /^(\d+\.?\d*|\.\d+)$/
/** A name: labels joined by dots (ENS, `.reown.id`), no spaces. */
const NAME = /^[^\s.]+(\.[^\s.]+)+$/

/** The amount in base units, or undefined if it is not a decimal the token can hold. */
export function parseAmount(amount: string, decimals: number): bigint | undefined {
  const text = amount.trim()
  if (!DECIMAL.test(text)) return undefined
  const fraction = text.split('.')[1] ?? ''
  if (fraction.length > decimals) return undefined
  return parseUnits(text, decimals)
}

function decimalsOf(token: TokenBalance): number | undefined {
  const decimals = Number(token.quantity.decimals)
  return Number.isInteger(decimals) && decimals >= 0 && decimals <= 255 ? decimals : undefined
}

function balanceOf(token: TokenBalance): bigint | undefined {
  const decimals = decimalsOf(token)
  if (decimals === undefined) return undefined
  const numeric = token.quantity.numeric.trim()
  if (!DECIMAL.test(numeric)) return undefined
  // A balance with more decimals than the token is a rounding artefact; the extra digits are dropped.
  const [whole = '', fraction = ''] = numeric.split('.')
  return parseUnits(`${whole || '0'}.${fraction.slice(0, decimals) || '0'}`, decimals)
}

/**
 * The first problem with the form (SPEC §5, in its order), or undefined when it can be previewed. Views use it
 * to label the preview button; the machine shows it when `send.preview` comes anyway.
 *
 * @example
 * const problem = validateSend(snapshot.context)
 * <button disabled={problem !== undefined}>{problem?.shortMessage ?? 'Preview send'}</button>
 */
export function validateSend(
  form: Pick<SendContext, 'token' | 'sendTokenAmount' | 'receiverAddress'>,
): BaseError | undefined {
  const amount = form.sendTokenAmount?.trim() ?? ''
  const receiver = form.receiverAddress?.trim() ?? ''
  if (!amount || !receiver) return new AmountAndReceiverRequiredError()
  const token = form.token
  if (!token) return new TokenRequiredError()
  if (isSolanaToken(token)) return validateSolanaSend(token, amount, receiver)
  if (chainReference(token) === undefined) return new UnsupportedChainError({ details: token.chainId })
  const decimals = decimalsOf(token)
  if (decimals === undefined || (!isNativeToken(token) && tokenContract(token) === undefined)) {
    return new InvalidTokenError()
  }
  const value = parseAmount(amount, decimals)
  if (value === undefined || value === 0n) return new InvalidAmountError()
  const balance = balanceOf(token)
  if (balance !== undefined && value > balance) return new InsufficientBalanceError()
  if (hasWrongChecksum(receiver)) return new ReceiverChecksumError({ details: receiver })
  if (!isAddress(receiver, { strict: false }) && !NAME.test(receiver)) return new InvalidReceiverError()
  return undefined
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * EIP-55: a 0x address in mixed case whose checksum does not match (a mistyped letter, or a changed case). All
 * lowercase and all uppercase hex carry no checksum and pass; names and other text are not addresses here.
 *
 * @example
 * hasWrongChecksum('0x70997970C51812dc3A010C7d01b50e0d17dc79C8') // false
 * hasWrongChecksum('0x70997970c51812dc3A010C7d01b50e0d17dc79C8') // true
 */
export function hasWrongChecksum(receiver: string | undefined): boolean {
  const text = receiver?.trim() ?? ''
  if (!HEX_ADDRESS.test(text)) return false
  const hex = text.slice(2)
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return false
  return !isAddress(text, { strict: true })
}

/**
 * What differs between the selected token's stated decimals and symbol and its contract's; undefined if none.
 * @internal
 */
export function tokenMismatchOf(
  context: Pick<SendContext, 'token'>,
  onChain: TokenOnChain,
): string | undefined {
  const token = context.token!
  const name = onChain.symbol ?? token.symbol
  if (decimalsOf(token) !== onChain.decimals)
    return `${name}: the contract states ${onChain.decimals} decimals, the balances ${token.quantity.decimals}`
  if (
    onChain.symbol !== undefined &&
    onChain.symbol.trim().toLowerCase() !== token.symbol.trim().toLowerCase()
  )
    return `The contract's symbol is ${onChain.symbol}, not ${token.symbol}`
  return undefined
}

/** The decimals an amount of the token is scaled by: its contract's once checked, else the balances'. */
function sendDecimalsOf(context: Pick<SendContext, 'token' | 'tokenOnChain'>): number {
  const token = context.token!
  const checked = context.tokenOnChain
  const contract = tokenContract(token)
  if (checked && contract && checked.address.toLowerCase() === contract.toLowerCase()) return checked.decimals
  return decimalsOf(token)!
}

/** SPEC §5 on Solana: the same checks, an SPL token named by its mint, a base58 public key as receiver. */
function validateSolanaSend(token: TokenBalance, amount: string, receiver: string): BaseError | undefined {
  const decimals = decimalsOf(token)
  if (decimals === undefined || (!isNativeToken(token) && solanaMint(token) === undefined)) {
    return new InvalidTokenError()
  }
  const value = parseAmount(amount, decimals)
  if (value === undefined || value === 0n) return new InvalidAmountError()
  const balance = balanceOf(token)
  if (balance !== undefined && value > balance) return new InsufficientBalanceError()
  if (isSolanaAddress(receiver)) return undefined
  // Names (ENS, .reown.id) resolve to eip155 addresses only (SPEC §1): say so rather than "invalid".
  if (NAME.test(receiver)) return new NameOnSolanaError({ details: receiver })
  return new InvalidReceiverError({ details: 'Not a Solana address (base58, 32 bytes)' })
}

/** The form as a Solana request, from the kit's sender. Only called where the form is known to be valid. */
export function solanaRequestOf(context: SendContext): SolanaSendRequest {
  const token = context.token!
  const decimals = decimalsOf(token)!
  const mint = solanaMint(token)
  const sender = context.sender?.namespace === 'solana' ? context.sender : undefined
  return {
    chainId: token.chainId.trim() as `solana:${string}`,
    // No Solana account: the slot refuses (SendAccountNotFoundError) rather than the machine guessing one.
    from: sender?.address ?? '',
    connectorId: sender?.connectorId ?? '',
    to: context.resolvedAddress!,
    amount: parseAmount(context.sendTokenAmount!, decimals)!,
    decimals,
    ...(mint ? { mint } : {}),
  }
}

/** The send as the `simulate` slot takes it: the request, with the token as the preview names and scales it. */
export function simulationRequestOf(context: SendContext): SendSimulationRequest {
  return { ...sendRequestOf(context), symbol: context.token!.symbol, decimals: sendDecimalsOf(context) }
}

/** The form as a request. Only called where the form is known to be valid. */
export function sendRequestOf(context: SendContext): SendRequest {
  const token = context.token!
  const contract = tokenContract(token)
  return {
    chainId: chainReference(token)!,
    to: context.resolvedAddress! as Address,
    amount: parseAmount(context.sendTokenAmount!, sendDecimalsOf(context))!,
    ...(contract ? { token: contract } : {}),
  }
}

/**
 * Whether the native balance pays the fee (and, for the native currency, the amount too), as far as known.
 * @internal
 */
export function canPayFee(context: SendContext, fee: FeeEstimate): boolean {
  const token = context.token!
  const feeWei = BigInt(fee.fee)
  if (isNativeToken(token)) {
    const balance = balanceOf(token)
    const amount = parseAmount(context.sendTokenAmount!, decimalsOf(token)!)!
    return balance === undefined || amount + feeWei <= balance
  }
  const native = context.tokenBalances.find((t) => t.chainId === token.chainId && isNativeToken(t))
  // Not listed is not proof of zero (the balances may not be loaded): the wallet and the chain will tell.
  const balance = native ? balanceOf(native) : undefined
  return balance === undefined || feeWei <= balance
}

export function maxAmount(context: SendContext): string {
  const token = context.token!
  const decimals = decimalsOf(token)
  const balance = balanceOf(token)
  if (decimals === undefined || balance === undefined) return token.quantity.numeric
  const reserve = isNativeToken(token) && context.fee ? BigInt(context.fee.fee) : 0n
  const max = balance > reserve ? balance - reserve : 0n
  return formatUnits(max, decimals)
}

export function sameToken(a: TokenBalance, b: TokenBalance): boolean {
  if (a.chainId !== b.chainId) return false
  if (isNativeToken(a) || isNativeToken(b)) return isNativeToken(a) && isNativeToken(b)
  const key = isSolanaToken(a) ? solanaMint : tokenContract
  return key(a) !== undefined && key(a) === key(b)
}

/**
 * What Pay's rules check a payment against: the kit's networks and the account that sends.
 * @internal
 */
export function paymentContext(
  context: SendContext,
  event: { networks: PayContext['networks'] },
): PayContext {
  return { networks: event.networks, connected: context.sender }
}

/** The native balance's USD value on a chain (the first native balance when no chain is given). */
export function networkBalanceInUsd(
  tokenBalances: TokenBalance[],
  chainId: string | undefined,
): string | undefined {
  const native = tokenBalances.find(
    (t) => isNativeToken(t) && (chainId === undefined || t.chainId === chainId),
  )
  return native ? String(native.value ?? 0) : undefined
}

/** The fee in USD, when the native currency's price is among the balances. */
export function feeInUsd(context: Pick<SendContext, 'fee' | 'token' | 'tokenBalances'>): number | undefined {
  const { fee, token } = context
  if (!fee || !token) return undefined
  const native = context.tokenBalances.find((t) => t.chainId === token.chainId && isNativeToken(t))
  const price = native?.price ?? (isNativeToken(token) ? token.price : undefined)
  if (price === undefined) return undefined
  return Number(fee.formatted) * price
}

/**
 * The send's transaction (src/machines/transaction.ts) as the form states it, with its namespace's rules. On
 * eip155 one payment is one transaction: the request holds the account's nonce (`holdsNonce`), and past the time
 * limit the chain is asked whether a transaction took it before the wallet is asked again; Solana's slot signs,
 * sends and confirms (`confirmedByWallet`), its time limit fails the send. A hash already sent (a send not seen
 * mined, checked again) is only looked for, never sent again.
 * @internal
 */
export function transactionOf(context: SendContext): TransactionInput {
  const sent = context.hash === undefined ? {} : { hash: context.hash }
  if (isSolanaContext(context)) {
    const transfer = solanaRequestOf(context)
    const request: SendWalletRequest = { wallet: 'solana', ...transfer, fee: context.fee }
    return {
      chainId: transfer.chainId,
      request,
      rules: { holdsNonce: false, confirmedByWallet: true },
      ...sent,
    }
  }
  const payment = sendRequestOf(context)
  const request: SendWalletRequest = payment.token
    ? { wallet: 'erc20', ...payment, token: payment.token, fee: context.fee }
    : { wallet: 'native', ...payment, fee: context.fee }
  return { chainId: payment.chainId, request, rules: { holdsNonce: true }, payment, ...sent }
}
