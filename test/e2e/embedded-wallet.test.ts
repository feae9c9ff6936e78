import type { Page } from 'playwright-core'
import { createPublicClient, getAddress, http } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  approveInFrame,
  declineInFrame,
  dialog,
  type E2eContext,
  frame,
  freshEmail,
  hostButton,
  logInByEmail,
  mail,
  SHORT_ADDRESS,
  startE2e,
  startEmailLogin,
  view,
} from './support.ts'

/*
 * Issue 6 acceptance, in Chromium against the sandbox: the kit's login frame (a hidden iframe of the secure
 * site), e-mail one-time codes from the sandbox mailbox, the social and Farcaster stand-ins, signing approved
 * inside the frame. The frame's protections are in test/e2e/embedded-frame.test.ts, beside this file.
 */
let e2e: E2eContext

beforeAll(async () => {
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

describe('embedded wallet by e-mail, in Chromium against the secure site', () => {
  it('logs in with the mailed code, signs and sends from the frame, stays connected on reload, signs out', async () => {
    const page = await e2e.newPage()
    const email = freshEmail('visitor')
    const address = await logInByEmail(e2e, page, email)

    const client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
    const result = page.getByTestId('demo-result')

    // A signature needs the visitor's approval inside the frame, shown in the modal.
    await page.getByRole('button', { name: 'Sign message' }).click()
    await approveInFrame(page)
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/^0x[0-9a-f]+$/)
    const signature = (await result.textContent()) as `0x${string}`
    const message = `Hello from the Walletstate demo to ${address}`
    // A smart account's signature (ERC-6492 / 1271) is checked on chain, as any verifier would.
    expect(await client.verifyMessage({ address, message, signature })).toBe(true)
    await expect.poll(() => view(page, 'ApproveTransaction').count()).toBe(0)

    // A transaction from the embedded wallet, mined on anvil.
    await page.getByRole('button', { name: 'Send transaction' }).click()
    await approveInFrame(page)
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await client.waitForTransactionReceipt({
      hash: (await result.textContent()) as `0x${string}`,
    })
    expect(receipt.status).toBe('success')
    // From the smart account (the address shown): a user operation, bundled to the EntryPoint by the bundler.
    expect(getAddress(receipt.to ?? '0x')).toBe(entryPoint07Address)

    // Reload: the stored login is checked with the frame, and the same account is back.
    await page.reload()
    await expect.poll(() => page.getByTestId('demo-address').textContent(), { timeout: 40_000 }).toBe(address)

    // Sign out, and a reload stays signed out.
    await hostButton(page).click()
    await dialog(page).getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 10_000 }).toBe('Connect Wallet')
    await page.reload()
    await hostButton(page).waitFor()
    await page.waitForTimeout(3_000)
    expect(await hostButton(page).textContent()).toBe('Connect Wallet')
    await page.close()
  })

  it('Close crossing Approve: the outcome shown is the outcome on chain (a hash means one transaction, aborted means none) (issue 13)', async () => {
    const page = await e2e.newPage()
    const address = await logInByEmail(e2e, page, freshEmail('closer'))
    const client = createPublicClient({ transport: http(e2e.sandbox.chain.rpcUrl) })
    const nonceBefore = await client.getTransactionCount({ address })
    const result = page.getByTestId('demo-result')
    await page.getByRole('button', { name: 'Send transaction' }).click()
    await view(page, 'ApproveTransaction').waitFor({ timeout: 30_000 })
    const approve = frame(page).getByRole('button', { name: 'Approve' })
    await approve.waitFor({ timeout: 30_000 })
    // Approve is inert for its first 500 ms on screen, and while the frame is not fully visible.
    await expect.poll(() => approve.isEnabled(), { timeout: 10_000 }).toBe(true)
    // The visitor approves in the frame and at once closes the modal: the frame's approval message and the
    // kit's cancel may cross.
    await approve.evaluate((button) => (button as HTMLButtonElement).click())
    await page.evaluate(() =>
      (document.querySelector('[role="dialog"] [aria-label="Close"]') as HTMLElement | null)?.click(),
    )
    await expect
      .poll(() => result.textContent(), { timeout: 30_000 })
      .toMatch(/^0x[0-9a-f]{64}$|aborted|declined/i)
    const shown = (await result.textContent()) ?? ''
    await page.waitForTimeout(3_000) // a transaction the frame had already sent reaches the chain by now
    const sent = (await client.getTransactionCount({ address })) - nonceBefore
    if (/^0x[0-9a-f]{64}$/.test(shown)) {
      expect(sent).toBe(1)
      const receipt = await client.waitForTransactionReceipt({ hash: shown as `0x${string}` })
      expect(receipt.status).toBe('success')
    } else {
      // Reported as not sent: then nothing was sent (before the fix, the approved transaction went out anyway).
      expect({ shown, sent }).toEqual({ shown: expect.stringMatching(/aborted/i), sent: 0 })
    }
    await page.close()
  })

  // Clickjacking over the kit's own frame: a script on the host page lays a clear layer over the approval (clicks
  // pass through it) or fades the frame. The frame keeps Approve disabled while either lasts; the kit itself shows
  // the frame fully visible, so the normal flow approves. Guards the frame's visibility rule (secure-site
  // frame/main.ts updateApprove) with the kit's placement (src/frame/transport.ts show).
  it('Approve stays disabled while the host page covers or fades the frame, and works once it is clear', async () => {
    const page = await e2e.newPage()
    const address = await logInByEmail(e2e, page, freshEmail('covered'))
    const result = page.getByTestId('demo-result')
    await page.getByRole('button', { name: 'Sign message' }).click()
    await view(page, 'ApproveTransaction').waitFor({ timeout: 30_000 })
    const approve = frame(page).getByRole('button', { name: 'Approve' })
    await expect.poll(() => approve.isEnabled(), { timeout: 10_000 }).toBe(true)
    // The approval names the page's checked origin, not the name the app gives itself.
    const origin = new URL(page.url()).origin
    expect(await frame(page).locator('#approval-from').textContent()).toContain(`${origin} asks you`)

    const covers = [
      `const layer = document.createElement('div'); layer.id = 'cover';
       Object.assign(layer.style, { position: 'fixed', inset: '0', background: 'rgba(0,0,0,0.01)',
         pointerEvents: 'none', zIndex: '2147483647' }); document.body.append(layer)`,
      `document.querySelector('iframe[data-walletstate-frame]').style.opacity = '0.5'`,
    ]
    for (const cover of covers) {
      await page.evaluate(cover)
      await expect.poll(() => approve.isDisabled(), { message: cover, timeout: 10_000 }).toBe(true)
      const button = await approve.boundingBox()
      if (!button) throw new Error('Approve has no box')
      await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2)
      expect(await view(page, 'ApproveTransaction').count()).toBe(1)
      expect(await approve.isDisabled()).toBe(true)
      expect(await result.textContent()).toBe('')
      await page.evaluate(() => {
        document.getElementById('cover')?.remove()
        ;(document.querySelector('iframe[data-walletstate-frame]') as HTMLElement).style.opacity = '1'
      })
      await expect.poll(() => approve.isEnabled(), { message: cover, timeout: 10_000 }).toBe(true)
    }
    await approve.click()
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/^0x[0-9a-f]+$/)
    expect(address).toMatch(/^0x/)
    await page.close()
  })

  it('a declined signature is refused with the SPEC message', async () => {
    const page = await e2e.newPage()
    await logInByEmail(e2e, page, freshEmail('decliner'))
    await page.getByRole('button', { name: 'Sign message' }).click()
    await declineInFrame(page)
    await expect
      .poll(() => page.getByTestId('demo-result').textContent(), { timeout: 20_000 })
      .toMatch(/Signature declined/)
    await page.close()
  })

  it('modal shake: an invalid one-time code shakes the modal (its shake animation is seen, then ends)', async () => {
    const page = await e2e.newPage()
    const email = freshEmail('shaken')
    await startEmailLogin(page, email)
    const otp = view(page, 'EmailVerifyOtp')
    const device = view(page, 'EmailVerifyDevice')
    await otp.or(device).waitFor({ timeout: 30_000 })
    // The code field shows once this device is approved (the site asks a new device first).
    if ((await device.count()) > 0) {
      const approve = await e2e.browser.newPage()
      await approve.goto(await mail(e2e, email, 'link'))
      await approve.getByText('The new device is approved').waitFor()
      await approve.close()
      await otp.waitFor({ timeout: 30_000 })
    }
    await otp.getByRole('textbox', { name: 'Code' }).fill('12')
    await otp.getByRole('button', { name: 'Continue' }).click()
    const shaking = page.locator('.ws-dialog[data-shaking]')
    await shaking.waitFor({ state: 'attached', timeout: 10_000 })
    expect(await shaking.evaluate((el) => getComputedStyle(el).animationName)).toBe('ws-shake')
    // The shake ends by itself (its 500 ms, SPEC §2); the refused code's error stays.
    await shaking.waitFor({ state: 'detached', timeout: 5_000 })
    await otp.getByRole('alert').waitFor()
    await page.close()
  })

  it('a second login inside 30 s shows the countdown message', async () => {
    const page = await e2e.newPage()
    const email = freshEmail('hasty')
    await startEmailLogin(page, email)
    await view(page, 'EmailVerifyOtp').or(view(page, 'EmailVerifyDevice')).waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Back' }).click()
    await startEmailLoginAgain(page, email)
    const alert = dialog(page)
      .getByRole('alert')
      .filter({ hasText: /Please try again after \d+ seconds/ })
    await alert.waitFor({ timeout: 10_000 })
    const seconds = Number(/after (\d+) seconds/.exec((await alert.textContent()) ?? '')?.[1])
    expect(seconds).toBeGreaterThan(0)
    expect(seconds).toBeLessThanOrEqual(30)
    await page.close()
  })
})

