import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import BUTTON from '../../src/react/locales/connectButton.json'
import { viewComponent } from '../../src/react/views/registry.tsx'
import { VIEW_NAMES } from '../../src/views.ts'
import {
  approveInFrame,
  type E2eContext,
  frame,
  freshEmail,
  hostButton,
  mail,
  SHORT_ADDRESS,
  startE2e,
  startEmailLogin,
  switchInWallet,
  truncated,
  view,
  walletPrompt,
} from './support.ts'

/*
 * Accessibility checked, not hoped for: axe-core (the standard engine, its default rules: WCAG 2.x A/AA and best
 * practices) runs on the modal for every view of the view registry, each reached as a visitor reaches it — by
 * clicking through the demo in Chromium against the sandbox, with the injected dev wallet, the e-mail login and
 * the secure site's frame — and any violation fails, printed with its rule, impact, target and help. The Arabic
 * (right-to-left) Connect is audited too. One browser; two pages (the injected wallet's, the e-mail login's), each
 * walked view after view; the modal is audited once its view has settled (its animations over).
 */

let e2e: E2eContext
let axeSource: string

/** The views the kit draws (the registry's), computed from the registry itself, so a view added there is audited. */
const undrawn = viewComponent('a11y.Undrawn')
const REGISTERED = VIEW_NAMES.filter((name) => viewComponent(name) !== undrawn)

/** Every audit run, by what was audited (a view's name, or a name with its state in brackets). */
const audited = new Map<string, string[]>()

beforeAll(async () => {
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  e2e = await startE2e()
})
afterAll(async () => {
  await e2e?.close()
})

/** The kit's modal (not the sandbox wallet's prompt, also a dialog). */
const MODAL = '[data-walletstate] [role="dialog"]'

/** A fresh demo page (its own browser context: its own storage, a device of its own) with axe loaded. */
async function openDemo(query = ''): Promise<Page> {
  const page = await e2e.newPage(query)
  await page.evaluate(axeSource)
  return page
}

/** The open modal once its view has settled: the view shown, `ready` visible, no finite animation running. */
async function settled(page: Page, name: string, ready?: Locator) {
  await view(page, name).waitFor({ timeout: 30_000 })
  if (ready) await ready.waitFor({ timeout: 30_000 })
  const dialog = page.locator(MODAL)
  await expect.poll(() => dialog.getAttribute('data-transitioning')).toBeNull()
  await expect
    .poll(() =>
      dialog.evaluate(
        (element) =>
          element
            .getAnimations({ subtree: true })
            .filter(
              (animation) =>
                animation.playState === 'running' &&
                animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY,
            ).length,
      ),
    )
    .toBe(0)
}

/**
 * axe on the modal showing `name` (once `ready` is visible): every violation as one line, rule, impact,
 * target(s) and help; none expected. A soft assertion, so one walk reports every view it reaches.
 */
/** The roles above the node named `name` in Chromium's accessibility tree (what a screen reader walks). */
async function ancestorRoles(page: Page, name: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page)
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: Array<{ nodeId: string; parentId?: string; role?: { value: string }; name?: { value: string } }>
    }
    const byId = new Map(nodes.map((node) => [node.nodeId, node]))
    let node = nodes.find((n) => n.name?.value === name && n.role?.value === 'Iframe')
    const roles: string[] = []
    while (node?.parentId) {
      node = byId.get(node.parentId)
      if (node?.role) roles.push(node.role.value)
    }
    return roles
  } finally {
    await cdp.detach()
  }
}

