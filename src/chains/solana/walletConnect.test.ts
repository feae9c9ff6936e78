import { type Connection, Keypair, SystemProgram, Transaction } from '@solana/web3.js'
import bs58 from 'bs58'
import nacl from 'tweetnacl'
import { describe, expect, it, vi } from 'vitest'
import {
  SolanaAccountError,
  SolanaNotConnectedError,
  SolanaUserRejectedError,
  SolanaWalletAnswerError,
} from '../../errors/solana'
import {
  createSolanaWalletConnect,
  parseSignatureAnswer,
  type SignClientLike,
  type SignClientOptions,
  SOLANA_WALLETCONNECT_METHODS,
  SOLANA_WALLETCONNECT_STORAGE_PREFIX,
  sessionAccount,
  toBase64,
  type WalletConnectSession,
} from './walletConnect'

const CHAIN = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx'
const OTHER_CHAIN = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const key = Keypair.generate()
const ADDRESS = key.publicKey.toBase58()
const SIGNATURE = bs58.encode(new Uint8Array(64).fill(7))
const rejected = <T>(promise: Promise<T>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

describe('parseSignatureAnswer (the wallet is untrusted)', () => {
  it('takes a base58 64-byte signature', () => {
    expect(parseSignatureAnswer('solana_signMessage', { signature: SIGNATURE })).toBe(SIGNATURE)
    expect(parseSignatureAnswer('solana_signMessage', { signature: SIGNATURE, extra: 1 })).toBe(SIGNATURE)
  })

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a bare string', SIGNATURE],
    ['an array', [SIGNATURE]],
    ['no signature', { result: SIGNATURE }],
    ['a number', { signature: 42 }],
    ['not base58', { signature: `0OIl${SIGNATURE.slice(4)}` }],
    ['32 bytes', { signature: bs58.encode(new Uint8Array(32).fill(1)) }],
    ['65 bytes', { signature: bs58.encode(new Uint8Array(65).fill(1)) }],
    ['an empty string', { signature: '' }],
    ['a huge string', { signature: '1'.repeat(100_000) }],
    ['hex', { signature: `0x${'ab'.repeat(64)}` }],
  ])('refuses %s with SolanaWalletAnswerError', (_, answer) => {
    let thrown: unknown
    try {
      parseSignatureAnswer('solana_signMessage', answer)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(SolanaWalletAnswerError)
    expect((thrown as SolanaWalletAnswerError).shortMessage).toBe('The wallet answered with malformed data.')
    expect((thrown as SolanaWalletAnswerError).details).toMatch(/^solana_signMessage: /)
  })
})

describe('sessionAccount', () => {
  const session = (accounts: unknown): Pick<WalletConnectSession, 'namespaces'> =>
    ({ namespaces: { solana: { accounts } } }) as Pick<WalletConnectSession, 'namespaces'>

  it('reads the solana account on a configured chain', () => {
    expect(sessionAccount(session([`${OTHER_CHAIN}:${ADDRESS}`, `${CHAIN}:${ADDRESS}`]), [CHAIN])).toEqual({
      address: ADDRESS,
      chainId: CHAIN,
      chains: [OTHER_CHAIN, CHAIN],
    })
    // None on a configured chain: the first Solana one.
    expect(sessionAccount(session([`${OTHER_CHAIN}:${ADDRESS}`]), [CHAIN]).chainId).toBe(OTHER_CHAIN)
  })

  it('skips malformed accounts', () => {
    const account = sessionAccount(
      session([
        `eip155:1:0x${'1'.repeat(40)}`,
        `${CHAIN}:0OIl${ADDRESS.slice(4)}`,
        `${CHAIN}:${bs58.encode(new Uint8Array(31).fill(9))}`,
        `${CHAIN}:${ADDRESS}:extra`,
        42,
        `${CHAIN}:${ADDRESS}`,
      ]),
      [CHAIN],
    )
    expect(account.address).toBe(ADDRESS)
  })

  it.each([
    ['no namespaces', {}],
    ['no solana namespace', { namespaces: { eip155: { accounts: [`eip155:1:0x${'1'.repeat(40)}`] } } }],
    ['accounts not a list', { namespaces: { solana: { accounts: 'x' } } }],
    ['no usable account', { namespaces: { solana: { accounts: ['solana:x:notakey'] } } }],
  ])('refuses a session with %s', (_, value) => {
    expect(() => sessionAccount(value as WalletConnectSession, [CHAIN])).toThrow(SolanaWalletAnswerError)
  })
})

