import {
  WalletAccountError,
  WalletConnectionError,
  WalletNotConnectedError,
  WalletSendTransactionError,
  WalletSignMessageError,
} from '@solana/wallet-adapter-base'
import { SendTransactionError } from '@solana/web3.js'
import { describe, expect, it } from 'vitest'
import { BaseError } from './base'
import {
  SolanaError,
  SolanaInsufficientFundsError,
  SolanaInvalidAddressError,
  SolanaNotConnectedError,
  SolanaRpcUnavailableError,
  SolanaTransactionFailedError,
  SolanaUserRejectedError,
  SolanaWalletNotFoundError,
  solanaErrorInfo,
  toSolanaError,
} from './solana'

/** What a Wallet Standard wallet rejects with (the sandbox dev wallet's, Phantom's). */
const walletRejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 })

describe('Solana errors: short messages', () => {
  it('say what happened', () => {
    expect(new SolanaWalletNotFoundError().shortMessage).toMatchInlineSnapshot(`"Solana wallet not found."`)
    expect(new SolanaUserRejectedError().shortMessage).toMatchInlineSnapshot(`"User rejected the request."`)
    expect(new SolanaRpcUnavailableError().shortMessage).toMatchInlineSnapshot(
      `"The Solana network is unavailable. Try again later."`,
    )
    expect(new SolanaInsufficientFundsError().shortMessage).toMatchInlineSnapshot(`"Insufficient funds"`)
    expect(new SolanaInvalidAddressError().shortMessage).toMatchInlineSnapshot(`"Invalid address"`)
    expect(new SolanaNotConnectedError().shortMessage).toMatchInlineSnapshot(`"Solana wallet not connected."`)
    expect(new SolanaUserRejectedError()).toBeInstanceOf(BaseError)
    expect(new SolanaUserRejectedError().code).toBe(4001)
  })
})

describe('toSolanaError', () => {
  it('a rejection under wallet-adapter’s wrappers (kept in `.error`) is the user’s', () => {
    for (const wrapped of [
      new WalletConnectionError('User rejected the request.', walletRejection()),
      new WalletSignMessageError('User rejected the request.', walletRejection()),
      new WalletSendTransactionError('failed', walletRejection()),
      Object.assign(new Error('nope'), { code: 4001 }),
      new Error('User denied transaction signature'),
    ]) {
      const error = toSolanaError(wrapped, 'send')
      expect(error).toBeInstanceOf(SolanaUserRejectedError)
      expect(error.shortMessage).toBe('User rejected the request.')
      expect(error.cause).toBe(wrapped)
    }
    expect(solanaErrorInfo(new WalletSignMessageError('x', walletRejection()), 'sign')).toMatchObject({
      name: 'SolanaUserRejectedError',
      message: 'User rejected the request.',
      code: 4001,
    })
  })

  it('insufficient funds: the system program, the token program, a failed simulation’s logs', () => {
    const simulation = new SendTransactionError({
      action: 'simulate',
      signature: '',
      transactionMessage:
        'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
      logs: ['Program log: Error: insufficient funds'],
    })
    for (const raw of [
      new Error(
        'Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.',
      ),
      new WalletSendTransactionError('failed', simulation),
      new Error('Transaction x failed: {"InstructionError":[1,{"Custom":1}]}'),
      new Error('Transaction results in an account (1) with insufficient funds for rent'),
    ]) {
      expect(toSolanaError(raw, 'send')).toBeInstanceOf(SolanaInsufficientFundsError)
    }
  })

  it('an unreachable or failing RPC', () => {
    for (const raw of [
      new TypeError('Failed to fetch'),
      new Error('failed to get recent blockhash: TypeError: fetch failed'),
      new Error('503 Service Unavailable: {"error":"fault"}'),
      new Error('failed to get balance of account x: Error: 500 Internal Server Error: {"error":"fault"}'),
      new Error('Server responded with 429 Too Many Requests.  Retrying after 500ms delay...'),
    ]) {
      expect(toSolanaError(raw, 'send')).toBeInstanceOf(SolanaRpcUnavailableError)
    }
  })

  it('not connected, invalid address, and each operation’s fallback', () => {
    expect(toSolanaError(new WalletNotConnectedError(), 'sign')).toBeInstanceOf(SolanaNotConnectedError)
    expect(toSolanaError(new Error('Invalid public key input'), 'send')).toBeInstanceOf(
      SolanaInvalidAddressError,
    )
    expect(toSolanaError(new WalletAccountError(), 'connect').shortMessage).toBe('Connection failed.')
    expect(toSolanaError(new Error('boom'), 'sign').shortMessage).toBe('Signing failed.')
    expect(toSolanaError(new Error('boom'), 'disconnect').shortMessage).toBe('Failed to disconnect')
    expect(toSolanaError(new Error('boom'), 'send')).toBeInstanceOf(SolanaTransactionFailedError)
    const ours = new SolanaInsufficientFundsError()
    expect(toSolanaError(ours, 'send')).toBe(ours)
    expect(toSolanaError('plain string', 'connect')).toBeInstanceOf(SolanaError)
  })

  it('survives a cause chain that loops', () => {
    const a: { message: string; cause?: unknown } = { message: 'a' }
    a.cause = { message: 'b', cause: a }
    expect(toSolanaError(a, 'send').shortMessage).toBe('Transaction failed.')
  })
})
