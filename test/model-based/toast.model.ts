import type { SnapshotFrom } from 'xstate'
import { toastMachine } from '../../src/machines/toast'
import { createModel } from '../../src/testing'

type ToastSnapshot = SnapshotFrom<typeof toastMachine>

/** The toast's model, shared by the machine replay and the UI replay. */
export const toastModel = () =>
  createModel(toastMachine, {
    events: [
      { type: 'toast.show', variant: 'success', message: 'Saved' },
      { type: 'toast.show', variant: 'loading', message: 'Sending' },
      { type: 'toast.show', variant: 'error', message: 'Failed' },
      { type: 'toast.hide' },
      // What was loading is done: only its toast goes, never one that replaced it.
      { type: 'toast.hide', message: 'Sending' },
    ],
  })

export function invariant(snapshot: ToastSnapshot): void {
  const { current, pending } = snapshot.context
  if (snapshot.matches('closed') && (current || pending)) throw new Error('closed with a toast left')
  if (snapshot.matches('open') && (!current || pending)) throw new Error('open without exactly one toast')
  if (snapshot.matches('replacing') && (current || !pending))
    throw new Error('replacing without a waiting toast')
  if (snapshot.hasTag('visible') !== snapshot.matches('open')) throw new Error('visible tag out of step')
}