async function audit(page: Page, name: string, ready?: Locator, state?: string) {
  await settled(page, name, ready)
  const { violations, passed } = await page.evaluate(async (modal) => {
    type AxeResults = {
      passes: unknown[]
      violations: Array<{
        id: string
        impact: string | null
        help: string
        nodes: Array<{ target: unknown[] }>
      }>
    }
    const { axe } = window as unknown as {
      axe: { run(context: unknown, options: unknown): Promise<AxeResults> }
    }
    // The modal only (the host page is the host's), its own document (the secure site's frame is the site's).
    const result = await axe.run({ include: [[modal]] }, { iframes: false })
    return {
      passed: result.passes.length,
      violations: result.violations.flatMap((violation) =>
        violation.nodes.map(
          (node) =>
            `${violation.id} (${violation.impact}) ${node.target.map(String).join(' > ')}: ${violation.help}`,
        ),
      ),
    }
  }, MODAL)
  // axe found the modal and checked it (a context matching nothing would pass every rule vacuously).
  expect(passed).toBeGreaterThan(0)
  const label = state ? `${name} [${state}]` : name
  audited.set(label, violations)
  expect.soft(violations, `axe on ${label}`).toEqual([])
}

/**
 * One stretch of a walk through a page: skipped once an earlier stretch of the same page could not go on (a
 * view not reached), so one failure is reported once. Violations found on the way do not stop the walk.
 */
function walker() {
  let stopped = false
  return (name: string, stretch: () => Promise<void>) =>
    it(name, async (context) => {
      if (stopped) context.skip()
      try {
        await stretch()
      } catch (error) {
        stopped = true
        throw error
      }
    })
}

/** The modal's Back button. */
const back = (page: Page) => page.locator(MODAL).getByRole('button', { name: 'Back', exact: true })

/** Back, view by view, until `name` shows. */
async function backTo(page: Page, name: string) {
  for (let step = 0; step < 5 && (await view(page, name).count()) === 0; step++) {
    const current = await page.locator(`${MODAL} [data-view]`).getAttribute('data-view')
    await back(page).click()
    await view(page, current ?? '').waitFor({ state: 'detached' })
  }
  await view(page, name).waitFor()
}

