/** The onramp (Buy) flow's types (src/machines/onramp.ts): its context, events, notices and what its slots take. */
import type { ErrorInfo } from '../../errors/base'
import type { OnrampAmountOutOfRangeError } from '../../errors/onramp'

/**
 * The chain a purchase is delivered on: an eip155 reference, or a Solana network's CAIP-2 id (the account's
 * namespace decides which networks of the options it can receive on).
 */
export type OnrampChainId = number | `solana:${string}`

/** How the visitor pays the partner (SPEC §3 `payment_method_limits` ids the kit offers). */
export type OnrampPaymentMethod = 'card' | 'ach_bank_account'

/** A payment partner (issue 19: `coinbase` 1.0 %, `meld` 1.9 %). */
export interface OnrampProvider {
  /** `coinbase`, `meld`: what `onramp.choose` names and the Data API's `provider` / `onramp` parameters take. */
  id: string
  name: string
  /** The partner's fee in percent of the amount paid. */
  feePercent: number
}

/** A network a purchase currency is delivered on (SPEC §3 onramp options, the API's field names). */
export interface OnrampNetwork {
  /** The provider's network name (`walletstate-sandbox`, `ethereum`): the quote's and the URL's `network`. */
  name: string
  display_name: string
  /** The eip155 reference as a decimal string, or a Solana network's CAIP-2 reference (base58). */
  chain_id: string
  /** The token contract (an SPL mint on Solana), or the native currency's marker (0xeee…, So111…). */
  contract_address: string
}

/** SPEC §3: what can be bought. */
export interface OnrampPurchaseCurrency {
  /** `USDC`, `ETH`. */
  id: string
  name: string
  symbol: string
  /** Only eip155 and Solana networks are kept. */
  networks: OnrampNetwork[]
}

/** SPEC §3: the amounts a payment method accepts, decimal strings in the payment currency. */
export interface OnrampPaymentLimit {
  id: OnrampPaymentMethod
  min: string
  max: string
}

/** SPEC §3: what can be paid with. */
export interface OnrampPaymentCurrency {
  /** ISO 4217: `USD`, `EUR`. */
  id: string
  payment_method_limits: OnrampPaymentLimit[]
}

/** SPEC §3 onramp options (`GET /v1/onramp/options`), with issue 19's `providers`. */
export interface OnrampOptions {
  purchaseCurrencies: OnrampPurchaseCurrency[]
  paymentCurrencies: OnrampPaymentCurrency[]
  providers: OnrampProvider[]
}

/** An amount of a currency: a decimal string and the currency's id. */
export interface OnrampMoney {
  amount: string
  currency: string
}

/** SPEC §3 onramp quote (`POST /v1/onramp/quote`). */
export interface OnrampQuote {
  quoteId: string
  /** What the visitor pays: the amount typed. */
  paymentTotal: OnrampMoney
  /** What buys the tokens: the total less the fee. */
  paymentSubtotal: OnrampMoney
  fee: OnrampMoney
  /** What arrives in the wallet, in the purchase currency. */
  purchaseAmount: OnrampMoney
}

/** One provider's quote for the form as it is; `estimate` when the API failed and the kit worked it out. */
export interface OnrampQuoteEntry {
  quote: OnrampQuote
  estimate: boolean
}

/** What `fetchQuote` takes (SPEC §7 quote body, with issue 19's `provider`). */
export interface OnrampQuoteRequest {
  purchaseCurrency: string
  paymentCurrency: string
  /** A decimal string in the payment currency, two decimals (`50.00`). */
  amount: string
  /** The network's name. */
  network: string
  provider: string
  /** Its limits apply to the amount quoted. */
  paymentMethod: OnrampPaymentMethod
}

/** What `generateUrl` takes (SPEC §7 `POST /v1/generators/onrampurl`). */
export interface OnrampUrlRequest {
  /** The destination wallet: a 0x address, or base58 on Solana. */
  address: string
  /** The network's name. */
  network: string
  purchaseCurrency: string
  paymentCurrency: string
  paymentMethod: OnrampPaymentMethod
  /** The fiat amount, a decimal string (`50.00`). */
  amount: string
  provider: string
}

/** What `openPartner` takes: the provider whose partner page the window will show (its origins are checked). */
export interface OnrampPartnerInput {
  provider: string
}

