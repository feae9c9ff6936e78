import type { AnyStateMachine } from 'xstate'
import { type Model, type ModelPath, type ReplayResult, replayPath } from '../../src/testing'

const stepKey = (step: ModelPath['steps'][number]) => `${JSON.stringify(step.event)} → ${step.expected}`

/** `path` is where `longer` starts: the same events, expecting the same states, in the same order. */
export function startsWith(longer: ModelPath, path: ModelPath): boolean {
  if (path.steps.length > longer.steps.length) return false
  return path.steps.every((step, index) => stepKey(step) === stepKey(longer.steps[index]!))
}

/**
 * The paths a UI replay renders: each covering path that is not the start of a longer one. A replay renders
 * a fresh kit and checks the screen after every step, so the longer path's replay makes every check of the
 * shorter one, step for step (a shortest path to a state is often the start of the paths that go on from it);
 * rendering the shorter one as well adds nothing but time.
 *
 * @example
 * for (const path of pathsToReplay(model.paths)) it(`shows ${path.description}`, () => replayInUi(path))
 */
export function pathsToReplay(paths: readonly ModelPath[]): ModelPath[] {
  return paths.filter(
    (path, index) =>
      !paths.some(
        (other, otherIndex) =>
          otherIndex !== index && other.steps.length > path.steps.length && startsWith(other, path),
      ),
  )
}

/**
 * Every covering path of each model replayed, in order: the results a coverage check over several models of one
 * machine takes (`assertCoverage(models[0], replayAll(models, { invariant }))`).
 */
export function replayAll<TMachine extends AnyStateMachine>(
  models: readonly Model<TMachine>[],
  options: Parameters<typeof replayPath<TMachine>>[2] = {},
): ReplayResult[] {
  return models.flatMap((model) => model.paths.map((path) => replayPath(model, path, options)))
}
