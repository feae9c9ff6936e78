// @vitest-environment happy-dom
import { mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig, http } from 'wagmi'
import { injected } from 'wagmi/connectors'
import { type AnyEventObject, createActor, setup } from 'xstate'
import { CONNECTOR_IMAGE_IDS, WALLET_NAME_MAX_LENGTH } from '../constants'
import type { ConnectionEvent, ConnectorInfo } from '../machines/connection'
import { createKitStore } from '../storage'
import { connectorImageId, createEip155ConnectionActors, toConnectorInfo } from './connection'

/**
 * Wallet names from EIP-6963 announcements and injected providers are cleaned as the listing's are (guards
 * `toConnectorInfo`'s `safeText` in connection.ts): any script on the page can announce a provider, and its
 * name is shown in Connect. A name that reads backwards (a bidi override), hides characters, or carries half of
 * a surrogate pair is shown without them; a long one is cut like the listing's.
 */
const provider = { request: async () => [], on() {}, removeListener() {} }
const ICON = 'data:image/svg+xml;base64,PHN2Zy8+'

/** What the kit's connectors watcher publishes from a real wagmi config, after `announce` ran. */
function publishedConnectors(announce: () => void): ConnectorInfo[] {
  const wagmi = createConfig({
    chains: [mainnet],
    transports: { [mainnet.id]: http('http://127.0.0.1:9') },
    multiInjectedProviderDiscovery: true,
    // No persisted state to wait for: wagmi adds announced wallets once its storage is read.
    storage: null,
  })
  const { watchConnectors } = createEip155ConnectionActors({ wagmi, store: createKitStore(undefined) })
  const seen: ConnectorInfo[][] = []
  const parent = setup({
    types: { events: {} as ConnectionEvent | AnyEventObject },
    actors: { watchConnectors },
  }).createMachine({
    invoke: { src: 'watchConnectors' },
    on: {
      'connection.connectors': {
        actions: ({ event }) => seen.push((event as { connectors: ConnectorInfo[] }).connectors),
      },
    },
  })
  const actor = createActor(parent).start()
  announce()
  actor.stop()
  return seen.at(-1) ?? []
}

function announceProvider(name: string, rdns: string): void {
  window.dispatchEvent(
    new CustomEvent('eip6963:announceProvider', {
      detail: Object.freeze({ info: { uuid: crypto.randomUUID(), name, icon: ICON, rdns }, provider }),
    }),
  )
}

describe('wallet names from EIP-6963 announcements and injected providers', () => {
  it('an announced name loses bidi overrides, isolates, invisible characters and lone surrogates', () => {
    const announced = publishedConnectors(() => {
      announceProvider('\u202eksaMateM\u202c', 'com.evil.reversed')
      announceProvider('Meta\u2066Mask\u2069\u200b \ud83e', 'com.evil.isolates')
      announceProvider('\ud800\u0000\u200f', 'com.evil.blank')
    }).filter((c) => c.id.startsWith('com.evil.'))
    expect(announced.map((c) => [c.id, c.name])).toEqual([
      ['com.evil.reversed', 'ksaMateM'],
      ['com.evil.isolates', 'MetaMask'],
      // Nothing is left of the name: its rdns names it.
      ['com.evil.blank', 'com.evil.blank'],
    ])
  })

  it("an injected provider's name is cleaned and cut like the listing's", () => {
    const wagmi = createConfig({
      chains: [mainnet],
      transports: { [mainnet.id]: http('http://127.0.0.1:9') },
      multiInjectedProviderDiscovery: false,
      connectors: [
        injected({
          target: {
            id: 'window.evil',
            name: `Evil\u202e${'W'.repeat(200)}`,
            provider: () => provider as never,
          },
        }),
      ],
    })
    const [info] = wagmi.connectors.map(toConnectorInfo)
    expect(info?.name.startsWith('EvilWWW')).toBe(true)
    expect(Array.from(info?.name ?? '')).toHaveLength(WALLET_NAME_MAX_LENGTH)
    expect(info?.name.endsWith('\u2026')).toBe(true)
  })
})

describe('SPEC §3 Connector imageId', () => {
  it("the kit's own connectors and a plain injected wallet carry the provider image id; an announced wallet its icon", () => {
    const wagmi = createConfig({
      chains: [mainnet],
      transports: { [mainnet.id]: http('http://127.0.0.1:9') },
      multiInjectedProviderDiscovery: false,
      connectors: [
        injected({ target: { id: 'window.plain', name: 'Plain', provider: () => provider as never } }),
      ],
    })
    const [plain] = wagmi.connectors.map(toConnectorInfo)
    expect(plain).toMatchObject({ type: 'injected', imageId: CONNECTOR_IMAGE_IDS.injected })
    expect(connectorImageId('walletconnect')).toBe(CONNECTOR_IMAGE_IDS.walletConnect)
    expect(connectorImageId('auth')).toBe(CONNECTOR_IMAGE_IDS.auth)
    expect(connectorImageId('announced')).toBeUndefined()
    expect(connectorImageId('external')).toBeUndefined()
  })
})
