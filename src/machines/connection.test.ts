import { describe, expect, it } from 'vitest'
import type { SnapshotFrom } from 'xstate'
import { DisconnectError, SwitchChainError } from '../errors/connection'
import { type connectionMachine, selectStatus } from './connection'
import {
  account,
  BOB,
  CONNECTORS,
  connectionsOf,
  connectWith,
  flush,
  type Harness,
  harness,
  recent,
  rejected4001,
  startDisconnected,
  WC_URI,
} from './connection/harness'

describe('connectionMachine: reconnect at start (SPEC §4)', () => {
  it('reconnects an authorised connector: connected, and the kit hears of the account and its chain', async () => {
    const h = harness()
    expect(h.status()).toBe('reconnecting')
    expect(h.snapshot().hasTag('busy')).toBe(true)
    const a = account({ chainId: 10 })
    h.last(h.calls.reconnect).resolve({
      account: a,
      connections: connectionsOf(a),
      recentWallets: [recent('io.metamask'), recent('b'), recent('c')],
    })
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.status()).toBe('connected')
    expect(h.context().account).toEqual(a)
    expect(h.context().connections).toEqual(connectionsOf(a))
    expect(h.context().recentWallets.map((w) => w.id)).toEqual(['io.metamask', 'b'])
    expect(h.context().recentWallet?.id).toBe('io.metamask')
    expect(h.notices).toEqual([
      { type: 'account.connected', account: a, method: 'browser', reconnected: true },
      { type: 'account.chainChanged', chainId: 10, supported: true, namespace: 'eip155' },
    ])
    // The wallet is followed from now on, for the connector that reconnected.
    expect(h.last(h.watchers.connection)).toMatchObject({
      input: { connectorId: 'io.metamask' },
      stopped: false,
    })
    h.stop()
  })

  it('tells the kit when the reconnected chain is not one the app asked for', async () => {
    const h = harness({ supportedChainIds: [1] })
    const a = account({ chainId: 56 })
    h.last(h.calls.reconnect).resolve({ account: a, connections: connectionsOf(a), recentWallets: [] })
    await flush()
    expect(h.notices.at(-1)).toEqual({
      type: 'account.chainChanged',
      chainId: 56,
      supported: false,
      namespace: 'eip155',
    })
    h.stop()
  })

  it('without an authorised connector: disconnected with empty connections, recent wallets kept', async () => {
    const h = harness()
    h.last(h.calls.reconnect).resolve({
      account: undefined,
      connections: {},
      recentWallets: [recent('a'), recent('b'), recent('c')],
    })
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.status()).toBe('disconnected')
    expect(h.context()).toMatchObject({ account: undefined, connections: {}, recentWallet: undefined })
    expect(h.context().recentWallets.map((w) => w.id)).toEqual(['a', 'b'])
    expect(h.notices).toEqual([])
    h.stop()
  })

  it('a failed reconnect is disconnected with empty connections, no error shown', async () => {
    const h = harness()
    h.last(h.calls.reconnect).reject(new Error('storage unreadable'))
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.snapshot().status).toBe('active')
    expect(h.context()).toMatchObject({ account: undefined, connections: {}, error: undefined })
    expect(h.notices).toEqual([])
    h.stop()
  })
})

