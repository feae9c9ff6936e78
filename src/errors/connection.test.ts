import { InternalRpcError, UserRejectedRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  ChainNotConfiguredError as WagmiChainNotConfiguredError,
  ConnectorAccountNotFoundError as WagmiConnectorAccountNotFoundError,
  ConnectorAlreadyConnectedError as WagmiConnectorAlreadyConnectedError,
  ConnectorChainMismatchError as WagmiConnectorChainMismatchError,
  ConnectorNotFoundError as WagmiConnectorNotFoundError,
} from 'wagmi'
import type { BaseError } from './base'
import {
  ChainNotConfiguredError,
  ConnectorAccountNotFoundError,
  ConnectorAlreadyConnectedError,
  ConnectorChainMismatchError,
  ConnectorNotConnectedError,
  ConnectorNotFoundError,
  ConnectTimeoutError,
  chainsDisconnectError,
  DisconnectError,
  errorInfo,
  InvalidChainIdError,
  SwitchChainError,
  switchChainError,
  toConnectionError,
  UserRejectedError,
} from './connection'

/** An EIP-1193 provider error as wallets throw it: a plain object or Error with a numeric code. */
const rpcError = (code: number, message: string, cause?: unknown) =>
  Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code })

describe('toConnectionError: a declined request (4001)', () => {
  it('maps a 4001 from the wallet, keeping the original as the cause', () => {
    const raw = rpcError(4001, 'Request rejected')
    const error = toConnectionError(raw)
    expect(error).toBeInstanceOf(UserRejectedError)
    expect(error.cause).toBe(raw)
    expect(error.walk()).toBe(raw)
    expect(error.message).toMatchInlineSnapshot(`
      "Connection declined in the wallet.

      Details: Request rejected"
    `)
  })

  it('finds the 4001 deeper in the cause chain (a library wrapped the wallet’s error)', () => {
    const wrapped = new Error('Connection request failed', { cause: rpcError(4001, 'nope') })
    expect(toConnectionError(wrapped)).toBeInstanceOf(UserRejectedError)
    expect(toConnectionError(new UserRejectedRequestError(new Error('x')))).toBeInstanceOf(UserRejectedError)
    // A plain object is what some injected providers reject with.
    expect(toConnectionError({ code: 4001, message: 'denied' })).toBeInstanceOf(UserRejectedError)
  })

  // A wrapper's own code must not hide the wallet's 4001 further down the chain.
  it('finds the 4001 under a wrapper that carries a code of its own', () => {
    // viem's InternalRpcError (-32603) around the wallet's 4001, with a message that names no rejection.
    const wrapped = new InternalRpcError(rpcError(4001, 'nope'))
    expect(toConnectionError(wrapped)).toBeInstanceOf(UserRejectedError)
    expect(errorInfo(wrapped)).toEqual({
      name: 'UserRejectedError',
      message: 'Connection declined in the wallet.',
      code: 4001,
    })
  })

  it('recognises wallets that reject with words instead of a code', () => {
    for (const message of ['User rejected.', 'The user rejected the request', 'User denied account access']) {
      expect(toConnectionError(new Error(message)).name, message).toBe('UserRejectedError')
    }
  })
})

describe('toConnectionError: wagmi errors become the SPEC §8 connector errors', () => {
  const cases: [unknown, new () => BaseError][] = [
    [new WagmiChainNotConfiguredError(), ChainNotConfiguredError],
    [new WagmiConnectorAlreadyConnectedError(), ConnectorAlreadyConnectedError],
    // wagmi does not export this one from its entry point; the name is what is matched.
    [
      Object.assign(new Error('Connector not connected.'), { name: 'ConnectorNotConnectedError' }),
      ConnectorNotConnectedError,
    ],
    [
      new WagmiConnectorAccountNotFoundError({
        address: '0x0000000000000000000000000000000000000001',
        connector: { name: 'MetaMask' } as never,
      }),
      ConnectorAccountNotFoundError,
    ],
    [
      new WagmiConnectorChainMismatchError({ connectionChainId: 1, connectorChainId: 10 }),
      ConnectorChainMismatchError,
    ],
    [new WagmiConnectorNotFoundError(), ConnectorNotFoundError],
  ]
  for (const [raw, Expected] of cases) {
    it(`${(raw as Error).name} → ${Expected.name}, the cause kept`, () => {
      const error = toConnectionError(raw)
      expect(error).toBeInstanceOf(Expected)
      expect(error.cause).toBe(raw)
    })
  }

  it('gives each its SPEC text as the short message', () => {
    expect(cases.map(([raw]) => errorInfo(raw))).toMatchInlineSnapshot(`
      [
        {
          "message": "Chain not configured.",
          "name": "ChainNotConfiguredError",
        },
        {
          "message": "Connector already connected.",
          "name": "ConnectorAlreadyConnectedError",
        },
        {
          "message": "Connector not connected.",
          "name": "ConnectorNotConnectedError",
        },
        {
          "message": "Account not found for connector.",
          "name": "ConnectorAccountNotFoundError",
        },
        {
          "message": "The current chain of the connector does not match the connection's chain.",
          "name": "ConnectorChainMismatchError",
        },
        {
          "message": "Connector not found.",
          "name": "ConnectorNotFoundError",
        },
      ]
    `)
  })

  it('anything else is "Connection failed." with the cause kept', () => {
    const raw = new TypeError('provider.request is not a function')
    const error = toConnectionError(raw)
    expect(error.name).toBe('BaseError')
    expect(error.cause).toBe(raw)
    expect(error.message).toMatchInlineSnapshot(`
      "Connection failed.

      Details: provider.request is not a function"
    `)
    expect(errorInfo('a string thrown')).toMatchInlineSnapshot(`
      {
        "message": "Connection failed.",
        "name": "BaseError",
      }
    `)
  })

  it('finds a wagmi error under a wrapper: by class, anywhere on the cause chain', () => {
    const inner = new WagmiConnectorNotFoundError()
    const error = toConnectionError(new Error('connect failed', { cause: inner }))
    expect(error).toBeInstanceOf(ConnectorNotFoundError)
    expect(error.walk((e) => e instanceof WagmiConnectorNotFoundError)).toBe(inner)
  })

  it('an error only named like a wagmi class is not taken for one', () => {
    const lookalike = Object.assign(new Error('no'), { name: 'ChainNotConfiguredError' })
    expect(toConnectionError(lookalike).shortMessage).toBe('Connection failed.')
  })

  it("the kit's own errors pass through unchanged", () => {
    const own = new SwitchChainError()
    expect(toConnectionError(own)).toBe(own)
  })
})

