/** The swap flow's types (src/machines/swap.ts): its context, events, notices and what its slots take. */
import type { Address, Hex } from 'viem'
import type { ErrorInfo } from '../../errors/base'
import type { BatchNotice } from '../calls/batch'
import type { SendSimulation, TokenBalance } from '../send/types'
import type { TransactionNotice } from '../transaction/types'

export type { TokenBalance } from '../send/types'

/**
 * The chain a swap is on: an eip155 reference, or a Solana network's CAIP-2 id (its swaps are filled by the
 * convert API's maker: one transaction the maker signs first, src/chains/solana/swapCheck.ts).
 */
export type SwapChainId = number | `solana:${string}`

/** A token the convert API swaps (SPEC §7 `GET /v1/convert/tokens`). */
export interface SwapToken {
  /** The contract, or the 0xeee… marker for the native currency. */
  address: string
  symbol: string
  name: string
  decimals: number
  /** CAIP-2, e.g. `eip155:1`. */
  chainId: string
  logoUri?: string | undefined
  /** In USD, when known. */
  price?: number | undefined
}

/** SPEC §7 `GET /v1/convert/quotes`: amounts in base units (decimal strings), so snapshots stay plain data. */
export interface SwapQuote {
  /** What is paid, in the `from` token's base units. */
  fromAmount: string
  /** What is received, in the `to` token's base units. */
  toAmount: string
  /** In percent, e.g. 0.3. */
  priceImpact?: number | undefined
  /** The provider's fee, in the `from` token's base units. */
  fee?: string | undefined
  /** The most the swap transaction's gas can cost, in wei (on Solana: the network fee, lamports). */
  gasFee: string
  /** The maker's quote id, which its build takes (Solana); absent for a pool's quote. */
  id?: string | undefined
  /** The maker (base58) that fills the quote and signs its transaction first (Solana). */
  maker?: string | undefined
  /** Unix ms after which the maker no longer fills the quote (Solana). */
  expiresAt?: number | undefined
}

/** A transaction the convert API built (build-approve, build-transaction), for the wallet to send. */
export interface SwapTransaction {
  to: Address
  data: Hex
  /** In wei, decimal string. */
  value: string
  /** Gas limit, when the API estimated it. */
  gas?: string | undefined
  gasPrice?: string | undefined
  /**
   * On Solana (no EVM call: `to` and `data` are '0x', `value` '0'): the maker's transaction, base64 of its wire
   * bytes, signed by the maker; the visitor's wallet adds the fee payer's signature.
   */
  solana?: SwapSolanaTransaction | undefined
}

/** A Solana swap transaction as the maker built it. */
export interface SwapSolanaTransaction {
  /** Base64 wire bytes of the versioned transaction. */
  transaction: string
  /** The maker (base58), its first signer. */
  maker: string
  /** Who pays the network fee (base58): the visitor. */
  feePayer: string
  /** The network fee, lamports. */
  fee: string
}

/** What `fetchTokens` takes. */
export interface SwapTokensRequest {
  chainId: SwapChainId
}

/** What `fetchQuote` takes (SPEC §7 quotes: amount, userAddress, from, to). */
export interface SwapQuoteRequest {
  chainId: SwapChainId
  /** A 0x address on eip155, base58 on Solana. */
  userAddress: string
  from: string
  to: string
  /** In the `from` token's base units. */
  amount: string
}

/** What `fetchAllowance` takes (SPEC §7 allowance: tokenAddress, userAddress). Answers base units. */
export interface SwapAllowanceRequest {
  chainId: SwapChainId
  userAddress: string
  tokenAddress: string
}

/** What `buildApprove` takes: the allowance to set, '0' first when a smaller one is in the way (USDT-style). */
export interface SwapApproveRequest {
  chainId: SwapChainId
  userAddress: string
  from: string
  to: string
  /** In the `from` token's base units. */
  amount: string
}

/** What `buildSwap` takes (SPEC §7 build-transaction: amount, eip155.slippage, from, to, userAddress). */
export interface SwapBuildRequest extends SwapQuoteRequest {
  /** In percent. */
  slippage: number
  /** Built before its approval is mined: the API cannot estimate its gas (the wallet does, when it sends). */
  disableEstimate?: boolean
  /** The maker's quote to fill (Solana). */
  quoteId?: string
}

/** An approval built for the swap, with the allowance it sets (the amount, or '0' first, USDT-style). */
export interface SwapApproval {
  /** In the `from` token's base units. */
  amount: string
  transaction: SwapTransaction
}

/** What the preview has built so far (not checked yet): its approvals in order, then the swap. */
export interface SwapBuild {
  approvals: SwapApproval[]
  swap?: SwapTransaction | undefined
}

/**
 * What `checkBuild` takes: every transaction built for the swap and the swap the visitor reviews (the pair as
 * the convert API names the tokens, the amount, the least amount out the preview shows), on the account's chain.
 */
export interface SwapCheckRequest {
  chainId: SwapChainId
  account: string
  /** The maker the quote named (Solana): the one whose signature the transaction must carry. */
  maker?: string | undefined
  tokenIn: string
  tokenOut: string
  /** Base units of the token paid. */
  amountIn: string
  /** The quote shown less the slippage, base units of the token received. */
  minAmountOut: string
  approvals: SwapApproval[]
  swap: SwapTransaction
}

/** What `checkBuild` answers: the transactions checked, the only ones a wallet may be asked for. */
export interface SwapPrepared {
  approvals: SwapApproval[]
  swap: SwapTransaction
  /** How long the swap stays executable from when it was checked (its deadline), in ms. */
  validForMs: number
}

