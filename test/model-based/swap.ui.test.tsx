// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { type AnyEventObject, fromPromise, SimulatedClock } from 'xstate'
import { createKitMachine, type KitActorRef } from '../../src'
import { swapCapability } from '../../src/kit/capabilities/swapCapability'
import { swapGlue } from '../../src/kit/load/swap'
import type { AccountLogic } from '../../src/machines/kit/types'
import {
  type SwapActorRef,
  type SwapStatus,
  selectSwapAction,
  selectSwapProblem,
  selectSwapProgress,
  selectSwapStatus,
  swapSimulatedChanges,
  validateSwap,
} from '../../src/machines/swap'
import { KitRoot } from '../../src/react'
import { delayOf, isDelayEvent, type ModelPath } from '../../src/testing'
import { formatBalanceChange } from '../../src/utils/simulation'
import { pathsToReplay, startsWith } from './paths'
import { ALICE, INPUT, model, modelMachine, never, type Snapshot, short } from './swap.model'
import { Capture, offlineKitConfig } from './ui-kit'

/**
 * The swap machine's model-based paths (swap.model.ts), replayed through Swap, SwapSelectToken and SwapPreview
 * in the rendered kit. The visitor's steps are done with the views' controls where the view shown offers them
 * (typing the amount or the slippage, picking a token, Switch tokens, Max, Review swap, Approve/Swap, Cancel,
 * Edit, Back, Try again, Check again); the slots' answers go to the machine, and the machine's delays are time
 * passing on the kit's simulated clock. Anything else (a step the view shown does not offer: new balances, a
 * review the button rightly refuses, a slippage change during the preview) goes to the kit, which forwards
 * `swap.*` to the flow, and is counted. After every step the machine must be where the path says, and the view
 * must show what the machine says: which view, its progress line, its error text, the review button's label and
 * the action button's label and whether it can be pressed. The model's notices are checks, not emits, so a
 * success does not take the kit back to Account: the preview stays for the whole path.
 */
afterEach(cleanup)

type Way = 'ui' | 'kit' | 'machine' | 'time'

/**
 * The kit with the model's swap flow; its account machine never loads, so no balances of the (offline) Data API
 * reach the flow behind the path's back: the flow's balances are the model's.
 */
function renderKit() {
  const clock = new SimulatedClock()
  // The kit spawns the flow with its own input (the account connected, no pair chosen yet); the paths start
  // from the model's input (a pair and the account's balances), so the flow starts from it.
  const logic: typeof modelMachine = Object.create(modelMachine, {
    getInitialSnapshot: {
      value: (scope: unknown) => modelMachine.getInitialSnapshot(scope as never, INPUT),
    },
  })
  const machine = createKitMachine(
    offlineKitConfig(
      'swap-ui',
      { allWallets: false, email: false, socials: false, swaps: true },
      { chainId: 1 },
    ),
    {
      capabilities: [{ ...swapCapability, load: async (services) => ({ logic, glue: swapGlue(services) }) }],
    },
  ).provide({ actors: { loadAccount: fromPromise(never<AccountLogic>) } })
  let kit: KitActorRef | undefined
  render(
    <KitRoot machine={machine} options={{ clock }}>
      <Capture
        onActor={(actor) => {
          kit = actor
        }}
      />
    </KitRoot>,
  )
  if (!kit) throw new Error('kit actor not captured')
  const actor = kit
  const swap = () => {
    const ref = actor.system.get('swap') as SwapActorRef | undefined
    if (!ref) throw new Error('the swap flow is not running')
    return ref
  }
  return { kit: actor, clock, swap }
}
type Rendered = ReturnType<typeof renderKit>

const dialog = () => screen.getByRole('dialog')
const viewName = () => dialog().querySelector('[data-view]')?.getAttribute('data-view')
const viewRoot = () => dialog().querySelector('[data-view]') as HTMLElement
/** A control of the view shown, when it is there and can be pressed. */
function control(name: string | RegExp): HTMLElement | undefined {
  const found = within(viewRoot()).queryByRole('button', { name }) as HTMLButtonElement | null
  return found && !found.disabled ? found : undefined
}

