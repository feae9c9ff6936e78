// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { getAddress } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SimulatedClock } from 'xstate'
import { createKitMachine, type KitActorRef } from '../../src'
import type { KitFeatures } from '../../src/config'
import {
  EMAIL_LOGIN_COOLDOWN_MS,
  EMBEDDED_LOAD_AFTER_OPEN_MS,
  FARCASTER_RELOAD_DELAY_MS,
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_READY_DELAY_MS,
  TOAST_RESHOW_MS,
} from '../../src/constants'
import { FakeFrame, type FakeFrameAccount, FakeSocialPopup } from '../../src/frame/fakeFrame'
import { frameRpc } from '../../src/frame/rpc'
import type { FrameActorRef } from '../../src/machines/frame'
import { selectCapability } from '../../src/machines/kit'
import { ConnectButton, KitRoot } from '../../src/react'
import { memoryStorage } from '../../src/storage'
import { truncateAddress } from '../../src/utils/format'
import { Capture, offlineKitConfig } from './ui-kit'

/**
 * The embedded wallet's views, rendered in the real kit with the real frame machine. Only the login frame
 * itself is the in-memory `FakeFrame` (and the social popup its stand-in): it answers by its own rules (codes
 * it mails, devices it trusts, requests it holds until the visitor decides), never what a test asks for. The
 * visitor's side is done through the rendered controls, found by their accessible names.
 */
const fakes = vi.hoisted(() => ({
  current: undefined as
    | {
        frame: import('../../src/frame/fakeFrame').FakeFrame
        clock: import('xstate').SimulatedClock
        popup: import('../../src/frame/fakeFrame').FakeSocialPopup
      }
    | undefined,
}))

// The kit loads its embedded wallet on demand; here that code runs with the fake frame behind its transport.
vi.mock('../../src/embedded/load', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/embedded/load')>()
  const { frameMachine } = await import('../../src/machines/frame')
  return {
    ...actual,
    createEmbeddedWallet: (store: Parameters<typeof actual.createEmbeddedWallet>[0]) => {
      const real = actual.createEmbeddedWallet(store)
      const current = fakes.current
      if (!current) throw new Error('no fake frame for this test')
      const logic = frameMachine.provide({
        actors: {
          transport: current.frame.transport(),
          socialPopup: current.popup.logic(),
          persistence: actual.framePersistence(store),
        },
      })
      // The kit spawns the frame with its own input; the frame's clock (`input.now`) is the test's.
      const onClock: typeof logic = Object.create(logic, {
        getInitialSnapshot: {
          value: (scope: unknown, input: object) =>
            logic.getInitialSnapshot(scope as never, { ...input, now: () => current.clock.now() } as never),
        },
      })
      return { ...real, logic: onClock }
    },
  }
})

const ALICE = 'alice@example.com'

afterEach(() => {
  cleanup()
  fakes.current = undefined
})