/** What the machine tells `openPartner`: the partner page to send the blank window to. */
export type OnrampPartnerCommand = { type: 'partner.navigate'; url: string }

/** What `fetchPurchases` takes: that provider's orders for the address (`history?onramp=<provider>`). */
export interface OnrampPurchasesRequest {
  address: string
  /** The delivery network. */
  chainId: OnrampChainId
  provider: string
}

export type OnrampOrderStatus = 'pending' | 'confirmed' | 'failed'

/** One order of a provider, as `fetchPurchases` lists them (newest first). */
export interface OnrampOrder {
  id: string
  status: OnrampOrderStatus
  /** The purchase amount, a decimal string of `symbol`. */
  amount: string
  symbol: string
  /** The delivery transaction; '' until delivered. */
  hash: string
}

/** The purchase that landed in the wallet. */
export interface OnrampPurchase {
  id: string
  amount: string
  symbol: string
  hash: string
}

export interface OnrampContext {
  /** The destination wallet (0x, or base58 on Solana): the kit starts an onramp machine per account. */
  address: string
  /**
   * The delivery network: the account's, unless the purchase currency is not on it (then another of the
   * account's namespace).
   */
  chainId: OnrampChainId
  /** What can be bought and paid with; undefined until loaded. */
  options: OnrampOptions | undefined
  /** The options are the kit's built-in samples (the Data API failed, SPEC §8): the views say "estimate". */
  estimates: boolean
  /** A payment currency id of the options (`USD`). */
  paymentCurrency: string
  /** A purchase currency id of the options (`USDC`). */
  purchaseCurrency: string
  /** The fiat amount as typed. */
  amount: string
  paymentMethod: OnrampPaymentMethod
  /** One quote per provider for the form as it is; emptied by every change. */
  quotes: Record<string, OnrampQuoteEntry>
  /** Providers whose quote failed and that the kit cannot estimate (a purchase currency without a sample price). */
  quoteFailures: string[]
  /** The amount is not one the payment method takes (empty while the amount is). */
  amountError: OnrampAmountOutOfRangeError | undefined
  /** The provider chosen (`onramp.choose`). */
  provider: string | undefined
  /** The partner page generated for the purchase. */
  url: string | undefined
  /** The provider's order ids before the partner page opened: a purchase is an order not among them. */
  baseline: string[] | undefined
  /** Once the purchase is confirmed. */
  purchase: OnrampPurchase | undefined
  error: ErrorInfo | undefined
}

export interface OnrampInput {
  address: string
  chainId: OnrampChainId
}

export type OnrampEvent =
  | { type: 'onramp.setPaymentCurrency'; id: string }
  | { type: 'onramp.setPurchaseCurrency'; id: string }
  /** One of the purchase currency's networks. */
  | { type: 'onramp.setNetwork'; chainId: OnrampChainId }
  | { type: 'onramp.setAmount'; amount: string }
  | { type: 'onramp.setPaymentMethod'; id: OnrampPaymentMethod }
  /** A provider with a quote, the amount within the limits: the partner page is opened. */
  | { type: 'onramp.choose'; provider: string }
  /** From a failure, or after a purchase (another one): back to the form, every choice kept, quotes asked for afresh. */
  | { type: 'onramp.retry' }
  /** From opening or waiting: back to the form, every choice kept. */
  | { type: 'onramp.cancel' }
  /** From `openPartner`: the partner window is open. */
  | { type: 'onramp.partnerOpened' }
  /** From `openPartner`: the partner window was closed. */
  | { type: 'onramp.partnerClosed' }
  /** From `openPartner`: the window could not be opened (a pop-up blocker), or the URL's origin was refused. */
  | { type: 'onramp.partnerFailed'; error: unknown }

/** What the onramp machine tells the kit (`actor.on(type, …)`). */
export type OnrampNotice =
  /** A provider was chosen: its partner page is being prepared and opened (the kit shows the purchase view). */
  | { type: 'onramp.opening'; provider: string }
  /** The partner page is open in its own window. */
  | { type: 'onramp.opened'; provider: string; url: string }
  /** The purchase landed: the kit shows "Purchase complete: …" and refreshes balances and history. */
  | {
      type: 'onramp.succeeded'
      provider: string
      amount: string
      symbol: string
      hash: string
      /** The success toast's text: "Purchase complete: received 49.5 USDC" (at most 6 decimals). */
      message: string
    }
