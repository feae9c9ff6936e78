import { getAddress } from 'viem'
import { mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig, http, mock } from 'wagmi'
import { getConnection, getConnectorClient } from 'wagmi/actions'
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

describe('selectAccount (SPEC §3 allAccounts)', () => {
  const ALICE = getAddress('0x00000000000000000000000000000000000a11ce')
  const BOB = getAddress('0x0000000000000000000000000000000000000b0b')

  async function connectedWithTwo() {
    const wagmi = createConfig({
      chains: [mainnet],
      connectors: [mock({ accounts: [ALICE, BOB] })],
      transports: { [mainnet.id]: http('http://127.0.0.1:9') },
      storage: null,
      multiInjectedProviderDiscovery: false,
    })
    const calls = createConnectionCalls({ wagmi, announceWaitMs: 0, endingWaitMs: 0 })
    const connector = wagmi.connectors[0]!
    const connected = await calls.connect(connector.id, new AbortController().signal)
    return { wagmi, calls, connector, connected }
  }

  it('makes the chosen address the one wagmi sends from, and the watcher tells the change', async () => {
    const { wagmi, calls, connector, connected } = await connectedWithTwo()
    expect(connected.account.address).toBe(ALICE)
    expect(connected.account.addresses).toEqual([ALICE, BOB])
    const told: ConnectionEvent[] = []
    const stop = calls.watchConnection((event) => told.push(event))
    expect(await calls.selectAccount(connector.id, BOB.toLowerCase())).toBe(BOB)
    stop()
    expect(getConnection(wagmi).address).toBe(BOB)
    // The client wagmi's actions use signs as the chosen account.
    expect((await getConnectorClient(wagmi)).account.address).toBe(BOB)
    expect(told).toContainEqual({
      type: 'connection.changed',
      account: { address: BOB, addresses: [BOB, ALICE], chainId: mainnet.id, connectorId: connector.id },
    })
  })

  it('refuses an address the connector does not share, or another connector', async () => {
    const { wagmi, calls, connector } = await connectedWithTwo()
    await expect(
      calls.selectAccount(connector.id, '0x000000000000000000000000000000000000dEaD'),
    ).rejects.toThrow('Account not found for connector.')
    await expect(calls.selectAccount('other', BOB)).rejects.toThrow('Account not found for connector.')
    expect(getConnection(wagmi).address).toBe(ALICE)
  })
})
