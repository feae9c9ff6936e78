import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { type Config, createConfig, http, useConfig, WagmiProvider } from 'wagmi'
import { OFFLINE_CHAIN } from '../../test/support/offlineKit'
import { defineEvmNetwork } from '../config'
import { createKitMachine, kitHandleOf } from '../kit/createKit'
import { KitRoot } from './KitRoot'

/**
 * Which wagmi config and QueryClient the host's components under `<KitRoot>` get (issue 18 item 1): the host's
 * providers above it are reused when the kit runs on the host's config; the kit's own otherwise.
 */
/** A local chain nothing answers for. */
const chain = OFFLINE_CHAIN
const network = defineEvmNetwork(chain)
const hostWagmi = () =>
  createConfig({ chains: [chain], transports: { [chain.id]: http('http://127.0.0.1:9') }, storage: null })

type Seen = { wagmi?: Config; queryClient?: QueryClient }

/** A host component: notes the wagmi config and the QueryClient it gets. */
function Probe({ seen }: { seen: Seen }) {
  seen.wagmi = useConfig()
  seen.queryClient = useQueryClient()
  return null
}

/** Renders a host component under KitRoot inside the given providers; says which config and client it got. */
function renderUnder(
  kit: ReturnType<typeof createKitMachine>,
  wagmi: Config | undefined,
  client?: QueryClient,
) {
  const seen: Seen = {}
  let tree = (
    <KitRoot machine={kit}>
      <Probe seen={seen} />
    </KitRoot>
  )
  if (client) tree = <QueryClientProvider client={client}>{tree}</QueryClientProvider>
  if (wagmi) tree = <WagmiProvider config={wagmi}>{tree}</WagmiProvider>
  renderToString(tree)
  return seen
}

describe("KitRoot and the host's providers", () => {
  it("reuses the host's WagmiProvider and QueryClientProvider when the kit runs on the host's config", () => {
    const wagmi = hostWagmi()
    const client = new QueryClient()
    const kit = createKitMachine({ projectId: 'p', networks: [network], wagmiConfig: wagmi })
    const seen = renderUnder(kit, wagmi, client)
    expect(seen.wagmi).toBe(wagmi)
    expect(seen.queryClient).toBe(client)
    // The kit's actors cache in the host's QueryClient too: one cache.
    expect(kitHandleOf(kit)?.queryClient).toBe(client)
  })

  it('provides its own without providers above', () => {
    const kit = createKitMachine({ projectId: 'p', networks: [network] })
    const seen = renderUnder(kit, undefined)
    expect(seen.wagmi).toBe(kitHandleOf(kit)?.wagmi)
    expect(seen.queryClient).toBe(kitHandleOf(kit)?.queryClient)
  })

  it("leaves the host's components their own WagmiProvider when the kit has another config", () => {
    const wagmi = hostWagmi()
    const kit = createKitMachine({ projectId: 'p', networks: [network] })
    const seen = renderUnder(kit, wagmi)
    expect(seen.wagmi).toBe(wagmi)
    expect(kitHandleOf(kit)?.wagmi).not.toBe(wagmi)
  })
})
