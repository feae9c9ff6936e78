import { renderToString } from 'react-dom/server'
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createKitMachine } from '../kit/createKit'
import { ConnectButton } from './components/ConnectButton'
import { KitRoot } from './KitRoot'

afterEach(() => vi.restoreAllMocks())

describe('viem chains on the server', () => {
  it("renders the kit's button for a kit of viem chains, with nothing logged", () => {
    const logged = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')]
    const kit = createKitMachine({ projectId: 'p', networks: [mainnet, sepolia] })
    const html = renderToString(
      <KitRoot machine={kit}>
        <ConnectButton />
      </KitRoot>,
    )
    expect(html).toMatch(/<button[^>]*aria-expanded="false"[^>]*>Connect Wallet<\/button>/)
    for (const spy of logged) expect(spy).not.toHaveBeenCalled()
  })
})
