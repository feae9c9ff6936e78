import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eContext, frame, hostButton, startE2e, truncated, view, walletPrompt } from './support.ts'

/**
 * Issue 18, theme at run time, in Chromium against the sandbox: the demo's "Light theme" button calls
 * `useKitTheme().setThemeMode` while the modal is open. The kit's colours change at once (read from computed
 * styles), every text the views show keeps WCAG AA contrast in both modes (computed from those styles), and the
 * login frame follows (`syncTheme`: its page's theme changes, and the social sign-in page it opens is light).
 * Connect, All Wallets, Account and Send are kept as screenshots of each mode in test-results/theme/.
 */
let e2e: E2eContext
let page: Page
const SHOTS = 'test-results/theme'

beforeAll(async () => {
  e2e = await startE2e()
  page = await e2e.newPage()
  mkdirSync(SHOTS, { recursive: true })
  // The first visit of a fresh demo server may wait for Vite to optimise dependencies (and reload once).
  await page.getByRole('button', { name: 'Connect Wallet' }).waitFor({ timeout: 90_000 })
})
afterAll(async () => {
  await e2e?.close()
})

const kitDialog = () => page.locator('.ws-dialog')

/** The host changes the theme while the modal is open (the host's own control, behind the modal's overlay). */
async function setMode(mode: 'dark' | 'light') {
  const toggle = page.getByRole('button', { name: 'Light theme' })
  if ((await toggle.getAttribute('aria-pressed')) !== String(mode === 'light'))
    await toggle.dispatchEvent('click')
  await expect.poll(() => page.locator('[data-walletstate]').getAttribute('data-theme')).toBe(mode)
}

/** Once every animation in the page has finished (views slide and fade in), so computed colours are final. */
const settle = () =>
  page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))))

interface Contrast {
  text: string
  ratio: number
  needed: number
  color: string
  background: string
}

/**
 * The contrast of every text shown in the dialog: its colour against the background it sits on (the nearest
 * ancestor's background colours, composited), by WCAG 2's relative luminance. Text in a disabled control is
 * exempt (WCAG 1.4.3), as is text inside an image (the QR code).
 */
function contrasts(): Promise<Contrast[]> {
  return kitDialog().evaluate((dialog) => {
    type Rgba = [number, number, number, number]
    const parse = (value: string): Rgba => {
      const parts = value.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0]
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1]
    }
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3] + bottom[3] * (1 - top[3])
      if (a === 0) return [0, 0, 0, 0]
      const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a
      return [mix(0), mix(1), mix(2), a]
    }
    const background = (element: Element): Rgba => {
      const layers: Rgba[] = []
      for (let node: Element | null = element; node; node = node.parentElement) {
        const layer = parse(getComputedStyle(node).backgroundColor)
        if (layer[3] > 0) layers.push(layer)
        if (layer[3] >= 1) break
      }
      return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1])
    }
    const luminance = ([r, g, b]: Rgba) => {
      const c = (v: number) => {
        const s = v / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      }
      return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b)
    }
    const out: Contrast[] = []
    for (const element of dialog.querySelectorAll('*')) {
      const own = [...element.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim())
      const isField = element instanceof HTMLInputElement && element.value !== ''
      if (!own && !isField) continue
      if (element.closest(':disabled, [aria-disabled="true"]')) continue
      const style = getComputedStyle(element)
      const box = element.getBoundingClientRect()
      if (style.visibility === 'hidden' || box.width === 0 || box.height === 0) continue
      const back = background(element)
      const color = over(parse(style.color), back)
      const [hi, lo] = [luminance(color), luminance(back)].sort((a, b) => b - a) as [number, number]
      const size = Number.parseFloat(style.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
      out.push({
        text: (isField ? (element as HTMLInputElement).value : (element.textContent ?? ''))
          .trim()
          .slice(0, 40),
        ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
        needed: large ? 3 : 4.5,
        color: style.color,
        background: `rgb(${back.slice(0, 3).map(Math.round).join(', ')})`,
      })
    }
    return out
  })
}

/**
 * Every text of the view shown meets AA, and there is text to check; the focus ring (the accent) and each form
 * field's border keep 3:1 against what they sit on (WCAG 1.4.11).
 */
async function expectReadable() {
  await settle()
  const all = await contrasts()
  expect(all.length).toBeGreaterThan(3)
  expect(all.filter((c) => c.ratio < c.needed)).toEqual([])
  expect((await nonTextContrasts()).filter((c) => c.ratio < 3)).toEqual([])
}

