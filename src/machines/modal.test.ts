import { describe, expect, it } from 'vitest'
import { createActor, SimulatedClock } from 'xstate'
import { HEADER_TEXT_MS, MODAL_SHAKE_MS, VIEW_TRANSITION_MS } from '../constants'
import { modalMachine, selectView } from './modal'

function start(connected = false) {
  const clock = new SimulatedClock()
  const actor = createActor(modalMachine, { clock, input: { connected } }).start()
  return { actor, clock, history: () => actor.getSnapshot().context.history }
}

describe('modalMachine', () => {
  it('default: opens on Connect, or on Account once connected', () => {
    const a = start()
    a.actor.send({ type: 'modal.open' })
    expect(a.history()).toEqual(['Connect'])
    const b = start(true)
    b.actor.send({ type: 'modal.open' })
    expect(b.history()).toEqual(['Account'])
  })

  it('behavior: a connection change while closed moves the home view', () => {
    const { actor, history } = start()
    actor.send({ type: 'modal.connected', connected: true })
    expect(history()).toEqual(['Account'])
    actor.send({ type: 'modal.open' })
    expect(selectView(actor.getSnapshot())).toBe('Account')
  })

  it('behavior: pushing the view already shown does nothing', () => {
    const { actor, history } = start()
    actor.send({ type: 'modal.open' })
    actor.send({ type: 'router.push', view: 'Networks' })
    actor.send({ type: 'router.push', view: 'Networks' })
    expect(history()).toEqual(['Connect', 'Networks'])
  })

  it('behavior: back pops with direction prev, and closes with one view left', () => {
    const { actor, history } = start()
    actor.send({ type: 'modal.open' })
    actor.send({ type: 'router.push', view: 'Networks' })
    actor.send({ type: 'router.back' })
    expect(history()).toEqual(['Connect'])
    expect(actor.getSnapshot().context.direction).toBe('prev')
    actor.send({ type: 'router.back' })
    expect(actor.getSnapshot().matches('closed')).toBe(true)
  })

  it('behavior: back closes when UnsupportedChain is anywhere in the history', () => {
    const { actor } = start()
    actor.send({ type: 'modal.open', view: 'UnsupportedChain' })
    actor.send({ type: 'router.push', view: 'Networks' })
    actor.send({ type: 'router.back' })
    expect(actor.getSnapshot().matches('closed')).toBe(true)
  })

  it('behavior: close clears loading and resets the stack', () => {
    const { actor, history } = start()
    actor.send({ type: 'modal.open' })
    actor.send({ type: 'router.push', view: 'Networks' })
    actor.send({ type: 'modal.loading', loading: true })
    actor.send({ type: 'modal.close' })
    expect(actor.getSnapshot().context.loading).toBe(false)
    expect(history()).toEqual(['Connect'])
    actor.send({ type: 'modal.loading', loading: true })
    expect(actor.getSnapshot().context.loading).toBe(false)
  })

  it('behavior: replace swaps the shown view; reset leaves one view', () => {
    const { actor, history } = start()
    actor.send({ type: 'modal.open' })
    actor.send({ type: 'router.push', view: 'WhatIsAWallet' })
    actor.send({ type: 'router.replace', view: 'Networks', data: { from: 'test' } })
    expect(history()).toEqual(['Connect', 'Networks'])
    expect(actor.getSnapshot().context.viewData).toEqual([undefined, { from: 'test' }])
    actor.send({ type: 'router.reset', view: 'Account' })
    expect(history()).toEqual(['Account'])
  })

  it('behavior: the view transition is a visible state that ends after 150 ms', () => {
    const { actor, clock } = start()
    actor.send({ type: 'modal.open' })
    actor.send({ type: 'router.push', view: 'Networks' })
    expect(actor.getSnapshot().hasTag('transitioning')).toBe(true)
    expect(actor.getSnapshot().hasTag('headerChanging')).toBe(true)
    clock.increment(HEADER_TEXT_MS)
    expect(actor.getSnapshot().hasTag('headerChanging')).toBe(false)
    expect(actor.getSnapshot().hasTag('transitioning')).toBe(true)
    clock.increment(VIEW_TRANSITION_MS - HEADER_TEXT_MS)
    expect(actor.getSnapshot().hasTag('transitioning')).toBe(false)
    expect(actor.getSnapshot().hasTag('resizing')).toBe(false)
  })

  it('behavior: an event during a transition is applied once and restarts the transition', () => {
    const { actor, clock, history } = start()
    actor.send({ type: 'modal.open' })
    actor.send({ type: 'router.push', view: 'WhatIsAWallet' })
    clock.increment(VIEW_TRANSITION_MS - 10)
    actor.send({ type: 'router.push', view: 'Networks' })
    expect(history()).toEqual(['Connect', 'WhatIsAWallet', 'Networks'])
    clock.increment(10)
    expect(actor.getSnapshot().hasTag('transitioning')).toBe(true)
    clock.increment(VIEW_TRANSITION_MS - 10)
    expect(actor.getSnapshot().hasTag('transitioning')).toBe(false)
    actor.send({ type: 'router.back' })
    actor.send({ type: 'router.back' })
    expect(history()).toEqual(['Connect'])
  })

  it('behavior: shake lasts 500 ms and does not disturb the view', () => {
    const { actor, clock, history } = start()
    actor.send({ type: 'modal.open' })
    actor.send({ type: 'modal.shake' })
    expect(actor.getSnapshot().hasTag('shaking')).toBe(true)
    actor.send({ type: 'router.push', view: 'Networks' })
    expect(actor.getSnapshot().hasTag('shaking')).toBe(true)
    clock.increment(MODAL_SHAKE_MS)
    expect(actor.getSnapshot().hasTag('shaking')).toBe(false)
    expect(history()).toEqual(['Connect', 'Networks'])
  })
})