describe('toBase64', () => {
  it('matches Buffer', () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256)
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'))
  })
})

/** A SignClient stand-in: records requests, answers with `answer`, and lets a test fire its events. */
function fakeSignClient(options: { stored?: WalletConnectSession[]; namespaces?: unknown } = {}) {
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const requests: { topic: string; chainId: string; request: { method: string; params: unknown } }[] = []
  let settle: { resolve: (s: WalletConnectSession) => void; reject: (e: unknown) => void } | undefined
  let answer: (method: string, params: unknown) => Promise<unknown> = async () => ({ signature: SIGNATURE })
  const disconnects: string[] = []
  const session: WalletConnectSession = {
    topic: 'session-topic',
    expiry: Date.now() / 1000 + 3600,
    acknowledged: true,
    namespaces: (options.namespaces as WalletConnectSession['namespaces']) ?? {
      solana: { accounts: [`${CHAIN}:${ADDRESS}`], methods: [...SOLANA_WALLETCONNECT_METHODS] },
    },
  }
  const proposals: unknown[] = []
  const client: SignClientLike = {
    core: { verify: { isDevEnv: false } },
    session: { getAll: () => options.stored ?? [] },
    async connect(parameters) {
      proposals.push(parameters)
      const approval = new Promise<WalletConnectSession>((resolve, reject) => {
        settle = { resolve, reject }
      })
      return {
        uri: 'wc:abc@2?relay-protocol=irn&symKey=01&expiryTimestamp=1750000300',
        approval: () => approval,
      }
    },
    async request<T>(parameters: (typeof requests)[number]) {
      requests.push(parameters)
      return (await answer(parameters.request.method, parameters.request.params)) as T
    },
    async disconnect({ topic }) {
      disconnects.push(topic)
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)?.add(listener)
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener)
    },
  }
  return {
    client,
    session,
    requests,
    proposals,
    disconnects,
    approve: () => settle?.resolve(session),
    reject: (error: unknown) => settle?.reject(error),
    emit: (event: string, payload: unknown) => {
      for (const listener of listeners.get(event) ?? []) listener(payload)
    },
    answerWith: (fn: typeof answer) => {
      answer = fn
    },
  }
}

function makeClient(fake: ReturnType<typeof fakeSignClient>) {
  const inits: SignClientOptions[] = []
  const wallet = createSolanaWalletConnect({
    projectId: 'p',
    relayUrl: 'ws://127.0.0.1:1',
    metadata: { name: 'Test', description: '', url: 'http://127.0.0.1', icons: [] },
    chainIds: [CHAIN],
    init: async (options) => {
      inits.push(options)
      return fake.client
    },
  })
  return { wallet, inits }
}

/** Connects: the pairing URI shows, the fake wallet approves. */
async function connected(fake = fakeSignClient()) {
  const made = makeClient(fake)
  const pairings: string[] = []
  made.wallet.watchPairing(({ uri }) => {
    pairings.push(uri)
    fake.approve()
  })
  const account = await made.wallet.connect()
  return { ...made, fake, account, pairings }
}