describe('errorInfo: plain data for snapshots', () => {
  it('keeps name, the short message and the first code in the chain', () => {
    expect(
      errorInfo(new SwitchChainError({ cause: rpcError(4902, 'Unrecognized chain ID') })),
    ).toMatchInlineSnapshot(`
      {
        "code": 4902,
        "message": "Failed to switch to chain",
        "name": "SwitchChainError",
      }
    `)
    expect(errorInfo(new DisconnectError({ cause: new Error('gone') }))).toMatchInlineSnapshot(`
      {
        "message": "Failed to disconnect",
        "name": "DisconnectError",
      }
    `)
    expect(errorInfo(new DisconnectError({ chains: true }))).toMatchInlineSnapshot(`
      {
        "message": "Failed to disconnect chains",
        "name": "DisconnectError",
      }
    `)
    expect(errorInfo(rpcError(-32002, 'Request already pending'))).toMatchInlineSnapshot(`
      {
        "code": -32002,
        "message": "Connection failed.",
        "name": "BaseError",
      }
    `)
  })

  it('is serialisable (the inspector and storage carry it)', () => {
    const info = errorInfo(new UserRejectedError({ cause: rpcError(4001, 'x') }))
    expect(JSON.parse(JSON.stringify(info))).toEqual(info)
  })

  it('stops walking a cyclic cause chain', () => {
    const a: { message: string; cause?: unknown } = { message: 'a' }
    const b = { message: 'b', cause: a }
    a.cause = b
    expect(errorInfo(a)).toEqual({ name: 'BaseError', message: 'Connection failed.' })
  })
})

describe('ConnectTimeoutError', () => {
  it('says the wallet did not answer in time; kept as it is', () => {
    const error = new ConnectTimeoutError({ timeoutMs: 120_000 })
    expect(error.message).toMatchInlineSnapshot(`
      "The wallet did not answer in time.

      Details: No answer after 120 s"
    `)
    expect(toConnectionError(error)).toBe(error)
    expect(errorInfo(error)).toEqual({
      name: 'ConnectTimeoutError',
      message: 'The wallet did not answer in time.',
    })
  })
})

describe('SPEC §8 codes the kit raises itself', () => {
  it('code 32603 "invalid chain id": a switch the wallet refuses with 32603 is InvalidChainIdError, its code kept', () => {
    const error = switchChainError(rpcError(32603, 'invalid chain id'))
    expect(error).toBeInstanceOf(InvalidChainIdError)
    expect(errorInfo(error)).toMatchInlineSnapshot(`
      {
        "code": 32603,
        "message": "Failed to switch to chain",
        "name": "InvalidChainIdError",
      }
    `)
    expect(error.details).toBe('Invalid chain id')
    // JSON-RPC's -32603 (internal error) is not it; a decline stays a decline.
    expect(switchChainError(rpcError(-32603, 'Internal error'))).toBeInstanceOf(SwitchChainError)
    expect(switchChainError(rpcError(4001, 'User rejected the request.')).name).toBe('UserRejectedError')
  })

  it("'Failed to disconnect chains' names the namespaces that did not disconnect", () => {
    const error = chainsDisconnectError(['eip155', 'solana'], new Error('gone'))
    expect(error.shortMessage).toBe('Failed to disconnect chains')
    expect(error.details).toBe('Not disconnected: eip155, solana')
    expect(error.cause).toBeInstanceOf(Error)
  })
})
