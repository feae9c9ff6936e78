// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { fromCallback, fromPromise, SimulatedClock } from 'xstate'
import { createKitMachine, type KitActorRef } from '../../src'
import {
  ONRAMP_POLL_INTERVAL_MS,
  ONRAMP_PROCESSING_TIMEOUT_MS,
  ONRAMP_QUOTE_DEBOUNCE_MS,
} from '../../src/constants'
import { OnrampOptionsError, OnrampQuoteError } from '../../src/errors/onramp'
import { onrampCapability } from '../../src/kit/capabilities/onrampCapability'
import { onrampGlue } from '../../src/kit/load/onramp'
import type { AccountLogic } from '../../src/machines/kit/types'
import {
  type OnrampEvent,
  type OnrampOptions,
  type OnrampOrder,
  type OnrampPartnerCommand,
  type OnrampPartnerInput,
  type OnrampQuote,
  type OnrampQuoteRequest,
  onrampMachine,
} from '../../src/machines/onramp'
import { KitRoot } from '../../src/react'
import { sampleOnrampOptions } from '../../src/utils/onrampSamples'
import { Capture, offlineKitConfig } from './ui-kit'

/**
 * The Buy views (issue 19) over the real onramp machine, rendered in the kit: the slots are recorders that answer
 * per test (options, one quote per provider, the provider's orders, a partner window that reports back), the
 * machine's delays are time on the kit's simulated clock. What the visitor sees is read from the views by role
 * and name, the names the e2e relies on: the "Amount" textbox, a button per provider, the limits as an alert.
 */
afterEach(cleanup)

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const never = <T,>() => new Promise<T>(() => {})
/** True only while a click is being dispatched (fireEvent dispatches synchronously). */
let clicking = false
function click(element: HTMLElement) {
  clicking = true
  try {
    fireEvent.click(element)
  } finally {
    clicking = false
  }
}

interface Answers {
  options: () => Promise<OnrampOptions>
  quote: (request: OnrampQuoteRequest) => Promise<OnrampQuote>
  orders: OnrampOrder[][]
}

function quoteFor(request: OnrampQuoteRequest, fee: string, purchase: string): OnrampQuote {
  return {
    quoteId: `${request.provider}-q`,
    paymentTotal: { amount: request.amount, currency: request.paymentCurrency },
    paymentSubtotal: { amount: request.amount, currency: request.paymentCurrency },
    fee: { amount: fee, currency: request.paymentCurrency },
    purchaseAmount: { amount: purchase, currency: request.purchaseCurrency },
  }
}

