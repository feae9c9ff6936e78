import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { createKitMachine } from '../../src'
import { requestOfCapability } from '../../src/react/capabilityRequest'
import { counterCapability } from './counter/capability'
import { offlineKitConfig } from './ui-kit'

/**
 * The one way the host hooks (pay, batched calls, permissions) wait on a capability loaded by their first request
 * (src/react/capabilityRequest.ts), through a real kit and the test-only counter capability: the request's event
 * loads the capability, its answer is read from the statechart once it runs; a capability whose code does not
 * load refuses the request with the hook's own error.
 */
const ALICE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

function connectedKit(capability = counterCapability) {
  const kit = createActor(
    createKitMachine(offlineKitConfig('counter-request', { allWallets: false }), {
      capabilities: [capability],
    }),
  ).start()
  kit.send({
    type: 'account.connected',
    account: { address: ALICE, addresses: [ALICE], chainId: 31337, connectorId: 'injected' },
    method: 'browser',
    reconnected: true,
  })
  return kit
}

describe('a host request to a capability loaded with it', () => {
  it('loads the capability with its event and settles with the answer read from its statechart', async () => {
    const kit = connectedKit()
    expect(kit.getSnapshot().context.capabilities.counter!.getSnapshot().value).toBe('idle')
    const count = await requestOfCapability<{ count: number }, number>(kit, {
      capability: 'counter',
      send: () => kit.send({ type: 'counter.increment' }),
      answer: (context) => (context.count >= 1 ? { value: context.count } : undefined),
      unavailable: () => new Error('counter did not load'),
    })
    expect(count).toBe(1)
    // Once running, a later request is answered by the same statechart.
    const next = await requestOfCapability<{ count: number }, number>(kit, {
      capability: 'counter',
      send: () => kit.send({ type: 'counter.increment' }),
      answer: (context) => (context.count >= 2 ? { value: context.count } : undefined),
      unavailable: () => new Error('counter did not load'),
    })
    expect(next).toBe(2)
    kit.stop()
  })

  it('rejects with the error its answer reads', async () => {
    const kit = connectedKit()
    const refused = requestOfCapability<{ count: number }, number>(kit, {
      capability: 'counter',
      send: () => kit.send({ type: 'counter.increment' }),
      answer: (context) =>
        context.count >= 1 ? { error: new Error(`refused at ${context.count}`) } : undefined,
      unavailable: () => new Error('counter did not load'),
    })
    await expect(refused).rejects.toThrow('refused at 1')
    kit.stop()
  })

  it('a capability whose code fails to load: refused with the request’s own error', async () => {
    const kit = connectedKit({
      ...counterCapability,
      load: () => Promise.reject(new Error('chunk failed')),
    })
    const refused = requestOfCapability<{ count: number }, number>(kit, {
      capability: 'counter',
      send: () => kit.send({ type: 'counter.increment' }),
      answer: (context) => (context.count >= 1 ? { value: context.count } : undefined),
      unavailable: () => new Error('counter did not load'),
    })
    await expect(refused).rejects.toThrow('counter did not load')
    expect(kit.getSnapshot().context.capabilities.counter!.getSnapshot().value).toBe('failed')
    kit.stop()
  })
})
