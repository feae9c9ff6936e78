import { describe, expectTypeOf, test } from 'vitest'
import type { AnyEventObject, EventFromLogic, InputFrom, SnapshotFrom } from 'xstate'
import type { modalMachine, toastMachine } from '../index'
import {
  assertCoverage,
  createModel,
  delayOf,
  describeEvent,
  describePath,
  isDelayEvent,
  type Model,
  type ModelOptions,
  type ModelPath,
  type ModelStep,
  type ReplayOptions,
  type ReplayResult,
  replayPath,
} from './index'

// `walletstate/testing`, the API for replaying a machine's paths in one's own tests, checked by tsc
// (`npx vitest run --project typecheck`), never run.

type ModalMachine = typeof modalMachine

describe('createModel', () => {
  test('is typed by the machine: its events, input and snapshots', () => {
    expectTypeOf(createModel<ModalMachine>).parameters.toEqualTypeOf<
      [machine: ModalMachine, options: ModelOptions<ModalMachine>]
    >()
    expectTypeOf(createModel<ModalMachine>).returns.toEqualTypeOf<Model<ModalMachine>>()
    expectTypeOf<ModelOptions<ModalMachine>['events']>().toEqualTypeOf<
      readonly EventFromLogic<ModalMachine>[]
    >()
    expectTypeOf<ModelOptions<ModalMachine>['input']>().toEqualTypeOf<InputFrom<ModalMachine> | undefined>()
    expectTypeOf<NonNullable<ModelOptions<ModalMachine>['stopWhen']>>().parameters.toEqualTypeOf<
      [snapshot: SnapshotFrom<ModalMachine>]
    >()
    expectTypeOf<Model<ModalMachine>['machine']>().toEqualTypeOf<ModalMachine>()
    expectTypeOf<Model<ModalMachine>['paths']>().toEqualTypeOf<ModelPath[]>()
  })

  test('lists only events the machine takes', () => {
    expectTypeOf<{ type: 'router.push'; view: 'Networks' }>().toExtend<EventFromLogic<ModalMachine>>()
    expectTypeOf<{ type: 'toast.show'; variant: 'error'; message: string }>().not.toExtend<
      EventFromLogic<ModalMachine>
    >()
    expectTypeOf<{ type: 'toast.show'; variant: 'error'; message: string }>().toExtend<
      EventFromLogic<typeof toastMachine>
    >()
  })
})

describe('replayPath and assertCoverage', () => {
  test('replay one path of a model, optionally checking an invariant, and check what the results covered', () => {
    expectTypeOf(replayPath<ModalMachine>).parameters.toEqualTypeOf<
      [model: Model<ModalMachine>, path: ModelPath, options?: ReplayOptions<ModalMachine>]
    >()
    expectTypeOf(replayPath<ModalMachine>).returns.toEqualTypeOf<ReplayResult>()
    expectTypeOf<NonNullable<ReplayOptions<ModalMachine>['invariant']>>().toEqualTypeOf<
      (snapshot: SnapshotFrom<ModalMachine>) => void
    >()
    expectTypeOf(assertCoverage<ModalMachine>).parameters.toEqualTypeOf<
      [model: Model<ModalMachine>, results: ReplayResult[]]
    >()
    expectTypeOf(assertCoverage<ModalMachine>).returns.toBeVoid()
  })

  test('paths are steps of events with the state each should reach, named for people', () => {
    expectTypeOf<ModelPath>().toEqualTypeOf<{ description: string; steps: ModelStep[] }>()
    expectTypeOf<ModelStep>().toEqualTypeOf<{ event: AnyEventObject; expected: string }>()
    expectTypeOf(describePath).parameters.toEqualTypeOf<[steps: ModelStep[]]>()
    expectTypeOf(describePath).returns.toEqualTypeOf<string>()
    expectTypeOf(describeEvent).returns.toEqualTypeOf<string>()
    expectTypeOf(isDelayEvent).returns.toEqualTypeOf<boolean>()
    expectTypeOf(delayOf).returns.toEqualTypeOf<number>()
  })
})
