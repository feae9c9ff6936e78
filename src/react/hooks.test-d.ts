import type { ReactNode } from 'react'
import { describe, expectTypeOf, test } from 'vitest'
import type { ActorOptions } from 'xstate'
import type {
  KitActorRef,
  KitAlert,
  KitMachine,
  ModalActorRef,
  ResolvedKitConfig,
  Toast,
  ToastActorRef,
  ViewName,
} from '../index'
import type { ConnectionStatus } from '../machines/connection'
import {
  type KitRootProps,
  type UseKitAccountReturnType,
  type UseKitReturnType,
  useConnectionActor,
  useKit,
  useKitAccount,
  useKitActor,
  useKitAlerts,
  useKitConfig,
  useModalActor,
  useToast,
  useToastActor,
} from './index'

// The hooks of `walletstate/react` and what they return, checked by tsc (`npx vitest run --project typecheck`).

describe('useKit', () => {
  test('opens the modal on an optional view, closes it, and says whether it is open and on which view', () => {
    expectTypeOf(useKit).parameters.toEqualTypeOf<[]>()
    expectTypeOf(useKit).returns.toEqualTypeOf<UseKitReturnType>()
    expectTypeOf<UseKitReturnType['open']>().parameters.toEqualTypeOf<[view?: ViewName]>()
    expectTypeOf<UseKitReturnType['open']>().returns.toBeVoid()
    expectTypeOf<UseKitReturnType['close']>().toEqualTypeOf<() => void>()
    expectTypeOf<UseKitReturnType['isOpen']>().toEqualTypeOf<boolean>()
    expectTypeOf<UseKitReturnType['view']>().toEqualTypeOf<ViewName>()
    expectTypeOf<'Networks'>().toExtend<Parameters<UseKitReturnType['open']>[0]>()
    expectTypeOf<'NoSuchView'>().not.toExtend<Parameters<UseKitReturnType['open']>[0]>()
  })
})

describe('useKitAccount', () => {
  test('the status and, once connected, the address, chain, namespace and connector', () => {
    expectTypeOf(useKitAccount).returns.toEqualTypeOf<UseKitAccountReturnType>()
    expectTypeOf<UseKitAccountReturnType>().toEqualTypeOf<{
      status: ConnectionStatus
      isConnected: boolean
      address: string | undefined
      chainId: number | `solana:${string}` | `bip122:${string}` | undefined
      namespace: 'eip155' | 'solana' | 'bip122'
      connectorId: string | undefined
      allAccounts: readonly {
        namespace: 'eip155' | 'solana' | 'bip122'
        address: string
        type: 'eoa' | 'smartAccount'
      }[]
      addressLabels: Readonly<Record<string, string>>
    }>()
    expectTypeOf<ConnectionStatus>().toEqualTypeOf<
      'disconnected' | 'connecting' | 'reconnecting' | 'connected'
    >()
  })
})

describe('the other hooks', () => {
  test('useKitConfig, useKitAlerts and useToast', () => {
    expectTypeOf(useKitConfig).returns.toEqualTypeOf<ResolvedKitConfig>()
    expectTypeOf(useKitAlerts).returns.toEqualTypeOf<readonly KitAlert[]>()
    const toast = useToast()
    expectTypeOf(toast.show).parameters.toEqualTypeOf<[toast: Toast]>()
    expectTypeOf(toast.hide).toEqualTypeOf<() => void>()
    expectTypeOf(toast.current).toEqualTypeOf<Toast | undefined>()
  })

  test('the actors: the kit and its modal, toast and connection children', () => {
    expectTypeOf(useKitActor).returns.toEqualTypeOf<KitActorRef>()
    expectTypeOf(useModalActor).returns.toEqualTypeOf<ModalActorRef>()
    expectTypeOf(useToastActor).returns.toEqualTypeOf<ToastActorRef>()
    expectTypeOf(useConnectionActor).returns.toHaveProperty('send')
    expectTypeOf(useConnectionActor().getSnapshot().context.account).toExtend<
      | { namespace?: 'eip155'; address: `0x${string}`; chainId: number; connectorId: string }
      | { namespace: 'solana'; address: string; chainId: `solana:${string}`; connectorId: string }
      | { namespace: 'bip122'; address: string; chainId: `bip122:${string}`; connectorId: string }
      | undefined
    >()
  })
})

describe('KitRoot', () => {
  test('takes the kit machine, and optionally an inspector, actor options and children', () => {
    expectTypeOf<KitRootProps['machine']>().toEqualTypeOf<KitMachine>()
    expectTypeOf<KitRootProps['inspect']>().toEqualTypeOf<ActorOptions<KitMachine>['inspect']>()
    expectTypeOf<KitRootProps['children']>().toEqualTypeOf<ReactNode>()
    expectTypeOf<{ machine: KitMachine }>().toExtend<KitRootProps>()
    expectTypeOf<{ children: ReactNode }>().not.toExtend<KitRootProps>()
  })
})