/**
 * What `simulate` takes: the checked transactions in the order the wallet will be asked for them (approvals,
 * then the swap), from the account, with the two tokens of the pair as the preview names and scales them.
 */
export interface SwapSimulationRequest {
  chainId: SwapChainId
  account: string
  calls: SwapTransaction[]
  tokens: { address: Address; symbol: string; decimals: number }[]
}

/** What `simulate` answers: the account's balance changes, as plain data (the send flow's shape). */
export type SwapSimulation = SendSimulation

/** What `sendTransaction` takes: a built transaction on its chain. Answers the hash. */
export interface SwapSendRequest extends SwapTransaction {
  chainId: SwapChainId
  /** On Solana: the wallet (its connector) that signs, and the account it must sign as. */
  connectorId?: string | undefined
  from?: string | undefined
  /** For the wallet's prompt and the activity list. */
  kind: 'approve' | 'swap'
}

export interface SwapReceiptRequest {
  hash: Hex
  chainId: number
  /** How long the slot may wait (SPEC §9: 25 s); the machine also stops waiting then. */
  timeoutMs: number
}

export interface SwapReceipt {
  status: 'success' | 'reverted'
  /** Decimal string. */
  blockNumber: string
}

export interface SwapContext {
  /**
   * The account's chain (eip155 reference, or a Solana network's CAIP-2 id) and address (0x, or base58): the kit
   * starts a swap machine per account.
   */
  chainId: SwapChainId
  userAddress: string
  /** The account's connector (Solana: the wallet asked to sign after the maker). */
  connectorId?: string | undefined
  tokens: SwapToken[]
  from: SwapToken | undefined
  to: SwapToken | undefined
  /** The amount paid, as typed (a decimal in the `from` token's units). */
  amount: string
  /** In percent; DEFAULT_SLIPPAGE unless set. */
  slippage: number
  /** The account's balances (the Data API's), for the checks and Max. */
  balances: TokenBalance[]
  /** The quote for the form as it is; cleared when the pair or amount changes. */
  quote: SwapQuote | undefined
  /** The `from` token's allowance for the router, base units; undefined until checked (and for native). */
  allowance: string | undefined
  /** What the preview has built so far, not yet checked. */
  built: SwapBuild | undefined
  /** The approvals and the swap as checked (`checkBuild`): the only transactions a wallet is asked for. */
  prepared: SwapPrepared | undefined
  /** The checked transactions simulated on the chain (undefined until then, or when the node cannot). */
  simulation: SwapSimulation | undefined
  /** The last transaction sent (approval or swap). */
  hash: Hex | undefined
  /** What `hash` is. */
  hashKind: 'approve' | 'swap' | undefined
  /** The batch the wallet took (approvals and swap in one), while its outcome may be looked for again. */
  batchId?: string | undefined
  error: ErrorInfo | undefined
}

export interface SwapInput {
  chainId: SwapChainId
  userAddress: string
  /** The connector of the account (Solana: the wallet asked to sign). */
  connectorId?: string
  from?: SwapToken
  to?: SwapToken
  balances?: TokenBalance[]
  slippage?: number
}

export type SwapEvent =
  | { type: 'swap.setAmount'; amount: string }
  /** A token the other side holds swaps the two. */
  | { type: 'swap.selectFrom'; token: SwapToken }
  | { type: 'swap.selectTo'; token: SwapToken }
  /** The pair reversed; the amount stays (now of the other token). */
  | { type: 'swap.flip' }
  /** The whole balance of the token paid; for the native currency less the quote's network fee, if known. */
  | { type: 'swap.max' }
  /** In percent; ignored unless 0 < slippage ≤ SWAP_SLIPPAGE_MAX. */
  | { type: 'swap.setSlippage'; slippage: number }
  /** Fresh balances (the Data API). Accepted in every state. */
  | { type: 'swap.setBalances'; balances: TokenBalance[] }
  /** The form with a quote: to the preview (or the first problem shown). */
  | { type: 'swap.review' }
  /** In the preview: approve (when the allowance is short) or swap. */
  | { type: 'swap.confirm' }
  /** Tokens, quote or allowance failed: ask again; a failed transaction: a fresh quote. */
  | { type: 'swap.retry' }
  /** Stop the current step: back to the preview (wallet steps) or the form; pair and amount kept. */
  | { type: 'swap.cancel' }
  /** Back to the form, values kept. */
  | { type: 'swap.back' }
  /** From the approval's or the swap's transaction (src/machines/transaction.ts): where it stands. */
  | TransactionNotice
  /** From the approval and swap batched (src/machines/calls/batch.ts): the wallet took the batch. */
  | BatchNotice

/** What the swap machine tells the kit (`actor.on(type, …)`). */
export type SwapNotice =
  /** The review passed: the preview is open (the kit shows SwapPreview when the form asked for it). */
  | { type: 'swap.previewing' }
  | { type: 'swap.submitted'; hash: Hex; chainId: SwapChainId; kind: 'approve' | 'swap' }
  /** The swap was mined: the kit refreshes balances and history and shows a success toast. */
  | {
      type: 'swap.succeeded'
      /** The transaction's hash (0x), or its signature (base58) on Solana. */
      hash: Hex
      chainId: SwapChainId
      from: string
      to: string
      /** Decimals, in each token's units. */
      fromAmount: string
      toAmount: string
      /** The success toast's text: "Swapped 100 USDC for 0.0329 ETH" (what was received, at most 6 decimals). */
      message: string
    }
  | { type: 'swap.failed'; error: ErrorInfo; hash?: Hex | undefined }
  /** The wallet did not answer the transaction request in time (SPEC §8 alert REQUEST_TIMED_OUT). */
  | { type: 'request.timedOut'; request: 'swap' }
