import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, SimulatedClock, toPromise, waitFor } from 'xstate'
import type { GetHistoryParameters, HistoryItem, HistoryPage } from '../api/dataApi'
import type { OnrampClient } from '../api/onramp'
import { ONRAMP_POLL_INTERVAL_MS, ONRAMP_QUOTE_DEBOUNCE_MS } from '../constants'
import { DataApiError } from '../errors/api'
import { OnrampPartnerOriginError, OnrampPopupBlockedError } from '../errors/onramp'
import {
  type OnrampEvent,
  type OnrampNotice,
  type OnrampPartnerCommand,
  onrampMachine,
} from '../machines/onramp'
import { sampleOnrampOptions } from '../utils/onrampSamples'
import { createOnrampActors, openPartnerWindow, ordersOf, type PartnerWindow } from './onramp'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const HASH = `0x${'cd'.repeat(32)}`
const PARTNER = 'http://127.0.0.1:4000/pay/0123456789abcdef0123456789abcdef'
/** The providers' partner origins as the sandbox's config names them. */
const ORIGINS = { coinbase: ['http://127.0.0.1:4000'], meld: ['http://127.0.0.1:4000'] }

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
  const win = { closed: false, opener: 'the host page' as unknown, sent: [] as string[], closedByKit: 0 }
  const handle: PartnerWindow = {
    close: () => {
      win.closedByKit++
      win.closed = true
    },
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

  it('on Solana: asks for the base58 account’s orders on the Solana network; a signature is the delivery', async () => {
    const buyer = '3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB'
    const signature = '5'.repeat(87)
    const asked: GetHistoryParameters[] = []
    const actors = createOnrampActors({
      onramp: {} as OnrampClient,
      dataApi: {
        getHistory: async (parameters) => {
          asked.push(parameters)
          return { data: [item('a', 'confirmed', { hash: signature })], next: null, supported: true }
        },
      },
    })
    const chainId = 'solana:DxPJSVPMqPyW4TvqMa3Eki2nRaRCbwYC' as const
    const actor = createActor(actors.fetchPurchases, {
      input: { address: buyer, chainId, provider: 'coinbase' },
    })
    actor.start()
    const done = await waitFor(actor, (s) => s.status !== 'active')
    expect(done.output).toEqual([
      { id: 'a', status: 'confirmed', amount: '49.5', symbol: 'USDC', hash: signature },
    ])
    expect(asked).toEqual([{ account: buyer, chainId, onramp: 'coinbase', signal: expect.any(AbortSignal) }])
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

/** The window's hand-off: the commands the machine would send, and what the window reports. */
function partner(open: (url: string, target: string) => PartnerWindow | null, provider = 'coinbase') {
  const events: OnrampEvent[] = []
  let listener: ((command: OnrampPartnerCommand) => void) | undefined
  const stop = openPartnerWindow(
    { provider },
    (e) => events.push(e),
    (l) => {
      listener = l
    },
    { open, closedPollMs: 500, partnerOrigins: ORIGINS },
  )
  const navigate = (url: string) => listener?.({ type: 'partner.navigate', url })
  return { events, stop, navigate }
}

describe('onramp partner window', () => {
  it('opens blank at once, cuts the opener, goes to the partner page when told, and tells when it is closed', () => {
    vi.useFakeTimers()
    const { win, handle } = fakeWindow()
    const opened: Array<[string, string]> = []
    const run = partner((url, target) => {
      opened.push([url, target])
      return handle
    })
    // Issue 33: the window is open before any URL is known (the caller runs this in the click).
    expect(opened).toEqual([['about:blank', '_blank']])
    expect(win.opener).toBeNull()
    expect(win.sent).toEqual([])
    expect(run.events).toEqual([])
    run.navigate(PARTNER)
    expect(win.sent).toEqual([PARTNER])
    expect(run.events).toEqual([{ type: 'onramp.partnerOpened' }])
    vi.advanceTimersByTime(5_000)
    expect(run.events).toHaveLength(1)
    win.closed = true
    vi.advanceTimersByTime(499)
    expect(run.events).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(run.events.at(-1)).toEqual({ type: 'onramp.partnerClosed' })
    vi.advanceTimersByTime(5_000)
    expect(run.events).toHaveLength(2)
    run.stop()
    expect(win.closedByKit).toBe(0)
  })

  // Issue 33: the partner URL's origin must be one of the provider's; else no navigation, and the blank window
  // the kit opened is closed.
  it.each([
    ['another host', 'https://evil.example/pay/1'],
    ['another port of the same host', 'http://127.0.0.1:4001/pay/1'],
    ['https instead of http', 'https://127.0.0.1:4000/pay/1'],
    ['a provider’s lookalike', 'http://127.0.0.1.evil.example:4000/pay/1'],
    ['not a URL', 'javascript:alert(1)'],
  ])('refuses %s: no navigation, a named error, and the blank window closed', (_, url) => {
    vi.useFakeTimers()
    const { win, handle } = fakeWindow()
    const run = partner(() => handle)
    run.navigate(url)
    expect(win.sent).toEqual([])
    expect(run.events).toHaveLength(1)
    const error = (run.events[0] as { error: OnrampPartnerOriginError }).error
    expect(error).toBeInstanceOf(OnrampPartnerOriginError)
    expect(error.shortMessage).toBe(
      "The payment page is not on the provider's own site, so it was not opened.",
    )
    run.stop()
    expect(win.closedByKit).toBe(1)
  })

  it('refuses a provider without origins, even for a URL another provider may use', () => {
    const { win, handle } = fakeWindow()
    const run = partner(() => handle, 'unknown')
    run.navigate(PARTNER)
    expect(win.sent).toEqual([])
    expect((run.events[0] as { error: unknown }).error).toBeInstanceOf(OnrampPartnerOriginError)
    run.stop()
  })

  it('closes the window when stopped while still blank, and leaves the partner’s page open', () => {
    vi.useFakeTimers()
    const blank = fakeWindow()
    const first = partner(() => blank.handle)
    first.stop()
    expect(blank.win.closedByKit).toBe(1)
    const shown = fakeWindow()
    const second = partner(() => shown.handle)
    second.navigate(PARTNER)
    second.stop()
    expect(shown.win.closedByKit).toBe(0)
    shown.win.closed = true
    vi.advanceTimersByTime(5_000)
    expect(second.events).toEqual([{ type: 'onramp.partnerOpened' }])
  })

  it('reports a blocked window, and a browser that throws, as failures', () => {
    const blocked = partner(() => null)
    const throws = partner(() => {
      throw new Error('SecurityError')
    })
    const events = [...blocked.events, ...throws.events]
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
        partnerOrigins: ORIGINS,
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

  /** The machine with the real slots, quoted and ready to choose; `url` is what the URL generator answers. */
  async function quoted(url: () => Promise<string>, history: () => HistoryItem[]) {
    const clock = new SimulatedClock()
    const { win, handle } = fakeWindow()
    const opened: string[] = []
    const client = {
      options: async () => sampleOnrampOptions(8453),
      quote: async () => Promise.reject(new Error('HTTP 503')),
      url,
    } as unknown as OnrampClient
    const machine = onrampMachine.provide({
      actors: createOnrampActors({
        onramp: client,
        dataApi: { getHistory: async () => ({ data: history(), next: null, supported: true }) },
        open: (target) => {
          opened.push(target)
          return handle
        },
        closedPollMs: 5,
        partnerOrigins: ORIGINS,
      }),
    })
    const actor = createActor(machine, { input: { address: ALICE, chainId: 8453 }, clock })
    actor.start()
    await waitFor(actor, (s) => s.matches('form'))
    actor.send({ type: 'onramp.setAmount', amount: '50' })
    clock.increment(ONRAMP_QUOTE_DEBOUNCE_MS)
    await waitFor(actor, (s) => s.matches({ form: 'quoted' }))
    return { actor, clock, win, opened }
  }

  // Issue 33: the window opens inside the click: during `send(onramp.choose)`, before the orders are read or the
  // URL is made (the old code opened it after both calls, outside the click, where pop-up blockers refuse it).
  it('opens the window while onramp.choose is being handled, before any call answers', async () => {
    const run = await quoted(
      () => new Promise<string>(() => {}),
      () => [],
    )
    expect(run.opened).toEqual([])
    run.actor.send({ type: 'onramp.choose', provider: 'coinbase' })
    expect(run.opened).toEqual(['about:blank'])
    expect(run.win.sent).toEqual([])
    // Cancelled before the URL came: the blank window is closed.
    run.actor.send({ type: 'onramp.cancel' })
    expect(run.win.closedByKit).toBe(1)
    run.actor.stop()
  })

  it('refuses a URL off the provider’s origins: failed with the named error, the window sent nowhere and closed', async () => {
    const run = await quoted(
      async () => 'https://evil.example/pay/1',
      () => [],
    )
    run.actor.send({ type: 'onramp.choose', provider: 'coinbase' })
    const failed = await waitFor(run.actor, (s) => s.matches('failed'))
    expect(failed.context.error).toMatchObject({
      name: 'OnrampPartnerOriginError',
      message: "The payment page is not on the provider's own site, so it was not opened.",
    })
    expect(run.win.sent).toEqual([])
    expect(run.win.closedByKit).toBe(1)
    run.actor.stop()
  })

  // Issue 33: a new order still pending when the window closes is watched on (processing) until confirmed.
  it('watches a pending order on after the window closed, and succeeds when the partner confirms it', async () => {
    let history = [item('old', 'confirmed')]
    const run = await quoted(
      async () => PARTNER,
      () => history,
    )
    run.actor.send({ type: 'onramp.choose', provider: 'coinbase' })
    await waitFor(run.actor, (s) => s.matches('waiting'))
    history = [item('new', 'pending'), item('old', 'confirmed')]
    run.win.closed = true
    await waitFor(run.actor, (s) => s.matches('processing'))
    history = [item('new', 'confirmed'), item('old', 'confirmed')]
    run.clock.increment(ONRAMP_POLL_INTERVAL_MS)
    const done = await waitFor(run.actor, (s) => s.matches('done'))
    expect(done.context.purchase).toEqual({ id: 'new', amount: '49.5', symbol: 'USDC', hash: HASH })
    run.actor.stop()
  })
})
