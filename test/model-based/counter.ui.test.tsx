// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { fromPromise } from 'xstate'
import { createKitMachine, type KitActorRef } from '../../src'
import type { AccountLogic } from '../../src/machines/kit/types'
import { KitRoot } from '../../src/react'
import { COUNTER_GOAL, counterCapability } from './counter/capability'
import { Capture, offlineKitConfig } from './ui-kit'

/**
 * The test-only capability in the kit, drawn in Chromium's stead by jsdom: registered with `createKitMachine`
 * and nothing else (no file of the kit's root knows it), it is offered only to a connected account, loads when
 * its view shows, runs, takes its events through the kit, shows its own views and a toast, and ends on a
 * disconnect.
 */
afterEach(cleanup)

const ALICE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const never = <T,>() => new Promise<T>(() => {})

function renderKit() {
  const machine = createKitMachine(
    offlineKitConfig('counter-ui', { allWallets: false, email: false, socials: false }),
    { capabilities: [counterCapability] },
  ).provide({ actors: { loadAccount: fromPromise(never<AccountLogic>) } })
  let kit: KitActorRef | undefined
  render(
    <KitRoot machine={machine}>
      <Capture onActor={(actor) => (kit = actor)} />
    </KitRoot>,
  )
  if (!kit) throw new Error('kit actor not captured')
  return kit
}
const dialog = () => screen.getByRole('dialog')
const shown = () => dialog().querySelector('[data-view]') as HTMLElement
const status = (kit: KitActorRef) => kit.getSnapshot().context.capabilities.counter!.getSnapshot().value
const flow = (kit: KitActorRef) => kit.getSnapshot().context.capabilities.counter!.getSnapshot().context.actor

describe('a capability only the tests know, through the kit and its views', () => {
  it('is not offered without an account: its view says so, and nothing loads', async () => {
    const kit = renderKit()
    await act(async () => kit.send({ type: 'modal.open', view: 'counter.Main' }))
    await waitFor(() =>
      expect(within(shown()).getByRole('alert').textContent).toBe('Connect a wallet to count'),
    )
    expect(status(kit)).toBe('idle')
  })

  it('loads on its view for the account connected, counts through the kit, toasts and shows its own view; a disconnect ends it', async () => {
    const kit = renderKit()
    await act(async () => {
      kit.send({
        type: 'account.connected',
        account: { address: ALICE, addresses: [ALICE], chainId: 31337, connectorId: 'injected' },
        method: 'browser',
        reconnected: true,
      })
      kit.send({ type: 'modal.open', view: 'counter.Main' })
    })
    await waitFor(() => expect(within(shown()).getByRole('status').textContent).toBe('Count: 0'))
    expect(shown().getAttribute('data-view')).toBe('counter.Main')
    expect(status(kit)).toBe('running')
    expect(flow(kit)?.getSnapshot().context.address).toBe(ALICE)
    for (let i = 0; i < COUNTER_GOAL; i++)
      await act(async () => fireEvent.click(within(shown()).getByRole('button', { name: 'Count' })))
    await waitFor(() => expect(shown().getAttribute('data-view')).toBe('counter.Done'))
    expect(within(shown()).getByRole('status').textContent).toBe('Goal reached')
    await waitFor(() => expect(screen.getByText(`Counted to ${COUNTER_GOAL}`)).toBeTruthy())
    const running = flow(kit)!
    await act(async () => kit.send({ type: 'account.disconnected' }))
    expect(running.getSnapshot().status).toBe('stopped')
    expect(status(kit)).toBe('idle')
    expect(flow(kit)).toBeUndefined()
  })
})
