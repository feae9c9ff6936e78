// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { mainnet, sepolia } from 'viem/chains'
import { afterEach, describe, expect, it } from 'vitest'
import { offlineConfig } from '../../test/support/offlineKit'
import { createKitMachine } from '../kit/createKit'
import { ConnectButton } from './components/ConnectButton'
import { KitRoot } from './KitRoot'

/** The views read the networks a host gave as viem chains (`networks: [mainnet, sepolia]`) as kit networks. */
const kit = createKitMachine(offlineConfig({ projectId: 'viem-chains', networks: [mainnet, sepolia] }))

afterEach(cleanup)

describe('viem chains in the views', () => {
  it('Networks lists each chain by its name, named by its derived CAIP-2 id, a testnet marked', async () => {
    render(
      <KitRoot machine={kit}>
        <ConnectButton />
      </KitRoot>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Supported networks' }))
    const list = await screen.findByRole('list', { name: 'Networks' })
    const items = within(list).getAllByRole('button')
    expect(items.map((b) => [b.getAttribute('data-network'), b.getAttribute('data-namespace')])).toEqual([
      ['eip155:1', 'eip155'],
      ['eip155:11155111', 'eip155'],
    ])
    expect(items[0]?.textContent).toBe('Ethereum')
    expect(items[1]?.textContent).toBe('SepoliaTestnet')
  })
})
