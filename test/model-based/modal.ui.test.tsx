// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AnyEventObject } from 'xstate'
import { SimulatedClock } from 'xstate'
import type { KitActorRef, ModalActorRef } from '../../src'
import { ConnectButton, KitRoot } from '../../src/react'
import { isDelayEvent, type ModelPath } from '../../src/testing'
import { modalModel } from './modal.model'
import { pathsToReplay, startsWith } from './paths'
import { Capture, testKitMachine } from './ui-kit'

/**
 * The modal's model-based paths, replayed through the rendered kit: every step is done the way a person
 * would where the UI offers a control (the host's button, Escape, Back, the links of a view) and sent as an
 * event otherwise; after every step the page must show what the machine says.
 */
const model = modalModel()

const kitMachine = testKitMachine

afterEach(cleanup)

function renderKit() {
  let kit: KitActorRef | undefined
  render(
    <KitRoot machine={kitMachine} options={{ clock: new SimulatedClock() }}>
      <ConnectButton />
      <Capture
        onActor={(actor) => {
          kit = actor
        }}
      />
    </KitRoot>,
  )
  if (!kit) throw new Error('kit actor not captured')
  const actor = kit
  const modal = () => actor.getSnapshot().children.modal as ModalActorRef
  return { kit: actor, modal }
}

type Rendered = ReturnType<typeof renderKit>

/** Does one step through the UI when a control exists; says which way it went. */
function perform({ kit, modal }: Rendered, event: AnyEventObject): 'ui' | 'event' {
  const snapshot = modal().getSnapshot()
  const open = snapshot.matches('open')
  const view = snapshot.context.history.at(-1)
  if (event.type === 'modal.open' && !('view' in event) && !open) {
    fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }))
    return 'ui'
  }
  if (event.type === 'modal.close' && open) {
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
    return 'ui'
  }
  if (event.type === 'router.back' && open && snapshot.context.history.length > 1) {
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    return 'ui'
  }
  if (event.type === 'router.push' && open && view === 'Connect' && !snapshot.hasTag('transitioning')) {
    const name =
      event.view === 'WhatIsAWallet'
        ? 'What is a wallet?'
        : event.view === 'Networks'
          ? 'Supported networks'
          : ''
    const control = name ? screen.queryByRole('button', { name }) : null
    if (control) {
      fireEvent.click(control)
      return 'ui'
    }
  }
  // Delays stand for time passing: they go to the modal itself, as the graph sent them.
  if (isDelayEvent(event)) modal().send(event as never)
  else kit.send(event as never)
  return 'event'
}

/**
 * The view the dialog opened on shows without an entry animation (issue 14: legible in the first frame); from
 * the first change of view within that open dialog, every view animates in the machine's direction.
 */
const opened = { on: undefined as string | undefined, moved: false }

async function expectScreenMatches({ modal }: Rendered) {
  const snapshot = modal().getSnapshot()
  if (snapshot.matches('closed')) {
    opened.on = undefined
    opened.moved = false
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('button', { name: 'Connect Wallet' }).getAttribute('aria-expanded')).toBe('false')
    return
  }
  const view = snapshot.context.history.at(-1)
  const dialog = await screen.findByRole('dialog')
  await waitFor(() => expect(dialog.querySelector('[data-view]')?.getAttribute('data-view')).toBe(view))
  const shown = dialog.querySelector('[data-view]')!
  const key = `${snapshot.context.history.length}:${view}`
  opened.on ??= key
  if (key !== opened.on) opened.moved = true
  expect(shown.getAttribute('data-direction')).toBe(opened.moved ? snapshot.context.direction : null)
  expect(dialog.hasAttribute('data-transitioning')).toBe(snapshot.hasTag('transitioning'))
  expect(dialog.hasAttribute('data-shaking')).toBe(snapshot.hasTag('shaking'))
  expect(screen.queryByRole('button', { name: 'Back' }) !== null).toBe(snapshot.context.history.length > 1)
  // The lazy view's content, not only its frame, is on screen.
  await waitFor(() => expect(shown.querySelector('[role="status"]')).toBeNull())
}

async function replayInUi(path: ModelPath) {
  const rendered = renderKit()
  opened.on = undefined
  opened.moved = false
  await expectScreenMatches(rendered)
  let throughUi = 0
  for (const step of path.steps) {
    await act(async () => {
      if (perform(rendered, step.event) === 'ui') throughUi++
    })
    expect(model.serialize(rendered.modal().getSnapshot())).toBe(step.expected)
    await expectScreenMatches(rendered)
  }
  return throughUi
}

/** Every covering path, alone or as the start of a longer one (paths.ts), and the clicks each replay made. */
const replayed = pathsToReplay(model.paths)
const throughUiByPath = new Map<ModelPath, number>()

describe('modal paths through the rendered UI', () => {
  for (const path of replayed) {
    it(`shows ${path.description}`, async () => {
      throughUiByPath.set(path, await replayInUi(path))
    })
  }
  it('drove most opening, closing and navigation through real controls', async () => {
    // Replays the paths the tests above did not, so it stands on its own (e.g. run alone with -t).
    expect(model.paths.length).toBe(16)
    for (const path of model.paths) expect(replayed.some((longer) => startsWith(longer, path))).toBe(true)
    let uiSteps = 0
    let steps = 0
    for (const path of replayed) {
      let throughUi = throughUiByPath.get(path)
      if (throughUi === undefined) {
        throughUi = await replayInUi(path)
        cleanup()
      }
      uiSteps += throughUi
      steps += path.steps.length
    }
    // 13 paths of 30 steps: the 16 covering paths (35 steps), 3 of them replayed as the start of a longer one.
    expect(steps).toBe(30)
    expect(uiSteps).toBeGreaterThan(replayed.length)
  })
})
