import { QueryClient } from '@tanstack/react-query'
import {
  type Address,
  ChainMismatchError,
  ExecutionRevertedError,
  encodeFunctionData,
  erc20Abi,
  http,
  InsufficientFundsError,
  InternalRpcError,
  UserRejectedRequestError,
} from 'viem'
import { mainnet } from 'viem/chains'
import { describe, expect, it, vi } from 'vitest'
import {
  type Connector,
  createConfig,
  ChainNotConfiguredError as WagmiChainNotConfiguredError,
  ConnectorAccountNotFoundError as WagmiConnectorAccountNotFoundError,
} from 'wagmi'
import type { AnyActorLogic } from 'xstate'
import { call } from '../../test/support/runActor'
import type { DataApiClient } from '../api/dataApi'
import { NAME_CACHE_MS } from '../constants'
import { BaseError } from '../errors/base'
import {
  InsufficientBalanceError,
  ResolveNameError,
  SendAccountNotFoundError,
  SendChainMismatchError,
  sendErrorInfo,
  TransactionRejectedError,
  TransactionRevertedError,
  toSendError,
  UnsupportedChainError,
} from '../errors/send'
import { createSendActors, erc20TransferAbi, type NameResolver } from './send'

const BOB: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** A wagmi config that is never connected, on a node nothing listens on: the checks before any call. */
function offline(resolveName?: NameResolver) {
  const wagmi = createConfig({
    chains: [mainnet],
    transports: { [mainnet.id]: http('http://127.0.0.1:9/') },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  return createSendActors({ wagmi, ...(resolveName ? { resolveName } : {}) })
}

describe('the ERC-20 transfer ABI', () => {
  it('declares no output, so USDT-style tokens (no return value) are not decoded', () => {
    expect(erc20TransferAbi).toHaveLength(1)
    expect(erc20TransferAbi[0]).toMatchObject({ name: 'transfer', outputs: [] })
  })

  it('encodes the same call as the standard ABI', () => {
    const args = [BOB, 1_500_000n] as const
    expect(encodeFunctionData({ abi: erc20TransferAbi, functionName: 'transfer', args })).toBe(
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args }),
    )
  })
})

