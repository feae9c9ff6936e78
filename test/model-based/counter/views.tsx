import { useSelector } from '@xstate/react'
import { type CapabilityStatus, selectCapabilityOffered } from '../../../src'
import { useCapability, useKitActor } from '../../../src/react'
import type { counterMachine } from './capability'

type CounterRef = import('xstate').ActorRefFrom<typeof counterMachine>

/** The counter's main view: its count, and a button to count (through the kit). */
export function CounterMain() {
  const kit = useKitActor()
  const offered = useSelector(kit, (s) => selectCapabilityOffered(s, 'counter'))
  const { actor, status } = useCapability<CounterRef>('counter')
  const count = useSelector(actor, (s) => s?.context.count)
  if (!offered) return <p role="alert">Connect a wallet to count</p>
  if (!actor) return <Loading status={status} />
  return (
    <div>
      <p role="status">Count: {count}</p>
      <button type="button" onClick={() => kit.send({ type: 'counter.increment' })}>
        Count
      </button>
    </div>
  )
}

/** The counter's "done" view. */
export function CounterDone() {
  return <p role="status">Goal reached</p>
}

function Loading({ status }: { status: CapabilityStatus }) {
  return <p className="ws-loading">{status === 'failed' ? 'Could not load' : 'Loading…'}</p>
}
