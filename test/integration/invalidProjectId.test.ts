import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { type ListingApi, startListingApi } from '../../sandbox/api/listing.ts'
import { createWalletsActors } from '../../src/actors/wallets'
import { ALERTS } from '../../src/errors/base'
import { kitMachine, selectAlerts } from '../../src/machines/kit'
import { walletsMachine } from '../../src/machines/wallets'
import { kitTestInput } from '../model-based/kit.fixtures'

/**
 * SPEC §8 "invalid project id": the sandbox listing knows its projects (as the provider does) and answers 403
 * to any other; the kit, with its real listing client, shows the INVALID_PROJECT_ID alert (issue 13 item 11).
 */
let api: ListingApi
beforeAll(async () => {
  api = await startListingApi({ projectIds: ['known-project'] })
})
afterAll(async () => {
  await api?.close()
})

function kitFor(projectId: string) {
  const input = kitTestInput(projectId)
  const config = { ...input.config, endpoints: { ...input.config.endpoints, walletsApi: api.origin } }
  const machine = kitMachine.provide({
    actors: {
      loadWallets: fromPromise(async () => walletsMachine.provide({ actors: createWalletsActors() })),
    },
  })
  return createActor(machine, { input: { ...input, config } }).start()
}

/** The listing's answer: its machine runs once its code has loaded (the load asked before is kept for it). */
async function settled(kit: ReturnType<typeof kitFor>) {
  const wallets = () => kit.getSnapshot().context.wallets?.getSnapshot()
  const busy = () => wallets() === undefined || wallets()!.hasTag('loading')
  for (let i = 0; i < 200 && busy(); i++) await new Promise((r) => setTimeout(r, 25))
  return wallets()!
}

describe('a project id the provider does not know', () => {
  it('the listing refuses it (403) and the kit shows INVALID_PROJECT_ID', async () => {
    const kit = kitFor('unknown-project')
    kit.send({ type: 'wallets.load' })
    const wallets = await settled(kit)
    expect(wallets.hasTag('error')).toBe(true)
    expect(selectAlerts(kit.getSnapshot())).toContainEqual(ALERTS.INVALID_PROJECT_ID)
    kit.stop()
  })

  it('a known project id lists wallets and raises no alert', async () => {
    const kit = kitFor('known-project')
    kit.send({ type: 'wallets.load' })
    const wallets = await settled(kit)
    expect(wallets.hasTag('error')).toBe(false)
    expect(wallets.context.wallets.length).toBeGreaterThan(0)
    expect(selectAlerts(kit.getSnapshot()).map((a) => a.code)).not.toContain('INVALID_PROJECT_ID')
    kit.stop()
  })
})
