import { mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig, http } from 'wagmi'
import type { ConnectionEvent } from '../machines/connection'
import { createConnectionCalls } from './connectionCalls'

const URI = 'wc:7f6e5d4c@2?relay-protocol=irn&symKey=ab12&expiryTimestamp=4102444800'

function callsNavigatingTo(opened: string[]) {
  const wagmi = createConfig({
    chains: [mainnet],
    transports: { [mainnet.id]: http('http://127.0.0.1:9') },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  return createConnectionCalls({
    wagmi,
    announceWaitMs: 0,
    endingWaitMs: 0,
    navigate: (href) => opened.push(href),
  })
}

describe('openWallet (issue 18 item 5)', () => {
  it("tells the connection the wallet's link with the pairing URI, then goes to it", async () => {
    const opened: string[] = []
    const told: ConnectionEvent[] = []
    await callsNavigatingTo(opened).openWallet(
      {
        connectorId: 'walletConnect',
        wallet: { id: 'w', name: 'Wallet', mobileLink: 'https://wallet.example/app' },
        uri: URI,
      },
      (event) => {
        // Told first: the link is stored before the page goes.
        expect(opened).toEqual([])
        told.push(event)
      },
    )
    const href = `https://wallet.example/app/wc?uri=${encodeURIComponent(URI)}`
    expect(told).toEqual([{ type: 'connection.wcLinking', name: 'Wallet', href }])
    expect(opened).toEqual([href])
  })

  it('never opens a listing link that fails the safety check', async () => {
    const opened: string[] = []
    const told: ConnectionEvent[] = []
    const calls = callsNavigatingTo(opened)
    for (const mobileLink of [
      'javascript:alert(1)//',
      'intent://x#Intent;end',
      'http://evil.example/',
      undefined,
    ]) {
      await calls.openWallet(
        {
          connectorId: 'walletConnect',
          wallet: { id: 'w', name: 'Wallet', ...(mobileLink ? { mobileLink } : {}) },
          uri: URI,
        },
        (event) => told.push(event),
      )
    }
    expect(opened).toEqual([])
    expect(told).toEqual([])
  })

  it('resumePairing refuses a connector that cannot take up a pending pairing', async () => {
    const calls = callsNavigatingTo([])
    await expect(calls.resumePairing('walletConnect', new AbortController().signal)).rejects.toMatchObject({
      name: 'ConnectorNotFoundError',
    })
  })
})
