// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fromPromise, SimulatedClock } from 'xstate'
import { createKitMachine, type KitActorRef, type KitFeatures } from '../../src'
import { NAME_CHECK_DEBOUNCE_MS } from '../../src/constants'
import { NameSuggestionsError } from '../../src/errors/names'
import { namesCapability } from '../../src/kit/capabilities/namesCapability'
import { namesGlue } from '../../src/kit/load/names'
import {
  type ConnectionAccount,
  connectionMachine,
  type ReconnectOutput,
} from '../../src/machines/connection'
import {
  NAME_RULE_MESSAGE,
  type NameRegisterRequest,
  type NameSignedRegistration,
  type NameSignRequest,
  type NameSuggestion,
  namesMachine,
  type RegisteredNameRecord,
} from '../../src/machines/names'
import { ConnectButton, KitRoot } from '../../src/react'
import { ACTIVITY_NAME_LOOKUPS_PER_PAGE } from '../../src/react/components/AccountDetails'
import { truncateAddress } from '../../src/utils/format'
import { Capture, offlineKitConfig } from './ui-kit'

/**
 * The name views (issue 20) over the real names machine, in the rendered kit: the machine's slots answer per test
 * (suggestions, the wallet's signature, the registration), its debounce is time on the kit's simulated clock, and
 * the Data API the Account view reads (the account's names, its activity) is a fake `fetch` that answers like the
 * sandbox. What the visitor sees is read by role and name, the names the tests outside the repo rely on (issue 20
 * item 4): Account's "Choose a name", `data-view="RegisterAccountName"` with a textbox "Name" and suggestions as
 * buttons, "Register", `data-view="RegisterAccountNameSuccess"`, and the name on Account afterwards.
 */

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const never = <T,>() => new Promise<T>(() => {})

/** A name record as the Data API answers it (the reverse look-up). */
const record = (name: string, address: string) => ({
  name,
  registered: 1_700_000_000_000,
  updated: 1_700_000_000_000,
  addresses: { '60': { address, created: 1_700_000_000_000 } },
  attributes: {},
})

/** The Data API as the sandbox answers it: names by address, one page of activity; every call is counted. */
class FakeDataApi {
  names = new Map<string, string[]>()
  history: unknown[] = []
  calls: string[] = []
  nameOf(address: string, ...names: string[]) {
    this.names.set(address.toLowerCase(), names)
  }
  fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    const path = url.pathname
    this.calls.push(path)
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    if (path === '/v1/supported-chains') return json({ http: ['eip155:31337'], ws: [] })
    const reverse = /^\/v1\/profile\/reverse\/([^/]+)$/.exec(path)
    if (reverse) {
      const address = decodeURIComponent(reverse[1]!)
      return json((this.names.get(address.toLowerCase()) ?? []).map((name) => record(name, address)))
    }
    const identity = /^\/v1\/identity\/([^/]+)$/.exec(path)
    if (identity) {
      const name = this.names.get(decodeURIComponent(identity[1]!).toLowerCase())?.[0] ?? null
      return json({ name, avatar: null })
    }
    if (/^\/v1\/account\/[^/]+\/history$/.test(path)) return json({ data: this.history, next: null })
    if (/^\/v1\/account\/[^/]+\/balance$/.test(path)) return json({ balances: [] })
    return json({ message: 'Not found' }, 404)
  }
  reverseLookups() {
    return this.calls
      .filter((path) => path.startsWith('/v1/profile/reverse/'))
      .map((path) => decodeURIComponent(path.slice('/v1/profile/reverse/'.length)).toLowerCase())
  }
}

