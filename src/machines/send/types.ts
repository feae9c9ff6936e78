/** The send flow's types (src/machines/send.ts): its context, events, notices and what its slots take. */
import type { Address, Hex } from 'viem'
import type { BalanceChange, BalanceSimulation } from '../../chains/eip155/simulate'
import type { KitNetwork } from '../../config'
import type { ErrorInfo } from '../../errors/base'
import type { ChainId, ChainNamespace, ConnectionAccount } from '../connection'
import type { PayRequest } from '../pay/types'
import type {
  NonceCheck as TransactionNonceCheck,
  TransactionNotice,
  TransactionReceipt,
} from '../transaction/types'

export type { NonceReading, NonceStatus, ReceiptRequest } from '../transaction/types'

/** SPEC §3 token balance, as the Data API reports it. */
export interface TokenBalance {
  name: string
  symbol: string
  /** CAIP-2, e.g. `eip155:1`, or `solana:<genesis hash, 32 characters>`. */
  chainId: string
  /**
   * CAIP-10 (`eip155:1:0x…`, `solana:…:<mint>`) or a plain address for a token (an SPL token's is its mint);
   * absent (or the 0xeee… marker) for the native currency (ETH, SOL).
   */
  address?: string | undefined
  /** In USD: quantity times price. */
  value?: number | undefined
  price: number
  quantity: { decimals: string; numeric: string }
  iconUrl?: string | undefined
}

/** What the network fee preview shows. Amounts are decimal strings in wei, so snapshots stay plain data. */
export interface FeeEstimate {
  /** Gas limit (eip155); on Solana the number of signatures. */
  gas: string
  /** EIP-1559 fees; a legacy chain has `gasPrice` instead. */
  maxFeePerGas?: string | undefined
  maxPriorityFeePerGas?: string | undefined
  gasPrice?: string | undefined
  /**
   * The most the transaction can cost: gas × (maxFeePerGas or gasPrice), in wei; on Solana the signature fees
   * plus `rent`, in lamports.
   */
  fee: string
  /** Solana: the rent (lamports) of the recipient's token account the send creates; absent when none is. */
  rent?: string | undefined
  /** `fee` in the native currency's units, e.g. '0.000042'. */
  formatted: string
  /** The native currency's symbol and decimals. */
  symbol: string
  decimals: number
}

/** What `resolveName` answers for a name. */
export interface ResolvedName {
  address: Address
  name: string
  imageUrl?: string | undefined
}

/** What the fee is estimated for and what is sent: the form, parsed. */
export interface SendRequest {
  /** The token's chain (eip155 reference). */
  chainId: number
  to: Address
  /** In the token's base units. */
  amount: bigint
  /** The ERC-20 contract; absent for the native currency. */
  token?: Address | undefined
}

/** A send request with the fee the visitor was shown, so the wallet is asked for the same. */
export interface SendTransactionRequest extends SendRequest {
  fee?: FeeEstimate | undefined
  /**
   * The account's transaction slot, read before the first request of this payment: a request sent again after
   * the wallet's time limit asks for the same one, so at most one of the two can be mined.
   */
  nonce?: number | undefined
}

/** `sendErc20`'s input: the request and the ERC-20 contract it transfers (named, so declarations name it). */
export interface Erc20TransferRequest extends SendTransactionRequest {
  token: Address
}

/** `readTokenMetadata`'s input: the token contract to read (named, so declarations name it). */
export interface TokenMetadataRequest {
  chainId: number
  address: Address
}

/** An ERC-20's `decimals()` and `symbol()` read on chain (`readTokenMetadata`). */
export interface TokenOnChain {
  /** eip155 reference. */
  chainId: number
  /** The contract. */
  address: string
  decimals: number
  /** Absent when the contract answers no readable one. */
  symbol?: string | undefined
}

/** What `checkNonce` and `watchNonce` look at: the held nonce and the payment that should take it. */
export type NonceCheck = TransactionNonceCheck<SendRequest>

/**
 * A Solana send (SOL, or an SPL token by its mint), from the connected Solana account. What `estimateSolanaFee`
 * prices and `sendSolana` sends and confirms.
 */
export interface SolanaSendRequest {
  /** The token's CAIP-2 chain (`solana:…`): the configured network whose RPC is used. */
  chainId: `solana:${string}`
  /** The sender's base58 public key and the connector that signs. */
  from: string
  connectorId: string
  /** The recipient's base58 public key (for a token, its wallet: the token account is derived). */
  to: string
  /** In base units: lamports, or the token's smallest unit. */
  amount: bigint
  /** The SPL token's mint (base58); absent for SOL. */
  mint?: string | undefined
  /** The token's decimals (9 for SOL). */
  decimals: number
}

export type SendReceipt = TransactionReceipt

/**
 * What the transaction's `ask` slot is given (src/machines/transaction.ts): the wallet request, and which of the
 * send's slots asks it (`wallet`, left out of what the slot receives): the native currency's, an ERC-20's
 * transfer, or Solana's (it signs, sends and confirms). The transaction adds the payment's nonce on eip155.
 */
export type SendWalletRequest =
  | ({ wallet: 'native' } & SendTransactionRequest)
  | ({ wallet: 'erc20' } & SendTransactionRequest & { token: Address })
  | ({ wallet: 'solana' } & SolanaSendRequest & { fee?: FeeEstimate | undefined })