/** On the Connect view already open: type the e-mail again and submit. */
async function startEmailLoginAgain(page: Page, email: string) {
  const textbox = dialog(page).getByRole('textbox', { name: 'Email' })
  await textbox.fill(email)
  await dialog(page).getByRole('button', { name: 'Continue' }).click()
}

describe('social and Farcaster login', () => {
  it('logs in with Google through the popup and the sandbox identity page', async () => {
    const page = await e2e.newPage()
    await hostButton(page).click()
    const google = dialog(page).getByRole('button', { name: 'Google' })
    await expect.poll(() => google.isEnabled(), { timeout: 30_000 }).toBe(true)
    const [popup] = await Promise.all([page.waitForEvent('popup'), google.click()])
    await popup.getByRole('textbox', { name: 'Email' }).waitFor({ timeout: 30_000 })
    await popup.getByRole('textbox', { name: 'Email' }).fill(freshEmail('social'))
    // SPEC §2 toasts, loading: every toast shown from here on, however briefly (the account's data may come fast).
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { toastsSeen: string[] }).toastsSeen = seen
      new MutationObserver(() => {
        for (const toast of document.querySelectorAll('.ws-toast')) {
          const entry = `${toast.getAttribute('role')}:${toast.getAttribute('data-variant')}:${toast.textContent}`
          if (seen.at(-1) !== entry) seen.push(entry)
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await popup.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 30_000 }).toMatch(SHORT_ADDRESS)
    const seen = await page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen)
    expect(seen).toContain('status:loading:Loading user data')
    await page.close()
  })

  it('logs in with Farcaster by the QR code URL', async () => {
    const page = await e2e.newPage()
    await hostButton(page).click()
    const farcaster = dialog(page).getByRole('button', { name: 'Farcaster' })
    await expect.poll(() => farcaster.isEnabled(), { timeout: 30_000 }).toBe(true)
    await farcaster.click()
    const qr = page.getByRole('img', { name: 'Farcaster QR code' })
    await qr.waitFor({ timeout: 30_000 })
    const url = (await qr.getAttribute('data-uri')) ?? ''
    expect(url.startsWith(e2e.sandbox.secureSite.origin)).toBe(true)
    const phone = await e2e.browser.newPage()
    await phone.goto(url)
    await phone.getByRole('textbox', { name: 'Username' }).fill(`fc-${Date.now().toString(36)}`)
    await phone.getByRole('button', { name: 'Continue' }).click()
    await phone.getByText(/Signed in as/).waitFor()
    await expect.poll(() => hostButton(page).textContent(), { timeout: 30_000 }).toMatch(SHORT_ADDRESS)
    await phone.close()
    await page.close()
  })
})