describe('connectionMachine: connecting', () => {
  it('connects: stores the wallet first in recent wallets (max 2, no duplicates) and notifies the kit', async () => {
    const h = harness()
    await startDisconnected(h, [recent('a'), recent('io.metamask')])
    h.last(h.watchers.connectors).sendBack({ type: 'connection.connectors', connectors: CONNECTORS })

    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.status()).toBe('connecting')
    expect(h.snapshot().hasTag('busy')).toBe(true)
    expect(h.last(h.calls.connect).input).toEqual({ connectorId: 'io.metamask' })
    const a = account()
    h.last(h.calls.connect).resolve({ account: a, connections: connectionsOf(a) })
    await flush()

    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    // Named after the connector, since no listing wallet was picked.
    const metamask = { id: 'io.metamask', name: 'MetaMask', connectorId: 'io.metamask', rdns: 'io.metamask' }
    expect(h.context().recentWallet).toEqual(metamask)
    expect(h.context().recentWallets.map((w) => w.id)).toEqual(['io.metamask', 'a'])
    expect(h.persisted).toEqual([
      { type: 'persist.connected', recentWallets: [metamask, recent('a')], wallet: metamask, chainId: 1 },
    ])
    expect(h.notices).toEqual([
      { type: 'account.connected', account: a, method: 'browser', reconnected: false },
      { type: 'account.chainChanged', chainId: 1, supported: true, namespace: 'eip155' },
    ])
    h.stop()
  })

  it('a wallet picked from the listing is remembered as that wallet, most recent first, at most two', async () => {
    const h = harness()
    await startDisconnected(h, [recent('a'), recent('b')])
    const zerion = { id: 'zerion', name: 'Zerion', imageUrl: 'https://img.example/zerion.png' }
    await connectWith(h, account({ connectorId: 'walletConnect' }), {
      connectorId: 'walletConnect',
      wallet: zerion,
    })
    const stored = { ...zerion, connectorId: 'walletConnect' }
    expect(h.context().recentWallets).toEqual([stored, recent('a')])
    expect(h.notices[0]).toMatchObject({ type: 'account.connected', method: 'qrcode' })
    expect(h.persisted.at(-1)).toMatchObject({ type: 'persist.connected', wallet: stored })
    h.stop()
  })

  it('a declined connection (4001) fails with the SPEC text; retry tries the same target again', async () => {
    const h = harness()
    await startDisconnected(h)
    const wallet = { id: 'rainbow', name: 'Rainbow' }
    h.send({ type: 'connection.connect', connectorId: 'me.rainbow', wallet, method: 'mobile' })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    expect(h.snapshot().hasTag('failed')).toBe(true)
    expect(h.status()).toBe('disconnected')
    expect(h.context().error).toEqual({
      name: 'UserRejectedError',
      message: 'Connection declined in the wallet.',
      code: 4001,
    })
    expect(h.context().wcError).toBe(false)
    expect(h.notices).toEqual([])

    h.send({ type: 'connection.retry' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    // A fresh attempt carries no error of the last one.
    expect(h.context().error).toBeUndefined()
    expect(h.calls.connect).toHaveLength(2)
    expect(h.last(h.calls.connect).input).toEqual({ connectorId: 'me.rainbow' })
    expect(h.context().target).toEqual({ connectorId: 'me.rainbow', wallet, method: 'mobile' })
    const a = account({ connectorId: 'me.rainbow' })
    h.last(h.calls.connect).resolve({ account: a, connections: connectionsOf(a) })
    await flush()
    expect(h.context().error).toBeUndefined()
    expect(h.notices[0]).toMatchObject({ type: 'account.connected', method: 'mobile', reconnected: false })
    h.stop()
  })

  it('a failed WalletConnect attempt flags wcError; a new attempt clears the error', async () => {
    const h = harness()
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    h.last(h.calls.connect).reject(new Error('Proposal expired'))
    await flush()
    expect(h.context()).toMatchObject({
      wcError: true,
      error: { name: 'BaseError', message: 'Connection failed.' },
    })
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    expect(h.context()).toMatchObject({ wcError: false, error: undefined })
    h.stop()
  })

  it('retry is only offered after a failure; reset leaves the failure', async () => {
    const h = harness()
    await startDisconnected(h)
    expect(h.snapshot().can({ type: 'connection.retry' })).toBe(false)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(h.snapshot().can({ type: 'connection.retry' })).toBe(true)
    h.send({ type: 'connection.reset' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context()).toMatchObject({ error: undefined, target: undefined })
    expect(h.snapshot().can({ type: 'connection.retry' })).toBe(false)
    h.stop()
  })

  it('cancel while connecting: disconnected, the attempt is aborted, and its late answer is ignored', async () => {
    const h = harness()
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    const attempt = h.last(h.calls.connect)
    const pairing = h.last(h.watchers.pairing)
    expect(attempt.signal.aborted).toBe(false)
    h.send({ type: 'connection.cancel' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(attempt.signal.aborted).toBe(true)
    expect(pairing.stopped).toBe(true)
    expect(h.context()).toMatchObject({ target: undefined, buffering: false, wcUri: undefined })

    const a = account()
    attempt.resolve({ account: a, connections: connectionsOf(a) })
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context().account).toBeUndefined()
    expect(h.notices).toEqual([])
    expect(h.persisted).toEqual([])
    h.stop()
  })
})

describe('connectionMachine: WalletConnect pairing', () => {
  it('shows the pairing URI and its expiry from watchPairing; the deep link is kept', async () => {
    const h = harness()
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    expect(h.context().buffering).toBe(true)
    expect(h.context().target?.method).toBe('qrcode')
    const watcher = h.last(h.watchers.pairing)
    expect(watcher.input).toEqual({ connectorId: 'walletConnect' })
    watcher.sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    expect(h.status()).toBe('connecting')
    expect(h.context()).toMatchObject({ wcUri: WC_URI, wcPairingExpiry: 4_102_444_800_000, buffering: false })
    watcher.sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: 'rainbow://' })
    expect(h.context().wcLinking).toEqual({ name: 'Rainbow', href: 'rainbow://' })
    // Still the one attempt: a URI is shown, not a new request made.
    expect(h.calls.connect).toHaveLength(1)
    h.stop()
  })

  it('an expired pairing starts a fresh attempt (a new connect call), the old one aborted', async () => {
    const h = harness()
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    const first = h.last(h.calls.connect)
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: Date.now() + 1 })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.pairingExpired' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.calls.connect).toHaveLength(2)
    expect(first.signal.aborted).toBe(true)
    expect(h.last(h.calls.connect).input).toEqual({ connectorId: 'walletConnect' })
    expect(h.context()).toMatchObject({ wcUri: undefined, wcPairingExpiry: undefined, buffering: true })
    expect(h.watchers.pairing).toHaveLength(2)
    expect(h.watchers.pairing[0]?.stopped).toBe(true)
    // The new attempt has the same invoke id as the old one: the old one's late answer must not count.
    first.resolve({ account: account(), connections: connectionsOf(account()) })
    await flush()
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.notices).toEqual([])
    h.stop()
  })

  /** Connect over WalletConnect, get a URI valid until `expiry`, then have the wallet decline. */
  async function failAfterUri(h: Harness, expiry: number) {
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    expect(h.context().wcUri).toBe(WC_URI)
  }

  it('on Telegram or iOS Safari an unexpired pairing is shown again at once (SPEC §4)', async () => {
    const h = harness({ supportedChainIds: [1], reusePairing: true })
    const expiry = Date.now() + 60_000
    await failAfterUri(h, expiry)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    expect(h.context()).toMatchObject({
      wcUri: WC_URI,
      wcPairingExpiry: expiry,
      buffering: false,
      error: undefined,
      wcError: false,
    })
    h.stop()
  })

  it('elsewhere, or once the pairing expired, connecting again is a fresh attempt', async () => {
    const elsewhere = harness({ supportedChainIds: [1], reusePairing: false })
    await failAfterUri(elsewhere, Date.now() + 60_000)
    const expired = harness({ supportedChainIds: [1], reusePairing: true })
    await failAfterUri(expired, Date.now() - 1)
    for (const h of [elsewhere, expired]) {
      h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
      expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
      expect(h.calls.connect).toHaveLength(2)
      expect(h.context()).toMatchObject({ wcUri: undefined, wcPairingExpiry: undefined, buffering: true })
      h.stop()
    }
  })

  it('a reused pairing remembers the wallet picked this time, not the one picked before', async () => {
    const h = harness({ supportedChainIds: [1], reusePairing: true })
    await startDisconnected(h)
    const zerion = { id: 'zerion', name: 'Zerion' }
    const rainbow = { id: 'rainbow', name: 'Rainbow' }
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: zerion })
    h.last(h.watchers.pairing).sendBack({
      type: 'connection.wcUri',
      uri: WC_URI,
      expiry: Date.now() + 60_000,
    })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow, method: 'mobile' })
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    const a = account({ connectorId: 'walletConnect' })
    h.last(h.calls.connect).resolve({ account: a, connections: connectionsOf(a) })
    await flush()
    expect(h.context().recentWallet).toEqual({ ...rainbow, connectorId: 'walletConnect' })
    expect(h.notices[0]).toMatchObject({ type: 'account.connected', method: 'mobile' })
    h.stop()
  })

  it('a pairing is not reused for another connector', async () => {
    const h = harness({ supportedChainIds: [1], reusePairing: true })
    await failAfterUri(h, Date.now() + 60_000)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.context().target?.connectorId).toBe('io.metamask')
    h.stop()
  })
})

