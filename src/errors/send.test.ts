import {
  ChainMismatchError,
  ContractFunctionRevertedError,
  InsufficientFundsError,
  UserRejectedRequestError,
} from 'viem'
import { mainnet, optimism } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { ConnectorAccountNotFoundError as WagmiConnectorAccountNotFoundError } from 'wagmi'
import {
  InsufficientBalanceError,
  InvalidReceiverError,
  SendAccountNotFoundError,
  SendChainMismatchError,
  SendTimeoutError,
  SendTransactionError,
  sendErrorInfo,
  TransactionRejectedError,
  TransactionRevertedError,
  toSendError,
} from './send'
import {
  SolanaInvalidAddressError,
  SolanaRpcUnavailableError,
  SolanaTransactionFailedError,
  SolanaUserRejectedError,
  toSolanaError,
} from './solana'

// toSendError recognises viem's and wagmi's errors by class, wherever they sit on the cause chain.
describe('toSendError: by class, along the cause chain', () => {
  it("viem's UserRejectedRequestError is a declined transaction, with its 4001 kept", () => {
    const raw = new UserRejectedRequestError(new Error('User rejected the request.'))
    expect(toSendError(raw, 'send')).toBeInstanceOf(TransactionRejectedError)
    expect(sendErrorInfo(raw, 'send')).toEqual({
      name: 'TransactionRejectedError',
      message: 'Transaction declined in the wallet.',
      code: 4001,
    })
  })

  it("viem's ChainMismatchError under a wrapper is the send flow's chain mismatch", () => {
    const raw = new Error('sendTransaction failed', {
      cause: new ChainMismatchError({ chain: optimism, currentChainId: mainnet.id }),
    })
    const error = toSendError(raw, 'send')
    expect(error).toBeInstanceOf(SendChainMismatchError)
    expect(error.shortMessage).toBe('The wallet is on another network than the token.')
  })

  it("wagmi's ConnectorAccountNotFoundError is 'Connect a wallet to send.'", () => {
    const raw = new WagmiConnectorAccountNotFoundError({
      address: '0x0000000000000000000000000000000000000001',
      connector: { name: 'MetaMask' } as never,
    })
    expect(toSendError(raw, 'estimate')).toBeInstanceOf(SendAccountNotFoundError)
  })

  it("viem's InsufficientFundsError is 'Insufficient funds'", () => {
    expect(toSendError(new InsufficientFundsError(), 'estimate')).toBeInstanceOf(InsufficientBalanceError)
  })

  it("viem's ContractFunctionRevertedError is a failed transaction, its reason in the details", () => {
    const raw = new ContractFunctionRevertedError({ abi: [], functionName: 'transfer', message: 'paused' })
    const error = toSendError(raw, 'send')
    expect(error).toBeInstanceOf(TransactionRevertedError)
    expect(error.details).toBe('paused')
  })

  it('an error only named like a library class is not taken for one: the stage decides', () => {
    const lookalike = Object.assign(new Error('something else'), { name: 'ChainMismatchError' })
    expect(toSendError(lookalike, 'send')).toBeInstanceOf(SendTransactionError)
  })
})

describe('SendTimeoutError', () => {
  it('says the wallet did not answer and where to look before sending again; kept as it is', () => {
    const error = new SendTimeoutError({ timeoutMs: 120_000 })
    expect(error.message).toMatchInlineSnapshot(`
      "The wallet did not answer in time. Check its activity before sending again.

      Details: No answer after 120 s"
    `)
    expect(toSendError(error, 'send')).toBe(error)
    expect(sendErrorInfo(error, 'send')).toEqual({
      name: 'SendTimeoutError',
      message: 'The wallet did not answer in time. Check its activity before sending again.',
    })
  })
})

// One error family: a Solana send's errors become the send flow's where it has a text, else keep their own.
describe('toSendError: Solana errors', () => {
  it('a declined Solana prompt is a declined transaction, as on eip155; the cause kept', () => {
    const raw = toSolanaError(Object.assign(new Error('User rejected the request.'), { code: 4001 }), 'send')
    expect(raw).toBeInstanceOf(SolanaUserRejectedError)
    const kit = toSendError(raw, 'send')
    expect(kit).toBeInstanceOf(TransactionRejectedError)
    expect(kit.cause).toBe(raw)
    expect(sendErrorInfo(raw, 'send')).toEqual({
      name: 'TransactionRejectedError',
      message: 'Transaction declined in the wallet.',
      code: 4001,
    })
  })

  it('insufficient funds and an invalid address take the send texts', () => {
    expect(
      toSendError(toSolanaError(new Error('insufficient lamports 1, need 2'), 'send'), 'send'),
    ).toBeInstanceOf(InsufficientBalanceError)
    expect(toSendError(new SolanaInvalidAddressError({ details: 'x' }), 'send')).toBeInstanceOf(
      InvalidReceiverError,
    )
  })

  it('others keep their Solana message', () => {
    expect(sendErrorInfo(new SolanaRpcUnavailableError(), 'estimate')).toEqual({
      name: 'SolanaRpcUnavailableError',
      message: 'The Solana network is unavailable. Try again later.',
    })
    expect(sendErrorInfo(new SolanaTransactionFailedError(), 'send').message).toBe('Transaction failed.')
  })
})
