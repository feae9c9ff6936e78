import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, SimulatedClock, toPromise, waitFor } from 'xstate'
import type { GetHistoryParameters, HistoryItem, HistoryPage } from '../api/dataApi'
import type { OnrampClient } from '../api/onramp'
import { ONRAMP_POLL_INTERVAL_MS, ONRAMP_QUOTE_DEBOUNCE_MS } from '../constants'
import { DataApiError } from '../errors/api'
import { OnrampPopupBlockedError } from '../errors/onramp'
import { type OnrampEvent, type OnrampNotice, onrampMachine } from '../machines/onramp'
import { sampleOnrampOptions } from '../utils/onrampSamples'
import { createOnrampActors, ordersOf, type PartnerWindow, watchPartnerWindow } from './onramp'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const HASH = `0x${'cd'.repeat(32)}`
const PARTNER = 'http://127.0.0.1:4000/pay/0123456789abcdef0123456789abcdef'

const item = (
  id: string,
  status: HistoryItem['metadata']['status'],
  over: Partial<HistoryItem['metadata']> = {},
) =>
  ({
    id,
    metadata: {
      operationType: 'buy',
      hash: status === 'confirmed' ? HASH : '',
      minedAt: '2026-01-01T00:00:00.000Z',
      sentFrom: '0x0000000000000000000000000000000000000002',
      sentTo: ALICE,
      status,
      chain: 'eip155:8453',
      ...over,
    },
    transfers: [
      { fungible_info: { name: 'USD Coin', symbol: 'USDC' }, direction: 'in', quantity: { numeric: '49.5' } },
    ],
  }) satisfies HistoryItem

