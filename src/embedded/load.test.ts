import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { createKitStore, memoryStorage } from '../storage'
import { framePersistence, restoredLogin } from './load'

describe("the embedded wallet's persistence (SPEC §3 storage)", () => {
  it('the smart-account networks the frame machine reports are stored, and read back at the next start', () => {
    const store = createKitStore(memoryStorage(), () => {})
    expect(restoredLogin(store, 0).smartAccountNetworks).toBeUndefined()
    const persistence = createActor(framePersistence(store, () => 0)).start()
    persistence.send({ type: 'persist.smartAccountNetworks', networks: ['eip155:31337'] })
    expect(store.read('smartAccountNetworks')).toEqual(['eip155:31337'])
    expect(restoredLogin(store, 0).smartAccountNetworks).toEqual(['eip155:31337'])
    // Signing out keeps them: they are the networks', not the visitor's.
    persistence.send({ type: 'persist.disconnected' })
    expect(restoredLogin(store, 0)).toEqual({ loggedIn: false, smartAccountNetworks: ['eip155:31337'] })
    persistence.stop()
  })
})
