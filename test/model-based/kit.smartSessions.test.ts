import { describe, expect, it } from 'vitest'
import { createActor, createMachine, fromCallback, fromPromise } from 'xstate'
import { resolveConfig } from '../../src/config'
import { smartSessionsCapability } from '../../src/kit/capabilities/smartSessionsCapability'
import { smartSessionsGlue } from '../../src/kit/load/smartSessions'
import { capabilityStatus } from '../../src/machines/capability'
import { type KitEvent, type KitInput, kitMachine } from '../../src/machines/kit'
import { type SmartSessionsActorRef, smartSessionsMachine } from '../../src/machines/smartSessions'
import type { AccountKind } from '../../src/machines/smartSessions/events'
import type { GrantedPermission } from '../../src/machines/smartSessions/types'
import { kitTestInput, testAccount } from './kit.fixtures'

/**
 * Smart sessions in the kit (`features.smartSessions`): the kit machine with the capability and its real glue, the
 * wallet's slots scripted (the e2e test grants through the sandbox). Off (the default), a request loads nothing and
 * asks nothing; on, the first request loads the code and reaches the wallet, and its outcome is a toast.
 */
const SIGNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const REQUEST = { signer: SIGNER, token: USDC, limit: '10000000', expiry: 2_000_000_000 }

function kitWith(smartSessions: boolean) {
  const base: KitInput = kitTestInput('kit-smart-sessions')
  const input = {
    ...base,
    config: resolveConfig({ ...base.config, features: { ...base.config.features, smartSessions } }),
  }
  const loads: string[] = []
  const asked: string[] = []
  const logic = smartSessionsMachine.provide({
    actors: {
      accountKind: fromPromise(
        async (): Promise<AccountKind> => ({ kind: 'smartAccount', permissions: true }),
      ),
      grant: fromPromise(async ({ input: { account, request } }) => {
        asked.push('grant')
        return {
          id: `0x${'ab'.repeat(32)}`,
          address: account.address,
          chainId: account.chainId,
          signer: request.signer,
          token: request.token,
          limit: request.limit,
          expiry: request.expiry,
        } satisfies GrantedPermission
      }),
      revoke: fromPromise(async () => {
        asked.push('revoke')
      }),
    },
  })
  const standIn = createMachine({})
  const quiet = fromCallback<KitEvent>(() => {})
  const machine = kitMachine.provide({
    actors: {
      connection: standIn as never,
      telemetry: quiet,
      embeddedLoader: quiet,
      followConnectors: quiet,
      chainStore: quiet as never,
      loadWallets: fromPromise(async () => standIn) as never,
      loadAccount: fromPromise(async () => standIn) as never,
    },
  })
  const capabilities = [
    {
      ...smartSessionsCapability,
      load: async () => {
        loads.push('smartSessions')
        return { logic, glue: smartSessionsGlue as never }
      },
    },
  ]
  const kit = createActor(machine, { input: { ...input, capabilities } }).start()
  kit.send({
    type: 'account.connected',
    account: testAccount('injected'),
    method: 'browser',
    reconnected: false,
  })
  const host = () => kit.getSnapshot().context.capabilities.smartSessions!
  const settled = async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0))
  }
  return { kit, host, loads, asked, settled }
}

describe('smart sessions in the kit', () => {
  it('off (the default): a grant loads no code and asks no wallet', async () => {
    expect(resolveConfig(kitTestInput('kit-smart-sessions').config).features.smartSessions).toBe(false)
    const { kit, host, loads, asked, settled } = kitWith(false)
    kit.send({ type: 'smartSessions.grant', id: 1, request: REQUEST })
    await settled()
    expect(capabilityStatus(host().getSnapshot())).toBe('idle')
    expect({ loads, asked }).toEqual({ loads: [], asked: [] })
  })

  it('on: the first grant loads its code, reaches the wallet, is listed, and a toast says so', async () => {
    const { kit, host, loads, asked, settled } = kitWith(true)
    expect(loads).toEqual([])
    kit.send({ type: 'smartSessions.grant', id: 1, request: REQUEST })
    await settled()
    expect(capabilityStatus(host().getSnapshot())).toBe('running')
    const sessions = host().getSnapshot().context.actor as SmartSessionsActorRef
    expect(sessions.getSnapshot().context.granted).toMatchObject([{ signer: SIGNER, limit: '10000000' }])
    expect({ loads, asked }).toEqual({ loads: ['smartSessions'], asked: ['grant'] })
    const toast = kit.system.get('toast') as { getSnapshot(): { context: { current?: { message: string } } } }
    expect(toast.getSnapshot().context.current).toEqual({ variant: 'success', message: 'Permission granted' })
  })
})