describe('connectionMachine: connected', () => {
  it('a disconnect from the wallet side resets (SPEC §4), forgets the session and tells the kit', async () => {
    const h = harness()
    await startDisconnected(h, [recent('a')])
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: 'rainbow://' })
    const a = account({ connectorId: 'walletConnect' })
    h.last(h.calls.connect).resolve({ account: a, connections: connectionsOf(a) })
    await flush()
    expect(h.context().recentWallet).toBeDefined()
    h.notices.length = 0
    h.persisted.length = 0

    h.fromWallet({ type: 'connection.lost' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.status()).toBe('disconnected')
    expect(h.context()).toMatchObject({
      account: undefined,
      connections: {},
      target: undefined,
      wcUri: undefined,
      wcPairingExpiry: undefined,
      wcLinking: undefined,
      wcError: false,
      buffering: false,
      recentWallet: undefined,
      error: undefined,
    })
    // Recent wallets outlive a disconnect: they are what the Connect view offers next.
    expect(h.context().recentWallets.map((w) => w.id)).toEqual(['walletConnect', 'a'])
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
    expect(h.notices).toEqual([{ type: 'account.disconnected', namespace: 'eip155' }])
    expect(h.watchers.connection.every((w) => w.stopped)).toBe(true)
    h.stop()
  })

  it('an account or chain change in the wallet updates the account and connections and tells the kit', async () => {
    const h = harness({ supportedChainIds: [1, 10] })
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0

    const moved = account({ address: BOB, addresses: [BOB], chainId: 999 })
    h.fromWallet({ type: 'connection.changed', account: moved })
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.context().account).toEqual(moved)
    expect(h.context().connections).toEqual({ 'io.metamask': { accounts: [BOB], chainId: 999 } })
    expect(h.persisted).toEqual([{ type: 'persist.chain', chainId: 999 }])
    // Another address: the kit hears of the account too (SPEC §3 allAccounts), before its chain.
    expect(h.notices).toEqual([
      { type: 'account.changed', account: moved },
      { type: 'account.chainChanged', chainId: 999, supported: false, namespace: 'eip155' },
    ])

    h.fromWallet({ type: 'connection.changed', account: account({ chainId: 10 }) })
    expect(h.notices.at(-1)).toEqual({
      type: 'account.chainChanged',
      chainId: 10,
      supported: true,
      namespace: 'eip155',
    })
    h.stop()
  })

  it('switches the chain: busy while the wallet decides, then the account follows', async () => {
    const h = harness()
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0
    h.send({ type: 'connection.switchChain', chainId: 10 })
    expect(h.snapshot().value).toEqual({ connected: 'switching' })
    expect(h.snapshot().hasTag('busy')).toBe(true)
    expect(h.status()).toBe('connected')
    expect(h.last(h.calls.switchChain).input).toEqual({ chainId: 10 })
    h.last(h.calls.switchChain).resolve(10)
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.context().account?.chainId).toBe(10)
    expect(h.persisted).toEqual([{ type: 'persist.chain', chainId: 10 }])
    expect(h.notices).toEqual([
      { type: 'account.chainChanged', chainId: 10, supported: true, namespace: 'eip155' },
    ])
    h.stop()
  })

  it('a failed switch keeps the chain and shows "Failed to switch to chain"; a later switch clears it', async () => {
    const h = harness()
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.send({ type: 'connection.switchChain', chainId: 10 })
    // What the eip155 slot throws when the wallet does not know the chain.
    h.last(h.calls.switchChain).reject(
      new SwitchChainError({ cause: Object.assign(new Error('x'), { code: 4902 }) }),
    )
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.context().account?.chainId).toBe(1)
    expect(h.context().error).toEqual({
      name: 'SwitchChainError',
      message: 'Failed to switch to chain',
      code: 4902,
    })
    expect(h.notices).toEqual([])

    h.send({ type: 'connection.switchChain', chainId: 10 })
    h.last(h.calls.switchChain).resolve(10)
    await flush()
    expect(h.context().error).toBeUndefined()
    h.stop()
  })

  it('disconnects: the connector is disconnected, the session forgotten, the kit told', async () => {
    const h = harness()
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0
    h.send({ type: 'connection.disconnect' })
    expect(h.snapshot().value).toBe('disconnecting')
    expect(h.status()).toBe('connected')
    expect(h.snapshot().hasTag('busy')).toBe(true)
    expect(h.last(h.calls.disconnect).input).toEqual({ connectorId: 'io.metamask' })
    h.last(h.calls.disconnect).resolve()
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context()).toMatchObject({ account: undefined, connections: {} })
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
    expect(h.notices).toEqual([{ type: 'account.disconnected', namespace: 'eip155' }])
    h.stop()
  })

  it('a failed disconnect still ends disconnected; "Failed to disconnect" is reported (SPEC §8)', async () => {
    const h = harness()
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0
    h.send({ type: 'connection.disconnect' })
    h.last(h.calls.disconnect).reject(new DisconnectError({ cause: new Error('provider gone') }))
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context()).toMatchObject({ account: undefined, connections: {} })
    expect(h.context().error).toEqual({ name: 'DisconnectError', message: 'Failed to disconnect' })
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
    expect(h.notices).toEqual([
      { type: 'account.disconnected', namespace: 'eip155' },
      { type: 'toast.show', variant: 'error', message: 'Failed to disconnect' },
    ])
    // The next attempt starts clean.
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(h.context().error).toBeUndefined()
    h.stop()
  })
})

