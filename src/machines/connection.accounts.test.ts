import { afterEach, describe, expect, it } from 'vitest'
import { SimulatedClock } from 'xstate'
import { SELECT_ACCOUNT_TIMEOUT_MS } from '../constants'
import {
  ALICE,
  account,
  BOB,
  connectWith,
  flush,
  type Harness,
  harness,
  startDisconnected,
} from './connection/harness'
import { sharedAccounts } from './connection/setup'

/** SPEC §3 allAccounts and addressLabels: a wallet that shares several accounts, and the one shown among them. */

let h: Harness | undefined
afterEach(() => h?.stop())

async function connected(clock?: SimulatedClock) {
  h = harness({ supportedChainIds: [1, 10] }, clock)
  await startDisconnected(h)
  await connectWith(h, account())
  h.notices.length = 0
  return h
}

describe('connectionMachine: the accounts a wallet shares (SPEC §3 allAccounts)', () => {
  it('keeps every shared account, in the wallet order, the first one shown; none once disconnected', async () => {
    const t = await connected()
    expect(t.context().allAccounts).toEqual([
      { namespace: 'eip155', address: ALICE, type: 'eoa' },
      { namespace: 'eip155', address: BOB, type: 'eoa' },
    ])
    expect(t.context().addressLabels).toEqual({})
    expect(t.context().account?.address).toBe(ALICE)
    t.fromWallet({ type: 'connection.lost' })
    expect(t.context().allAccounts).toEqual([])
  })

  it('choosing another one asks its connector, then shows it and tells the kit; the list keeps its order', async () => {
    const t = await connected()
    t.send({ type: 'connection.selectAccount', address: BOB })
    expect(t.snapshot().value).toEqual({ connected: 'selectingAccount' })
    expect(t.last(t.calls.selectAccount).input).toEqual({ connectorId: 'io.metamask', address: BOB })
    // The connector lists the chosen one first, as wagmi does: its watcher reports the change first.
    t.fromWallet({ type: 'connection.changed', account: account({ address: BOB, addresses: [BOB, ALICE] }) })
    t.last(t.calls.selectAccount).resolve(BOB)
    await flush()
    expect(t.snapshot().value).toEqual({ connected: 'idle' })
    expect(t.context().account?.address).toBe(BOB)
    expect(t.context().allAccounts.map((a) => a.address)).toEqual([ALICE, BOB])
    // Told once, with the account shown now (the chain notice rides along, as for any wallet change).
    expect(t.notices.filter((n) => n.type === 'account.changed')).toEqual([
      { type: 'account.changed', account: account({ address: BOB, addresses: [BOB, ALICE] }) },
    ])
  })

  it('a connector that answers without a change of its own still makes the chosen account the one shown', async () => {
    const t = await connected()
    t.send({ type: 'connection.selectAccount', address: BOB })
    t.last(t.calls.selectAccount).resolve(BOB)
    await flush()
    expect(t.context().account?.address).toBe(BOB)
    expect(t.notices).toContainEqual({ type: 'account.changed', account: account({ address: BOB }) })
  })

  it('refuses an address the wallet did not share, and the one already shown (no call)', async () => {
    const t = await connected()
    t.send({ type: 'connection.selectAccount', address: '0x000000000000000000000000000000000000dead' })
    t.send({ type: 'connection.selectAccount', address: ALICE.toUpperCase().replace('0X', '0x') })
    expect(t.snapshot().value).toEqual({ connected: 'idle' })
    expect(t.calls.selectAccount).toHaveLength(0)
  })

  it('a connector that refuses, or never answers, leaves the account shown with the SPEC-style error', async () => {
    const clock = new SimulatedClock()
    const t = await connected(clock)
    t.send({ type: 'connection.selectAccount', address: BOB })
    t.last(t.calls.selectAccount).reject(new Error('gone'))
    await flush()
    expect(t.snapshot().value).toEqual({ connected: 'idle' })
    expect(t.context().account?.address).toBe(ALICE)
    expect(t.context().error).toMatchObject({
      name: 'SelectAccountError',
      message: 'Failed to switch account',
    })

    t.send({ type: 'connection.selectAccount', address: BOB })
    clock.increment(SELECT_ACCOUNT_TIMEOUT_MS)
    expect(t.snapshot().value).toEqual({ connected: 'idle' })
    expect(t.last(t.calls.selectAccount).signal.aborted).toBe(true)
    expect(t.context().account?.address).toBe(ALICE)
    expect(t.notices.some((n) => n.type === 'account.changed')).toBe(false)
  })

  it('the wallet switching accounts itself is followed: the kit is told', async () => {
    const t = await connected()
    t.fromWallet({ type: 'connection.changed', account: account({ address: BOB, addresses: [BOB, ALICE] }) })
    expect(t.context().account?.address).toBe(BOB)
    expect(t.notices.map((n) => n.type)).toEqual(['account.changed', 'account.chainChanged'])
    // A change of chain only is no change of account.
    t.notices.length = 0
    t.fromWallet({
      type: 'connection.changed',
      account: account({ address: BOB, addresses: [BOB, ALICE], chainId: 10 }),
    })
    expect(t.notices.map((n) => n.type)).toEqual(['account.chainChanged'])
  })
})

describe('sharedAccounts', () => {
  it('lists a new set in the wallet order, keeps the order of the same set, and takes the wallet labels', () => {
    const first = sharedAccounts(account(), [])
    expect(first.allAccounts.map((a) => a.address)).toEqual([ALICE, BOB])
    const reordered = sharedAccounts(account({ address: BOB, addresses: [BOB, ALICE] }), first.allAccounts)
    expect(reordered.allAccounts.map((a) => a.address)).toEqual([ALICE, BOB])
    const grown = sharedAccounts(
      account({ addresses: [ALICE, BOB, '0x0000000000000000000000000000000000000c0c'] }),
      first.allAccounts,
    )
    expect(grown.allAccounts).toHaveLength(3)
    expect(sharedAccounts(account({ labels: { [BOB]: 'Savings' } }), []).addressLabels).toEqual({
      [BOB]: 'Savings',
    })
    expect(sharedAccounts(undefined, first.allAccounts)).toEqual({ allAccounts: [], addressLabels: {} })
    // A connector that gives no list: the address shown is the one shared.
    expect(sharedAccounts(account({ addresses: [] }), []).allAccounts.map((a) => a.address)).toEqual([ALICE])
  })
})
