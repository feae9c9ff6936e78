import { describe, expect, it } from 'vitest'
import type { CapabilityKitEvent } from '../../machines/capability'
import type { ConnectorInfo } from '../../machines/connection'
import { harness } from '../../machines/connection/harness'
import { connectionGlueOf } from './connectionGlue'

const PHANTOM: ConnectorInfo = { id: 'phantom', name: 'Phantom', type: 'injected', chain: 'solana' }
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Solana's connection machine (every slot a fake the test answers) with the glue Solana's capability loads. */
async function glued() {
  const h = harness({ namespace: 'solana', supportedChainIds: ['solana:dev'] })
  const told: CapabilityKitEvent[] = []
  const stop = connectionGlueOf('solana')(h.connection as never, {
    send: (event) => told.push(event),
    view: () => undefined,
  })
  h.last(h.calls.reconnect).resolve({ account: undefined, connections: {}, recentWallets: [] })
  await flush()
  // What it told while starting (its empty list of connectors) is not what these tests are about.
  told.length = 0
  return { h, told, stop }
}

describe("a namespace's connection capability's glue", () => {
  it('tells the kit its connectors, as they change', async () => {
    const { h, told, stop } = await glued()
    h.last(h.watchers.connectors).sendBack({ type: 'connection.connectors', connectors: [PHANTOM] })
    expect(told).toEqual([{ type: 'kit.connectors', connectors: [PHANTOM], namespace: 'solana' }])
    stop()
    h.stop()
  })

  it('reports a failed connect for the error telemetry (SPEC §7), as the eip155 connection does', async () => {
    const { h, told, stop } = await glued()
    h.send({ type: 'connection.connect', connectorId: 'phantom' })
    h.last(h.calls.connect).reject(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    await flush()
    expect(h.snapshot().matches({ disconnected: 'failed' })).toBe(true)
    expect(told).toEqual([
      {
        type: 'kit.reportError',
        event: 'CONNECT_ERROR',
        report: expect.objectContaining({
          errorType: 'UserRejectedError',
          errorMessage: 'Connection declined in the wallet.',
        }),
      },
    ])
    // Stopped with the capability: a later failure is not told.
    stop()
    h.send({ type: 'connection.retry' })
    h.last(h.calls.connect).reject(new Error('gone'))
    await flush()
    expect(told).toHaveLength(1)
    h.stop()
  })

  it("nothing is reported for a multichain pairing's side the wallet did not approve (along)", async () => {
    const { h, told, stop } = await glued()
    h.send({ type: 'connection.connect', connectorId: 'solana:walletconnect:multichain', along: true })
    h.last(h.calls.connect).reject(new Error('The wallet approved no Solana account in the session'))
    await flush()
    expect(h.snapshot().matches({ disconnected: 'idle' })).toBe(true)
    expect(h.context().error).toBeUndefined()
    expect(told).toEqual([])
    stop()
    h.stop()
  })
})