/** SPEC §3 Send state, plus the fee preview, the last error and the transaction hash. */
export interface SendContext {
  token: TokenBalance | undefined
  /** As typed. */
  sendTokenAmount: string | undefined
  /** As typed: an address or a name. */
  receiverAddress: string | undefined
  /**
   * The address the transaction goes to, once the receiver is checked (or its name resolved): a checksummed 0x
   * address on eip155, a base58 public key on Solana.
   */
  resolvedAddress: string | undefined
  receiverProfileName: string | undefined
  receiverProfileImageUrl: string | undefined
  /** The native balance of the token's network in USD (SPEC §3), from the token balances. */
  networkBalanceInUsd: string | undefined
  /** True while a transaction is being sent or confirmed (the `loading` tag says the same). */
  loading: boolean
  tokenBalances: TokenBalance[]
  /** The last fee estimate for the selected token; kept while editing so Max can leave room for it. */
  fee: FeeEstimate | undefined
  error: ErrorInfo | undefined
  /** The hash of the transaction sent (a Solana transaction's base58 signature); kept in `done` until the next send. */
  hash: string | undefined
  /**
   * Who sends: the kit's active account (`send.setSender`). The eip155 slots ask wagmi; a Solana send is signed
   * by this account's connector.
   */
  sender: ConnectionAccount | undefined
  /**
   * See before you sign: the preview's send simulated on the chain (eip155), once it has been; undefined before,
   * on Solana, and when the node could not answer (then the preview shows no balance-change line).
   */
  simulation: SendSimulation | undefined
  /** The selected ERC-20 as its contract states it (checked before the preview); amounts are scaled by it. */
  tokenOnChain: TokenOnChain | undefined
}

export interface SendInput {
  tokenBalances?: TokenBalance[]
  token?: TokenBalance
  sender?: ConnectionAccount | undefined
}

export type SendEvent =
  | { type: 'send.setToken'; token: TokenBalance }
  | { type: 'send.setAmount'; amount: string }
  | { type: 'send.setReceiver'; receiverAddress: string }
  /** The whole balance; for the native currency less the last fee estimate, if there is one. */
  | { type: 'send.setMax' }
  /** Fresh balances (the Data API); the selected token follows its entry. Accepted in every state. */
  | { type: 'send.setTokenBalances'; tokenBalances: TokenBalance[] }
  /** The account that sends (the kit's active one), or none. Accepted in every state. */
  | { type: 'send.setSender'; sender: ConnectionAccount | undefined }
  | { type: 'send.preview' }
  | { type: 'send.confirm' }
  /** Back to the form, values kept (from the preview, a name lookup or a failed send). */
  | { type: 'send.edit' }
  /**
   * Failed: send again; preview unavailable: estimate again; unconfirmed: look for the receipt again; past the
   * wallet's time limit (`overdue`): send again with the same nonce.
   */
  | { type: 'send.retry' }
  /** The send state reset (SPEC §4): also while the wallet is asked (abandoned); not while confirming. */
  | { type: 'send.reset' }
  /** The host's payment (Pay): checked (`paymentRefused`), then the form filled with it and previewed. */
  | { type: 'send.pay'; request: PayRequest; networks: readonly KitNetwork[] }
  /** From the send's transaction (src/machines/transaction.ts): where it stands. */
  | TransactionNotice

/** What the send machine tells the kit (`actor.on(type, …)`). */
export type SendNotice =
  | { type: 'send.previewing' }
  /** The form was refused on review (SPEC §5: amount, receiver, token): the modal shakes (SPEC §2). */
  | { type: 'send.refused' }
  | { type: 'send.submitted'; hash: Hex; chainId: number }
  | {
      type: 'send.succeeded'
      /** The transaction hash; on Solana the base58 signature. */
      hash: string
      /** eip155's chain number, or Solana's CAIP-2 id. */
      chainId: ChainId
      /** SPEC §2: a native eip155 send goes back; an ERC-20 or any Solana send returns to Account. */
      namespace: ChainNamespace
      native: boolean
      symbol: string
      amount: string
      to: string
    }
  | { type: 'send.failed'; error: ErrorInfo; hash?: string | undefined }
  /** The wallet did not answer the transaction request in time (SPEC §8 alert REQUEST_TIMED_OUT). */
  | { type: 'request.timedOut'; request: 'send' }
  /** The payment was taken: the form is filled and previewed. */
  | { type: 'send.payAccepted' }
  /** The payment was refused (`payRefusal`'s reason): the form is untouched. */
  | { type: 'send.payRefused'; error: ErrorInfo }

/** What the `simulate` slot simulates: the send as it will be asked, with the token as the preview names it. */
export interface SendSimulationRequest extends SendRequest {
  symbol: string
  /** The decimals the preview scaled the amount by. */
  decimals: number
}

/** A simulated balance change as plain data (the delta a decimal string in base units, signed). */
export type PlainBalanceChange = Omit<BalanceChange, 'delta'> & { delta: string }

/**
 * What the `simulate` slot answers: the account it simulated from, and what it found, as plain data (snapshots
 * and slot answers stay JSON; `simulationResultOf` gives the bigint form back).
 */
export interface SendSimulation {
  account: Address
  result:
    | { status: 'simulated'; changes: PlainBalanceChange[] }
    | Exclude<BalanceSimulation, { status: 'simulated' }>
}
