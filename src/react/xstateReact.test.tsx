// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useSelector } from '@xstate/react'
import { afterEach, describe, expect, it } from 'vitest'
import { offlineConfig } from '../../test/support/offlineKit'
import { createKitMachine } from '../kit/createKit'
// What a host imports from `walletstate/machines`.
import { selectIsOpen, selectStatus, selectView } from '../machines/index'
import type { KitActorRef } from '../machines/kit'
// What a host imports from `walletstate/react`.
import { KitRoot, useConnectionActor, useKitActor, useModalActor } from './index'

/**
 * A host component reading the kit's actors with @xstate/react's `useSelector`, as the README shows it (there
 * its imports are `walletstate/react` and `walletstate/machines`): the modal's view and the connection status.
 */
function KitStatus() {
  const kit = useKitActor()
  const modal = useModalActor()
  const isOpen = useSelector(modal, selectIsOpen)
  const view = useSelector(modal, selectView)
  const status = useSelector(useConnectionActor(), selectStatus)
  return (
    <section>
      <p data-testid="kit-status">
        {status}, {isOpen ? `showing ${view}` : 'closed'}
      </p>
      <button type="button" onClick={() => kit.send({ type: 'modal.open', view: 'Networks' })}>
        Networks
      </button>
    </section>
  )
}

const kitMachine = createKitMachine(offlineConfig({ projectId: 'xstate-react' }))

/** Hands the running kit actor to the test. */
function Capture({ onActor }: { onActor: (actor: KitActorRef) => void }) {
  onActor(useKitActor())
  return null
}

afterEach(cleanup)

describe("@xstate/react's useSelector on the kit's actors", () => {
  it("follows the modal's view and the connection status as the kit changes them", async () => {
    let kit: KitActorRef | undefined
    render(
      <KitRoot machine={kitMachine}>
        <KitStatus />
        <Capture onActor={(actor) => (kit = actor)} />
      </KitRoot>,
    )
    const status = screen.getByTestId('kit-status')
    // The reconnect at start finds no stored wallet: disconnected.
    await screen.findByText('disconnected, closed')
    fireEvent.click(screen.getByRole('button', { name: 'Networks' }))
    expect(status.textContent).toBe('disconnected, showing Networks')
    // The kit's own modal shows the same view.
    expect(await screen.findByRole('dialog')).toBeTruthy()
    act(() => kit?.send({ type: 'router.push', view: 'WhatIsAWallet' }))
    expect(status.textContent).toBe('disconnected, showing WhatIsAWallet')
    act(() => kit?.send({ type: 'modal.close' }))
    expect(status.textContent).toBe('disconnected, closed')
  })
})