/** A window as the kit sees it: it records where it was sent and can be closed. */
function fakeWindow() {
  const win = { closed: false, opener: 'the host page' as unknown, sent: [] as string[] }
  const handle: PartnerWindow = {
    get closed() {
      return win.closed
    },
    get opener() {
      return win.opener
    },
    set opener(value) {
      win.opener = value
    },
    location: { replace: (url: string) => void win.sent.push(url) },
  }
  return { win, handle }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('onramp orders from the history', () => {
  it('reads a provider’s orders: buys only, the purchase as the transfer in, a hash only when it is one', () => {
    expect(
      ordersOf([
        item('new', 'pending'),
        item('old', 'confirmed'),
        item('odd', 'confirmed', { hash: 'not a hash' }),
        item('recv', 'confirmed', { operationType: 'receive' }),
      ]),
    ).toEqual([
      { id: 'new', status: 'pending', amount: '49.5', symbol: 'USDC', hash: '' },
      { id: 'old', status: 'confirmed', amount: '49.5', symbol: 'USDC', hash: HASH },
      { id: 'odd', status: 'confirmed', amount: '49.5', symbol: 'USDC', hash: '' },
    ])
  })

  it('asks the Data API for the provider’s history of the address on the delivery network', async () => {
    const asked: GetHistoryParameters[] = []
    const actors = createOnrampActors({
      onramp: {} as OnrampClient,
      dataApi: {
        getHistory: async (parameters) => {
          asked.push(parameters)
          return { data: [item('a', 'pending')], next: null, supported: true }
        },
      },
    })
    const actor = createActor(actors.fetchPurchases, {
      input: { address: ALICE, chainId: 8453, provider: 'meld' },
    })
    actor.start()
    const done = await waitFor(actor, (s) => s.status !== 'active')
    expect(done.output).toEqual([{ id: 'a', status: 'pending', amount: '49.5', symbol: 'USDC', hash: '' }])
    expect(asked).toEqual([
      { account: ALICE, chainId: 'eip155:8453', onramp: 'meld', signal: expect.any(AbortSignal) },
    ])
  })

  it('fails when the Data API does not serve the network, and keeps the Data API’s own errors', async () => {
    const run = async (getHistory: () => Promise<HistoryPage>) => {
      const actors = createOnrampActors({ onramp: {} as OnrampClient, dataApi: { getHistory } })
      const actor = createActor(actors.fetchPurchases, {
        input: { address: ALICE, chainId: 8453, provider: 'meld' },
      })
      actor.start()
      return (await toPromise(actor).catch((error: unknown) => error)) as Error & { shortMessage: string }
    }
    expect((await run(async () => ({ data: [], next: null, supported: false }))).shortMessage).toBe(
      'Unable to check your purchases. Try again.',
    )
    const own = new DataApiError('history', { kind: 'http', status: 500, details: 'HTTP 500' })
    expect(await run(async () => Promise.reject(own))).toBe(own)
  })
})

describe('onramp partner window', () => {
  it('opens blank, cuts the opener, goes to the partner page, and tells when it is closed', () => {
    vi.useFakeTimers()
    const { win, handle } = fakeWindow()
    const opened: Array<[string, string]> = []
    const events: OnrampEvent[] = []
    const stop = watchPartnerWindow({ url: PARTNER, provider: 'coinbase' }, (e) => events.push(e), {
      open: (url, target) => {
        opened.push([url, target])
        return handle
      },
      closedPollMs: 500,
    })
    expect(opened).toEqual([['', '_blank']])
    expect(win.opener).toBeNull()
    expect(win.sent).toEqual([PARTNER])
    expect(events).toEqual([{ type: 'onramp.partnerOpened' }])
    vi.advanceTimersByTime(5_000)
    expect(events).toHaveLength(1)
    win.closed = true
    vi.advanceTimersByTime(499)
    expect(events).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(events.at(-1)).toEqual({ type: 'onramp.partnerClosed' })
    vi.advanceTimersByTime(5_000)
    expect(events).toHaveLength(2)
    stop()
  })

  it('stops watching on cleanup, leaving the window open', () => {
    vi.useFakeTimers()
    const { win, handle } = fakeWindow()
    const events: OnrampEvent[] = []
    const stop = watchPartnerWindow({ url: PARTNER, provider: 'coinbase' }, (e) => events.push(e), {
      open: () => handle,
      closedPollMs: 500,
    })
    stop()
    win.closed = true
    vi.advanceTimersByTime(5_000)
    expect(events).toEqual([{ type: 'onramp.partnerOpened' }])
  })

  it('reports a blocked window, and a browser that throws, as failures', () => {
    const events: OnrampEvent[] = []
    watchPartnerWindow({ url: PARTNER, provider: 'coinbase' }, (e) => events.push(e), {
      open: () => null,
      closedPollMs: 500,
    })
    watchPartnerWindow({ url: PARTNER, provider: 'coinbase' }, (e) => events.push(e), {
      open: () => {
        throw new Error('SecurityError')
      },
      closedPollMs: 500,
    })
    expect(events.map((e) => e.type)).toEqual(['onramp.partnerFailed', 'onramp.partnerFailed'])
    expect((events[0] as { error: unknown }).error).toBeInstanceOf(OnrampPopupBlockedError)
    expect((events[1] as { error: { name: string } }).error.name).toBe('OnrampUrlError')
  })
})

describe('onramp machine with its real slots', () => {
  it('buys through the client, the history and a window: closed after the order is confirmed', async () => {
    const clock = new SimulatedClock()
    const { win, handle } = fakeWindow()
    const orders = [[item('old', 'confirmed')], [item('new', 'confirmed'), item('old', 'confirmed')]]
    let reads = 0
    const client = {
      options: async () => sampleOnrampOptions(8453),
      quote: async () => Promise.reject(new Error('HTTP 503')),
      url: async () => PARTNER,
    } as unknown as OnrampClient
    const machine = onrampMachine.provide({
      actors: createOnrampActors({
        onramp: client,
        dataApi: {
          getHistory: async () => ({ data: orders[Math.min(reads++, 1)]!, next: null, supported: true }),
        },
        open: () => handle,
        closedPollMs: 5,
      }),
    })
    const notices: OnrampNotice[] = []
    const actor = createActor(machine, { input: { address: ALICE, chainId: 8453 }, clock })
    actor.on('*', (n) => notices.push(n as OnrampNotice))
    actor.start()
    await waitFor(actor, (s) => s.matches('form'))
    actor.send({ type: 'onramp.setAmount', amount: '50' })
    clock.increment(ONRAMP_QUOTE_DEBOUNCE_MS)
    await waitFor(actor, (s) => s.matches({ form: 'quoted' }))
    // The quote failed: the estimate stands in.
    expect(actor.getSnapshot().context.quotes.coinbase?.estimate).toBe(true)
    actor.send({ type: 'onramp.choose', provider: 'coinbase' })
    await waitFor(actor, (s) => s.matches('waiting'))
    expect(win.sent).toEqual([PARTNER])
    win.closed = true
    const done = await waitFor(actor, (s) => s.matches('done'))
    expect(done.context.purchase).toEqual({ id: 'new', amount: '49.5', symbol: 'USDC', hash: HASH })
    expect(notices.map((n) => n.type)).toEqual(['onramp.opening', 'onramp.opened', 'onramp.succeeded'])
    expect(reads).toBe(2)
    clock.increment(ONRAMP_POLL_INTERVAL_MS)
    actor.stop()
  })
})
