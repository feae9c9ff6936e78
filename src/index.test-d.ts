import { describe, expectTypeOf, test } from 'vitest'
import type { createConfig, Config as WagmiConfig } from 'wagmi'
import type { ActorRefFrom, AnyStateMachine, SnapshotFrom } from 'xstate'
import {
  type BaseError,
  type ConfigError,
  createKitMachine,
  defineEvmNetwork,
  type KitActorRef,
  type KitAlert,
  type KitConfig,
  type KitContext,
  type KitEvent,
  type KitMachine,
  type KitNetwork,
  type KitOptions,
  type KitSnapshot,
  type ModalActorRef,
  type modalMachine,
  type ResolvedKitConfig,
  resolveConfig,
  type SiweConfig,
  type SiwxConfig,
  selectView,
  type ToastActorRef,
  type toastMachine,
  type ViewName,
} from './index'

// The public types of `walletstate`, checked by tsc (`npx vitest run --project typecheck`), never run.

/** The keys a value must have: `{}` does not extend `Pick<T, K>` for them. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]

describe('KitConfig', () => {
  test('projectId and at least one network are required; every other option may be left out', () => {
    expectTypeOf<RequiredKeys<KitConfig>>().toEqualTypeOf<'projectId' | 'networks'>()
    expectTypeOf<KitConfig['projectId']>().toEqualTypeOf<string>()
    expectTypeOf<{ projectId: string; networks: [KitNetwork] }>().toExtend<KitConfig>()
    expectTypeOf<{ projectId: string; networks: [KitNetwork, KitNetwork] }>().toExtend<KitConfig>()
    expectTypeOf<{ networks: [KitNetwork] }>().not.toExtend<KitConfig>()
    expectTypeOf<{ projectId: string; networks: [] }>().not.toExtend<KitConfig>()
    expectTypeOf<{ projectId: string; networks: KitNetwork[] }>().not.toExtend<KitConfig>()
  })

  test('siwx takes SIWX, siweConfig AppKit’s SIWE config; both at once is refused by resolveConfig (ConfigError)', () => {
    // The type allows both (resolveConfig throws `Cannot set both ...`, see src/config.test.ts).
    expectTypeOf<KitConfig['siwx']>().toEqualTypeOf<SiwxConfig | undefined>()
    expectTypeOf<KitConfig['siweConfig']>().toEqualTypeOf<SiweConfig | undefined>()
    expectTypeOf<ResolvedKitConfig['siweConfig']>().toEqualTypeOf<SiweConfig | undefined>()
    expectTypeOf<SiweConfig>().toHaveProperty('getNonce')
    expectTypeOf<SiwxConfig>().toHaveProperty('addSession')
    expectTypeOf<ConfigError>().toExtend<BaseError>()
  })

  test("wagmiConfig takes the host's own wagmi config (wagmi's createConfig)", () => {
    expectTypeOf<KitConfig['wagmiConfig']>().toEqualTypeOf<WagmiConfig | undefined>()
    expectTypeOf<ReturnType<typeof createConfig>>().toExtend<NonNullable<KitConfig['wagmiConfig']>>()
  })

  test('defineEvmNetwork turns a viem-style chain into a KitNetwork', () => {
    expectTypeOf(defineEvmNetwork).returns.toEqualTypeOf<KitNetwork>()
    expectTypeOf(defineEvmNetwork).parameter(0).toHaveProperty('id').toEqualTypeOf<number>()
    expectTypeOf<KitNetwork['chainNamespace']>().toEqualTypeOf<'eip155' | 'solana' | 'bip122'>()
  })

  test('resolveConfig fills in every default: the resolved config has no optional keys', () => {
    expectTypeOf(resolveConfig).parameters.toEqualTypeOf<[KitConfig]>()
    expectTypeOf(resolveConfig).returns.toEqualTypeOf<ResolvedKitConfig>()
    expectTypeOf<RequiredKeys<ResolvedKitConfig>>().toEqualTypeOf<keyof ResolvedKitConfig>()
    expectTypeOf<ResolvedKitConfig['alerts']>().toEqualTypeOf<readonly KitAlert[]>()
  })
})

describe('createKitMachine', () => {
  test('takes the KitConfig and returns the KitMachine, a state machine', () => {
    expectTypeOf(createKitMachine).parameter(0).toEqualTypeOf<KitConfig>()
    expectTypeOf(createKitMachine).parameter(1).toEqualTypeOf<KitOptions | undefined>()
    expectTypeOf(createKitMachine).returns.toEqualTypeOf<KitMachine>()
    expectTypeOf<KitMachine>().toExtend<AnyStateMachine>()
  })

  test('its actor, snapshot and context are the machine’s own', () => {
    expectTypeOf<KitActorRef>().toEqualTypeOf<ActorRefFrom<KitMachine>>()
    expectTypeOf<KitSnapshot>().toEqualTypeOf<SnapshotFrom<KitMachine>>()
    expectTypeOf<KitSnapshot['context']>().toEqualTypeOf<KitContext>()
    expectTypeOf<KitContext['config']>().toEqualTypeOf<ResolvedKitConfig>()
    expectTypeOf<KitContext['alerts']>().toEqualTypeOf<readonly KitAlert[]>()
  })

  test('the kit accepts its events and no others', () => {
    expectTypeOf<Parameters<KitActorRef['send']>[0]>().toEqualTypeOf<KitEvent>()
    expectTypeOf<{ type: 'modal.open' }>().toExtend<KitEvent>()
    expectTypeOf<{ type: 'modal.open'; view: 'Networks' }>().toExtend<KitEvent>()
    expectTypeOf<{ type: 'modal.close' }>().toExtend<KitEvent>()
    expectTypeOf<{ type: 'modal.open'; view: 'NoSuchView' }>().not.toExtend<KitEvent>()
    expectTypeOf<{ type: 'no.such.event' }>().not.toExtend<KitEvent>()
  })

  test('the modal and toast machines are exported with their actor types', () => {
    expectTypeOf<ModalActorRef>().toEqualTypeOf<ActorRefFrom<typeof modalMachine>>()
    expectTypeOf<ToastActorRef>().toEqualTypeOf<ActorRefFrom<typeof toastMachine>>()
    expectTypeOf(selectView).returns.toEqualTypeOf<ViewName>()
  })
})
