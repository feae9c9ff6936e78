import { Window } from 'happy-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AnyActorRef, createActor, setup } from 'xstate'
import type { FrameRequest } from './protocol'
import {
  createFrameChannel,
  createFrameTransport,
  type FrameInbound,
  type FrameLog,
  type FrameTransportCommand,
  frameOrigin,
  frameUrl,
} from './transport'

const APP = 'https://app.example'
const FRAME = 'https://secure.example'
const request = (
  id: string,
  type: FrameRequest['type'] = 'isConnected',
  payload: unknown = {},
): FrameRequest => ({
  id,
  type,
  payload,
})
const quiet: FrameLog = () => {}

describe('frameUrl and frameOrigin', () => {
  it('default: the frame page with the SPEC §7 parameters', () => {
    const url = frameUrl({
      endpoint: FRAME,
      projectId: 'p 1',
      chainId: 1,
      version: '0.1.0',
      enableLogger: false,
    })
    expect(url).toBe('https://secure.example/frame?projectId=p+1&chainId=1&version=0.1.0&enableLogger=false')
  })

  it('parameters: an endpoint with a path or a trailing slash', () => {
    const base = { projectId: 'p', chainId: 'solana:5eyk', version: '1', enableLogger: true }
    expect(frameUrl({ ...base, endpoint: 'https://secure.example/sdk/' })).toBe(
      'https://secure.example/sdk/frame?projectId=p&chainId=solana%3A5eyk&version=1&enableLogger=true',
    )
    expect(frameOrigin('https://secure.example:8443/sdk')).toBe('https://secure.example:8443')
  })

  it('behavior: an endpoint without an origin is refused', () => {
    expect(() => frameOrigin('data:text/html,hi')).toThrow(/has no origin/)
    expect(() => frameOrigin('not a url')).toThrow()
  })
})

describe('createFrameChannel', () => {
  const target = () => ({ postMessage: vi.fn<(message: unknown, targetOrigin: string) => void>() })
  const source = { name: 'the frame window' }

  it('behavior: refuses `*` and anything but an exact origin', () => {
    for (const targetOrigin of ['*', `${FRAME}/`, `${FRAME}/frame`, 'secure.example']) {
      expect(() => createFrameChannel({ target: target(), targetOrigin, source })).toThrow()
    }
  })

  it('behavior: posts each request to the exact origin, checked first', () => {
    const t = target()
    const channel = createFrameChannel({ target: t, targetOrigin: FRAME, source, log: quiet })
    expect(channel.post(request('r1', 'connectEmail', { email: ' alice@example.com ' }))).toBeUndefined()
    expect(t.postMessage).toHaveBeenCalledWith(
      { id: 'r1', type: 'connectEmail', payload: { email: 'alice@example.com' } },
      FRAME,
    )
    // Malformed requests never leave: a bad id, an unknown command, a payload the command does not take.
    expect(channel.post(request('r 2'))).toBeTypeOf('string')
    expect(channel.post({ id: 'r3', type: 'format' as FrameRequest['type'] })).toBeTypeOf('string')
    expect(channel.post(request('r4', 'connectEmail', { email: 'nope' }))).toBe('Invalid email')
    expect(t.postMessage).toHaveBeenCalledTimes(1)
  })

  it('behavior: lets in a reply to an open request once, from the frame window on the frame origin', () => {
    const channel = createFrameChannel({ target: target(), targetOrigin: FRAME, source, log: quiet })
    channel.post(request('r1'))
    const reply = { id: 'r1', type: 'frame.reply', payload: { ok: true, result: { isConnected: false } } }
    expect(channel.receive({ origin: FRAME, source: {}, data: reply })).toBeUndefined()
    expect(channel.receive({ origin: APP, source, data: reply })).toBeUndefined()
    expect(channel.receive({ origin: `${FRAME}:443`, source, data: reply })).toBeUndefined()
    expect(channel.receive({ origin: FRAME, source, data: reply })).toEqual(reply)
    expect(channel.receive({ origin: FRAME, source, data: reply })).toBeUndefined()
    expect(channel.stats).toEqual({
      accepted: 1,
      dropped: 4,
      reasons: { source: 1, origin: 2, shape: 0, unknownType: 0, unknownId: 1 },
    })
  })

  it('behavior: lets in the frame events; drops what is not an envelope, or no known reply or event', () => {
    const channel = createFrameChannel({ target: target(), targetOrigin: FRAME, source, log: quiet })
    const from = (data: unknown) => channel.receive({ origin: FRAME, source, data })
    expect(from({ type: 'frame.ready', payload: { version: 1 } })).toEqual({
      type: 'frame.ready',
      payload: { version: 1 },
    })
    expect(from('frame.ready')).toBeUndefined()
    expect(from({ type: 'frame.ready' })).toBeUndefined()
    expect(from({ type: 'frame.reply', id: 'r1', payload: { ok: 'yes' } })).toBeUndefined()
    expect(from({ type: 'frame.unheardOf', payload: {} })).toBeUndefined()
    expect(channel.stats.reasons).toEqual({ source: 0, origin: 0, shape: 3, unknownType: 1, unknownId: 0 })
  })

  it('behavior: without a frame window nothing is let in', () => {
    const channel = createFrameChannel({ target: null, targetOrigin: FRAME, source: null, log: quiet })
    expect(
      channel.receive({
        origin: FRAME,
        source: null,
        data: { type: 'frame.ready', payload: { version: 1 } },
      }),
    ).toBeUndefined()
    expect(channel.post(request('r1'))).toBe('The login frame is not available')
  })

  it('behavior: foreign messages are logged quietly, bad ones from the frame loudly', () => {
    const log = vi.fn<FrameLog>()
    const channel = createFrameChannel({ target: target(), targetOrigin: FRAME, source, log })
    channel.receive({ origin: APP, source: {}, data: { hello: 'extension' } })
    channel.receive({ origin: FRAME, source, data: { nonsense: true } })
    expect(log.mock.calls.map((call) => call[0])).toEqual(['debug', 'warn'])
  })
})