describe('selectStatus', () => {
  it('gives exactly disconnected | connecting | reconnecting | connected over every state', async () => {
    const h = harness()
    const seen = new Map<string, string>()
    const note = () => {
      const s: SnapshotFrom<typeof connectionMachine> = h.snapshot()
      seen.set(JSON.stringify(s.value), selectStatus(s))
    }
    note()
    await startDisconnected(h)
    note()
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    note()
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    note()
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    note()
    h.send({ type: 'connection.retry' })
    h.last(h.calls.connect).resolve({ account: account(), connections: connectionsOf(account()) })
    await flush()
    note()
    h.send({ type: 'connection.switchChain', chainId: 10 })
    note()
    h.send({ type: 'connection.disconnect' })
    note()
    expect(Object.fromEntries(seen)).toEqual({
      '"reconnecting"': 'reconnecting',
      '{"disconnected":"idle"}': 'disconnected',
      '{"connecting":"requesting"}': 'connecting',
      '{"connecting":"pairing"}': 'connecting',
      '{"disconnected":"failed"}': 'disconnected',
      '{"connected":"idle"}': 'connected',
      '{"connected":"switching"}': 'connected',
      '"disconnecting"': 'connected',
    })
    h.stop()
  })
})

describe('connectionMachine: failures reported for telemetry (SPEC §7 error props, §8)', () => {
  const failures = (h: Harness) => {
    const seen: {
      event: string
      report: { errorType: string; errorMessage: string; stackTrace?: string }
    }[] = []
    h.connection.on('connection.failed', ({ event, report }) => seen.push({ event, report }))
    return seen
  }

  it('errors are reported: a declined connection emits CONNECT_ERROR with errorType, errorMessage, stackTrace', async () => {
    const h = harness()
    const seen = failures(h)
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      event: 'CONNECT_ERROR',
      report: { errorType: 'UserRejectedError', errorMessage: 'Connection declined in the wallet.' },
    })
    expect(seen[0]?.report.stackTrace).toContain('UserRejectedError')
    // The flow's own notices are unchanged: the report is for telemetry only.
    expect(h.notices).toEqual([])
    h.stop()
  })

  it("'Failed to disconnect chains': a disconnect that fails on one namespace is reported per chain, naming it", async () => {
    const h = harness()
    const seen = failures(h)
    await startDisconnected(h)
    await connectWith(h, account())
    h.send({ type: 'connection.disconnect' })
    h.last(h.calls.disconnect).reject(new DisconnectError({ cause: new Error('provider gone') }))
    await flush()
    expect(seen).toEqual([
      {
        event: 'DISCONNECT_ERROR',
        report: expect.objectContaining({
          errorType: 'DisconnectError',
          errorMessage: 'Failed to disconnect chains',
        }),
      },
    ])
    expect(seen[0]?.report.stackTrace).toContain('Not disconnected: eip155')
    // The visitor is still told 'Failed to disconnect' (the toast), as before.
    expect(h.notices.at(-1)).toEqual({
      type: 'toast.show',
      variant: 'error',
      message: 'Failed to disconnect',
    })
    h.stop()
  })
})
