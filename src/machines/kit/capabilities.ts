import { assertEvent } from 'xstate'
import type { AccountsChange } from '../capability/contract'
import type { ConnectionAccount } from '../connection'
import { capabilityFor, capabilityScope, shownView } from './rules'
import type { KitContext, KitEnqueue, KitEvent } from './types'

/*
 * What the root tells the capabilities' hosts (the capability contract, src/machines/capability.ts): the kit's
 * actions (setup.ts) call these. None names a capability: each reads the registered ones.
 */

/** A capability that loads at the start (a session to restore, its `atStart`) is asked at once. */
export function loadAtStart(context: KitContext, enqueue: KitEnqueue) {
  const scope = capabilityScope(context)
  for (const capability of context.input.capabilities) {
    const host = context.capabilities[capability.id]
    if (host && capability.atStart?.(scope)) enqueue.sendTo(host, { type: 'capability.load', scope })
  }
}

/**
 * Another account, chain or namespace (or none) is shown now: capabilities for one account end, and one whose view
 * still shows starts again for the account shown now.
 */
export function tellAccountChanged(context: KitContext, enqueue: KitEnqueue) {
  const view = shownView(context)
  const scope = capabilityScope(context)
  for (const host of Object.values(context.capabilities))
    enqueue.sendTo(host, { type: 'capability.accountChanged', view, scope })
}

/** The modal shows a view (or closed): every capability hears it; one that owns the view loads. */
export function tellView(context: KitContext, enqueue: KitEnqueue) {
  const view = shownView(context)
  const scope = capabilityScope(context)
  for (const host of Object.values(context.capabilities))
    enqueue.sendTo(host, { type: 'capability.view', view, scope })
}

/** A capability asked for by its id (a view's "Try again"): loaded, if offered in the kit's scope now. */
export function loadById(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  assertEvent(event, 'capabilities.load')
  const host = context.capabilities[event.id]
  if (host) enqueue.sendTo(host, { type: 'capability.load', scope: capabilityScope(context) })
}

/** A capability's own event: to its host, which hands it to its statechart once it runs. */
export function forwardToCapability(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  const host = context.capabilities[capabilityFor(context, event.type)?.id ?? '']
  if (host) enqueue.sendTo(host, { type: 'capability.forward', event, scope: capabilityScope(context) })
}

/** A connect, a chain change or a disconnect (any namespace's): the capabilities that follow the accounts hear it. */
export function tellAccounts(enqueue: KitEnqueue, context: KitContext, change: AccountsChange) {
  for (const capability of context.input.capabilities) {
    const host = context.capabilities[capability.id]
    if (host && capability.accounts) enqueue.sendTo(host, { type: 'capability.accounts', change })
  }
}

/** The visitor leaves the view shown: the capability that owns it hears it (its `leave`). */
export function tellLeave(context: KitContext, enqueue: KitEnqueue) {
  const view = shownView(context)
  if (view === undefined) return
  for (const capability of context.input.capabilities) {
    const host = context.capabilities[capability.id]
    if (host && capability.views.includes(view)) enqueue.sendTo(host, { type: 'capability.leave', view })
  }
}

/**
 * The view the modal turns to after a fresh connect of `account`: the first offered capability's that has one
 * (`afterConnect`); undefined: the modal closes.
 */
export function viewAfterConnect(context: KitContext, account: ConnectionAccount): string | undefined {
  const scope = { ...capabilityScope(context), connected: account }
  for (const capability of context.input.capabilities) {
    if (!capability.afterConnect || !capability.offered(scope)) continue
    const view = capability.afterConnect(scope)
    if (view !== undefined) return view
  }
  return undefined
}
