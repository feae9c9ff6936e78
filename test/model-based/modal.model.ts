import type { SnapshotFrom } from 'xstate'
import { type ModalEvent, modalMachine } from '../../src/machines/modal'
import { createModel } from '../../src/testing'

/**
 * The modal's model, shared by the machine replay and the UI replay. The events cover every rule of SPEC §2:
 * a view pushed twice, UnsupportedChain in the history, replace with the same and another view, reset, open
 * with and without a view, and the connection flag that picks the home view.
 */
export const modalEvents: ModalEvent[] = [
  { type: 'modal.open' },
  { type: 'modal.open', view: 'Networks' },
  { type: 'modal.close' },
  { type: 'router.push', view: 'WhatIsAWallet' },
  { type: 'router.push', view: 'Networks' },
  { type: 'router.push', view: 'UnsupportedChain' },
  { type: 'router.replace', view: 'Networks' },
  { type: 'router.back' },
  { type: 'router.reset', view: 'Connect' },
  { type: 'modal.shake' },
  { type: 'modal.loading', loading: true },
  { type: 'modal.loading', loading: false },
  { type: 'modal.connected', connected: true },
  { type: 'modal.connected', connected: false },
]

type ModalSnapshot = SnapshotFrom<typeof modalMachine>

/** Histories deeper than three views add nothing new; stop there so the graph stays finite. */
export const modalModel = () =>
  createModel(modalMachine, {
    events: modalEvents,
    stopWhen: (snapshot: ModalSnapshot) => snapshot.context.history.length >= 3,
  })

/** What must hold in every state of the modal. */
export function modalInvariant(snapshot: ModalSnapshot): void {
  const { history, viewData, direction } = snapshot.context
  if (history.length === 0) throw new Error('history is empty')
  if (viewData.length !== history.length) throw new Error('viewData is out of step with history')
  if (direction !== 'next' && direction !== 'prev') throw new Error(`bad direction ${direction}`)
  if (snapshot.matches('closed')) {
    if (history.length !== 1) throw new Error(`closed with a history of ${history.length}`)
    if (snapshot.context.loading) throw new Error('loading survived close')
    const home = snapshot.context.connected ? 'Account' : 'Connect'
    if (history[0] !== home) throw new Error(`closed modal would open on ${history[0]}, not ${home}`)
  }
  if (snapshot.hasTag('transitioning') !== snapshot.matches({ open: { view: 'transitioning' } })) {
    throw new Error('transitioning tag out of step with its state')
  }
}
