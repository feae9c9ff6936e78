import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import {
  type ActorOptions,
  type ActorRefFromLogic,
  type AnyActorLogic,
  createActor,
  type InspectionEvent,
} from 'xstate'

/*
 * The two React bindings the kit needs from XState, on React's own `useSyncExternalStore` (React 18+, which
 * the kit requires). @xstate/react's versions go through `use-sync-external-store`'s shim, kept for React 17:
 * with its hooks that is 0.8 KiB gzip more in the host's first bundle (issue 14's budget), for the same
 * behaviour.
 */

interface Observable<TSnapshot> {
  subscribe(listener: () => void): { unsubscribe(): void }
  getSnapshot(): TSnapshot
}

type SnapshotOf<TActor> = TActor extends Observable<infer S> ? S : undefined

/**
 * A slice of an actor's snapshot; the component renders again only when the slice changes (by `compare`,
 * `Object.is` by default). An `undefined` actor (a capability not loaded yet) selects from `undefined`.
 *
 * @example
 * const open = useSelector(kit, (s) => s.context.modal.open)
 */
export function useSelector<TActor extends Observable<unknown> | undefined, T>(
  actor: TActor,
  selector: (snapshot: SnapshotOf<TActor>) => T,
  compare: (a: T, b: T) => boolean = Object.is,
): T {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!actor) return () => {}
      const subscription = actor.subscribe(listener)
      return () => subscription.unsubscribe()
    },
    [actor],
  )
  // The last selection, kept while the snapshot and the selector are the same (React asks for it several
  // times a render), and kept as the same value while `compare` finds a new one equal.
  const last = useRef<{ snapshot: unknown; selector: unknown; value: T } | null>(null)
  const select = (): T => {
    const snapshot = actor?.getSnapshot()
    const kept = last.current
    if (kept && kept.snapshot === snapshot && kept.selector === selector) return kept.value
    const next = selector(snapshot as SnapshotOf<TActor>)
    const value = kept && compare(kept.value, next) ? kept.value : next
    last.current = { snapshot, selector, value }
    return value
  }
  return useSyncExternalStore(subscribe, select, select)
}

/**
 * An actor of `logic`, created once, started when the component mounts and stopped when it unmounts. React's
 * strict mode unmounts and mounts again at once: the stop waits a task, and a mount in between keeps the
 * same running actor (an XState actor cannot start again once stopped). A new `logic` makes a new actor.
 *
 * Strict mode also renders twice, so an actor may be created and thrown away unstarted. XState tells the
 * inspector of an actor (and of the children of its initial state) when it is created, so `options.inspect`
 * hears an actor only once it starts: an inspector sees exactly the actor tree that runs.
 */
export function useRootActor<TLogic extends AnyActorLogic>(
  logic: TLogic,
  options: ActorOptions<TLogic>,
): ActorRefFromLogic<TLogic> {
  const create = () => {
    const gate = options.inspect ? gatedInspector(options.inspect) : undefined
    const actor = createActor(logic, gate ? { ...options, inspect: gate.inspect } : options)
    return { logic, actor, gate }
  }
  const [current, setCurrent] = useState(create)
  let { actor, gate } = current
  if (current.logic !== logic) {
    const next = create()
    actor = next.actor
    gate = next.gate
    setCurrent(next)
  }
  // The actor whose stop waits, and its timer: only a mount of that same actor calls the stop off.
  const stopping = useRef<{ actor: unknown; timer: ReturnType<typeof setTimeout> } | null>(null)
  useEffect(() => {
    if (stopping.current?.actor === actor) clearTimeout(stopping.current.timer)
    gate?.open()
    actor.start()
    return () => {
      stopping.current = { actor, timer: setTimeout(() => actor.stop()) }
    }
  }, [actor, gate])
  return actor as ActorRefFromLogic<TLogic>
}

type Inspect = NonNullable<ActorOptions<AnyActorLogic>['inspect']>

/** Holds the inspection events of an actor until `open()`, then passes them and every later one on. */
function gatedInspector(inspect: Inspect) {
  const deliver = (event: InspectionEvent) => {
    if (typeof inspect === 'function') inspect(event)
    else inspect.next?.(event)
  }
  let held: InspectionEvent[] | undefined = []
  return {
    inspect: (event: InspectionEvent) => {
      if (held) held.push(event)
      else deliver(event)
    },
    open() {
      if (!held) return
      const events = held
      held = undefined
      for (const event of events) deliver(event)
    },
  }
}