/** Lets the kit's lazy loads and the views' effects settle. */
async function flush() {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

/** The view `name` is shown with its code loaded (no placeholder left). */
async function showView(name: string) {
  await waitFor(() => {
    expect(viewName()).toBe(name)
    expect(dialog().querySelector('.ws-loading')).toBeNull()
  })
}

/**
 * Connects an account (the kit's notice of it: a swap flow is for the account connected), opens the modal on
 * Account and goes on to Swap: the kit loads the model's swap flow. (The Account view's own Swap button needs
 * a wallet connection behind it, which this offline kit has not: its notice is enough for the swap region.)
 */
async function openSwap(rendered: Rendered) {
  const { kit } = rendered
  await act(async () => {
    kit.send({
      type: 'account.connected',
      account: { address: ALICE, addresses: [ALICE], chainId: 1, connectorId: 'injected' },
      method: 'browser',
      reconnected: true,
    })
    kit.send({ type: 'modal.open', view: 'Account' })
  })
  await showView('Account')
  await act(async () => {
    kit.send({ type: 'router.push', view: 'Swap' })
    await flush()
  })
  await waitFor(() => expect(kit.system.get('swap')).toBeDefined())
  await showView('Swap')
}

const FORM: readonly SwapStatus[] = ['editing', 'quoting', 'quoted', 'quoteFailed']

/** Picks a token on the form's `side` by its symbol in SwapSelectToken, which takes the visitor back. */
async function pickToken(side: 'pay' | 'receive', symbol: string): Promise<boolean> {
  const picker = control(new RegExp(`^Select token to ${side}`))
  if (!picker) return false
  await act(async () => {
    fireEvent.click(picker)
    await flush()
  })
  await showView('SwapSelectToken')
  const token = within(viewRoot()).getByRole('button', { name: symbol })
  await act(async () => {
    fireEvent.click(token)
    await flush()
  })
  await showView('Swap')
  return true
}

/** Types into a field of the form when that changes what it holds (an unchanged value is no input event). */
function type(label: string, value: string): boolean {
  const field = within(viewRoot()).queryByLabelText(label) as HTMLInputElement | null
  if (!field || field.disabled || field.value === value) return false
  fireEvent.change(field, { target: { value } })
  return true
}

/** A visitor's step through the view shown, when it offers it; false when it does not. */
async function throughUi(rendered: Rendered, event: AnyEventObject): Promise<boolean> {
  const snapshot = rendered.swap().getSnapshot()
  const status = selectSwapStatus(snapshot)
  const click = async (name: string | RegExp) => {
    const found = control(name)
    if (!found) return false
    await act(async () => {
      fireEvent.click(found)
      await flush()
    })
    return true
  }
  const typed = async (label: string, value: string) => {
    let done = false
    await act(async () => {
      done = type(label, value)
      await flush()
    })
    return done
  }
  const view = viewName()
  switch (event.type) {
    case 'swap.setAmount':
      return view === 'Swap' && typed('You pay', event.amount)
    case 'swap.setSlippage':
      return view === 'Swap' && typed('Max slippage (%)', String(event.slippage))
    case 'swap.selectFrom':
      return view === 'Swap' && pickToken('pay', event.token.symbol)
    case 'swap.selectTo':
      return view === 'Swap' && pickToken('receive', event.token.symbol)
    case 'swap.flip':
      return view === 'Swap' && click('Switch tokens')
    case 'swap.max':
      return view === 'Swap' && click('Max')
    case 'swap.review':
      return click('Review swap')
    case 'swap.confirm':
      return view === 'SwapPreview' && click(selectSwapAction(snapshot))
    case 'swap.retry':
      return (await click('Try again')) || click('Check again')
    case 'swap.cancel':
    case 'swap.back': {
      if (view !== 'SwapPreview') return false
      // In flight, Cancel stops the step (`swap.cancel`); elsewhere the preview's Cancel and Edit leave for the
      // form (`swap.back`, which the machine takes where it takes `swap.cancel`), and after a swap only Back is.
      if ((await click('Cancel')) || (await click('Edit'))) return true
      return status === 'done' && backInHeader()
    }
    default:
      return false
  }
}

/** The modal's Back: leaving the preview takes the machine back to the form. */
async function backInHeader() {
  await act(async () => {
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Back' }))
    await flush()
  })
  return true
}

/** One step of a path: through the view when it offers it, else as the path has it. */
async function perform(rendered: Rendered, event: AnyEventObject): Promise<Way> {
  const { kit, clock, swap } = rendered
  if (isDelayEvent(event)) {
    await act(async () => {
      clock.increment(delayOf(modelMachine, event, swap().getSnapshot()))
      await flush()
    })
    return 'time'
  }
  // A slot's answer, or a notice of the flow's transaction or batch (its child machines): to the flow itself.
  if (
    /^xstate\.(done|error)\.actor\./.test(event.type) ||
    event.type.startsWith('transaction.') ||
    event.type.startsWith('batch.')
  ) {
    await act(async () => {
      swap().send(event as never)
      await flush()
    })
    return 'machine'
  }
  if (await throughUi(rendered, event)) return 'ui'
  await act(async () => {
    kit.send(event as never)
    await flush()
  })
  return 'kit'
}

const texts = (elements: Element[]) => elements.map((element) => element.textContent?.trim() ?? '')
const buttonNamed = (name: string) =>
  within(viewRoot()).queryByRole('button', { name }) as HTMLButtonElement | null

/** The view shown says what the machine says. */
async function expectScreenMatches(snapshot: Snapshot) {
  const status = selectSwapStatus(snapshot)
  const { context } = snapshot
  // Past the form the preview shows; on the form, the preview only for what it offers there (a fresh quote,
  // its failure, a refreshed quote the balances cannot pay).
  const view = viewName()
  if (FORM.includes(status) || status === 'loading' || status === 'tokensFailed')
    expect(view === 'Swap' || (view === 'SwapPreview' && status !== 'editing')).toBe(true)
  else expect(view).toBe('SwapPreview')
  const root = viewRoot()
  const progress = texts(within(root).queryAllByRole('status'))
  const alerts = texts(within(root).queryAllByRole('alert'))

  if (view === 'Swap') {
    if (status === 'loading') {
      expect(progress).toEqual(['Loading tokens…'])
      return
    }
    if (status === 'tokensFailed') {
      expect(alerts).toEqual([context.error!.message])
      expect(buttonNamed('Try again')).not.toBeNull()
      return
    }
    expect(progress).toEqual([])
    const problem =
      selectSwapProblem(snapshot)?.shortMessage ??
      (status === 'editing' && context.amount.trim() !== '' ? validateSwap(context)?.shortMessage : undefined)
    const amount = within(root).getByLabelText('You pay') as HTMLInputElement
    expect(amount.value).toBe(context.amount)
    expect(
      within(root)
        .getByRole('button', { name: /^Select token to pay/ })
        .getAttribute('aria-label'),
    ).toBe(context.from ? `Select token to pay: ${context.from.symbol}` : 'Select token to pay')
    expect(
      within(root)
        .getByRole('button', { name: /^Select token to receive/ })
        .getAttribute('aria-label'),
    ).toBe(context.to ? `Select token to receive: ${context.to.symbol}` : 'Select token to receive')
    expect(root.textContent?.includes('Fetching quote…')).toBe(status === 'quoting')
    // The error is said once: by the review button when it is the form's problem, else as an alert.
    expect(alerts).toEqual(context.error && context.error.message !== problem ? [context.error.message] : [])
    if (status === 'quoteFailed') {
      expect(buttonNamed('Try again')?.disabled).toBe(false)
      expect(buttonNamed('Review swap')).toBeNull()
    } else {
      const review = within(root).getByRole('button', { name: problem ?? 'Review swap' }) as HTMLButtonElement
      expect(review.getAttribute('type')).toBe('submit')
      expect(review.disabled).toBe(status !== 'quoted' || problem !== undefined)
    }
    return
  }

  // SwapPreview
  if (status === 'done') {
    expect(root.textContent).toContain('Swapped.')
    expect(progress).toEqual([])
    expect(alerts).toEqual([])
    return
  }
  expect(root.querySelector('[data-stage]')?.getAttribute('data-stage')).toBe(status)
  const line = selectSwapProgress(snapshot)
  expect(progress).toEqual(line === undefined ? [] : [line])
  const failedNow = [
    'retryable',
    'refused',
    'disagrees',
    'unconfirmed',
    'unavailable',
    'quoteFailed',
  ].includes(status)
  // See before you sign: the simulated changes as signed amounts, only when the node simulated; no line else.
  const simulated = swapSimulatedChanges(context.simulation)
  expect(
    [...root.querySelectorAll('[data-testid="balance-change"]')].map((item) => item.textContent),
  ).toEqual(simulated ? simulated.map((change) => formatBalanceChange(change)) : [])
  const problem = selectSwapProblem(snapshot)?.shortMessage
  expect(alerts).toEqual([
    ...(context.error && failedNow ? [context.error.message] : []),
    ...(problem === undefined ? [] : [problem]),
  ])
  const inFlight = status === 'approving' || status === 'swapping'
  const action = within(root).queryByRole('button', {
    name: status === 'checking' ? 'Checking…' : selectSwapAction(snapshot),
  }) as HTMLButtonElement | null
  if (status === 'ready' || status === 'checking' || status === 'refreshing' || inFlight) {
    expect(action).not.toBeNull()
    expect(action!.disabled).toBe(status !== 'ready')
    expect(action!.getAttribute('aria-busy')).toBe(inFlight ? 'true' : null)
    expect(buttonNamed('Cancel') !== null).toBe(!inFlight || snapshot.can({ type: 'swap.cancel' }))
  } else {
    expect(within(root).queryByRole('button', { name: /^(Approve|Swap|Checking…)$/ })).toBeNull()
    expect(buttonNamed('Cancel')).toBeNull()
  }
  expect(root.textContent?.includes('Updating quote…')).toBe(status === 'refreshing')
  expect(buttonNamed('Review swap') !== null).toBe(status === 'quoted' && problem === undefined)
  expect(buttonNamed('Try again') !== null).toBe(
    status === 'retryable' ||
      status === 'refused' ||
      status === 'disagrees' ||
      status === 'unavailable' ||
      status === 'quoteFailed',
  )
  expect(buttonNamed('Check again') !== null).toBe(status === 'unconfirmed')
  expect(buttonNamed('Edit') !== null).toBe(
    ['quoted', 'retryable', 'refused', 'disagrees', 'unavailable', 'quoteFailed', 'unconfirmed'].includes(
      status,
    ),
  )
}

type Tally = Record<Way, number> & { visitor: number }

/** Replays a path in a freshly rendered kit; counts how each step went. */
async function replayInUi(path: ModelPath): Promise<Tally> {
  const rendered = renderKit()
  await openSwap(rendered)
  const tally: Tally = { ui: 0, kit: 0, machine: 0, time: 0, visitor: 0 }
  await expectScreenMatches(rendered.swap().getSnapshot())
  for (const [index, step] of path.steps.entries()) {
    const way = await perform(rendered, step.event)
    tally[way]++
    if (way === 'ui' || (way === 'kit' && step.event.type !== 'swap.setBalances')) tally.visitor++
    const snapshot = rendered.swap().getSnapshot()
    expect(model.serialize(snapshot), `step ${index + 1} (${step.event.type}, ${way})`).toBe(step.expected)
    // The slippage is no part of the state's identity: checked here.
    if (step.event.type === 'swap.setSlippage') expect(snapshot.context.slippage).toBe(step.event.slippage)
    const shown = viewName()
    if (shown === 'Swap' || shown === 'SwapPreview') await showView(shown)
    await expectScreenMatches(snapshot)
  }
  return tally
}

const tallies = new Map<ModelPath, Tally>()
/** Every covering path, alone or as the start of a longer one (paths.ts). */
const replayed = pathsToReplay(model.paths)

describe('swap: Swap, SwapSelectToken and SwapPreview through every path', () => {
  for (const path of replayed) {
    it(`shows ${short(path)}`, async () => {
      tallies.set(path, await replayInUi(path))
    })
  }

  it('drove the visitor’s steps through the views (every path replayed)', async () => {
    for (const path of model.paths) expect(replayed.some((longer) => startsWith(longer, path))).toBe(true)
    for (const path of replayed) {
      if (tallies.has(path)) continue
      tallies.set(path, await replayInUi(path))
      cleanup()
    }
    expect(tallies.size).toBe(replayed.length)
    const total: Tally = { ui: 0, kit: 0, machine: 0, time: 0, visitor: 0 }
    for (const tally of tallies.values())
      for (const key of Object.keys(total) as Array<keyof Tally>) total[key] += tally[key]
    const steps = total.ui + total.kit + total.machine + total.time
    expect(steps).toBe(replayed.reduce((n, path) => n + path.steps.length, 0))
    console.info(
      `swap UI replay: ${tallies.size} paths (the ${model.paths.length} covering paths, each alone or as the start of one), ` +
        `${steps} steps: ${total.ui} through the views, ${total.kit} to the kit, ` +
        `${total.machine} slot answers, ${total.time} delays on the clock`,
    )
    // Almost every visitor's step is a control of the view shown; the rest are ones it rightly does not offer.
    expect(total.ui / total.visitor).toBeGreaterThan(0.8)
  })
})
