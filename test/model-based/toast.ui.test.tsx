// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { SimulatedClock } from 'xstate'
import type { KitActorRef, ToastActorRef } from '../../src'
import { KitRoot } from '../../src/react'
import { isDelayEvent } from '../../src/testing'
import { toastModel } from './toast.model'
import { Capture, testKitMachine } from './ui-kit'

/** The toast paths replayed through the rendered toast host: after every step the page shows what the machine holds. */
const model = toastModel()

const kitMachine = testKitMachine

afterEach(cleanup)

describe('toast paths through the rendered UI', () => {
  for (const path of model.paths) {
    it(`shows ${path.description}`, async () => {
      let kit: KitActorRef | undefined
      render(
        <KitRoot machine={kitMachine} options={{ clock: new SimulatedClock() }}>
          <Capture
            onActor={(actor) => {
              kit = actor
            }}
          />
        </KitRoot>,
      )
      const toast = () => kit!.getSnapshot().children.toast as ToastActorRef
      for (const step of path.steps) {
        await act(async () => {
          if (isDelayEvent(step.event)) toast().send(step.event as never)
          else kit!.send(step.event as never)
        })
        expect(model.serialize(toast().getSnapshot())).toBe(step.expected)
        const current = toast().getSnapshot().context.current
        const shown = document.querySelector('.ws-toast')
        if (!current) {
          expect(shown).toBeNull()
          continue
        }
        const role = current.variant === 'error' ? 'alert' : 'status'
        expect(screen.getByRole(role)).toBe(shown)
        expect(shown?.getAttribute('data-variant')).toBe(current.variant)
        expect(shown?.textContent).toBe(current.message)
      }
    })
  }
})