function renderBuy(answers: Answers) {
  const clock = new SimulatedClock()
  const quotes: OnrampQuoteRequest[] = []
  /** The partner windows: whether each was opened during a click's dispatch, and where it was sent. */
  const windows: Array<{ inClick: boolean; url: string | undefined; close: () => void }> = []
  const logic = onrampMachine.provide({
    actors: {
      fetchOptions: fromPromise(answers.options),
      fetchQuote: fromPromise<OnrampQuote, OnrampQuoteRequest>(async ({ input }) => {
        quotes.push(input)
        return answers.quote(input)
      }),
      generateUrl: fromPromise(async () => 'http://127.0.0.1:9/order/abc'),
      openPartner: fromCallback<OnrampPartnerCommand, OnrampPartnerInput>(({ sendBack, receive }) => {
        const opened = {
          inClick: clicking,
          url: undefined as string | undefined,
          close: () => sendBack({ type: 'onramp.partnerClosed' } satisfies OnrampEvent),
        }
        windows.push(opened)
        receive((command) => {
          opened.url = command.url
          sendBack({ type: 'onramp.partnerOpened' } satisfies OnrampEvent)
        })
      }),
      fetchPurchases: fromPromise(async () => answers.orders.shift() ?? []),
    },
  })
  const machine = createKitMachine(
    offlineKitConfig('onramp-ui', { allWallets: false, email: false, socials: false }, { chainId: 31337 }),
    {
      capabilities: [
        { ...onrampCapability, load: async (services) => ({ logic, glue: onrampGlue(services) }) },
      ],
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
  return { kit, clock, quotes, windows }
}

const dialog = () => screen.getByRole('dialog')
const shown = () => dialog().querySelector('[data-view]') as HTMLElement
async function flush() {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}
async function showView(name: string) {
  await waitFor(() => {
    expect(shown().getAttribute('data-view')).toBe(name)
    expect(dialog().querySelector('.ws-loading')).toBeNull()
  })
}

async function openBuy({ kit }: ReturnType<typeof renderBuy>) {
  await act(async () => {
    kit.send({
      type: 'account.connected',
      account: { address: ALICE, addresses: [ALICE], chainId: 31337, connectorId: 'injected' },
      method: 'browser',
      reconnected: true,
    })
    kit.send({ type: 'modal.open', view: 'Account' })
    kit.send({ type: 'router.push', view: 'OnRampProviders' })
    await flush()
  })
  await showView('OnRampProviders')
}

async function typeAmount({ clock }: ReturnType<typeof renderBuy>, amount: string) {
  await act(async () => {
    fireEvent.change(within(shown()).getByRole('textbox', { name: 'Amount' }), { target: { value: amount } })
    await flush()
    clock.increment(ONRAMP_QUOTE_DEBOUNCE_MS)
    await flush()
  })
}

const provider = (name: string) => within(shown()).getByRole('button', { name }) as HTMLButtonElement

describe('the Buy views over the onramp machine', () => {
  it('quotes each provider for the amount and payment method; the limits refuse an amount, with no provider to press', async () => {
    const rendered = renderBuy({
      options: async () => sampleOnrampOptions(31337),
      quote: async (request) =>
        request.provider === 'coinbase'
          ? quoteFor(request, '0.50', '49.5')
          : quoteFor(request, '0.95', '49.05'),
      orders: [],
    })
    await openBuy(rendered)
    await typeAmount(rendered, '5')
    expect(within(shown()).getByRole('alert').textContent).toBe(
      'Enter an amount between $10.00 and $7,500.00',
    )
    expect(within(shown()).getByRole('textbox', { name: 'Amount' }).getAttribute('aria-invalid')).toBe('true')
    expect(provider('Coinbase').disabled).toBe(true)
    expect(provider('Meld').disabled).toBe(true)
    expect(rendered.quotes).toEqual([])

    await typeAmount(rendered, '50')
    await waitFor(() => expect(provider('Coinbase').disabled).toBe(false))
    expect(within(shown()).queryByRole('alert')).toBeNull()
    expect(rendered.quotes.map((q) => [q.provider, q.amount, q.paymentMethod])).toEqual([
      ['coinbase', '50.00', 'card'],
      ['meld', '50.00', 'card'],
    ])
    // Each provider's button is named by the provider; its quote describes it.
    const described = (name: string) =>
      document.getElementById(provider(name).getAttribute('aria-describedby')!)?.textContent
    expect(described('Coinbase')).toBe('You get 49.5 USDC · fee $0.50 · total $50.00')
    expect(described('Meld')).toBe('You get 49.05 USDC · fee $0.95 · total $50.00')
    expect(within(shown()).queryByRole('note')).toBeNull()
  })

  it('with the options and quotes failing, the samples and estimates are marked as estimates', async () => {
    const rendered = renderBuy({
      options: async () => {
        throw new OnrampOptionsError()
      },
      quote: async () => {
        throw new OnrampQuoteError()
      },
      orders: [],
    })
    await openBuy(rendered)
    expect(within(shown()).getByRole('note').textContent).toContain('estimates')
    await typeAmount(rendered, '50')
    await waitFor(() => expect(provider('Coinbase').disabled).toBe(false))
    const note = document.getElementById(provider('Coinbase').getAttribute('aria-describedby')!)?.textContent
    expect(note).toMatch(/^Estimate: you get about 49\.5 USDC · fee \$0\.50/)
  })

  it('choosing a provider shows the purchase until it lands; a window closed without paying offers Try again', async () => {
    const rendered = renderBuy({
      options: async () => sampleOnrampOptions(31337),
      quote: async (request) => quoteFor(request, '0.20', '19.8'),
      // The baseline, then the last read after the window closed: nothing new.
      orders: [[], []],
    })
    await openBuy(rendered)
    await typeAmount(rendered, '20')
    await waitFor(() => expect(provider('Coinbase').disabled).toBe(false))
    await act(async () => {
      click(provider('Coinbase'))
      await flush()
    })
    // (Its progress line is a spinner of its own: the view is there once its status says so.)
    await waitFor(() => expect(shown().getAttribute('data-view')).toBe('OnRampPurchase'))
    await waitFor(() => expect(within(shown()).getByRole('status').textContent).toMatch(/Coinbase window/))
    // Issue 33: opened while the click was dispatched (the kit forwards the choice synchronously), then sent.
    expect(rendered.windows.map((w) => [w.inClick, w.url])).toEqual([[true, 'http://127.0.0.1:9/order/abc']])
    await act(async () => {
      rendered.windows[0]!.close()
      await flush()
    })
    await waitFor(() =>
      expect(within(shown()).getByRole('alert').textContent).toBe('The purchase was not completed'),
    )
    await act(async () => {
      fireEvent.click(within(shown()).getByRole('button', { name: 'Try again' }))
      await flush()
    })
    await showView('OnRampProviders')
    expect((within(shown()).getByRole('textbox', { name: 'Amount' }) as HTMLInputElement).value).toBe('20')
  })

  // Issue 33: a new order still pending when the window closes is processing, not "not completed"; the view says
  // so and the kit reads it on until the partner confirms it (the "Purchase complete" toast, DESIGN.md).
  it('a window closed while the order is pending shows processing, then the purchase when it is confirmed', async () => {
    const pending: OnrampOrder = { id: 'n1', status: 'pending', amount: '19.8', symbol: 'USDC', hash: '' }
    const rendered = renderBuy({
      options: async () => sampleOnrampOptions(31337),
      quote: async (request) => quoteFor(request, '0.20', '19.8'),
      orders: [[], [pending], [pending], [{ ...pending, status: 'confirmed', hash: `0x${'ab'.repeat(32)}` }]],
    })
    await openBuy(rendered)
    await typeAmount(rendered, '20')
    await waitFor(() => expect(provider('Coinbase').disabled).toBe(false))
    await act(async () => {
      click(provider('Coinbase'))
      await flush()
    })
    await waitFor(() => expect(within(shown()).getByRole('status').textContent).toMatch(/Coinbase window/))
    await act(async () => {
      rendered.windows[0]!.close()
      await flush()
    })
    await waitFor(() =>
      expect(within(shown()).getByRole('status').textContent).toBe(
        'Your payment is being processed by Coinbase. Waiting for the tokens to arrive…',
      ),
    )
    expect(within(shown()).queryByRole('alert')).toBeNull()
    for (let i = 0; i < 2; i++)
      await act(async () => {
        rendered.clock.increment(ONRAMP_POLL_INTERVAL_MS)
        await flush()
      })
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
        'Purchase complete: received 19.8 USDC',
      ),
    )
  })

  it('past the processing time limit, says the purchase may still complete and where to look', async () => {
    const pending: OnrampOrder = { id: 'n1', status: 'pending', amount: '19.8', symbol: 'USDC', hash: '' }
    const rendered = renderBuy({
      options: async () => sampleOnrampOptions(31337),
      quote: async (request) => quoteFor(request, '0.20', '19.8'),
      orders: [[], [pending], [pending]],
    })
    await openBuy(rendered)
    await typeAmount(rendered, '20')
    await waitFor(() => expect(provider('Coinbase').disabled).toBe(false))
    await act(async () => {
      click(provider('Coinbase'))
      await flush()
    })
    await waitFor(() => expect(within(shown()).getByRole('status').textContent).toMatch(/Coinbase window/))
    await act(async () => {
      rendered.windows[0]!.close()
      await flush()
    })
    await waitFor(() => expect(within(shown()).getByRole('status').textContent).toMatch(/being processed/))
    await act(async () => {
      rendered.clock.increment(ONRAMP_PROCESSING_TIMEOUT_MS)
      await flush()
    })
    await waitFor(() =>
      expect(within(shown()).getByRole('status').textContent).toBe(
        'Your purchase with Coinbase is still being processed and may still complete. Check Activity in a few minutes, or your order with Coinbase, before buying again.',
      ),
    )
    expect(within(shown()).getByRole('button', { name: 'Back to account' })).toBeTruthy()
  })
})
