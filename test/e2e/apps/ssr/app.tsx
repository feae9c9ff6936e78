import { StrictMode, useEffect } from 'react'
import { useAccount } from 'wagmi'
import type { DemoSandboxConfig } from '../../../../demo/sandbox-config.ts'
import { createKitMachine, defineEvmNetwork, type KitMachine } from '../../../../src'
import { ConnectButton, KitRoot, useKit, useKitAccount } from '../../../../src/react'

/**
 * A host app rendered on the server and hydrated in the browser (issue 18 item 2): the same tree on both
 * sides, the kit created once in each entry (./entry-server.tsx, ./entry-client.tsx).
 */
export function createKit(sandbox: DemoSandboxConfig): KitMachine {
  const chain = sandbox.chain ?? { id: 31337, name: 'Sandbox Chain', rpcUrl: 'http://127.0.0.1:8545' }
  return createKitMachine({
    projectId: sandbox.projectId,
    networks: [
      defineEvmNetwork({
        id: chain.id,
        name: chain.name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
        testnet: true,
      }),
    ],
    endpoints: sandbox.endpoints,
  })
}

export function Root({ kit }: { kit: KitMachine }) {
  return (
    <StrictMode>
      <KitRoot machine={kit}>
        <Page />
      </KitRoot>
    </StrictMode>
  )
}

/** The host's page: its own text, the kit's button, and what the kit's and wagmi's hooks say. */
function Page() {
  const { address, status } = useKitAccount()
  const wagmi = useAccount()
  const { isOpen } = useKit()
  // Effects run only in the browser, once hydrated: the test waits for this mark.
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
  }, [])
  return (
    <main>
      <h1>Server-rendered host</h1>
      <ConnectButton />
      <p>
        Kit: <output data-testid="kit-status">{status}</output>{' '}
        <output data-testid="kit-address">{address ?? ''}</output>
      </p>
      <p>
        wagmi: <output data-testid="wagmi-address">{wagmi.address ?? ''}</output>
      </p>
      <p>
        Modal: <output data-testid="modal-state">{isOpen ? 'open' : 'closed'}</output>
      </p>
    </main>
  )
}
