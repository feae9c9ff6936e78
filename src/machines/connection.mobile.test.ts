import { describe, expect, it } from 'vitest'
import { SimulatedClock } from 'xstate'
import { RESUME_LINKING_TIMEOUT_MS } from '../constants'
import type { ChosenWallet } from './connection'
import {
  account,
  connectionsOf,
  flush,
  harness,
  rejected4001,
  startDisconnected,
  WC_URI,
} from './connection/harness'

describe('connectionMachine: a mobile browser opens the wallet by its mobile link (issue 18 item 5)', () => {
  const rainbow: ChosenWallet = { id: 'rainbow', name: 'Rainbow', mobileLink: 'rainbow://' }
  const HREF = `rainbow://wc?uri=${encodeURIComponent(WC_URI)}`
  const wcAccount = account({ connectorId: 'walletConnect' })

  it('a wallet with a mobile link: method mobile; its link opened with the first pairing URI and stored', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true })
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow, method: 'qrcode' })
    expect(h.context().target?.method).toBe('mobile')
    expect(h.watchers.openWallet).toHaveLength(0)
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    expect(h.last(h.watchers.openWallet).input).toEqual({
      connectorId: 'walletConnect',
      wallet: rainbow,
      uri: WC_URI,
    })
    h.last(h.watchers.openWallet).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: HREF })
    expect(h.context().wcLinking).toEqual({ name: 'Rainbow', href: HREF })
    expect(h.persisted).toEqual([
      {
        type: 'persist.linking',
        linking: { id: 'rainbow', name: 'Rainbow', connectorId: 'walletConnect', href: HREF },
      },
    ])
    // A later URI of the same attempt (the first expired) is not opened again behind the visitor's back.
    h.last(h.watchers.pairing).sendBack({
      type: 'connection.wcUri',
      uri: `${WC_URI}1`,
      expiry: 4_102_444_800_000,
    })
    expect(h.watchers.openWallet).toHaveLength(1)
    // The wallet approves while the page is still there: connected, the success event says mobile.
    h.last(h.calls.connect).resolve({ account: wcAccount, connections: connectionsOf(wcAccount) })
    await flush()
    expect(h.notices[0]).toEqual({
      type: 'account.connected',
      account: wcAccount,
      method: 'mobile',
      reconnected: false,
    })
    h.stop()
  })

  it('cancelling forgets the stored deep link (SPEC §3); a new attempt opens the wallet again', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true })
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    h.last(h.watchers.openWallet).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: HREF })
    h.persisted.length = 0
    h.send({ type: 'connection.cancel' })
    expect(h.context().wcLinking).toBeUndefined()
    expect(h.persisted).toEqual([{ type: 'persist.linkingForgotten' }])
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    expect(h.watchers.openWallet).toHaveLength(2)
    h.stop()
  })

  it('a pairing reused (iOS Safari) opens the wallet again with the URI shown', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true, reusePairing: true })
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    h.last(h.watchers.openWallet).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: HREF })
    // The wallet declined; picked again, the pairing (unexpired) is shown again and the wallet opened with it.
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    expect(h.snapshot().value).toEqual({ connecting: 'pairing' })
    expect(h.watchers.openWallet.map((w) => w.input.uri)).toEqual([WC_URI, WC_URI])
    h.stop()
  })

  it('a failed attempt forgets the stored deep link too', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true })
    await startDisconnected(h)
    h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet: rainbow })
    h.last(h.watchers.pairing).sendBack({ type: 'connection.wcUri', uri: WC_URI, expiry: 4_102_444_800_000 })
    h.last(h.watchers.openWallet).sendBack({ type: 'connection.wcLinking', name: 'Rainbow', href: HREF })
    h.last(h.calls.connect).reject(rejected4001())
    await flush()
    expect(h.snapshot().value).toEqual({ disconnected: 'failed' })
    expect(h.persisted.at(-1)).toEqual({ type: 'persist.linkingForgotten' })
    h.stop()
  })

  it('on a desktop browser, or for a wallet without a mobile link, the QR code is shown and nothing opened', async () => {
    for (const [mobile, wallet] of [
      [false, rainbow],
      [true, { id: 'plain', name: 'Plain' }],
    ] as const) {
      const h = harness({ supportedChainIds: [1], mobile })
      await startDisconnected(h)
      h.send({ type: 'connection.connect', connectorId: 'walletConnect', wallet })
      expect(h.context().target?.method).toBe('qrcode')
      h.last(h.watchers.pairing).sendBack({
        type: 'connection.wcUri',
        uri: WC_URI,
        expiry: 4_102_444_800_000,
      })
      expect(h.watchers.openWallet).toHaveLength(0)
      h.stop()
    }
  })

  const linking = { id: 'rainbow', name: 'Rainbow', connectorId: 'walletConnect', href: HREF }

  it('back on the page, a stored deep link resumes its pairing: connected as a fresh mobile connection', async () => {
    const h = harness({ supportedChainIds: [1], mobile: true })
    h.last(h.calls.reconnect).resolve({ account: undefined, connections: {}, recentWallets: [], linking })
    await flush()
    expect(h.snapshot().value).toBe('resuming')
    expect(h.status()).toBe('connecting')
    expect(h.snapshot().hasTag('connecting')).toBe(true)
    expect(h.context().wcLinking).toEqual({ name: 'Rainbow', href: HREF })
    // The modal closing sends cancel; that must not drop the pairing being resumed.
    h.send({ type: 'connection.cancel' })
    expect(h.last(h.calls.resumePairing).input).toEqual({ connectorId: 'walletConnect' })
    h.last(h.calls.resumePairing).resolve({ account: wcAccount, connections: connectionsOf(wcAccount) })
    await flush()
    expect(h.snapshot().value).toEqual({ connected: 'idle' })
    expect(h.notices[0]).toEqual({
      type: 'account.connected',
      account: wcAccount,
      method: 'mobile',
      reconnected: false,
    })
    expect(h.context().recentWallet).toEqual({ id: 'rainbow', name: 'Rainbow', connectorId: 'walletConnect' })
    expect(h.persisted.at(-1)).toMatchObject({ type: 'persist.connected', wallet: { id: 'rainbow' } })
    h.stop()
  })

  it('a pairing that does not complete: disconnected after RESUME_LINKING_TIMEOUT_MS, the link forgotten', async () => {
    const clock = new SimulatedClock()
    const h = harness({ supportedChainIds: [1], mobile: true }, clock)
    h.last(h.calls.reconnect).resolve({ account: undefined, connections: {}, recentWallets: [], linking })
    await flush()
    clock.increment(RESUME_LINKING_TIMEOUT_MS - 1)
    expect(h.snapshot().value).toBe('resuming')
    clock.increment(1)
    expect(h.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(h.last(h.calls.resumePairing).signal.aborted).toBe(true)
    expect(h.context().wcLinking).toBeUndefined()
    expect(h.persisted).toEqual([{ type: 'persist.linkingForgotten' }])
    h.stop()
  })

  it('a resume that fails is disconnected, the link forgotten; a wallet picked meanwhile wins', async () => {
    const failed = harness({ supportedChainIds: [1], mobile: true })
    failed
      .last(failed.calls.reconnect)
      .resolve({ account: undefined, connections: {}, recentWallets: [], linking })
    await flush()
    failed.last(failed.calls.resumePairing).reject(new Error('no session'))
    await flush()
    expect(failed.snapshot().value).toEqual({ disconnected: 'idle' })
    expect(failed.persisted).toEqual([{ type: 'persist.linkingForgotten' }])
    expect(failed.notices).toEqual([])
    failed.stop()

    const picked = harness({ supportedChainIds: [1], mobile: true })
    picked
      .last(picked.calls.reconnect)
      .resolve({ account: undefined, connections: {}, recentWallets: [], linking })
    await flush()
    picked.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    expect(picked.snapshot().value).toEqual({ connecting: 'requesting' })
    expect(picked.last(picked.calls.resumePairing).signal.aborted).toBe(true)
    expect(picked.context().target).toEqual({ connectorId: 'io.metamask', method: 'browser' })
    picked.stop()
  })
})
