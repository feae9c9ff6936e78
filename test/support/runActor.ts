import { type AnyActorLogic, createActor, type InputFrom, type OutputFrom, toPromise } from 'xstate'

/** Runs one actor slot (promise logic) with `input` to its output, or its error: a slot's tests call it so. */
export function call<TLogic extends AnyActorLogic>(
  logic: TLogic,
  input: InputFrom<TLogic>,
): Promise<OutputFrom<TLogic>> {
  const actor = createActor(logic, { input })
  const done = toPromise(actor)
  actor.start()
  return done
}
