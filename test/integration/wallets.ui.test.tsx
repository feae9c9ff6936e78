// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import { createKitMachine, type KitActorRef } from '../../src'
import type { FetchWalletsReturnType, WalletListing } from '../../src/api/walletsApi'
import { walletsMachine } from '../../src/machines/wallets'
import { KitRoot } from '../../src/react'
import { Capture, loopback, offlineKitConfig } from '../model-based/ui-kit'

/**
 * The wallet listing's code loads on demand (issue 14): the modal's open asks for it, Connect paints its own
 * wallets without waiting for it and adds the listing's once it runs; a chunk that fails to load shows All
 * Wallets' error, and "Try again" loads it again. The listing itself answers from memory here.
 */
const listing: WalletListing[] = Array.from({ length: 6 }, (_, i) => ({
  id: `listed-${i + 1}`,
  name: `Listed Wallet ${i + 1}`,
  chains: ['eip155:31337'],
}))
const page: FetchWalletsReturnType = { count: listing.length, data: listing }
const walletsLogic = walletsMachine.provide({ actors: { fetchWallets: fromPromise(async () => page) } })

afterEach(cleanup)

/**
 * A kit whose listing code arrives when `arrive()` is called, or fails while `fails` says so; `asked` once the
 * kit asked for it (past the open's first paint).
 */
function renderKit() {
  const gate = { fails: false, arrive: () => {}, open: true, asked: false }
  const base = createKitMachine(
    offlineKitConfig('wallets-ui', { email: false, socials: false }, { rpc: loopback }),
  )
  const machine = base.provide({
    actors: {
      loadWallets: fromPromise(async () => {
        gate.asked = true
        if (gate.fails) throw new Error('the chunk did not load')
        if (!gate.open) await new Promise<void>((resolve) => (gate.arrive = resolve))
        return walletsLogic
      }),
    },
  })
  let kit: KitActorRef | undefined
  render(
    <KitRoot machine={machine}>
      <Capture
        onActor={(actor) => {
          kit = actor
        }}
      />
    </KitRoot>,
  )
  if (!kit) throw new Error('kit actor not captured')
  return { kit, gate }
}

/** A button's text holds `name` (besides its icon's initial and its badge). */
const has = (name: string) => expect.stringContaining(name)
const walletButtons = () =>
  within(screen.getByRole('list', { name: 'Wallets' }))
    .getAllByRole('button')
    .map((button) => button.textContent)

describe('the wallet listing, loaded on demand', () => {
  it('Connect paints WalletConnect and All Wallets at once; the recommended wallets join once the listing runs', async () => {
    const { kit, gate } = renderKit()
    gate.open = false
    expect(kit.getSnapshot().context.wallets).toBeUndefined()
    act(() => kit.send({ type: 'modal.open' }))
    await screen.findByRole('list', { name: 'Wallets' })
    expect(walletButtons()).toEqual([has('WalletConnect'), has('All Wallets')])
    await waitFor(() => expect(gate.asked).toBe(true))
    await act(async () => gate.arrive())
    await waitFor(() =>
      expect(walletButtons()).toEqual([
        has('WalletConnect'),
        has('Listed Wallet 1'),
        has('Listed Wallet 2'),
        has('Listed Wallet 3'),
        has('Listed Wallet 4'),
        has('All Wallets'),
      ]),
    )
  })

  it('a listing code that failed to load: All Wallets says so with "Try again", which loads it and lists the wallets', async () => {
    const { kit, gate } = renderKit()
    gate.fails = true
    act(() => kit.send({ type: 'modal.open' }))
    fireEvent.click(await screen.findByRole('button', { name: 'All Wallets' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Could not load the wallet list')
    gate.fails = false
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.getAllByRole('button', { name: /Listed Wallet/ })).toHaveLength(6), {
      timeout: 5_000,
    })
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
