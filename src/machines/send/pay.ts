import { isAddress } from 'viem'
import type { KitNetwork } from '../../config'
import { type PayError, PayNotConnectedError, PayRequestInvalidError } from '../../errors/pay'
import { type ConnectionAccount, chainNamespaceOf } from '../connection'
import type { PayRequest } from '../pay/types'
import type { TokenBalance } from './types'

/*
 * Pay (SPEC §1 `pay`, off by default; issue 18): the host asks the connected wallet to pay a fixed amount of a
 * token to a fixed recipient on a network. It is the send flow with its form filled by the host. The kit refuses
 * at once while Pay is off or another payment is open (Pay's own records, src/machines/pay.ts); the rest of the
 * request is checked here, by the send flow (`send.pay`, the `paymentRefused` guard), which loads with the first
 * payment: these rules are not in the host's first-click code (issue 14's budget). Then the form is filled
 * (`payToken`), the preview shows and the visitor approves.
 */

/** What a payment is checked against: the configured networks and the account that pays. */
export interface PayContext {
  networks: readonly KitNetwork[]
  connected: ConnectionAccount | undefined
}

const DECIMAL = /^(\d+\.?\d*|\.\d+)$/
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** The configured network a payment is on: its own, or the connected account's. */
export function payNetwork(context: PayContext, request: PayRequest) {
  const connected = context.connected
  const id =
    request.network ??
    (connected
      ? typeof connected.chainId === 'number'
        ? `eip155:${connected.chainId}`
        : connected.chainId
      : undefined)
  return context.networks.find((n) => n.caipNetworkId === id)
}

/**
 * Why the send flow does not take a payment, or undefined when it can: an account is connected on the payment's
 * network namespace, and the request is well formed (recipient and asset addresses of that namespace, a positive
 * amount the asset can hold).
 *
 * @example
 * payRefusal({ networks, connected }, { recipient: '0xab…', amount: '0.1' }) // undefined, or a PayError
 * @internal
 */
export function payRefusal(context: PayContext, request: PayRequest): PayError | undefined {
  const invalid = (details: string) => new PayRequestInvalidError({ details })
  if (!request || typeof request !== 'object') return invalid('The request must be an object')
  const network = payNetwork(context, request)
  if (!network)
    return request.network
      ? invalid(`${request.network} is not a configured network`)
      : new PayNotConnectedError()
  const account = context.connected
  if (!account || chainNamespaceOf(account) !== network.chainNamespace)
    return new PayNotConnectedError({ details: `No account is connected on ${network.name}` })
  const address = network.chainNamespace === 'solana' ? BASE58_KEY : EVM_ADDRESS
  if (typeof request.recipient !== 'string' || !address.test(request.recipient))
    return invalid(`recipient: not an address on ${network.name}`)
  // EIP-55: a mixed-case address carries its checksum, and a wrong one is refused, never fixed.
  if (network.chainNamespace !== 'solana' && !checksumHolds(request.recipient))
    return invalid('recipient: its EIP-55 checksum does not match')
  const decimals = request.asset ? request.asset.decimals : network.nativeCurrency.decimals
  if (request.asset) {
    const { symbol, address: token } = request.asset
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)
      return invalid('asset.decimals: must be a whole number from 0 to 255')
    if (typeof symbol !== 'string' || symbol === '')
      return invalid('asset.symbol: must be a non-empty string')
    if (token !== undefined && (typeof token !== 'string' || !address.test(token)))
      return invalid(`asset.address: not a token address on ${network.name}`)
  }
  const amount = typeof request.amount === 'string' ? request.amount.trim() : ''
  if (!DECIMAL.test(amount) || !/[1-9]/.test(amount) || (amount.split('.')[1] ?? '').length > decimals)
    return invalid(`amount: must be a positive decimal with at most ${decimals} decimals`)
  return undefined
}

/** All-lowercase or all-uppercase hex carries no checksum; mixed case must match its EIP-55 checksum. */
function checksumHolds(address: string): boolean {
  const hex = address.slice(2)
  return hex === hex.toLowerCase() || hex === hex.toUpperCase() || isAddress(address, { strict: true })
}

/**
 * The send flow's token for a payment (checked by `payRefusal`): the asset on the payment's network, or that
 * network's native currency. Its balance is not known here (the send flow takes it from the account's balances).
 */
export function payToken(context: PayContext, request: PayRequest): TokenBalance {
  const network = payNetwork(context, request)!
  const asset = request.asset ?? {
    symbol: network.nativeCurrency.symbol,
    decimals: network.nativeCurrency.decimals,
    name: network.nativeCurrency.name,
  }
  return {
    name: asset.name ?? asset.symbol,
    symbol: asset.symbol,
    chainId: network.caipNetworkId,
    ...(asset.address ? { address: asset.address } : {}),
    price: 0,
    quantity: { decimals: String(asset.decimals), numeric: '' },
  }
}