function renderKit(
  accounts: FakeFrameAccount[] = [{ email: ALICE, trustedDevice: true }],
  features: Partial<KitFeatures> = {},
) {
  const frame = new FakeFrame(accounts)
  const popup = new FakeSocialPopup()
  const clock = new SimulatedClock()
  fakes.current = { frame, popup, clock }
  // A kit per test: each loads its own embedded wallet (and so its own fake frame).
  const machine = createKitMachine({
    ...offlineKitConfig('frame-ui', { allWallets: false, ...features }, { chainId: 1 }),
    storage: memoryStorage(),
  })
  let kit: KitActorRef | undefined
  render(
    <KitRoot machine={machine} options={{ clock }}>
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
  const frameActor = () => actor.system.get('frame') as FrameActorRef | undefined
  return {
    kit: actor,
    frame,
    popup,
    clock,
    frameActor,
    /** Time passes on the kit's clock (the frame's delays and the cooldown run on it). */
    advance: async (ms: number) => {
      await act(async () => {
        clock.increment(ms)
        await flush()
      })
    },
  }
}
type Rendered = ReturnType<typeof renderKit>

/** Lets the fake frame's answers (microtasks) and the kit's lazy loads settle. */
async function flush() {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

const dialog = () => screen.getByRole('dialog')
const view = () => dialog().querySelector('[data-view]')?.getAttribute('data-view')
const button = (name: string) => within(dialog()).getByRole('button', { name }) as HTMLButtonElement
const textbox = (name: string) => within(dialog()).getByRole('textbox', { name }) as HTMLInputElement
const alertText = () => within(dialog()).getByRole('alert').textContent
const type = (input: HTMLInputElement, value: string) => fireEvent.change(input, { target: { value } })

async function showView(name: string) {
  await waitFor(() => expect(view()).toBe(name))
  // The lazy view's code has arrived (its placeholder is gone).
  await waitFor(() => expect(dialog().querySelector('.ws-loading')).toBeNull())
}

/**
 * Opens the modal, where the login frame is not loaded (issue 14: it loads on the visitor's intent), even
 * with the e-mail field focused; the pointer over the e-mail form loads it.
 */
async function openConnect(r: Rendered) {
  fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }))
  await showView('Connect')
  await r.advance(EMBEDDED_LOAD_AFTER_OPEN_MS)
  // Tab passing through the e-mail field is not intent either (a typed character is).
  const email = within(dialog()).queryByRole('textbox', { name: 'Email' })
  if (email) fireEvent.keyDown(email, { key: 'Tab' })
  await act(flush)
  expect(r.frameActor()).toBeUndefined()
  expect(selectCapability(r.kit.getSnapshot(), 'embedded')).toBe('idle')
  expect(within(dialog()).queryByRole('status')).toBeNull()
}

/** Opens the modal, turns to the e-mail form and waits for the frame: loading (Continue disabled, a status says so), then ready. */
async function openReady(r: Rendered) {
  await openConnect(r)
  fireEvent.pointerEnter(textbox('Email'))
  expect(button('Continue').disabled).toBe(true)
  expect(within(dialog()).getByRole('status').textContent).toContain('Loading…')
  await waitFor(() => expect(r.frameActor()?.getSnapshot().hasTag('loading')).toBe(true))
  await act(flush)
  await r.advance(FRAME_READY_DELAY_MS)
  await waitFor(() => expect(button('Continue').disabled).toBe(false))
  expect(within(dialog()).queryByRole('status')).toBeNull()
}

async function submitEmail(email = ALICE) {
  type(textbox('Email'), email)
  fireEvent.click(button('Continue'))
}

async function enterCode(code: string) {
  type(textbox('Code'), code)
  fireEvent.click(button('Continue'))
}

async function expectConnected(r: Rendered) {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  await waitFor(() =>
    expect(screen.getByRole('button', { name: /\.\.\./ }).textContent).toBe(shownAddress(r)),
  )
}

/** The address as the host's button shows it (checksummed, truncated). */
const shownAddress = (r: Rendered) => truncateAddress(getAddress(r.frame.user()!.address))

async function logInByEmail(r: Rendered) {
  await openReady(r)
  await submitEmail()
  await showView('EmailVerifyOtp')
  await enterCode(r.frame.codeFor(ALICE)!)
  await expectConnected(r)
}