/** The focus ring's colour and the form fields' borders against the background behind them. */
function nonTextContrasts(): Promise<Array<{ what: string; ratio: number }>> {
  return kitDialog().evaluate((dialog) => {
    const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number)
    const luminance = (value: string) => {
      const [r = 0, g = 0, b = 0] = rgb(value).map((v) => {
        const s = v / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r + 0.7152 * g + 0.0722 * b
    }
    const ratio = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
      return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100
    }
    const dialogBackground = getComputedStyle(dialog).backgroundColor
    const probe = document.createElement('span')
    probe.style.color = 'var(--ws-accent)'
    dialog.append(probe)
    const ring = getComputedStyle(probe).color
    probe.remove()
    const out = [{ what: `focus ring ${ring}`, ratio: ratio(ring, dialogBackground) }]
    for (const field of dialog.querySelectorAll('input.ws-input, input.ws-search')) {
      const style = getComputedStyle(field)
      if (style.borderTopColor === 'rgba(0, 0, 0, 0)') continue
      out.push({
        what: `border of ${field.getAttribute('placeholder') ?? field.id}`,
        ratio: ratio(style.borderTopColor, dialogBackground),
      })
    }
    return out
  })
}

/** The colours the kit's root and dialog compute: its background and text. */
const dialogColours = () =>
  kitDialog().evaluate((element) => {
    const style = getComputedStyle(element)
    return { background: style.backgroundColor, color: style.color, border: style.borderTopColor }
  })

const shot = async (name: string) => {
  await settle()
  await kitDialog().screenshot({ path: `${SHOTS}/${name}.png` })
}

/** The login frame's page: its theme attribute and background, as it computes them. */
const frameTheme = () =>
  frame(page)
    .locator('html')
    .evaluate((html) => ({
      mode: html.getAttribute('data-theme'),
      background: getComputedStyle(document.body).backgroundColor,
    }))

describe('theme at run time, in Chromium', () => {
  it('Connect: the host switches to light while the modal is open; colours change, text stays AA, the frame follows', async () => {
    await hostButton(page).getByText('Connect Wallet').click()
    await view(page, 'Connect').waitFor()
    // The login frame loads on intent (the pointer on the e-mail form) and is told the theme once ready.
    await page.getByRole('textbox', { name: 'Email' }).hover()
    await expect.poll(() => frameTheme().then((t) => t.mode)).toBe('dark')
    const darkFrame = await frameTheme()
    await expect
      .poll(() => page.getByRole('button', { name: 'Google' }).getAttribute('aria-disabled'))
      .toBe(null)
    // The social buttons show the providers' marks, not letters.
    const google = page.getByRole('button', { name: 'Google' })
    expect(await google.locator('svg path').count()).toBeGreaterThan(0)
    expect((await google.textContent())?.trim()).toBe('Google')

    const dark = await dialogColours()
    await expectReadable()
    await shot('connect-dark')

    await setMode('light')
    const light = await dialogColours()
    expect(light.background).not.toBe(dark.background)
    expect(light.color).not.toBe(dark.color)
    expect(light.border).not.toBe(dark.border)
    await expectReadable()
    await shot('connect-light')
    // syncTheme reached the frame: its own page (the approval prompt's) turned light.
    await expect.poll(() => frameTheme().then((t) => t.mode)).toBe('light')
    expect((await frameTheme()).background).not.toBe(darkFrame.background)
  })

  it('the social sign-in page the frame opens is in the theme shown', async () => {
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Google' }).click(),
    ])
    await popup.getByRole('textbox', { name: 'Email' }).waitFor()
    expect(new URL(popup.url()).searchParams.get('theme')).toBe('light')
    expect(await popup.locator('html').getAttribute('data-theme')).toBe('light')
    await popup.screenshot({ path: `${SHOTS}/social-popup-light.png` })
    await popup.close()
    // Closed before a login: back on Connect.
    await view(page, 'Connect').waitFor()
  })

  it('an error on Connect reads in the light theme too', async () => {
    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email')
    await page.getByRole('button', { name: 'Continue' }).click()
    await view(page, 'Connect').getByRole('alert').waitFor()
    await expectReadable()
    await shot('connect-error-light')
    await page.getByRole('textbox', { name: 'Email' }).fill('')
  })

  it('All Wallets in both modes', async () => {
    await kitDialog().getByRole('button', { name: 'All Wallets' }).click()
    await view(page, 'AllWallets').locator('.ws-wallet').first().waitFor()
    await expectReadable()
    await shot('all-wallets-light')
    await setMode('dark')
    await expectReadable()
    await shot('all-wallets-dark')
    await page.getByRole('button', { name: 'Back' }).click()
    await view(page, 'Connect').waitFor()
  })

  it('Account and Send in both modes, connected with the injected dev wallet', async () => {
    await kitDialog()
      .getByRole('button', { name: /Walletstate Dev Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect
      .poll(() => hostButton(page).textContent())
      .toBe(truncated(e2e.sandbox.wallets.injectedAddress))
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
    await hostButton(page).click()
    await expect.poll(() => view(page, 'Account').getByTestId('token-balance').count()).toBe(4)
    await expectReadable()
    await shot('account-dark')
    await setMode('light')
    await expectReadable()
    await shot('account-light')

    await view(page, 'Account').getByRole('button', { name: 'Send', exact: true }).click()
    await view(page, 'WalletSend').waitFor()
    await expectReadable()
    await shot('send-light')
    await setMode('dark')
    await expectReadable()
    await shot('send-dark')
  })
})