describe('resolveName slot', () => {
  it('answers the address (checksummed), the name and the image from the injected resolver', async () => {
    const seen: string[] = []
    const actors = offline(async (name) => {
      seen.push(name)
      return { address: BOB.toLowerCase(), imageUrl: 'http://127.0.0.1/a.png' }
    })
    await expect(call(actors.resolveName, { name: 'bob.reown.id' })).resolves.toEqual({
      address: BOB,
      name: 'bob.reown.id',
      imageUrl: 'http://127.0.0.1/a.png',
    })
    expect(seen).toEqual(['bob.reown.id'])
  })

  it('fails with SPEC §8’s text when the name is unknown, not an address, the lookup fails, or there is none', async () => {
    const cases: NameResolver[] = [
      async () => undefined,
      async () => ({ address: 'not-an-address' }),
      async () => {
        throw new Error('503')
      },
    ]
    for (const resolver of cases) {
      const error = await call(offline(resolver).resolveName, { name: 'x.eth' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ResolveNameError)
      expect((error as ResolveNameError).shortMessage).toBe('Error resolving name')
    }
    const none = await call(offline().resolveName, { name: 'x.eth' }).catch((e: unknown) => e)
    expect(none).toBeInstanceOf(ResolveNameError)
    expect((none as ResolveNameError).details).toBe('No name resolver is configured.')
  })
})

describe('resolveName slot through the QueryClient', () => {
  it('asks the Data API once per name for 5 min, whoever asks, and answers the checksummed address', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const asked: string[] = []
      const api = {
        api: 'http://data.invalid',
        projectId: 'send-actors-test',
        resolveName: async (name: string) => {
          asked.push(name)
          return name === 'bob.reown.id' ? { address: BOB.toLowerCase(), name } : undefined
        },
      } as unknown as DataApiClient
      const queryClient = new QueryClient()
      const wagmi = createConfig({
        chains: [mainnet],
        transports: { [mainnet.id]: http('http://127.0.0.1:9/') },
        storage: null,
        multiInjectedProviderDiscovery: false,
      })
      const actors = createSendActors({ wagmi, names: { api, queryClient } })
      const [a, b] = await Promise.all([
        call(actors.resolveName, { name: 'bob.reown.id' }),
        call(actors.resolveName, { name: 'BOB.reown.id ' }),
      ])
      expect(a).toEqual({ address: BOB, name: 'bob.reown.id' })
      expect(b).toEqual(a)
      expect(asked).toEqual(['bob.reown.id'])
      vi.setSystemTime(Date.now() + NAME_CACHE_MS - 1)
      await call(actors.resolveName, { name: 'bob.reown.id' })
      expect(asked).toHaveLength(1)
      vi.setSystemTime(Date.now() + 1)
      await call(actors.resolveName, { name: 'bob.reown.id' })
      expect(asked).toHaveLength(2)
      // A name nobody holds is cached too (as null) and fails with the SPEC text.
      const error = await call(actors.resolveName, { name: 'nobody.reown.id' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ResolveNameError)
      await call(actors.resolveName, { name: 'nobody.reown.id' }).catch(() => undefined)
      expect(asked.filter((name) => name === 'nobody.reown.id')).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('transaction slots: what is checked before the wallet is asked', () => {
  const request = { chainId: mainnet.id, to: BOB, amount: 1n }

  it('no connected account: "Connect a wallet to send."', async () => {
    const error = await call(offline().estimateFee, request).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SendAccountNotFoundError)
    expect((error as BaseError).shortMessage).toBe('Connect a wallet to send.')
  })

  it('a chain the kit does not have: "Unsupported chain"', async () => {
    const actors = offline()
    const other = { ...request, chainId: 10 }
    for (const [slot, input] of [
      [actors.estimateFee, other],
      [actors.sendNative, other],
      [actors.sendErc20, { ...other, token: BOB }],
    ] as const) {
      const error = await call(slot as AnyActorLogic, input).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsupportedChainError)
    }
  })
})

describe('toSendError', () => {
  it('a declined request (4001), however it is wrapped', () => {
    const raw = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    for (const error of [raw, new UserRejectedRequestError(raw), new InternalRpcError(raw), { code: 4001 }]) {
      const mapped = toSendError(error, 'send')
      expect(mapped).toBeInstanceOf(TransactionRejectedError)
      expect(mapped.cause).toBe(error)
    }
    expect(sendErrorInfo(new InternalRpcError(raw), 'send')).toEqual({
      name: 'TransactionRejectedError',
      message: 'Transaction declined in the wallet.',
      code: 4001,
    })
    expect(toSendError(raw, 'send').message).toMatchInlineSnapshot(`
      "Transaction declined in the wallet.

      Details: User rejected the request."
    `)
  })

  it('not enough to pay: the node’s insufficient funds, a token’s "exceeds balance" revert', () => {
    expect(toSendError(new InsufficientFundsError(), 'send')).toBeInstanceOf(InsufficientBalanceError)
    expect(
      toSendError(new Error('Insufficient funds for gas * price + value: have 1 want 2'), 'send'),
    ).toBeInstanceOf(InsufficientBalanceError)
    const revert = new ExecutionRevertedError({
      message: 'execution reverted: Token: transfer amount exceeds balance',
    })
    const mapped = toSendError(new Error('Estimate failed', { cause: revert }), 'estimate')
    expect(mapped).toBeInstanceOf(InsufficientBalanceError)
    expect(mapped.shortMessage).toBe('Insufficient funds')
  })

  it('another revert says the transaction failed', () => {
    const mapped = toSendError(
      new ExecutionRevertedError({ message: 'execution reverted: Paused' }),
      'estimate',
    )
    expect(mapped).toBeInstanceOf(TransactionRevertedError)
    expect(mapped.shortMessage).toBe('The transaction failed.')
  })

  it('wallet and wagmi states: another chain, no account, a chain not configured', () => {
    const mismatch = new ChainMismatchError({ chain: mainnet, currentChainId: 10 })
    expect(toSendError(mismatch, 'send')).toBeInstanceOf(SendChainMismatchError)
    const connector = { name: 'Mock Connector' } as unknown as Connector
    expect(
      toSendError(new WagmiConnectorAccountNotFoundError({ address: BOB, connector }), 'send'),
    ).toBeInstanceOf(SendAccountNotFoundError)
    expect(toSendError(new WagmiChainNotConfiguredError(), 'estimate')).toBeInstanceOf(UnsupportedChainError)
  })

  it('anything else falls back by stage; the kit’s own errors pass through', () => {
    const raw = new Error('socket hang up')
    expect(toSendError(raw, 'resolve').shortMessage).toBe('Error resolving name')
    expect(toSendError(raw, 'estimate').shortMessage).toBe('Unable to estimate the network fee.')
    expect(toSendError(raw, 'send').shortMessage).toBe('Failed to send the transaction.')
    expect(toSendError(raw, 'receipt').shortMessage).toBe('Failed to send the transaction.')
    const own = new UnsupportedChainError()
    expect(toSendError(own, 'send')).toBe(own)
    expect(own).toBeInstanceOf(BaseError)
  })
})