describe('Connect: e-mail and socials', () => {
  it('default: the methods in the SPEC order, e-mail first, the social buttons by name, the wallets last', async () => {
    const r = renderKit()
    await openReady(r)
    const email = textbox('Email')
    // The first field has the focus.
    expect(document.activeElement).toBe(email)
    const socials = within(dialog()).getByRole('list', { name: 'Log in with' })
    expect(
      within(socials)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Google', 'X', 'Discord', 'Farcaster', 'GitHub', 'Apple', 'Facebook'])
    for (const name of ['Google', 'X', 'Discord', 'Farcaster', 'GitHub', 'Apple', 'Facebook']) {
      expect(button(name).getAttribute('aria-disabled')).toBeNull()
      // Each shows its provider's mark (a decorative drawing, no letter placeholder).
      const mark = button(name).querySelector('svg')
      expect(mark?.getAttribute('aria-hidden')).toBe('true')
      expect(mark?.querySelectorAll('path[d]').length).toBeGreaterThan(0)
    }
    const wallets = within(dialog()).getByRole('list', { name: 'Wallets' })
    const order = [email, socials, wallets]
    for (let i = 1; i < order.length; i++)
      expect(order[i - 1]!.compareDocumentPosition(order[i]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('parameters: connectMethodsOrder and the social list: wallets first, only the listed providers, no e-mail', async () => {
    const r = renderKit(undefined, {
      email: false,
      socials: ['github', 'farcaster'],
      connectMethodsOrder: ['wallet', 'social', 'email'],
    })
    await openConnect(r)
    expect(within(dialog()).queryByRole('textbox', { name: 'Email' })).toBeNull()
    const socials = within(dialog()).getByRole('list', { name: 'Log in with' })
    const names = within(socials)
      .getAllByRole('button')
      .map((b) => b.textContent)
    expect(names).toEqual(['GitHub', 'Farcaster'])
    // Focusing a social button (the keyboard's way there) loads the frame; the button keeps its focus and is
    // unavailable (aria-disabled), with the frame's status under the buttons, until the frame is ready.
    act(() => button('GitHub').focus())
    expect(document.activeElement).toBe(button('GitHub'))
    expect(button('GitHub').getAttribute('aria-disabled')).toBe('true')
    expect(within(dialog()).getByRole('status').textContent).toContain('Loading…')
    // A click while it loads is kept: that login starts once the frame is ready, with no second click.
    fireEvent.click(button('GitHub'))
    expect(r.popup.started).toEqual([])
    expect(button('GitHub').getAttribute('aria-busy')).toBe('true')
    const wallets = within(dialog()).getByRole('list', { name: 'Wallets' })
    expect(wallets.compareDocumentPosition(socials) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    await waitFor(() => expect(r.frameActor()?.getSnapshot().hasTag('loading')).toBe(true))
    await act(flush)
    await r.advance(FRAME_READY_DELAY_MS)
    await showView('ConnectingSocial')
    expect(r.popup.started.map((s) => s.provider)).toEqual(['github'])
  })

  it('behavior: with no e-mail and the socials first, Connect opens on a social button without loading the frame; the visitor focusing one loads it', async () => {
    const r = renderKit(undefined, { email: false, socials: ['github', 'google'] })
    // openConnect checks that nothing asked for the frame: the view's own focus on its first control is not
    // the visitor's intent (issue 14).
    await openConnect(r)
    expect(document.activeElement).toBe(button('GitHub'))
    act(() => button('Google').focus())
    expect(selectCapability(r.kit.getSnapshot(), 'embedded')).not.toBe('idle')
    await waitFor(() => expect(r.frameActor()?.getSnapshot().hasTag('loading')).toBe(true))
  })

  it('behavior: a frame that never loads shows the SPEC text with "Try again", which loads it again', async () => {
    const r = renderKit()
    r.frame.announce = false
    await openConnect(r)
    // Typing in the e-mail field is intent too.
    type(textbox('Email'), 'a')
    await waitFor(() => expect(r.frameActor()).toBeDefined())
    await r.advance(FRAME_LOAD_TIMEOUT_MS)
    await waitFor(() =>
      expect(
        within(dialog())
          .getAllByRole('alert')
          .map((a) => a.textContent),
      ).toContain('Unable to load email login dependency'),
    )
    expect(button('Continue').disabled).toBe(true)
    r.frame.announce = true
    fireEvent.click(button('Try again'))
    await act(flush)
    await r.advance(FRAME_READY_DELAY_MS)
    await waitFor(() => expect(button('Continue').disabled).toBe(false))
    expect(r.frame.opened).toBe(2)
  })

  it('behavior: on a device without hover the frame loads once the open dialog has painted, with no intent', async () => {
    const original = window.matchMedia
    // A touch screen: no pointer shows intent before a tap.
    window.matchMedia = ((query: string) => ({
      matches: query === '(hover: none)',
      media: query,
      onchange: null,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      dispatchEvent: () => false,
    })) as typeof window.matchMedia
    try {
      const r = renderKit()
      fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }))
      await showView('Connect')
      expect(r.frameActor()).toBeUndefined()
      await r.advance(EMBEDDED_LOAD_AFTER_OPEN_MS)
      await waitFor(() => expect(r.frameActor()?.getSnapshot().hasTag('loading')).toBe(true))
      expect(within(dialog()).getByRole('status').textContent).toContain('Loading…')
      await act(flush)
      await r.advance(FRAME_READY_DELAY_MS)
      await waitFor(() => expect(button('Continue').disabled).toBe(false))
    } finally {
      window.matchMedia = original
    }
  })

  it('behavior: an invalid e-mail is refused in an alert; the typed text stays', async () => {
    const r = renderKit()
    await openReady(r)
    await submitEmail('not-an-email')
    await waitFor(() => expect(alertText()).toBe('Invalid email'))
    expect(view()).toBe('Connect')
    expect(textbox('Email').value).toBe('not-an-email')
    expect(textbox('Email').getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(textbox('Email'))
    expect(r.frame.posted.map((p) => p.request.type)).not.toContain('connectEmail')
  })
})

describe('e-mail login', () => {
  it('behavior: e-mail → code → connected; Account shows the login, switches the account type, signs out', async () => {
    const r = renderKit()
    await openReady(r)
    await submitEmail()
    await showView('EmailVerifyOtp')
    expect(dialog().textContent).toContain(`Enter the code we sent to ${ALICE}.`)
    // Focus moves to the code field once the view is there.
    await waitFor(() => expect(document.activeElement).toBe(textbox('Code')))
    await enterCode(r.frame.codeFor(ALICE)!)
    await expectConnected(r)

    fireEvent.click(screen.getByRole('button', { name: shownAddress(r) }))
    await showView('Account')
    await waitFor(() => expect(screen.getByTestId('account-login').textContent).toBe(`Logged in as ${ALICE}`))
    expect(button('Update email').disabled).toBe(false)
    // The account type is shown, with a switch to the other one (issue 36: a button, no longer radios).
    expect(screen.getByTestId('account-type').textContent).toBe('Account type: Smart account')
    await waitFor(() => expect(button('Switch to your EOA').disabled).toBe(false))
    fireEvent.click(button('Switch to your EOA'))
    await waitFor(() => expect(r.frameActor()!.getSnapshot().context.accountType).toBe('eoa'))
    expect(r.frame.user()!.preferredAccountType).toBe('eoa')
    await waitFor(() => expect(screen.getByTestId('account-type').textContent).toBe('Account type: EOA'))
    await waitFor(() => expect(button('Switch to your smart account').disabled).toBe(false))

    fireEvent.click(button('Disconnect'))
    await waitFor(() => expect(r.frame.connected).toBe(false))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Connect Wallet' })).toBeTruthy())
  })

  it("behavior: on a network without smart accounts (the frame refuses the setup), Account shows §8's text and offers only the EOA", async () => {
    const r = renderKit()
    r.frame.noSmartAccount.add(1)
    await openReady(r)
    await submitEmail()
    await showView('EmailVerifyOtp')
    await enterCode(r.frame.codeFor(ALICE)!)
    await expectConnected(r)
    fireEvent.click(screen.getByRole('button', { name: shownAddress(r) }))
    await showView('Account')
    const embedded = () => within(dialog()).getByRole('region', { name: 'Embedded wallet' })
    await waitFor(() =>
      expect(within(embedded()).getByRole('alert').textContent).toBe(
        'This application might not support Smart Accounts',
      ),
    )
    expect(r.frameActor()!.getSnapshot().context.smartAccountNetworks).toEqual([])
    await waitFor(() => expect(button('Switch to your EOA').disabled).toBe(false))
    fireEvent.click(button('Switch to your EOA'))
    await waitFor(() => expect(screen.getByTestId('account-type').textContent).toBe('Account type: EOA'))
    await waitFor(() =>
      expect(screen.getByTestId('smart-account-unsupported').textContent).toBe(
        'This application might not support Smart Accounts',
      ),
    )
    expect(within(dialog()).queryByRole('button', { name: 'Switch to your smart account' })).toBeNull()
  })

  it('behavior: a wrong code shows the frame error in an alert and stays typed and focused; the right one connects', async () => {
    const r = renderKit()
    await openReady(r)
    await submitEmail()
    await showView('EmailVerifyOtp')
    const wrong = r.frame.codeFor(ALICE) === '000000' ? '111111' : '000000'
    await enterCode(wrong)
    await waitFor(() => expect(alertText()).toBe('Invalid one-time code'))
    expect(view()).toBe('EmailVerifyOtp')
    expect(textbox('Code').value).toBe(wrong)
    expect(textbox('Code').getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(textbox('Code'))
    await enterCode(r.frame.codeFor(ALICE)!)
    await expectConnected(r)
  })

  it('behavior: inside the 30 s cooldown a new code is refused with the SPEC message, on the code view and on Connect', async () => {
    const r = renderKit()
    await openReady(r)
    await submitEmail()
    await showView('EmailVerifyOtp')
    await waitFor(() => expect(dialog().textContent).toContain('You can ask for a new code in 30 s.'))
    fireEvent.click(button('Resend code'))
    await waitFor(() => expect(alertText()).toBe('Please try again after 30 seconds'))
    await r.advance(12_000)
    fireEvent.click(button('Resend code'))
    await waitFor(() => expect(alertText()).toBe('Please try again after 18 seconds'))
    expect(r.frame.mailbox).toHaveLength(1)

    // Back to Connect: the flow is cancelled, the typed e-mail is still there, and the throttle still holds.
    fireEvent.click(button('Back'))
    await showView('Connect')
    expect(textbox('Email').value).toBe(ALICE)
    fireEvent.click(button('Continue'))
    await waitFor(() => expect(alertText()).toBe('Please try again after 18 seconds'))
    expect(view()).toBe('Connect')

    await r.advance(EMAIL_LOGIN_COOLDOWN_MS - 12_000)
    fireEvent.click(button('Continue'))
    await showView('EmailVerifyOtp')
    expect(r.frame.mailbox).toHaveLength(2)
  })

  it('behavior: a new device is approved from the e-mailed link, then the code connects', async () => {
    const r = renderKit([])
    await openReady(r)
    await submitEmail()
    await showView('EmailVerifyDevice')
    expect(dialog().textContent).toContain('Approve this device')
    expect(dialog().textContent).toContain(ALICE)
    expect(within(dialog()).getByRole('status').textContent).toContain('Waiting for your approval…')
    await act(async () => {
      r.frame.approveDevice()
      await flush()
    })
    await showView('EmailVerifyOtp')
    await enterCode(r.frame.codeFor(ALICE)!)
    await expectConnected(r)
  })
})

describe('social and Farcaster login', () => {
  it('behavior: a blocked popup shows the SPEC error; trying again in a click opens it and connects', async () => {
    const r = renderKit()
    await openReady(r)
    r.popup.blocked = true
    fireEvent.click(button('Google'))
    await waitFor(() =>
      expect(alertText()).toBe(
        'A problem occurred while trying initialize authentication The pop-up may be blocked: allow pop-ups for this site.',
      ),
    )
    expect(r.popup.started).toHaveLength(1)

    r.popup.blocked = false
    fireEvent.click(button('Google'))
    await showView('ConnectingSocial')
    await waitFor(() => expect(dialog().textContent).toContain('Continue in the Google window.'))
    expect(r.popup.navigatedTo.at(-1)).toContain('provider=google')
    await act(async () => {
      r.popup.finish()
      await flush()
    })
    await expectConnected(r)
    expect(r.frameActor()!.getSnapshot().context.social).toBe('google')
  })

  it('behavior: Farcaster shows its sign-in link as a QR code and a link, then connects once approved', async () => {
    const r = renderKit()
    await openReady(r)
    fireEvent.click(button('Farcaster'))
    await showView('ConnectingFarcaster')
    const url = 'https://farcaster.example/~/siwf?channel=abc'
    const qr = await within(dialog()).findByRole('img', { name: 'Farcaster QR code' })
    expect(qr.getAttribute('data-uri')).toBe(url)
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/)
    expect(within(dialog()).getByRole('link', { name: 'Open Farcaster' }).getAttribute('href')).toBe(url)
    await r.advance(FARCASTER_RELOAD_DELAY_MS)
    await waitFor(() => expect(dialog().textContent).toContain('Waiting for you to approve in Farcaster…'))
    await act(async () => {
      r.frame.approveFarcaster()
      await flush()
    })
    await expectConnected(r)
  })
})

describe('signed in', () => {
  it('behavior: a signing request opens ApproveTransaction, which shows the frame in its place until approved', async () => {
    const r = renderKit()
    await logInByEmail(r)
    const address = r.frame.user()!.address
    let signature: unknown
    const request = frameRpc(r.frameActor()!, { method: 'personal_sign', params: ['0x68656c6c6f', address] })
    void request.then((result) => {
      signature = result
    })
    await showView('ApproveTransaction')
    const slot = within(dialog()).getByRole('region', { name: 'Secure window' })
    await waitFor(() => expect(r.frame.shownIn).toBe(slot))
    expect(dialog().textContent).toContain('Your wallet has a message to sign.')
    expect(document.activeElement).toBe(slot)
    await act(async () => {
      r.frame.approve(r.frame.held[0]!)
      await flush()
    })
    await waitFor(() => expect(signature).toBe(`0x${'5'.repeat(130)}`))
    expect(r.frame.shownIn).toBeUndefined()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('behavior: closing ApproveTransaction rejects the request and hides the frame', async () => {
    const r = renderKit()
    await logInByEmail(r)
    const request = frameRpc(r.frameActor()!, { method: 'eth_sendTransaction', params: [{}] })
    const outcome = request.then(
      () => 'approved',
      (error: Error) => error.message,
    )
    await showView('ApproveTransaction')
    expect(dialog().textContent).toContain('Your wallet has a transaction to send.')
    await waitFor(() => expect(r.frame.shownIn).toBeDefined())
    fireEvent.click(button('Close'))
    expect(await outcome).toMatch(/^Request was aborted/)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(r.frame.shownIn).toBeUndefined()
    expect(r.frame.held).toEqual([])
  })

  it('behavior: the e-mail is updated with a code to the current address, then one to the new address', async () => {
    const r = renderKit()
    await logInByEmail(r)
    // The login's code started the cooldown; an update mails codes too, so it waits for it.
    await r.advance(EMAIL_LOGIN_COOLDOWN_MS)
    fireEvent.click(screen.getByRole('button', { name: shownAddress(r) }))
    await showView('Account')
    await waitFor(() => expect(button('Update email')).toBeTruthy())
    fireEvent.click(button('Update email'))
    await showView('UpdateEmailWallet')
    await waitFor(() => expect(document.activeElement).toBe(textbox('New email')))
    type(textbox('New email'), 'new@example.com')
    fireEvent.click(button('Continue'))

    await showView('UpdateEmailPrimaryOtp')
    expect(dialog().textContent).toContain(`enter the code we sent to ${ALICE}`)
    await enterCode(r.frame.codeFor(ALICE)!)
    await showView('UpdateEmailSecondaryOtp')
    expect(dialog().textContent).toContain('Now enter the code we sent to new@example.com')
    await enterCode(r.frame.codeFor('new@example.com')!)

    // The update done, the modal is back on Account (nothing to go back to) and says so.
    await showView('Account')
    // The Account view's balance call fails here (no Data API): its toast is up, so the next one waits the gap.
    await r.advance(TOAST_RESHOW_MS)
    await waitFor(() => expect(screen.getByText('Email updated')).toBeTruthy())
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
    await waitFor(() =>
      expect(screen.getByTestId('account-login').textContent).toBe('Logged in as new@example.com'),
    )
  })
})
