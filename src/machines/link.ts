import type { AnyActorLogic, AnyStateMachine } from 'xstate'

/** A child's slots (and, optionally, its time limits), as a parent fills them from its own. */
export type ChildSlots = Record<string, AnyActorLogic | Record<string, number | undefined> | undefined> & {
  /** The parent's delays the child follows (a parent's `.provide({ delays })` then reaches it). */
  delays?: Record<string, number | undefined> | undefined
}

/**
 * Makes `machine`'s `child` slots follow its own: each `slot` of the parent is `child` with its I/O (and any time
 * limits `link` names) taken from the parent's slots and delays by `link`, and stays so through every
 * `.provide()` (a parent's fakes, real actors or shortened delays reach its children), unless the slot itself is
 * provided. The transaction child (src/machines/transaction.ts) and the batch child (src/machines/calls/batch.ts)
 * are linked so.
 *
 * @example
 * export const callsMachine = linkChild(chart, batchMachine, { batch: (a) => ({ sendCalls: a.sendCalls, … }) })
 */
export function linkChild<TMachine extends AnyStateMachine>(
  machine: TMachine,
  child: AnyStateMachine,
  slots: Record<
    string,
    (actors: Record<string, AnyActorLogic>, delays: Record<string, number | undefined>) => ChildSlots
  >,
): TMachine {
  const fill = (linked: TMachine, pinned: ReadonlySet<string>): TMachine => {
    const actors = linked.implementations.actors as Record<string, AnyActorLogic>
    // The parent's delays in milliseconds (one that is a function reads the parent's context: not given).
    const delays = Object.fromEntries(
      Object.entries(linked.implementations.delays).filter(([, delay]) => typeof delay === 'number'),
    ) as Record<string, number>
    for (const [slot, link] of Object.entries(slots)) {
      if (pinned.has(slot)) continue
      const { delays: timeLimits, ...logic } = link(actors, delays)
      const io = Object.fromEntries(Object.entries(logic).filter(([, given]) => given !== undefined))
      const defined = Object.entries(timeLimits ?? {}).filter(([, given]) => given !== undefined)
      actors[slot] = child.provide({
        actors: io as never,
        ...(defined.length > 0 ? { delays: Object.fromEntries(defined) as never } : {}),
      })
    }
    const provide = linked.provide.bind(linked)
    return Object.assign(linked, {
      provide: (implementations: Parameters<TMachine['provide']>[0]) =>
        fill(
          provide(implementations) as TMachine,
          new Set([...pinned, ...Object.keys(implementations.actors ?? {}).filter((name) => name in slots)]),
        ),
    })
  }
  return fill(machine, new Set())
}
