// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createConfig, http, WagmiProvider } from 'wagmi'
import { OFFLINE_CHAIN } from '../../test/support/offlineKit'
import { defineEvmNetwork } from '../config'
import { createKitMachine } from '../kit/createKit'
import { KitRoot } from './KitRoot'

/** A local chain nothing answers for. */
const chain = OFFLINE_CHAIN

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

describe("KitRoot inside a host's WagmiProvider with another config", () => {
  it('warns once a page that the host’s wagmi hooks will not see the kit’s connection (the text loads then)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const host = createConfig({ chains: [chain], transports: { [chain.id]: http() }, storage: null })
    const kit = createKitMachine({ projectId: 'p', networks: [defineEvmNetwork(chain)] })
    for (let i = 0; i < 2; i++)
      render(
        <WagmiProvider config={host}>
          <KitRoot machine={kit} />
        </WagmiProvider>,
      )
    const warned = () =>
      warn.mock.calls.filter(([text]) => String(text).includes('WagmiProvider whose config is not the kit'))
    await vi.waitFor(() => expect(warned()).toHaveLength(1))
    // Both KitRoots' imports of the warning have settled: still one.
    await import('./foreignWagmi')
    expect(warned()).toHaveLength(1)
    expect(String(warned()[0]?.[0])).toContain('createKitMachine({ ..., wagmiConfig })')
  })
})
