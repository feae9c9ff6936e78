import { type CapabilityHostRef, capabilityStatus } from '../machines/capability'
import { type KitActorRef, selectCapabilityHost } from '../machines/kit'

/** A capability's running statechart as a request follows it: its context, now and as it changes. */
interface FollowedActor<TContext> {
  getSnapshot(): { context: TContext }
  subscribe(listener: (snapshot: { context: TContext }) => void): { unsubscribe(): void }
}

/** Where a request stands in its capability's records: undefined while it is on its way. */
export type RequestAnswer<T> = { value: T } | { error: Error } | undefined

export interface CapabilityRequest<TContext, T> {
  /** The capability's id (its host in the kit, its statechart's systemId). */
  capability: string
  /** Sends the request's event to the kit (which loads the capability's code with it, when not yet loaded). */
  send: () => void
  /** Reads the request's answer from the capability's context. */
  answer: (context: TContext) => RequestAnswer<T>
  /** The error the request is refused with when the capability's code fails to load (the next request loads it again). */
  unavailable: () => Error
}

/**
 * Sends a request to a capability and settles with its answer: the capability's host is followed until its
 * statechart runs (or its code fails to load: `unavailable`), then the statechart until `answer` reads one. The
 * one way the host hooks (pay, batched calls, permissions) wait on a capability loaded with their first request.
 *
 * @internal
 */
export function requestOfCapability<TContext, T>(
  kit: KitActorRef,
  request: CapabilityRequest<TContext, T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stops: Array<() => void> = []
    const stop = () => {
      for (const each of stops.splice(0)) each()
    }
    const settle = (context: TContext) => {
      const answer = request.answer(context)
      if (!answer) return
      stop()
      if ('value' in answer) resolve(answer.value)
      else reject(answer.error)
    }
    const host = selectCapabilityHost(kit.getSnapshot(), request.capability) as CapabilityHostRef | undefined
    let followed: FollowedActor<TContext> | undefined
    const onHost = (snapshot: ReturnType<CapabilityHostRef['getSnapshot']>) => {
      if (capabilityStatus(snapshot) === 'failed') {
        stop()
        reject(request.unavailable())
        return
      }
      const actor = snapshot.context.actor as FollowedActor<TContext> | undefined
      if (!actor || actor === followed) return
      followed = actor
      const subscription = actor.subscribe((s) => settle(s.context))
      stops.push(() => subscription.unsubscribe())
      settle(actor.getSnapshot().context)
    }
    if (host) {
      const subscription = host.subscribe(onHost)
      stops.push(() => subscription.unsubscribe())
    }
    request.send()
    if (host) onHost(host.getSnapshot())
  })
}