describe('createSolanaWalletConnect', () => {
  it('loads nothing until used, then proposes the solana namespace on its own storage prefix', async () => {
    const fake = fakeSignClient()
    const { wallet, inits } = makeClient(fake)
    expect(inits).toEqual([])
    expect(wallet.info).toMatchObject({ id: 'solana:walletconnect', name: 'WalletConnect' })
    const expiries: number[] = []
    wallet.watchPairing(({ expiry }) => {
      expiries.push(expiry)
      fake.approve()
    })
    expect(await wallet.connect()).toEqual({ address: ADDRESS, chains: [CHAIN] })
    expect(inits).toHaveLength(1)
    expect(inits[0]).toMatchObject({
      customStoragePrefix: SOLANA_WALLETCONNECT_STORAGE_PREFIX,
      telemetryEnabled: false,
      relayUrl: 'ws://127.0.0.1:1',
    })
    expect(fake.proposals).toEqual([
      {
        optionalNamespaces: {
          solana: {
            chains: [CHAIN],
            methods: [...SOLANA_WALLETCONNECT_METHODS],
            events: ['accountsChanged', 'chainChanged'],
          },
        },
      },
    ])
    expect(expiries).toEqual([1_750_000_300_000])
    // The hosted Verify is off (the kit attests the pairing itself).
    expect((fake.client.core as { verify: { isDevEnv: boolean } }).verify.isDevEnv).toBe(true)
    expect(wallet.account?.address).toBe(ADDRESS)
  })

  it('signs a message with solana_signMessage: base58 message and pubkey, base58 signature back', async () => {
    const { wallet, fake } = await connected()
    fake.answerWith(async (_, params) => {
      const { message } = params as { message: string }
      return { signature: bs58.encode(nacl.sign.detached(bs58.decode(message), key.secretKey)) }
    })
    const signature = await wallet.signMessage('Hello ✓')
    expect(fake.requests.at(-1)).toEqual({
      topic: 'session-topic',
      chainId: CHAIN,
      request: {
        method: 'solana_signMessage',
        params: { message: bs58.encode(new TextEncoder().encode('Hello ✓')), pubkey: ADDRESS },
      },
    })
    expect(
      nacl.sign.detached.verify(
        new TextEncoder().encode('Hello ✓'),
        bs58.decode(signature),
        key.publicKey.toBytes(),
      ),
    ).toBe(true)
  })

  it('a malformed answer is SolanaWalletAnswerError; a decline is SolanaUserRejectedError', async () => {
    const { wallet, fake } = await connected()
    fake.answerWith(async () => ({ signature: 'not base58 0OIl' }))
    expect(await rejected(wallet.signMessage('x'))).toBeInstanceOf(SolanaWalletAnswerError)
    fake.answerWith(async () => '0x1234')
    expect(await rejected(wallet.signMessage('x'))).toBeInstanceOf(SolanaWalletAnswerError)
    fake.answerWith(async () => {
      throw { code: 5000, message: 'User rejected.' }
    })
    const declined = await rejected(wallet.signMessage('x'))
    expect(declined).toBeInstanceOf(SolanaUserRejectedError)
    expect((declined as SolanaUserRejectedError).shortMessage).toBe('User rejected the request.')
  })

  it('signs and sends a transaction as base64 wire bytes, prepared with the account as fee payer', async () => {
    const { wallet, fake } = await connected()
    const blockhash = bs58.encode(new Uint8Array(32).fill(3))
    const connection = {
      getLatestBlockhash: vi.fn(async () => ({ blockhash, lastValidBlockHeight: 10 })),
    } as unknown as Connection
    const transaction = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: key.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 5,
      }),
    )
    expect(
      await wallet.signAndSendTransaction(transaction, connection, { preflightCommitment: 'confirmed' }),
    ).toBe(SIGNATURE)
    const sent = fake.requests.at(-1)!
    expect(sent.request.method).toBe('solana_signAndSendTransaction')
    const params = sent.request.params as { transaction: string; pubkey: string; sendOptions: object }
    expect(params.pubkey).toBe(ADDRESS)
    expect(params.sendOptions).toEqual({ preflightCommitment: 'confirmed' })
    const decoded = Transaction.from(Buffer.from(params.transaction, 'base64'))
    expect(decoded.feePayer?.toBase58()).toBe(ADDRESS)
    expect(decoded.recentBlockhash).toBe(blockhash)
    fake.answerWith(async () => ({ signature: 42 }))
    expect(await rejected(wallet.signAndSendTransaction(transaction, connection))).toBeInstanceOf(
      SolanaWalletAnswerError,
    )
  })

  it('asks nothing before connecting', async () => {
    const { wallet } = makeClient(fakeSignClient())
    expect(await rejected(wallet.signMessage('x'))).toBeInstanceOf(SolanaNotConnectedError)
  })

  it('a session deleted (or expired) by the wallet is reported once; another topic is not', async () => {
    const { wallet, fake } = await connected()
    const lost = vi.fn()
    const stop = wallet.watch(() => {}, lost)
    fake.emit('session_delete', { id: 1, topic: 'another-topic' })
    expect(lost).not.toHaveBeenCalled()
    fake.emit('session_delete', { id: 1, topic: 'session-topic' })
    expect(lost).toHaveBeenCalledTimes(1)
    expect(wallet.account).toBeNull()
    fake.emit('session_expire', { topic: 'session-topic' })
    expect(lost).toHaveBeenCalledTimes(1)
    stop()
  })

  it('follows a session update to another account; ignores an update without a usable one', async () => {
    const { wallet, fake } = await connected()
    const changed = vi.fn()
    wallet.watch(changed, () => {})
    const other = Keypair.generate().publicKey.toBase58()
    fake.emit('session_update', {
      topic: 'session-topic',
      params: { namespaces: { solana: { accounts: [42] } } },
    })
    expect(changed).not.toHaveBeenCalled()
    fake.emit('session_update', {
      topic: 'session-topic',
      params: { namespaces: { solana: { accounts: [`${CHAIN}:${other}`] } } },
    })
    expect(changed).toHaveBeenCalledWith({ address: other, chains: [CHAIN] })
    expect(wallet.account?.address).toBe(other)
  })

  it('disconnects its session with USER_DISCONNECTED', async () => {
    const { wallet, fake } = await connected()
    await wallet.disconnect()
    expect(fake.disconnects).toEqual(['session-topic'])
    expect(wallet.account).toBeNull()
  })

  it('restores a stored live session silently (a reload); answers null when there is none', async () => {
    const live = fakeSignClient().session
    const expired = { ...live, topic: 'old', expiry: Date.now() / 1000 - 1 }
    const evmOnly = {
      ...live,
      topic: 'evm',
      namespaces: { eip155: { accounts: [`eip155:1:0x${'1'.repeat(40)}`] } },
    }
    const restored = makeClient(fakeSignClient({ stored: [live, expired, evmOnly] }))
    expect(await restored.wallet.connect({ silent: true })).toEqual({ address: ADDRESS, chains: [CHAIN] })
    expect(await restored.wallet.signMessage('x')).toBe(SIGNATURE)
    const none = makeClient(fakeSignClient({ stored: [expired, evmOnly] }))
    expect(await none.wallet.connect({ silent: true })).toBeNull()
  })

  it('a proposal rejected by the wallet is SolanaUserRejectedError; an expired one is reported to the pairing watcher', async () => {
    const fake = fakeSignClient()
    const { wallet } = makeClient(fake)
    const expired = vi.fn()
    wallet.watchPairing(() => fake.reject({ code: 5000, message: 'User rejected.' }), expired)
    expect(await rejected(wallet.connect())).toBeInstanceOf(SolanaUserRejectedError)
    expect(expired).not.toHaveBeenCalled()
    const again = fakeSignClient()
    const second = makeClient(again)
    second.wallet.watchPairing(() => again.reject(new Error('Proposal expired')), expired)
    await rejected(second.wallet.connect())
    expect(expired).toHaveBeenCalledTimes(1)
  })

  it('a multichain pairing’s Solana side (shared): takes the Solana account of the shared client’s session, never proposes; none is a refusal; a disconnect leaves the session to eip155', async () => {
    const both = {
      ...fakeSignClient().session,
      namespaces: {
        eip155: { accounts: [`eip155:31337:0x${'1'.repeat(40)}`] },
        solana: { accounts: [`${CHAIN}:${ADDRESS}`] },
      },
    }
    const shared = (fake: ReturnType<typeof fakeSignClient>) =>
      createSolanaWalletConnect({
        projectId: 'p',
        relayUrl: 'ws://127.0.0.1:1',
        metadata: { name: 'Test', description: '', url: 'http://127.0.0.1', icons: [] },
        chainIds: [CHAIN],
        shared: true,
        init: async () => fake.client,
      })
    const fake = fakeSignClient({ stored: [both] })
    const wallet = shared(fake)
    expect(await wallet.connect()).toEqual({ address: ADDRESS, chains: [CHAIN] })
    expect(fake.proposals).toEqual([])
    expect(await wallet.signMessage('x')).toBe(SIGNATURE)
    expect(fake.requests[0]).toMatchObject({ topic: both.topic, chainId: CHAIN })
    await wallet.disconnect()
    expect(fake.disconnects).toEqual([])
    expect(wallet.account).toBeNull()
    // The wallet approved eip155 alone: nothing to take.
    const evmOnly = fakeSignClient({ stored: [{ ...both, namespaces: { eip155: both.namespaces.eip155 } }] })
    expect(await rejected(shared(evmOnly).connect())).toBeInstanceOf(SolanaAccountError)
    expect(evmOnly.proposals).toEqual([])
  })

  it('a session without a usable Solana account is ended and refused', async () => {
    const fake = fakeSignClient({ namespaces: { solana: { accounts: ['solana:abc:0xnotakey'] } } })
    const { wallet } = makeClient(fake)
    wallet.watchPairing(() => fake.approve())
    const error = await rejected(wallet.connect())
    expect(error).toBeInstanceOf(SolanaAccountError)
    expect((error as SolanaAccountError).walk?.()).toBeInstanceOf(SolanaWalletAnswerError)
    expect(fake.disconnects).toEqual(['session-topic'])
    expect(wallet.account).toBeNull()
  })
})