/**
 * The transport in a happy-dom page: a real iframe element whose content window is a cross-origin window
 * (happy-dom refuses a `postMessage` to it with the wrong target origin, as a browser does).
 */
function page() {
  const win: Window = new Window({
    url: `${APP}/shop`,
    settings: {
      enableIframePageLoading: true,
      fetch: {
        interceptor: {
          beforeAsyncRequest: async (): Promise<InstanceType<Window['Response']>> =>
            new win.Response('<html><body>login frame</body></html>', {
              headers: { 'content-type': 'text/html' },
            }),
        },
      },
    },
  })
  const document = win.document as unknown as Document
  const transport = createFrameTransport({ document, log: quiet })
  const received: FrameInbound[] = []
  const parent = setup({
    types: { events: {} as FrameInbound },
    actors: { transport: transport.logic },
  }).createMachine({
    invoke: {
      id: 'transport',
      src: 'transport',
      input: { endpoint: FRAME, projectId: 'p1', chainId: 1, version: '0.1.0', enableLogger: false },
    },
    on: { '*': { actions: ({ event }) => received.push(event) } },
  })
  const actor = createActor(parent).start()
  const child = actor.getSnapshot().children.transport as AnyActorRef
  const iframe = document.querySelector('iframe')!
  const frameWindow = iframe.contentWindow!
  /** A message as the browser delivers it to the app's window. */
  const deliver = (data: unknown, from: { origin?: string; source?: unknown } = {}) => {
    const event = new win.MessageEvent('message', {
      data,
      origin: from.origin ?? FRAME,
      source: (from.source === undefined ? frameWindow : from.source) as never,
    })
    win.dispatchEvent(event)
  }
  return {
    win,
    document,
    transport,
    actor,
    iframe,
    frameWindow,
    received,
    deliver,
    command: (command: FrameTransportCommand) => child.send(command),
    close: async () => {
      actor.stop()
      await win.happyDOM.close()
    },
  }
}

