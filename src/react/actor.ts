import { useEffect, useRef, useState } from 'react'
import {
  type ActorOptions,
  type ActorRefFromLogic,
  type AnyActorLogic,
  createActor,
  type InspectionEvent,
} from 'xstate'

/*
 * The kit's views read its actors with @xstate/react's `useSelector`, as a host that knows XState does (one copy
 * of @xstate/react in the host's bundle, shared with the host's own). The root actor is started here, not with
 * @xstate/react's `useActorRef`: under React's strict mode that one stops the kit and starts it over (every
 * invoked actor is stopped and started again: the reconnect at start, a wallet request under way), and an
 * inspector hears the root actor strict mode throws away as well as the one that runs.
 */
export { useSelector } from '@xstate/react'

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