describe('axe on every view of the modal, in Chromium against the sandbox', () => {
  /** The injected dev wallet's page (`?pay=1`: Pay on), walked first to last. */
  let wallet: Page
  /**
   * The e-mail login's page (`?siwx=1`: sign-in with the wallet on): another browser context, so another device
   * for the secure site. The injected wallet's page, a device this account has not seen, then shows
   * EmailVerifyDevice.
   */
  let mailer: Page
  const email = freshEmail('a11y')
  const walletWalk = walker()
  const mailerWalk = walker()

  beforeAll(async () => {
    ;[wallet, mailer] = await Promise.all([openDemo('?pay=1'), openDemo('?siwx=1')])
  })

  describe('the e-mail login: the embedded wallet and the secure site’s frame', () => {
    const walk = mailerWalk
    walk(
      'EmailVerifyOtp, ConnectingSiwe, ApproveTransaction, Account, RegisterAccountName, RegisterAccountNameSuccess',
      async () => {
        await startEmailLogin(mailer, email)
        const otp = view(mailer, 'EmailVerifyOtp')
        const code = otp.getByRole('textbox', { name: 'Code' })
        await audit(mailer, 'EmailVerifyOtp', code)
        await code.fill(await mail(e2e, email, 'code'))
        await otp.getByRole('button', { name: 'Continue' }).click()
        await expect.poll(() => hostButton(mailer).textContent(), { timeout: 30_000 }).toMatch(SHORT_ADDRESS)

        // Connected, the kit asks to sign in; the embedded wallet's frame asks to approve the signature.
        const siwe = view(mailer, 'ConnectingSiwe')
        await audit(mailer, 'ConnectingSiwe', siwe.getByRole('button', { name: 'Sign in' }))
        await siwe.getByRole('button', { name: 'Sign in' }).click()
        await view(mailer, 'ApproveTransaction').waitFor({ timeout: 30_000 })
        await frame(mailer).getByRole('button', { name: 'Approve' }).waitFor({ timeout: 30_000 })
        await audit(mailer, 'ApproveTransaction', mailer.getByTestId('approve-frame-slot'))
        // The secure site's frame sits outside the modal in the page (moving it would reload it); for a screen
        // reader it is inside: the slot owns it, so `aria-modal` does not hide the approval.
        expect(await ancestorRoles(mailer, 'Walletstate login')).toEqual(
          expect.arrayContaining(['region', 'dialog']),
        )
        await approveInFrame(mailer)
        await expect
          .poll(() => mailer.getByTestId('demo-session').textContent(), { timeout: 30_000 })
          .toMatch(/^0x[0-9a-fA-F]{40}$/)

        await expect.poll(() => mailer.getByRole('dialog').count()).toBe(0)
        await hostButton(mailer).click()
        const account = view(mailer, 'Account')
        await audit(
          mailer,
          'Account',
          account.getByRole('button', { name: 'Update email' }),
          'embedded wallet',
        )

        await account.getByRole('button', { name: 'Choose a name' }).click()
        const register = view(mailer, 'RegisterAccountName')
        const name = register.getByRole('textbox', { name: 'Name' })
        await audit(mailer, 'RegisterAccountName', name)
        await name.fill(`a11y-${Date.now().toString(36)}`)
        const submit = register.getByRole('button', { name: 'Register', exact: true })
        await expect.poll(() => submit.isEnabled(), { timeout: 20_000 }).toBe(true)
        await audit(mailer, 'RegisterAccountName', submit, 'available')
        await submit.click()
        await approveInFrame(mailer)
        const success = view(mailer, 'RegisterAccountNameSuccess')
        await audit(
          mailer,
          'RegisterAccountNameSuccess',
          success.getByRole('button', { name: 'Back to account' }),
        )
        await success.getByRole('button', { name: 'Back to account' }).click()
        await view(mailer, 'Account').waitFor()
      },
    )
  })

  describe('the injected dev wallet', () => {
    const walk = walletWalk
    walk(
      'disconnected: Connect, in English and in Arabic (right to left), and the views it leads to',
      async () => {
        await hostButton(wallet).click()
        const connect = view(wallet, 'Connect')
        // The login frame ready (its social buttons enabled): Connect as the visitor uses it.
        const google = connect.getByRole('button', { name: 'Google' })
        await expect.poll(() => google.isEnabled(), { timeout: 30_000 }).toBe(true)
        await audit(wallet, 'Connect', connect.getByRole('button', { name: /Walletstate Dev Wallet/ }))

        await connect.getByRole('button', { name: 'What is a wallet?' }).click()
        await audit(wallet, 'WhatIsAWallet')
        await backTo(wallet, 'Connect')

        await connect.getByRole('button', { name: 'Supported networks' }).click()
        await audit(wallet, 'Networks', view(wallet, 'Networks').getByText('Walletstate Sandbox'))
        await backTo(wallet, 'Connect')

        await connect.getByRole('button', { name: 'All wallets' }).click()
        const all = view(wallet, 'AllWallets')
        await audit(wallet, 'AllWallets', all.getByRole('button').first())
        await backTo(wallet, 'Connect')

        await connect.getByRole('button', { name: /WalletConnect/ }).click()
        await audit(
          wallet,
          'ConnectingWalletConnectBasic',
          wallet.getByRole('img', { name: 'WalletConnect QR code' }),
        )
        await backTo(wallet, 'Connect')

        // A wallet of the listing pairs on its own branded QR view.
        await connect.getByRole('button', { name: 'All wallets' }).click()
        await wallet.getByRole('textbox', { name: 'Search wallets' }).fill('Walletstate WC')
        await view(wallet, 'AllWallets')
          .getByRole('button', { name: /Walletstate WC Wallet/ })
          .click()
        await audit(
          wallet,
          'ConnectingWalletConnect',
          wallet.getByRole('img', { name: 'WalletConnect QR code' }),
        )
        await backTo(wallet, 'Connect')

        await connect.getByRole('button', { name: 'Farcaster' }).click()
        await audit(wallet, 'ConnectingFarcaster', wallet.getByRole('img', { name: 'Farcaster QR code' }))
        await backTo(wallet, 'Connect')

        // Google: the provider's page opens in a pop-up, and the view waits while the visitor is there; the
        // pop-up closed, the kit goes back to Connect by itself.
        const [popup] = await Promise.all([wallet.waitForEvent('popup'), google.click()])
        await audit(wallet, 'ConnectingSocial', view(wallet, 'ConnectingSocial').getByRole('status'))
        await popup.close()
        await connect.waitFor()

        // Arabic, chosen at run time with the demo's language select, as a visitor would.
        await wallet.keyboard.press('Escape')
        await wallet.getByRole('dialog').waitFor({ state: 'detached' })
        await wallet.getByLabel('Language').selectOption('ar')
        await expect.poll(() => hostButton(wallet).textContent()).toBe(BUTTON.ar)
        await hostButton(wallet).click()
        await expect.poll(() => wallet.locator('[data-walletstate]').getAttribute('dir')).toBe('rtl')
        await audit(
          wallet,
          'Connect',
          view(wallet, 'Connect').getByRole('button', { name: /Walletstate Dev Wallet/ }),
          'Arabic',
        )
        await wallet.keyboard.press('Escape')
        await wallet.getByRole('dialog').waitFor({ state: 'detached' })
        await wallet.getByLabel('Language').selectOption('en')
        await expect.poll(() => hostButton(wallet).textContent()).toBe('Connect Wallet')
      },
    )

    walk('connecting: ConnectingExternal while the wallet asks', async () => {
      await hostButton(wallet).click()
      await view(wallet, 'Connect')
        .getByRole('button', { name: /Walletstate Dev Wallet/ })
        .click()
      await walletPrompt(wallet).waitFor()
      await audit(wallet, 'ConnectingExternal')
      await walletPrompt(wallet).getByRole('button', { name: 'Approve' }).click()
      await expect
        .poll(() => hostButton(wallet).textContent())
        .toBe(truncated(e2e.sandbox.wallets.injectedAddress))
      await expect.poll(() => wallet.getByRole('dialog').count()).toBe(0)
    })

    walk('connected: Account, Networks, WalletReceive and the send views', async () => {
      await hostButton(wallet).click()
      const account = view(wallet, 'Account')
      await audit(wallet, 'Account', account.getByTestId('token-balance').first())
      // The other tabs, once loaded (no loading status left in the panel).
      for (const tab of ['NFTs', 'Activity', 'Tokens']) {
        await account.getByRole('tab', { name: tab }).click()
        const panel = account.getByRole('tabpanel', { name: tab })
        await expect.poll(() => panel.getByRole('status').count(), { timeout: 20_000 }).toBe(0)
        if (tab !== 'Tokens') await audit(wallet, 'Account', panel, `${tab} tab`)
      }

      await account.getByRole('button', { name: 'Walletstate Sandbox' }).click()
      await audit(wallet, 'Networks', view(wallet, 'Networks').getByText('Walletstate Sandbox'), 'connected')
      await backTo(wallet, 'Account')

      await account.getByRole('button', { name: 'Receive', exact: true }).click()
      await audit(wallet, 'WalletReceive', wallet.getByRole('img', { name: /QR code/ }))
      await backTo(wallet, 'Account')

      await account.getByRole('button', { name: 'Send', exact: true }).click()
      const send = view(wallet, 'WalletSend')
      await audit(wallet, 'WalletSend', send.getByRole('textbox', { name: 'Amount' }))
      await send.getByRole('button', { name: /^(Select token|Token: )/ }).click()
      const pick = view(wallet, 'WalletSendSelectToken')
      await audit(wallet, 'WalletSendSelectToken', pick.locator('button[data-symbol="USDC"]'))
      await pick.locator('button[data-symbol="USDC"]').click()
      await send.getByRole('button', { name: 'Token: USDC' }).waitFor()
      await send.getByRole('textbox', { name: 'Amount' }).fill('1')
      await send.getByRole('textbox', { name: 'Receiver' }).fill(e2e.sandbox.chain.accounts[1]!.address)
      await audit(wallet, 'WalletSend', send.getByRole('button', { name: 'Preview send' }), 'filled')
      await send.getByRole('button', { name: 'Preview send' }).click()
      const preview = view(wallet, 'WalletSendPreview')
      await expect.poll(() => preview.getByTestId('send-fee').textContent()).toMatch(/^0\.\d+ ETH$/)
      await audit(wallet, 'WalletSendPreview', preview.getByRole('button', { name: 'Send', exact: true }))
      await backTo(wallet, 'Account')
    })

    walk('Swap, SwapSelectToken and SwapPreview', async () => {
      const account = view(wallet, 'Account')
      await account.getByRole('button', { name: 'Swap', exact: true }).click()
      const swap = view(wallet, 'Swap')
      await audit(wallet, 'Swap', swap.getByRole('textbox', { name: 'You pay' }))
      await swap.getByRole('button', { name: /^Select token to pay/ }).click()
      const pick = view(wallet, 'SwapSelectToken')
      await audit(wallet, 'SwapSelectToken', pick.getByRole('button', { name: 'USDC', exact: true }))
      await pick.getByRole('button', { name: 'USDC', exact: true }).click()
      await swap.getByRole('button', { name: /^Select token to receive/ }).click()
      await pick.getByRole('button', { name: 'ETH', exact: true }).click()
      await swap.getByRole('textbox', { name: 'You pay' }).fill('10')
      const review = swap.getByRole('button', { name: 'Review swap' })
      await expect.poll(() => review.isEnabled(), { timeout: 20_000 }).toBe(true)
      await audit(wallet, 'Swap', review, 'quoted')
      await review.click()
      const preview = view(wallet, 'SwapPreview')
      const approve = preview.getByRole('button', { name: 'Approve', exact: true })
      await expect.poll(() => approve.isEnabled(), { timeout: 20_000 }).toBe(true)
      await audit(wallet, 'SwapPreview', preview.getByRole('list', { name: 'Balance changes' }))
      await backTo(wallet, 'Account')
    })

    walk('Buy: OnRampProviders, its pickers and OnRampPurchase', async () => {
      const account = view(wallet, 'Account')
      await account.getByRole('button', { name: 'Buy', exact: true }).click()
      const buy = view(wallet, 'OnRampProviders')
      const amount = buy.getByRole('textbox', { name: 'Amount' })
      await audit(wallet, 'OnRampProviders', amount, 'empty')
      await amount.fill('50')
      const provider = buy.getByRole('list').getByRole('button').first()
      await expect.poll(() => provider.isEnabled(), { timeout: 20_000 }).toBe(true)
      await audit(wallet, 'OnRampProviders', provider, 'quoted')

      await buy.getByRole('button', { name: /^Payment currency/ }).click()
      await audit(wallet, 'OnRampFiatSelect', view(wallet, 'OnRampFiatSelect').getByRole('button').first())
      // SPEC §7 getCurrencyImage: each currency's icon comes from the listing host's image endpoint, and loads.
      const icon = view(wallet, 'OnRampFiatSelect').locator('img.ws-token-icon').first()
      await expect
        .poll(() =>
          icon.evaluate((img: HTMLImageElement) => img.naturalWidth > 0 && new URL(img.src).pathname),
        )
        .toMatch(/^\/public\/getCurrencyImage\/[A-Z]{3}$/)
      await backTo(wallet, 'OnRampProviders')
      await buy.getByRole('button', { name: /^You buy/ }).click()
      await audit(wallet, 'OnRampTokenSelect', view(wallet, 'OnRampTokenSelect').getByRole('button').first())
      await backTo(wallet, 'OnRampProviders')

      await expect.poll(() => provider.isEnabled(), { timeout: 20_000 }).toBe(true)
      const popup = wallet.context().waitForEvent('page', { timeout: 20_000 })
      await provider.click()
      const partner = await popup
      await partner.waitForURL((url) => url.origin === e2e.sandbox.onrampPartner.origin, { timeout: 20_000 })
      const purchase = view(wallet, 'OnRampPurchase')
      await audit(wallet, 'OnRampPurchase', purchase.getByRole('status'), 'waiting')
      await purchase.getByRole('button', { name: 'Cancel' }).click()
      await partner.close()
      await backTo(wallet, 'Account')
    })

    walk('Pay, from the host page’s button', async () => {
      await wallet.keyboard.press('Escape')
      await wallet.getByRole('dialog').waitFor({ state: 'detached' })
      await wallet.locator('main .actions').getByRole('button', { name: 'Pay', exact: true }).click()
      const pay = view(wallet, 'Pay')
      await expect
        .poll(() => pay.getByTestId('send-fee').textContent(), { timeout: 30_000 })
        .toMatch(/^0\.\d+ ETH$/)
      await audit(wallet, 'Pay', pay.getByRole('button', { name: 'Pay', exact: true }))
      await pay.getByRole('button', { name: 'Cancel' }).click()
      await wallet.getByRole('dialog').waitFor({ state: 'detached' })
    })

    walk('UnsupportedChain, when the wallet moves to a network the app did not ask for', async () => {
      await switchInWallet(wallet, '0x1')
      await audit(
        wallet,
        'UnsupportedChain',
        wallet.locator(MODAL).getByRole('button', { name: 'Walletstate Sandbox' }),
      )
      await switchInWallet(wallet, '0x7a69')
      await wallet.getByRole('dialog').waitFor({ state: 'detached' })
    })
  })

  // Past the SPEC's 30 s e-mail cooldown (the injected wallet's walk takes longer): the e-mail can be changed.
  describe('the e-mail update', () => {
    const walk = mailerWalk
    walk('the e-mail update: UpdateEmailWallet, UpdateEmailPrimaryOtp, UpdateEmailSecondaryOtp', async () => {
      const account = view(mailer, 'Account')
      await account.getByRole('button', { name: 'Update email' }).click()
      const update = view(mailer, 'UpdateEmailWallet')
      const field = update.getByRole('textbox')
      await audit(mailer, 'UpdateEmailWallet', field)
      const mailsBefore = (await e2e.sandbox.secureSite.mailbox(email)).length
      const next = freshEmail('a11y-next')
      await field.fill(next)
      const primary = view(mailer, 'UpdateEmailPrimaryOtp')
      // Refused while the SPEC's 30 s e-mail cooldown since the login lasts (the walk usually outlasts it).
      const submit = update.getByRole('button', { name: 'Continue' })
      await expect
        .poll(
          async () => {
            if ((await primary.count()) > 0) return true
            if ((await update.count()) > 0 && (await submit.isEnabled())) await submit.click()
            return (await primary.count()) > 0
          },
          { timeout: 40_000, interval: 1_000 },
        )
        .toBe(true)
      await audit(mailer, 'UpdateEmailPrimaryOtp', primary.getByRole('textbox', { name: 'Code' }))
      const code = await mail(e2e, email, 'code', mailsBefore)
      await primary.getByRole('textbox', { name: 'Code' }).fill(code)
      await primary.getByRole('button', { name: 'Continue' }).click()
      const secondary = view(mailer, 'UpdateEmailSecondaryOtp')
      await audit(mailer, 'UpdateEmailSecondaryOtp', secondary.getByRole('textbox', { name: 'Code' }))
      await mailer.keyboard.press('Escape')
      await mailer.getByRole('dialog').waitFor({ state: 'detached' })
    })
  })

  describe('a second device for the e-mail account', () => {
    const walk = walletWalk
    walk('EmailVerifyDevice: the e-mail account from a device it has not seen', async () => {
      // The injected wallet's page is another browser context: a device the e-mail login's account has not seen.
      await hostButton(wallet).click()
      await view(wallet, 'Account').getByRole('button', { name: 'Disconnect' }).click()
      await expect.poll(() => hostButton(wallet).textContent()).toBe('Connect Wallet')
      await startEmailLogin(wallet, email)
      await audit(wallet, 'EmailVerifyDevice', view(wallet, 'EmailVerifyDevice').getByRole('status').first())
    })
  })

  it('every view of the registry was audited, and none has a violation', () => {
    const seen = new Set([...audited.keys()].map((label) => label.replace(/ \[.*\]$/, '')))
    expect(REGISTERED.filter((name) => !seen.has(name))).toEqual([])
    // Each violation is printed above, where its view was audited; here, which views had any.
    expect([...audited].filter(([, violations]) => violations.length > 0).map(([label]) => label)).toEqual([])
  })
})
