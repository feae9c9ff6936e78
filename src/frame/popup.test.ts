import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AnyActorRef, createActor, setup } from 'xstate'
import type { SocialPopupEvent } from '../machines/frame'
import { createSocialPopup } from './popup'

const APP = 'https://app.example'
const FRAME = 'https://secure.example'

/**
 * A browser popup as the opener sees it: setting its address starts a navigation, which commits later; its
 * address can be read only while it shows a page of the opener's origin (or is still blank).
 */
class Popup {
  closed = false
  requested: string | undefined
  private shown = 'about:blank'
  readonly location = (() => {
    const popup = this
    return {
      get href(): string {
        if (popup.shown !== 'about:blank' && new URL(popup.shown).origin !== APP) {
          throw new Error('SecurityError: Blocked a frame from accessing a cross-origin frame')
        }
        return popup.shown
      },
      set href(value: string) {
        popup.requested = value
      },
    }
  })()
  /** The popup lands on a page. */
  commit(url: string) {
    this.shown = url
  }
  close() {
    this.closed = true
  }
}

/** The app's window: `open` and the message events. A blocker makes `open` answer null. */
class AppWindow extends EventTarget {
  readonly location = { origin: APP }
  popups: { popup: Popup; url: string; features: string }[] = []
  blocked = false
  open(url: string, _name: string, features: string) {
    if (this.blocked) return null
    const popup = new Popup()
    this.popups.push({ popup, url, features })
    return popup
  }
  deliver(data: unknown, origin: string, source: unknown) {
    this.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }))
  }
}

function start(win: AppWindow) {
  const received: SocialPopupEvent[] = []
  const parent = setup({
    types: { events: {} as SocialPopupEvent },
    actors: { popup: createSocialPopup({ window: win as unknown as Window, pollMs: 100 }) },
  }).createMachine({
    invoke: { id: 'popup', src: 'popup', input: { provider: 'google', endpoint: `${FRAME}/sdk` } },
    on: { '*': { actions: ({ event }) => received.push(event) } },
  })
  const actor = createActor(parent).start()
  const popup = actor.getSnapshot().children.popup as AnyActorRef
  return { actor, received, navigate: (uri: string) => popup.send({ type: 'popup.navigate', uri }) }
}

describe('createSocialPopup', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('behavior: opens at once, goes to the redirect URI, and hands over the address it comes back with', () => {
    vi.useFakeTimers()
    const win = new AppWindow()
    const { actor, received, navigate } = start(win)
    expect(win.popups).toHaveLength(1)
    const { popup } = win.popups[0]!
    // Blank and readable before the redirect URI is known: not a result.
    vi.advanceTimersByTime(300)
    expect(received).toEqual([])

    navigate('https://id.example/authorize?provider=google')
    expect(popup.requested).toBe('https://id.example/authorize?provider=google')
    vi.advanceTimersByTime(300)
    popup.commit('https://id.example/authorize?provider=google')
    popup.commit(`${FRAME}/social/google?state=abc`)
    vi.advanceTimersByTime(300)
    expect(received).toEqual([])

    popup.commit(`${APP}/?walletstate_social=one-time-token`)
    vi.advanceTimersByTime(100)
    expect(received).toEqual([
      { type: 'frame.socialCallback', uri: `${APP}/?walletstate_social=one-time-token` },
    ])
    expect(popup.closed).toBe(true)
    vi.advanceTimersByTime(1_000)
    expect(received).toHaveLength(1)
    actor.stop()
  })

  it('behavior: or takes the result a page of the secure site posts, from that popup on the frame origin only', () => {
    const win = new AppWindow()
    const { actor, received, navigate } = start(win)
    const { popup } = win.popups[0]!
    navigate('https://id.example/authorize?provider=google')
    const result = { type: 'frame.socialResult', payload: { uri: `${FRAME}/social/callback?code=1` } }
    win.deliver(result, FRAME, new Popup())
    win.deliver(result, APP, popup)
    win.deliver({ type: 'frame.socialResult', payload: { uri: 42 } }, FRAME, popup)
    expect(received).toEqual([])
    win.deliver(result, FRAME, popup)
    expect(received).toEqual([{ type: 'frame.socialCallback', uri: `${FRAME}/social/callback?code=1` }])
    expect(popup.closed).toBe(true)
    actor.stop()
  })

  it('behavior: refuses to send the popup to a script URL', () => {
    const win = new AppWindow()
    const { actor, navigate } = start(win)
    navigate('javascript:alert(1)')
    expect(win.popups[0]!.popup.requested).toBeUndefined()
    actor.stop()
  })

  it('behavior: a closed popup cancels; a blocked one says so', () => {
    vi.useFakeTimers()
    const win = new AppWindow()
    const { actor, received } = start(win)
    win.popups[0]!.popup.close()
    vi.advanceTimersByTime(100)
    expect(received).toEqual([{ type: 'frame.socialCancelled', reason: 'closed' }])
    actor.stop()

    const blocking = new AppWindow()
    blocking.blocked = true
    expect(start(blocking).received).toEqual([{ type: 'frame.socialCancelled', reason: 'blocked' }])
  })

  it('behavior: stopping closes the popup', () => {
    const win = new AppWindow()
    const { actor } = start(win)
    actor.stop()
    expect(win.popups[0]!.popup.closed).toBe(true)
  })
})
