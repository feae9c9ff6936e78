// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AnyEventObject } from 'xstate'
import { createKitMachine, type KitActorRef } from '../../src'
import { signInCapability } from '../../src/kit/capabilities/signInCapability'
import { type SignInActorRef, selectSignInStatus } from '../../src/machines/signIn'
import { KitRoot } from '../../src/react'
import type { SiwxConfig } from '../../src/siwx/types'
import type { ModelPath } from '../../src/testing'
import { pathsToReplay, startsWith } from './paths'
import { modelMachine, models, type Snapshot } from './signIn.model'
import { Capture, offlineKitConfig } from './ui-kit'

/**
 * The sign-in machine's model-based paths (signIn.model.ts), replayed through ConnectingSiwe in the rendered
 * kit: "Sign in" and "Cancel" are clicked where the view offers them (the kit forwards them to sign-in), every
 * other step (an account, a slot's answer) goes to the machine as the path has it; after every step the view
 * must show what the machine says: its status, the progress line while busy, the failure's text, whether
 * sign-in is required, and "Sign in" enabled only when it can be pressed. The model's notices are checks, not
 * emits, so the view stays open for the whole path.
 */
afterEach(cleanup)

const siwx = (required: boolean): SiwxConfig => ({
  createMessage: async () => {
    throw new Error('not used: the model answers')
  },
  addSession: async () => {},
  getSessions: async () => [],
  revokeSession: async () => {},
  getRequired: () => required,
})

function renderKit(required: boolean) {
  // The kit's sign-in capability with the model's machine as its code (its glue aside: the notices are checks).
  const machine = createKitMachine(
    {
      ...offlineKitConfig('siwe-ui', { allWallets: false, email: false, socials: false }),
      siwx: siwx(required),
    },
    { capabilities: [{ ...signInCapability, load: async () => ({ logic: modelMachine }) }] },
  )
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
  return kit
}

const view = () => document.querySelector('[data-view="ConnectingSiwe"] [data-view-status]')
const signInButton = () => screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement

/** "Sign in" and "Cancel" through the view when it offers them; anything else to the machine. */
function perform(signIn: SignInActorRef, event: AnyEventObject): 'ui' | 'event' {
  if (event.type === 'signIn.sign' && !signInButton().disabled) {
    fireEvent.click(signInButton())
    return 'ui'
  }
  if (event.type === 'signIn.cancel') {
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    return 'ui'
  }
  signIn.send(event as never)
  return 'event'
}

async function expectScreenMatches(snapshot: Snapshot) {
  const status = selectSignInStatus(snapshot)
  const shown = view()
  expect(shown).not.toBeNull()
  await waitFor(() => expect(shown!.getAttribute('data-view-status')).toBe(status))
  const busy = status === 'checking' || status === 'signing'
  const progress = shown!.querySelector('[role="status"]')
  expect(progress !== null).toBe(busy)
  if (busy)
    expect(progress!.textContent).toContain(
      status === 'signing' ? 'Sign the message in your wallet' : 'Checking your session',
    )
  expect(signInButton().disabled).toBe(busy)
  expect(shown!.querySelector('[role="alert"]')?.textContent ?? null).toBe(snapshot.context.error ?? null)
  expect(screen.queryByText('Signing in is required to stay connected.') !== null).toBe(
    snapshot.context.required,
  )
}

async function replayInUi(required: boolean, path: ModelPath, serialize: (s: Snapshot) => string) {
  const kit = renderKit(required)
  await act(async () => kit.send({ type: 'modal.open', view: 'ConnectingSiwe' }))
  let signIn: SignInActorRef | undefined
  await waitFor(() => {
    signIn = kit.system.get('signIn') as SignInActorRef | undefined
    expect(signIn).toBeDefined()
  })
  await waitFor(() => expect(view()).not.toBeNull())
  await expectScreenMatches(signIn!.getSnapshot())
  let throughUi = 0
  for (const step of path.steps) {
    await act(async () => {
      if (perform(signIn!, step.event) === 'ui') throughUi++
    })
    expect(serialize(signIn!.getSnapshot())).toBe(step.expected)
    await expectScreenMatches(signIn!.getSnapshot())
  }
  return throughUi
}

/** Clicks per replayed path of the optional model, for the tally below. */
const throughUiByPath = new Map<ModelPath, number>()

for (const [name, model] of Object.entries(models)) {
  const required = name === 'required'
  describe(`sign-in ${name}: ConnectingSiwe through every path`, () => {
    // Every covering path, alone or as the start of a longer one (paths.ts).
    for (const path of pathsToReplay(model.paths)) {
      it(`shows ${path.description}`, async () => {
        const throughUi = await replayInUi(required, path, model.serialize)
        if (!required) throughUiByPath.set(path, throughUi)
      })
    }
  })
}

describe('sign-in paths through the rendered UI', () => {
  it('drove the visitor’s choices through the view’s buttons', async () => {
    // On its own too (run alone with -t): replays the paths the tests above did not.
    const replayed = pathsToReplay(models.optional.paths)
    for (const path of models.optional.paths)
      expect(replayed.some((longer) => startsWith(longer, path))).toBe(true)
    let uiSteps = 0
    for (const path of replayed) {
      let throughUi = throughUiByPath.get(path)
      if (throughUi === undefined) {
        throughUi = await replayInUi(false, path, models.optional.serialize)
        cleanup()
      }
      uiSteps += throughUi
    }
    const choices = replayed
      .flatMap((path) => path.steps)
      .filter((step) => step.event.type === 'signIn.cancel' || step.event.type === 'signIn.sign').length
    expect(choices).toBeGreaterThan(0)
    // Every cancel is a click; a "Sign in" is sent as an event only where the button is (rightly) disabled.
    expect(uiSteps).toBeGreaterThan(choices / 2)
  })
})
