// @vitest-environment happy-dom
import { Keypair } from '@solana/web3.js'
import { getWallets } from '@wallet-standard/app'
import { describe, expect, it } from 'vitest'
import { type AnyActorLogic, createActor, createMachine, toPromise } from 'xstate'
import { UserRejectedError } from '../errors/connection'
import { SolanaUserRejectedError } from '../errors/solana'
import type { ConnectionEvent, PersistRequest } from '../machines/connection'
import { createKitStore, memoryStorage } from '../storage'
import { createSolanaConnectionActors } from './solanaConnection'

/*
 * Solana's connection slots (issue 17) over a Wallet Standard wallet registered in the page: the connectors it
 * lists, reconnect (silent), connect on the network chosen, the network switch (the kit's choice, checked),
 * and what is stored per namespace.
 */
const SANDBOX = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx' as const
const OTHER = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' as const
const SVG = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4='

/** A Wallet Standard wallet with one key: it authorises the site on the first connect (silent ones then too). */
function registerFakeWallet(name: string, { declines = false } = {}) {
  const key = Keypair.generate()
  const account = {
    address: key.publicKey.toBase58(),
    publicKey: key.publicKey.toBytes(),
    chains: ['solana:localnet'],
    features: ['solana:signAndSendTransaction', 'solana:signMessage'],
  }
  let authorised = false
  const listeners = new Set<(props: unknown) => void>()
  const wallet = {
    version: '1.0.0' as const,
    name,
    icon: SVG as `data:image/svg+xml;base64,${string}`,
    chains: ['solana:localnet'] as const,
    get accounts() {
      return authorised ? [account] : []
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async (input?: { silent?: boolean }) => {
          // As Phantom refuses: an EIP-1193-style 4001.
          if (declines && !input?.silent)
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          if (!input?.silent) authorised = true
          return { accounts: authorised ? [account] : [] }
        },
      },
      'standard:disconnect': {
        version: '1.0.0',
        disconnect: async () => {
          authorised = false
        },
      },
      'standard:events': {
        version: '1.0.0',
        on: (_event: string, listener: (props: unknown) => void) => {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signAndSendTransaction: async () => [],
      },
      'solana:signMessage': { version: '1.0.0', signMessage: async () => [] },
    },
  }
  const unregister = getWallets().register(wallet as never)
  return { address: account.address, unregister }
}

function setUp(stored: Record<string, unknown> = {}) {
  const storage = memoryStorage()
  for (const [key, value] of Object.entries(stored))
    storage.setItem(`walletstate.${key}`, JSON.stringify(value))
  const store = createKitStore(storage)
  const actors = createSolanaConnectionActors({ store, chainIds: [SANDBOX, OTHER], registerWaitMs: 50 })
  const run = <T>(logic: AnyActorLogic, input?: unknown) =>
    toPromise(createActor(logic, { input }).start()) as Promise<T>
  return { store, actors, run }
}

describe('createSolanaConnectionActors', () => {
  it('lists registered Solana wallets as Solana connectors, names and icons cleaned', async () => {
    const wallet = registerFakeWallet('Test\u202e Sol Wallet')
    const { actors } = setUp()
    const seen: ConnectionEvent[] = []
    const parent = createActor(
      createMachine({
        invoke: { src: actors.watchConnectors },
        on: { '*': { actions: ({ event }) => void seen.push(event as ConnectionEvent) } },
      }),
    ).start()
    const listed = seen.find((e) => e.type === 'connection.connectors')
    expect(listed).toBeDefined()
    if (listed?.type !== 'connection.connectors') throw new Error('no connectors')
    expect(listed.connectors).toContainEqual({
      id: 'solana:test-sol-wallet',
      name: 'Test Sol Wallet',
      type: 'announced',
      chain: 'solana',
      imageUrl: SVG,
    })
    parent.stop()
    wallet.unregister()
  })

  it('reconnect: nothing stored is no account; a stored, authorised wallet reconnects silently on its network', async () => {
    const wallet = registerFakeWallet('Reconnect Wallet')
    const id = 'solana:reconnect-wallet'
    expect((await setUp().run<{ account: unknown }>(setUp().actors.reconnect)).account).toBeUndefined()
    // Stored as connected, but the wallet never authorised this site: a silent connect answers nothing.
    const unauthorised = setUp({ solanaConnectionStatus: 'connected', solanaConnectorId: id })
    expect(
      (await unauthorised.run<{ account: unknown }>(unauthorised.actors.reconnect)).account,
    ).toBeUndefined()
    const first = setUp({ solanaNetwork: OTHER })
    const connected = await first.run<{ account: { chainId: string; address: string } }>(
      first.actors.connect,
      {
        connectorId: id,
      },
    )
    expect(connected.account).toEqual({
      namespace: 'solana',
      address: wallet.address,
      addresses: [wallet.address],
      chainId: OTHER,
      connectorId: id,
    })
    const again = setUp({ solanaConnectionStatus: 'connected', solanaConnectorId: id, solanaNetwork: OTHER })
    const reconnected = await again.run<{ account: { chainId: string; address: string } }>(
      again.actors.reconnect,
    )
    expect(reconnected.account?.address).toBe(wallet.address)
    expect(reconnected.account?.chainId).toBe(OTHER)
    wallet.unregister()
  })

  it('connects on the network the visitor chose; switching checks the network is configured', async () => {
    const wallet = registerFakeWallet('Switch Wallet')
    const { actors, run } = setUp()
    const out = await run<{ account: { chainId: string } }>(actors.connect, {
      connectorId: 'solana:switch-wallet',
      chainId: OTHER,
    })
    expect(out.account.chainId).toBe(OTHER)
    expect(await run(actors.switchChain, { chainId: SANDBOX })).toBe(SANDBOX)
    await expect(
      run(actors.switchChain, { chainId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z' }),
    ).rejects.toThrow(/not a configured Solana network/)
    await expect(run(actors.switchChain, { chainId: 1 })).rejects.toThrow(/not a configured Solana network/)
    wallet.unregister()
  })

  it("a connect the visitor declines in the wallet is the kit's one refusal (UserRejectedError), Solana's error its cause", async () => {
    const wallet = registerFakeWallet('Declining Wallet', { declines: true })
    const { actors, run } = setUp()
    const error = await run(actors.connect, { connectorId: 'solana:declining-wallet' }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(UserRejectedError)
    expect((error as UserRejectedError).shortMessage).toBe('Connection declined in the wallet.')
    expect((error as UserRejectedError).cause).toBeInstanceOf(SolanaUserRejectedError)
    wallet.unregister()
  })

  it("stores Solana's connection under its own keys, beside eip155's", () => {
    const { store, actors } = setUp()
    const persistence = createActor(actors.persistence).start()
    const send = (request: PersistRequest) => persistence.send(request)
    send({
      type: 'persist.connected',
      recentWallets: [],
      wallet: { id: 'solana:x', name: 'X', connectorId: 'solana:x' },
      chainId: OTHER,
    })
    expect(store.read('solanaConnectorId')).toBe('solana:x')
    expect(store.read('solanaConnectionStatus')).toBe('connected')
    expect(store.read('lastUsedChain')).toBe('solana')
    expect(store.read('solanaNetwork')).toBe(OTHER)
    expect(store.read('connectorId')).toBeUndefined()
    send({ type: 'persist.chain', chainId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z' })
    expect(store.read('solanaNetwork')).toBe(OTHER)
    send({ type: 'persist.disconnected' })
    expect(store.read('solanaConnectionStatus')).toBe('disconnected')
    expect(store.read('solanaConnectorId')).toBeUndefined()
    persistence.stop()
  })
})