let api: FakeDataApi
beforeEach(() => {
  api = new FakeDataApi()
  vi.stubGlobal('fetch', api.fetch)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** A settled-by-hand promise: the wallet's prompt and the API's answer arrive when the test says. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

interface Answers {
  suggestions: (label: string) => Promise<NameSuggestion[]>
  sign: (request: NameSignRequest) => Promise<NameSignedRegistration>
  register: (request: NameRegisterRequest) => Promise<RegisteredNameRecord>
}

/** What the suggestions call answers for `label` (the sandbox's shape): the label itself, then alternatives. */
function suggestionsFor(label: string, taken: ReadonlySet<string>): NameSuggestion[] {
  return [label, `${label}1`, `${label}-wallet`, `my-${label}`].map((l) => ({
    name: `${l}.reown.id`,
    registered: taken.has(l),
  }))
}

const SIGNED: NameSignedRegistration = {
  message: '{"name":"x","attributes":{},"timestamp":1}',
  signature: '0x1234',
  coinType: 2147514129,
}

const account: ConnectionAccount = {
  address: ALICE,
  addresses: [ALICE],
  chainId: 31337,
  connectorId: 'injected',
}

function renderKit(answers: Partial<Answers> = {}, features: Partial<KitFeatures> = {}) {
  const clock = new SimulatedClock()
  const asked: string[] = []
  const signed: NameSignRequest[] = []
  const registered: NameRegisterRequest[] = []
  // The host's QueryClient, which the kit adopts: the registration slot reads the account's data again in it.
  const queryClient = new QueryClient()
  const logic = namesMachine.provide({
    actors: {
      fetchSuggestions: fromPromise<NameSuggestion[], { label: string }>(async ({ input }) => {
        asked.push(input.label)
        return (answers.suggestions ?? (async (label) => suggestionsFor(label, new Set())))(input.label)
      }),
      signRegistration: fromPromise<NameSignedRegistration, NameSignRequest>(async ({ input }) => {
        signed.push(input)
        return (answers.sign ?? (async () => SIGNED))(input)
      }),
      registerName: fromPromise<RegisteredNameRecord, NameRegisterRequest>(async ({ input }) => {
        registered.push(input)
        const answer = await (answers.register ?? never<RegisteredNameRecord>)(input)
        // As src/actors/names.ts does: the account's names are read again once one is registered.
        void queryClient.invalidateQueries()
        return answer
      }),
    },
  })
  // A wallet connected before the page loaded: the connection reconnects to it.
  const connection = connectionMachine.provide({
    actors: {
      reconnect: fromPromise<ReconnectOutput>(async () => ({
        account,
        connections: { [account.connectorId]: { accounts: account.addresses, chainId: account.chainId } },
        recentWallets: [],
      })),
    },
  })
  const machine = createKitMachine(
    offlineKitConfig(
      'names-ui',
      { allWallets: false, email: false, socials: false, ...features },
      { chainId: 31337 },
    ),
    { capabilities: [{ ...namesCapability, load: async () => ({ logic, glue: namesGlue }) }] },
  ).provide({ actors: { connection } })
  let kit: KitActorRef | undefined
  render(
    <QueryClientProvider client={queryClient}>
      <KitRoot machine={machine} options={{ clock }}>
        <ConnectButton />
        <Capture
          onActor={(actor) => {
            kit = actor
          }}
        />
      </KitRoot>
    </QueryClientProvider>,
  )
  if (!kit) throw new Error('kit actor not captured')
  return { kit, clock, asked, signed, registered }
}
type Rendered = ReturnType<typeof renderKit>

const dialog = () => screen.getByRole('dialog')
const shown = () => dialog().querySelector('[data-view]') as HTMLElement
const nameBox = () => within(shown()).getByRole('textbox', { name: 'Name' }) as HTMLInputElement
const registerButton = () =>
  within(shown()).getByRole('button', {
    name: /^(Register|Confirm in your wallet|Registering…)$/,
  }) as HTMLButtonElement
const statusLine = () => within(shown()).getByRole('status')
async function flush() {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}
async function showView(name: string) {
  await waitFor(() => {
    expect(shown().getAttribute('data-view')).toBe(name)
    expect(dialog().querySelector('.ws-loading')).toBeNull()
  })
}

/** The host button, once it shows the connected account. */
const hostButton = () =>
  screen.getByRole('button', { name: new RegExp(`^${truncateAddress(ALICE).replace(/\./g, '\\.')}`) })

/** Opens Account from the host button; it offers "Choose a name" once the look-ups found none. */
async function openAccount() {
  await waitFor(() => expect(hostButton()).toBeDefined())
  await act(async () => {
    fireEvent.click(hostButton())
    await flush()
  })
  await showView('Account')
}

async function chooseName(rendered: Rendered) {
  await openAccount()
  const choose = await within(shown()).findByRole('button', { name: 'Choose a name' })
  await act(async () => {
    fireEvent.click(choose)
    await flush()
  })
  await waitFor(() => expect(rendered.kit.system.get('names')).toBeDefined())
  await showView('RegisterAccountName')
}

async function typeName({ clock }: Rendered, value: string) {
  await act(async () => {
    fireEvent.change(nameBox(), { target: { value } })
    await flush()
    clock.increment(NAME_CHECK_DEBOUNCE_MS)
    await flush()
  })
}

describe('RegisterAccountName and RegisterAccountNameSuccess over the names machine', () => {
  it('default: Choose a name → a free name → Register (the wallet signs) → success → Account shows the name', async () => {
    const sign = deferred<NameSignedRegistration>()
    const register = deferred<RegisteredNameRecord>()
    const rendered = renderKit({ sign: () => sign.promise, register: () => register.promise })
    await chooseName(rendered)
    // The suffix is beside the textbox (its description), not in its name.
    expect(nameBox().getAttribute('aria-describedby')).toBeTruthy()
    expect(within(shown()).getByText('.reown.id')).toBeDefined()
    expect(registerButton().disabled).toBe(true)

    await typeName(rendered, 'Alice')
    await waitFor(() => expect(statusLine().textContent).toBe('alice.reown.id is available'))
    expect(statusLine().getAttribute('aria-live')).toBe('polite')
    expect(rendered.asked).toEqual(['alice'])
    expect(registerButton().disabled).toBe(false)

    await act(async () => {
      fireEvent.click(registerButton())
      await flush()
    })
    expect(registerButton().textContent).toBe('Confirm in your wallet')
    // It keeps the focus while the wallet asks, and does nothing.
    expect(registerButton().getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(registerButton())
    expect(rendered.signed).toHaveLength(1)
    expect(rendered.signed).toEqual([{ address: ALICE, chainId: 31337, name: 'alice.reown.id' }])
    expect(nameBox().readOnly).toBe(true)

    await act(async () => {
      sign.resolve(SIGNED)
      await flush()
    })
    expect(registerButton().textContent).toBe('Registering…')
    expect(registerButton().getAttribute('aria-busy')).toBe('true')
    expect(rendered.registered).toEqual([
      { address: ALICE, coinType: SIGNED.coinType, message: SIGNED.message, signature: SIGNED.signature },
    ])

    // The API now holds the name: the kit reads the account's names again once it is registered.
    api.nameOf(ALICE, 'alice.reown.id')
    await act(async () => {
      register.resolve({ name: 'alice.reown.id' })
      await flush()
    })
    await showView('RegisterAccountNameSuccess')
    expect(within(shown()).getByTestId('registered-name').textContent).toBe('alice.reown.id is yours')
    await act(async () => {
      fireEvent.click(within(shown()).getByRole('button', { name: 'Back to account' }))
      await flush()
    })
    await showView('Account')
    await waitFor(() =>
      expect(within(shown()).getByTestId('account-profile-name').textContent).toBe('alice.reown.id'),
    )
    expect(within(shown()).queryByRole('button', { name: 'Choose a name' })).toBeNull()
  })

  it('parameters: features.names off: Account offers no "Choose a name"', async () => {
    renderKit({}, { names: false })
    await openAccount()
    await waitFor(() => expect(api.reverseLookups()).toContain(ALICE.toLowerCase()))
    await act(flush)
    expect(within(shown()).getByTestId('account-total')).toBeDefined()
    expect(within(shown()).queryByRole('button', { name: 'Choose a name' })).toBeNull()
  })

  it('behavior: a name against SPEC §5 shows the rule, asks nothing, and cannot be registered', async () => {
    const rendered = renderKit()
    await chooseName(rendered)
    for (const value of ['ali', 'al ice', 'alice_1']) {
      await typeName(rendered, value)
      expect(within(shown()).getByTestId('name-rule').textContent).toBe(NAME_RULE_MESSAGE)
      expect(nameBox().getAttribute('aria-invalid')).toBe('true')
      // The rule describes the textbox, so a screen reader hears it there.
      const described = nameBox().getAttribute('aria-describedby')!.split(' ')
      expect(described).toContain(within(shown()).getByTestId('name-rule').id)
      expect(registerButton().disabled).toBe(true)
    }
    expect(rendered.asked).toEqual([])
    await typeName(rendered, 'alice.wcn.id')
    expect(within(shown()).getByTestId('name-rule').textContent).toMatch(/\.wcn\.id/)
    await typeName(rendered, 'alice')
    expect(within(shown()).queryByTestId('name-rule')).toBeNull()
    expect(nameBox().getAttribute('aria-invalid')).toBeNull()
  })

  it('behavior: a taken name offers free names as buttons; picking one checks it and Register is enabled', async () => {
    const rendered = renderKit({ suggestions: async (label) => suggestionsFor(label, new Set(['alice'])) })
    await chooseName(rendered)
    await typeName(rendered, 'alice')
    await waitFor(() => expect(statusLine().textContent).toBe('alice.reown.id is taken'))
    expect(registerButton().disabled).toBe(true)
    const suggestions = within(shown()).getByRole('region', { name: 'Available names' })
    const buttons = within(suggestions).getAllByRole('button')
    expect(buttons.map((b) => b.textContent)).toEqual([
      'alice1.reown.id',
      'alice-wallet.reown.id',
      'my-alice.reown.id',
    ])
    await act(async () => {
      fireEvent.click(buttons[1]!)
      await flush()
      rendered.clock.increment(NAME_CHECK_DEBOUNCE_MS)
      await flush()
    })
    expect(nameBox().value).toBe('alice-wallet')
    expect(document.activeElement).toBe(nameBox())
    await waitFor(() => expect(statusLine().textContent).toBe('alice-wallet.reown.id is available'))
    expect(rendered.asked).toEqual(['alice', 'alice-wallet'])
    expect(registerButton().disabled).toBe(false)
    expect(within(shown()).queryByRole('region', { name: 'Available names' })).toBeNull()
  })

  it('behavior: the wallet refuses: back on the form with the error, the typed name kept, Register again', async () => {
    const rendered = renderKit({
      sign: async () => {
        throw new Error('User rejected the request.')
      },
    })
    await chooseName(rendered)
    await typeName(rendered, 'Alice')
    await waitFor(() => expect(registerButton().disabled).toBe(false))
    await act(async () => {
      fireEvent.click(registerButton())
      await flush()
    })
    await waitFor(() =>
      expect(within(shown()).getByRole('alert').textContent).toBe('Error registering name alice.reown.id'),
    )
    expect(shown().getAttribute('data-view')).toBe('RegisterAccountName')
    expect(nameBox().value).toBe('Alice')
    expect(registerButton().textContent).toBe('Register')
    expect(registerButton().disabled).toBe(false)
  })

  it('behavior: the API refuses the registration: the same, after the signature', async () => {
    const rendered = renderKit({
      register: async () => {
        throw new Error('Name is already registered')
      },
    })
    await chooseName(rendered)
    await typeName(rendered, 'alice')
    await waitFor(() => expect(registerButton().disabled).toBe(false))
    await act(async () => {
      fireEvent.click(registerButton())
      await flush()
    })
    await waitFor(() =>
      expect(within(shown()).getByRole('alert').textContent).toBe('Error registering name alice.reown.id'),
    )
    expect(rendered.signed).toHaveLength(1)
    expect(rendered.registered).toHaveLength(1)
    expect(nameBox().value).toBe('alice')
  })

  it('behavior: the suggestions call fails: its error and Try again, which checks again', async () => {
    let fail = true
    const rendered = renderKit({
      suggestions: async (label) => {
        if (fail) throw new NameSuggestionsError()
        return suggestionsFor(label, new Set())
      },
    })
    await chooseName(rendered)
    await typeName(rendered, 'alice')
    await waitFor(() =>
      expect(within(shown()).getByRole('alert').textContent).toBe('Error fetching name suggestions'),
    )
    expect(registerButton().disabled).toBe(true)
    fail = false
    await act(async () => {
      fireEvent.click(within(shown()).getByRole('button', { name: 'Try again' }))
      await flush()
    })
    await waitFor(() => expect(statusLine().textContent).toBe('alice.reown.id is available'))
    expect(within(shown()).queryByRole('alert')).toBeNull()
    expect(rendered.asked).toEqual(['alice', 'alice'])
  })
})

describe('names where an address is shown', () => {
  it('the host button: the truncated address, and its accessible name says the account’s name beside it', async () => {
    api.nameOf(ALICE, 'alice.reown.id', 'alice-old.reown.id')
    renderKit()
    const short = truncateAddress(ALICE)
    await waitFor(() =>
      expect(screen.getByRole('button', { name: `${short} (alice.reown.id)` })).toBeDefined(),
    )
    // What it shows is still the address alone.
    expect(hostButton().textContent).toBe(short)
  })

  it('the host button without a name: the truncated address alone', async () => {
    renderKit()
    const short = truncateAddress(ALICE)
    await waitFor(() => expect(api.reverseLookups()).toContain(ALICE.toLowerCase()))
    await flush()
    expect(screen.getByRole('button', { name: short })).toBeDefined()
  })

  it('Activity: a counterparty shows its name beside its address; a bounded number of look-ups per page', async () => {
    const others = Array.from(
      { length: ACTIVITY_NAME_LOOKUPS_PER_PAGE + 3 },
      (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`,
    )
    const BOB = others[0]!
    api.nameOf(BOB, 'bob.reown.id')
    api.history = others.map((from, i) => ({
      id: `tx${i}`,
      metadata: {
        operationType: 'receive',
        hash: `0x${(i + 1).toString(16).padStart(64, '0')}`,
        minedAt: '2026-01-01T00:00:00.000Z',
        sentFrom: from,
        sentTo: ALICE,
        status: 'confirmed',
      },
      transfers: [
        { fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'in', quantity: { numeric: '1' } },
      ],
    }))
    renderKit()
    await openAccount()
    await act(async () => {
      fireEvent.click(await within(shown()).findByRole('tab', { name: 'Activity' }))
      await flush()
    })
    const items = await within(shown()).findAllByTestId('activity-item')
    expect(items).toHaveLength(others.length)
    await waitFor(() =>
      expect(within(items[0]!).getByTestId('activity-counterparty').textContent).toBe(
        `From bob.reown.id (${truncateAddress(BOB)})`,
      ),
    )
    expect(within(items[1]!).getByTestId('activity-counterparty').textContent).toBe(
      `From ${truncateAddress(others[1]!)}`,
    )
    // The account's own look-up, and the first few counterparties of the page: never one per row.
    const counterparties = api.reverseLookups().filter((address) => address !== ALICE.toLowerCase())
    expect(new Set(counterparties)).toEqual(new Set(others.slice(0, ACTIVITY_NAME_LOOKUPS_PER_PAGE)))
    expect(counterparties).toHaveLength(ACTIVITY_NAME_LOOKUPS_PER_PAGE)
  })
})
