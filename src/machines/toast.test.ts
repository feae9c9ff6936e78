import { describe, expect, it } from 'vitest'
import { createActor, SimulatedClock } from 'xstate'
import { TOAST_DURATION_MS, TOAST_RESHOW_MS } from '../constants'
import { toastMachine } from './toast'

function start() {
  const clock = new SimulatedClock()
  const actor = createActor(toastMachine, { clock }).start()
  return { actor, clock, current: () => actor.getSnapshot().context.current }
}

describe('toastMachine', () => {
  it('default: shows a toast and closes a success toast by itself', () => {
    const { actor, clock, current } = start()
    actor.send({ type: 'toast.show', variant: 'success', message: 'Copied' })
    expect(current()).toEqual({ variant: 'success', message: 'Copied' })
    clock.increment(TOAST_DURATION_MS)
    expect(current()).toBeUndefined()
    expect(actor.getSnapshot().matches('closed')).toBe(true)
  })

  it('behavior: a new toast closes the open one and shows after 150 ms', () => {
    const { actor, clock, current } = start()
    actor.send({ type: 'toast.show', variant: 'loading', message: 'Sending' })
    actor.send({ type: 'toast.show', variant: 'error', message: 'Failed' })
    expect(current()).toBeUndefined()
    clock.increment(TOAST_RESHOW_MS - 1)
    expect(current()).toBeUndefined()
    clock.increment(1)
    expect(current()).toEqual({ variant: 'error', message: 'Failed' })
  })

  it('behavior: the latest toast wins inside the gap, without restarting it', () => {
    const { actor, clock, current } = start()
    actor.send({ type: 'toast.show', variant: 'success', message: 'One' })
    actor.send({ type: 'toast.show', variant: 'success', message: 'Two' })
    clock.increment(100)
    actor.send({ type: 'toast.show', variant: 'error', message: 'Three' })
    clock.increment(TOAST_RESHOW_MS - 100)
    expect(current()).toEqual({ variant: 'error', message: 'Three' })
  })

  it('behavior: a loading toast stays until replaced or hidden', () => {
    const { actor, clock, current } = start()
    actor.send({ type: 'toast.show', variant: 'loading', message: 'Waiting' })
    clock.increment(TOAST_DURATION_MS * 3)
    expect(current()?.message).toBe('Waiting')
    actor.send({ type: 'toast.hide' })
    expect(actor.getSnapshot().matches('closed')).toBe(true)
  })

  it('behavior: a hide naming a message hides only that toast, never the one that replaced it', () => {
    const { actor, clock, current } = start()
    actor.send({ type: 'toast.show', variant: 'loading', message: 'Loading user data' })
    actor.send({ type: 'toast.hide', message: 'Something else' })
    expect(current()?.message).toBe('Loading user data')
    // Replaced: the hide for the loading toast leaves the next one (waiting its 150 ms, then shown) alone.
    actor.send({ type: 'toast.show', variant: 'success', message: 'Welcome' })
    actor.send({ type: 'toast.hide', message: 'Loading user data' })
    clock.increment(TOAST_RESHOW_MS)
    expect(current()).toEqual({ variant: 'success', message: 'Welcome' })
    actor.send({ type: 'toast.hide', message: 'Loading user data' })
    expect(current()?.message).toBe('Welcome')
    // Its own message hides it.
    actor.send({ type: 'toast.show', variant: 'loading', message: 'Loading user data' })
    clock.increment(TOAST_RESHOW_MS)
    actor.send({ type: 'toast.hide', message: 'Loading user data' })
    expect(actor.getSnapshot().matches('closed')).toBe(true)
  })
})
