import { describe, expect, it } from 'vitest'
import {
  Bip122AccountError,
  Bip122NotConnectedError,
  Bip122UserRejectedError,
  Bip122WalletAnswerError,
} from '../../errors/bip122'
import type { SignClientLike, WalletConnectSession } from '../solana/walletConnect'
import { createBip122WalletConnect, sessionBip122Account } from './walletConnect'

const REGTEST = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
const MAINNET = 'bip122:000000000019d6689c085ae165831e93'
const ADDRESS = 'mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef'
const SIGNATURE = `H${'A'.repeat(86)}=`

const session = (namespaces: WalletConnectSession['namespaces'], topic = 'topic'): WalletConnectSession => ({
  topic,
  expiry: Date.now() / 1000 + 3600,
  acknowledged: true,
  namespaces,
})

function fakeClient(stored: WalletConnectSession[]) {
  const listeners = new Map<string, (payload: unknown) => void>()
  const requests: unknown[] = []
  let answer: () => Promise<unknown> = async () => ({ address: ADDRESS, signature: SIGNATURE })
  const client: SignClientLike = {
    core: {},
    session: { getAll: () => stored },
    connect: async () => {
      throw new Error('never proposes')
    },
    async request<T>(parameters: unknown) {
      requests.push(parameters)
      return (await answer()) as T
    },
    disconnect: async () => {},
    on: (event, listener) => void listeners.set(event, listener),
    off: () => {},
  }
  return {
    client,
    requests,
    emit: (event: string, payload: unknown) => listeners.get(event)?.(payload),
    answerWith: (next: typeof answer) => {
      answer = next
    },
  }
}

const rejected = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

describe('sessionBip122Account', () => {
  it('takes the first well-formed Bitcoin account, on a chain the kit has when there is one', () => {
    const accounts = [`${MAINNET}:1BoatSLRHtKNngkdXEeobR76b53LETtpyT`, `${REGTEST}:${ADDRESS}`]
    expect(sessionBip122Account({ namespaces: { bip122: { accounts } } }, [REGTEST])).toEqual({
      address: ADDRESS,
      chainId: REGTEST,
    })
    expect(sessionBip122Account({ namespaces: { bip122: { accounts } } }, []).chainId).toBe(MAINNET)
  })

  it('refuses a session without a usable Bitcoin account (malformed addresses, chains, or none)', () => {
    for (const accounts of [
      [],
      [`${REGTEST}:0xnotbitcoin`],
      ['bip122:xyz:mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef'],
    ])
      expect(() => sessionBip122Account({ namespaces: { bip122: { accounts } } }, [])).toThrow(
        Bip122WalletAnswerError,
      )
    expect(() => sessionBip122Account({ namespaces: {} }, [])).toThrow(Bip122WalletAnswerError)
  })
})

describe('createBip122WalletConnect (a multichain session’s Bitcoin account)', () => {
  it('takes the account of the shared client’s live session, signs with it, and ends with the session', async () => {
    const fake = fakeClient([
      session({ eip155: { accounts: ['eip155:1:0x0000000000000000000000000000000000000001'] } }, 'evm-only'),
      session({ bip122: { accounts: [`${REGTEST}:${ADDRESS}`] } }, 'both'),
    ])
    const bitcoin = createBip122WalletConnect({ init: async () => fake.client, chainIds: [REGTEST] })
    expect(await bitcoin.connect()).toEqual({ address: ADDRESS, chainId: REGTEST })
    expect(await bitcoin.signMessage('hi')).toEqual({ address: ADDRESS, signature: SIGNATURE })
    expect(fake.requests).toEqual([
      {
        topic: 'both',
        chainId: REGTEST,
        request: {
          method: 'signMessage',
          params: { account: ADDRESS, address: ADDRESS, message: 'hi', protocol: 'ecdsa' },
        },
      },
    ])
    let ended = 0
    bitcoin.watch(() => ended++)
    fake.emit('session_delete', { topic: 'evm-only' })
    expect(ended).toBe(0)
    fake.emit('session_delete', { topic: 'both' })
    expect(ended).toBe(1)
    expect(bitcoin.account).toBeNull()
    expect(await rejected(bitcoin.signMessage('hi'))).toBeInstanceOf(Bip122NotConnectedError)
  })

  it('no Bitcoin account: a connect is refused, a silent one answers null', async () => {
    const fake = fakeClient([session({ eip155: { accounts: [] } })])
    const bitcoin = createBip122WalletConnect({ init: async () => fake.client, chainIds: [] })
    expect(await rejected(bitcoin.connect())).toBeInstanceOf(Bip122AccountError)
    expect(await bitcoin.connect({ silent: true })).toBeNull()
  })

  it('checks the wallet’s answer: a decline, another address, or no signature is an error', async () => {
    const fake = fakeClient([session({ bip122: { accounts: [`${REGTEST}:${ADDRESS}`] } })])
    const bitcoin = createBip122WalletConnect({ init: async () => fake.client, chainIds: [REGTEST] })
    await bitcoin.connect()
    fake.answerWith(async () => Promise.reject({ code: 5000, message: 'User rejected.' }))
    expect(await rejected(bitcoin.signMessage('hi'))).toBeInstanceOf(Bip122UserRejectedError)
    fake.answerWith(async () => ({ address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', signature: SIGNATURE }))
    expect(await rejected(bitcoin.signMessage('hi'))).toBeInstanceOf(Bip122WalletAnswerError)
    fake.answerWith(async () => ({ address: ADDRESS }))
    expect(await rejected(bitcoin.signMessage('hi'))).toBeInstanceOf(Bip122WalletAnswerError)
  })
})