describe('createFrameTransport (happy-dom)', () => {
  let current: ReturnType<typeof page> | undefined
  afterEach(async () => {
    await current?.close()
    current = undefined
  })
  const open = () => {
    current = page()
    return current
  }

  it('default: one hidden iframe on the frame page, sandboxed, never display:none', () => {
    const p = open()
    const frames = p.document.querySelectorAll('iframe')
    expect(frames).toHaveLength(1)
    expect(p.iframe.src).toBe(
      'https://secure.example/frame?projectId=p1&chainId=1&version=0.1.0&enableLogger=false',
    )
    expect(p.iframe.title).toBe('Walletstate login')
    expect(p.iframe.getAttribute('sandbox')?.split(' ').sort()).toEqual([
      'allow-forms',
      'allow-popups',
      'allow-same-origin',
      'allow-scripts',
    ])
    expect(p.iframe.style.display).not.toBe('none')
    expect(p.iframe.style.opacity).toBe('0')
    expect(p.iframe.style.width).toBe('0px')
    expect(p.iframe.getAttribute('aria-hidden')).toBe('true')
  })

  it('behavior: posts to the frame window with its exact origin', () => {
    const p = open()
    const post = vi.spyOn(p.frameWindow, 'postMessage')
    p.command({ type: 'transport.post', request: request('r1', 'getUser', { chainId: 1 }) })
    expect(post).toHaveBeenCalledTimes(1)
    expect(post).toHaveBeenCalledWith({ id: 'r1', type: 'getUser', payload: { chainId: 1 } }, FRAME)
  })

  it('behavior: a request it cannot send is answered at once with an error reply', () => {
    const p = open()
    p.command({ type: 'transport.post', request: request('r1', 'connectOtp', { otp: ' ' }) })
    expect(p.received).toEqual([
      {
        id: 'r1',
        type: 'frame.reply',
        payload: { ok: false, error: { message: 'One-time code: a non-empty string' } },
      },
    ])
  })

  it('behavior: messages from the frame window and origin reach the machine; any other is dropped and counted', () => {
    const p = open()
    p.command({ type: 'transport.post', request: request('r1') })
    p.deliver({ type: 'frame.ready', payload: { version: 1 } }, { source: p.win })
    p.deliver({ type: 'frame.ready', payload: { version: 1 } }, { origin: APP })
    p.deliver({ type: 'frame.ready', payload: { version: 1 } }, { source: null })
    p.deliver({ id: 'r9', type: 'frame.reply', payload: { ok: true } })
    expect(p.received).toEqual([])
    p.deliver({ type: 'frame.ready', payload: { version: 1 } })
    p.deliver({ id: 'r1', type: 'frame.reply', payload: { ok: true, result: { isConnected: true } } })
    expect(p.received).toEqual([
      { type: 'frame.ready', payload: { version: 1 } },
      { id: 'r1', type: 'frame.reply', payload: { ok: true, result: { isConnected: true } } },
    ])
    expect(p.transport.stats).toMatchObject({ accepted: 2, dropped: 4 })
    expect(p.transport.stats.reasons).toMatchObject({ source: 2, origin: 1, unknownId: 1 })
  })

  it('behavior: a reply goes to the actor that posted its request, while it runs; events go to the machine', () => {
    const p = open()
    const got: FrameInbound[] = []
    const requester = createActor(
      setup({ types: { events: {} as FrameInbound } }).createMachine({
        on: { '*': { actions: ({ event }) => got.push(event) } },
      }),
    ).start()
    p.command({ type: 'transport.post', request: request('r1'), replyTo: requester })
    p.command({ type: 'transport.post', request: request('r2'), replyTo: requester })
    p.deliver({ type: 'frame.ready', payload: { version: 1 } })
    p.deliver({ id: 'r1', type: 'frame.reply', payload: { ok: true, result: { isConnected: true } } })
    expect(got).toEqual([
      { id: 'r1', type: 'frame.reply', payload: { ok: true, result: { isConnected: true } } },
    ])
    expect(p.received).toEqual([{ type: 'frame.ready', payload: { version: 1 } }])
    // The requester left (its step ended): the late reply reaches no one.
    requester.stop()
    p.deliver({ id: 'r2', type: 'frame.reply', payload: { ok: true, result: { isConnected: true } } })
    expect(got).toHaveLength(1)
    expect(p.received).toHaveLength(1)
    // A post it cannot make is answered to the requester too.
    const other: FrameInbound[] = []
    const second = createActor(
      setup({ types: { events: {} as FrameInbound } }).createMachine({
        on: { '*': { actions: ({ event }) => other.push(event) } },
      }),
    ).start()
    p.command({
      type: 'transport.post',
      request: request('r3', 'connectOtp', { otp: ' ' }),
      replyTo: second,
    })
    expect(other).toEqual([
      {
        id: 'r3',
        type: 'frame.reply',
        payload: { ok: false, error: { message: 'One-time code: a non-empty string' } },
      },
    ])
  })

  it('behavior: shows the frame over a container without moving it, and hides it again', () => {
    const p = open()
    const container = p.document.createElement('div')
    p.document.body.appendChild(container)
    container.getBoundingClientRect = () => ({ top: 40, left: 16, width: 360, height: 480 }) as DOMRect
    const windowBefore = p.iframe.contentWindow
    p.command({ type: 'transport.show', container })
    expect(p.iframe.style).toMatchObject({
      top: '40px',
      left: '16px',
      width: '360px',
      height: '480px',
      opacity: '1',
    })
    expect(p.iframe.getAttribute('aria-hidden')).toBeNull()
    // Moving an iframe in the DOM reloads it: it stays where it is, with the same window.
    expect(p.iframe.parentElement).toBe(p.document.body)
    expect(p.iframe.contentWindow).toBe(windowBefore)

    container.getBoundingClientRect = () => ({ top: 0, left: 0, width: 320, height: 400 }) as DOMRect
    p.win.dispatchEvent(new p.win.Event('resize'))
    expect(p.iframe.style).toMatchObject({ width: '320px', height: '400px' })

    p.command({ type: 'transport.hide' })
    expect(p.iframe.style).toMatchObject({ width: '0px', height: '0px', opacity: '0', pointerEvents: 'none' })
    expect(p.iframe.getAttribute('aria-hidden')).toBe('true')
  })

  it('behavior: stopping removes the iframe and stops listening', () => {
    const p = open()
    const frameWindow = p.frameWindow
    p.actor.stop()
    expect(p.document.querySelectorAll('iframe')).toHaveLength(0)
    p.deliver({ type: 'frame.ready', payload: { version: 1 } }, { source: frameWindow })
    expect(p.received).toEqual([])
    expect(p.transport.stats.accepted).toBe(0)
  })
})
