import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { defineEvmNetwork } from '../config'
import { createKitMachine } from '../kit/createKit'
import type { ConnectionActorRef } from '../machines/kit'
import { ConnectButton } from './components/ConnectButton'
import { KitRoot } from './KitRoot'

/**
 * Server rendering (issue 18 item 2), in plain Node (this tier has no DOM): the kit's modules, its config and
 * `<KitRoot>` need no browser global, and a kit started on the server asks nothing of the network. The
 * hydration in a browser is test/e2e/ssr.test.ts.
 */
const network = defineEvmNetwork({
  id: 31_337,
  name: 'Sandbox',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
})

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('the kit on the server', () => {
  it('runs where no browser global exists', () => {
    for (const name of ['window', 'document', 'navigator', 'localStorage', 'matchMedia'])
      expect(name in globalThis, name).toBe(false)
  })

  it("renders the host's children and the kit's button, the modal closed, with nothing logged", () => {
    const logged = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')]
    const kit = createKitMachine({ projectId: 'p', networks: [network] })
    const html = renderToString(
      <KitRoot machine={kit}>
        <h1>Host page</h1>
        <ConnectButton />
      </KitRoot>,
    )
    expect(html).toContain('<h1>Host page</h1>')
    expect(html).toMatch(/<button[^>]*aria-expanded="false"[^>]*>Connect Wallet<\/button>/)
    expect(html).not.toContain('role="dialog"')
    for (const spy of logged) expect(spy).not.toHaveBeenCalled()
  })

  it('started on the server, the kit restores nothing and asks nothing of the network', async () => {
    const fetch = vi.fn(async () => new Response('{}'))
    const WebSocket = vi.fn()
    vi.stubGlobal('fetch', fetch)
    vi.stubGlobal('WebSocket', WebSocket)
    const kit = createActor(createKitMachine({ projectId: 'p', networks: [network] })).start()
    try {
      const connection = kit.getSnapshot().children.connection as ConnectionActorRef
      // Its start is over once the connection has looked for a stored one (none: no storage on a server).
      const settled = await waitFor(connection, (s) => !s.matches('reconnecting'))
      expect(settled.matches('disconnected')).toBe(true)
      expect(fetch).not.toHaveBeenCalled()
      expect(WebSocket).not.toHaveBeenCalled()
    } finally {
      kit.stop()
    }
  })
})
