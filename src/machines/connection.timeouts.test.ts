import { describe, expect, it } from 'vitest'
import { SimulatedClock } from 'xstate'
import {
  CONNECT_TIMEOUT_MS,
  DISCONNECT_TIMEOUT_MS,
  RECONNECT_TIMEOUT_MS,
  SWITCH_CHAIN_TIMEOUT_MS,
} from '../constants'
import {
  account,
  connectionsOf,
  connectWith,
  flush,
  harness,
  startDisconnected,
  WC_URI,
} from './connection/harness'

describe('connectionMachine: a wallet that never answers (issue 13 item 2)', () => {
  it('a reconnect that never settles: disconnected after RECONNECT_TIMEOUT_MS, the reconnect abandoned', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toBe('reconnecting')
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ disconnected: 'lateReconnect' })
    expect(h.status()).toBe('disconnected')
    expect(h.last(h.calls.reconnect).signal.aborted).toBe(true)
    expect(h.context()).toMatchObject({ account: undefined, connections: {}, error: undefined })
    // The abandoned call's late answer changes nothing: what wagmi does next is the watcher's to say.
    const a = account()
    h.last(h.calls.reconnect).resolve({ account: a, connections: connectionsOf(a), recentWallets: [] })
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'lateReconnect' })
    expect(h.notices).toEqual([])
    h.stop()
  })

  // Issue 33 point 8: past the limit the kit said disconnected while wagmi went on to connect, with nothing
  // watching. The rule: a connection wagmi makes after the limit is adopted (`disconnected.lateReconnect`).
  it('wagmi connects after the reconnect limit: the connection is adopted, as a reconnect', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS)
    const watcher = h.last(h.watchers.lateReconnect)
    const a = account()
    watcher.sendBack({ type: 'connection.reconnectedLate', account: a, connections: connectionsOf(a) })
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(watcher.stopped).toBe(true)
    expect(h.context()).toMatchObject({ account: a, connections: connectionsOf(a) })
    expect(h.notices).toEqual([
      { type: 'account.connected', account: a, method: 'browser', reconnected: true },
      { type: 'account.chainChanged', chainId: a.chainId, supported: true, namespace: 'eip155' },
    ])
    // Followed from now on, as any connection.
    expect(h.last(h.watchers.connection).stopped).toBe(false)
    h.stop()
  })

  it('after the reconnect limit: wagmi giving up ends the watch; a connect or reset leaves it too', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS)
    h.last(h.watchers.lateReconnect).sendBack({ type: 'connection.lost' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.last(h.watchers.lateReconnect).stopped).toBe(true)
    h.stop()
    const picked = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS)
    picked.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(picked.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(picked.last(picked.watchers.lateReconnect).stopped).toBe(true)
    picked.stop()
    // A connection that is not among the ones reported is not adopted.
    const odd = harness(undefined, clock)
    clock.increment(RECONNECT_TIMEOUT_MS)
    odd.last(odd.watchers.lateReconnect).sendBack({
      type: 'connection.reconnectedLate',
      account: account(),
      connections: {},
    })
    expect(odd.snapshot().value).toEqual({ disconnected: 'lateReconnect' })
    odd.send({ type: 'connection.reset' })
    expect(odd.snapshot().value).toEqual({ disconnected: 'idle' })
    odd.stop()
  })

  it('connect while reconnecting: the visitor’s choice wins, the reconnect is abandoned; reset leaves too', async () => {
    const h = harness()
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(h.calls.reconnect[0]!.signal.aborted).toBe(true)
    h.send({ type: 'connection.cancel' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    h.stop()
    const h2 = harness()
    h2.send({ type: 'connection.reset' })
    expect(h2.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h2.calls.reconnect[0]!.signal.aborted).toBe(true)
    h2.stop()
  })

  it('a connect request that is never answered fails after CONNECT_TIMEOUT_MS with a clear error', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    clock.increment(CONNECT_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toEqual({ connecting: 'requesting' })
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    expect(h.context().error).toEqual({
      name: 'ConnectTimeoutError',
      message: 'The wallet did not answer in time.',
    })
    // The wallet's prompt is ended (the attempt aborted), and the kit raises SPEC §8's alert.
    expect(h.calls.connect[0]!.signal.aborted).toBe(true)
    expect(h.notices).toEqual([{ type: 'request.timedOut', request: 'connect' }])
    // A late answer does not connect behind the visitor's back.
    h.calls.connect[0]!.resolve({ account: account(), connections: connectionsOf(account()) })
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    // Retry asks again, with the full time.
    h.send({ type: 'connection.retry' })
    clock.increment(CONNECT_TIMEOUT_MS - 1)
    h.last(h.calls.connect).resolve({ account: account(), connections: connectionsOf(account()) })
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    h.stop()
  })

  it('a shown pairing URI waits for the visitor to scan: its own expiry and cancel end it, not the time limit', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect' })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    clock.increment(CONNECT_TIMEOUT_MS)
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    h.send({ type: 'connection.cancel' })
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    h.stop()
  })

  it('a network switch that is never answered ends after SWITCH_CHAIN_TIMEOUT_MS; the chain is kept', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    await startDisconnected(h)
    await connectWith(h, account())
    h.send({ type: 'connection.switchChain', chainId: 10 })
    clock.increment(SWITCH_CHAIN_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toEqual({ connected: 'switching' })
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.last(h.calls.switchChain).signal.aborted).toBe(true)
    expect(h.context().error).toEqual({
      name: 'SwitchChainError',
      message: 'Failed to switch to chain',
      code: 4902,
    })
    expect(h.context().account?.chainId).toBe(1)
    h.stop()
  })

  it('a disconnect that never settles ends disconnected after DISCONNECT_TIMEOUT_MS, "Failed to disconnect" reported', async () => {
    const clock = new SimulatedClock()
    const h = harness(undefined, clock)
    await startDisconnected(h)
    await connectWith(h, account())
    h.notices.length = 0
    h.persisted.length = 0
    h.send({ type: 'connection.disconnect' })
    clock.increment(DISCONNECT_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toBe('disconnecting')
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.context()).toMatchObject({ account: undefined, connections: {} })
    expect(h.context().error).toEqual({ name: 'DisconnectError', message: 'Failed to disconnect' })
    expect(h.persisted).toEqual([{ type: 'persist.disconnected' }])
    expect(h.notices).toEqual([
      { type: 'account.disconnected', namespace: 'eip155' },
      { type: 'toast.show', variant: 'error', message: 'Failed to disconnect' },
    ])
    h.stop()
  })
})
