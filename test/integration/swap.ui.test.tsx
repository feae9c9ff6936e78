// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { type Address, erc20Abi, parseUnits } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { SWAP_QUOTE_DEBOUNCE_MS, SWAP_QUOTE_REFRESH_MS, TOAST_RESHOW_MS } from '../../src/constants'
import type { SwapActorRef } from '../../src/machines/swap'
import {
  button,
  dialog,
  renderConnectedKit,
  sandboxServices,
  setFault as setApiFault,
  showView,
  textbox,
  toast,
  type,
} from './sandboxKit'

/**
 * The swap views (issue 16) in the real kit against the sandbox's real chain (anvil), RPC host and Data API
 * with its convert endpoints over the sandbox pools, all on loopback (`sandbox-services.ts`). The wallet is a
 * small EIP-1193 provider announced by EIP-6963 that hands every call to anvil (whose dev accounts are
 * unlocked), so it approves what it is asked. The visitor's side goes through the rendered controls by their
 * accessible names (issue 16's contract for tests outside the repo); the outcome is read from the chain.
 */
const sandbox = sandboxServices()
const setFault = (fault: object) => setApiFault(sandbox.services().apiOrigin, fault)

let uninstall: (() => void) | undefined
/** Holds the wallet's answer to a transaction request until the promise settles (the visitor thinking). */
let holdTransaction: ((count: number) => Promise<void> | undefined) | undefined
afterEach(async () => {
  cleanup()
  uninstall?.()
  uninstall = undefined
  holdTransaction = undefined
  await setFault({ mode: 'off' })
})

/** Renders a kit on the sandbox and connects `account` through the modal, as a visitor would; on Account. */
async function connected(accountIndex: number) {
  const session = await renderConnectedKit(sandbox.services(), {
    projectId: 'swap-ui',
    accountIndex,
    beforeTransaction: (n) => holdTransaction?.(n),
  })
  uninstall = session.uninstall
  await waitFor(() => expect(within(dialog()).getAllByTestId('token-balance').length).toBe(4), {
    timeout: 10_000,
  })
  return {
    ...session,
    /** The swap machine the kit runs (for reading what the screen cannot say, e.g. the quote's base units). */
    swap: () => session.kit.system.get('swap') as SwapActorRef,
  }
}

type Session = Awaited<ReturnType<typeof connected>>

/** Swap → pick the pair in SwapSelectToken → type the amount; waits for the quote. */
async function fillForm(s: Session, from: string, to: string, amount: string) {
  fireEvent.click(button('Swap'))
  await showView('Swap')
  const pay = await within(dialog()).findByRole('textbox', { name: 'You pay' }, { timeout: 10_000 })
  expect(pay.getAttribute('inputmode')).toBe('decimal')
  for (const [picker, symbol] of [
    ['Select token to pay', from],
    ['Select token to receive', to],
  ] as const) {
    fireEvent.click(within(dialog()).getByRole('button', { name: new RegExp(`^${picker}`) }))
    await showView('SwapSelectToken')
    fireEvent.click(await within(dialog()).findByRole('button', { name: symbol }, { timeout: 10_000 }))
    await showView('Swap')
    expect(button(`${picker}: ${symbol}`)).toBeDefined()
  }
  type(textbox('You pay'), amount)
  await s.advance(SWAP_QUOTE_DEBOUNCE_MS)
  await waitFor(() => expect(button('Review swap').disabled).toBe(false), { timeout: 10_000 })
}

const tokenBalance = (symbol: string, holder: Address) =>
  sandbox.reader().readContract({
    address: sandbox.services().tokens.find((t) => t.symbol === symbol)!.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  })

describe('swap views', () => {
  it('100 USDC → ETH from Account: pick the pair, review, Approve then the swap; a toast, balances moved by the quote', async () => {
    const s = await connected(5)
    const usdcBefore = await tokenBalance('USDC', s.account)
    const ethBefore = await sandbox.reader().getBalance({ address: s.account })

    await fillForm(s, 'USDC', 'ETH', '100')
    const quoted = BigInt(s.swap().getSnapshot().context.quote!.toAmount)
    expect(quoted).toBeGreaterThan(0n)
    // What the form shows is the quote.
    expect(Number(textbox('You receive').value)).toBeCloseTo(Number(quoted) / 1e18, 5)

    fireEvent.click(button('Review swap'))
    await showView('SwapPreview')
    expect(screen.getByTestId('swap-pay').textContent).toContain('100 USDC')
    expect(screen.getByTestId('swap-receive').textContent).toMatch(/ETH$/)
    expect(screen.getByTestId('swap-slippage').textContent).toBe('1 %')
    expect(screen.getByTestId('swap-gas').textContent).toMatch(/^up to 0\.\d+ ETH$/)
    // No allowance yet: the action is Approve.
    await waitFor(() => expect(button('Approve').disabled).toBe(false), { timeout: 10_000 })

    // The quote is asked for again while the preview is open.
    await s.advance(SWAP_QUOTE_REFRESH_MS)
    await waitFor(() => expect(button('Approve').disabled).toBe(false), { timeout: 10_000 })
    expect(screen.getByTestId('swap-quote-age').textContent).toMatch(/^Quote updated \d+ s ago/)

    const kinds: string[] = []
    s.swap().on('swap.submitted', (notice) => kinds.push(notice.kind))
    const final = BigInt(s.swap().getSnapshot().context.quote!.toAmount)
    // The wallet keeps the visitor thinking over the second transaction (the swap).
    let release = () => {}
    const thinking = new Promise<void>((resolve) => {
      release = resolve
    })
    holdTransaction = (count) => (count === 2 ? thinking : undefined)
    fireEvent.click(button('Approve'))
    // The approval mined, the action reads Swap; the wallet is asked for it. Once the wallet holds the swap there
    // is no Cancel: a second swap must never be asked for while the first is live in the wallet.
    await waitFor(
      () => expect(within(dialog()).getByRole('status').textContent).toBe('Confirm the swap in your wallet…'),
      { timeout: 20_000 },
    )
    expect(kinds).toEqual(['approve'])
    expect(button('Swap').disabled).toBe(true)
    expect(within(dialog()).queryByRole('button', { name: 'Approve' })).toBeNull()
    expect(within(dialog()).queryByRole('button', { name: 'Cancel' })).toBeNull()
    release()
    await waitFor(() => expect(kinds).toEqual(['approve', 'swap']), { timeout: 20_000 })
    // Success: the kit shows the toast and goes back to Account.
    await showView('Account')
    await s.advance(TOAST_RESHOW_MS)
    await waitFor(() => {
      expect(toast()?.getAttribute('role')).toBe('status')
      expect(toast()?.textContent).toMatch(/^Swapped 100 USDC for [\d.]+ ETH$/)
    })

    expect(await tokenBalance('USDC', s.account)).toBe(usdcBefore - parseUnits('100', 6))
    // ETH received, less the gas of two transactions: at least what the 1 % slippage allows, at most the quote.
    const ethAfter = await sandbox.reader().getBalance({ address: s.account })
    const gas = parseUnits('0.01', 18)
    expect(ethAfter - ethBefore).toBeGreaterThan((final * 99n) / 100n - gas)
    expect(ethAfter - ethBefore).toBeLessThanOrEqual(final)
  })

  it('ETH → USDC needs no approval: the action reads Swap; Back keeps the form', async () => {
    const s = await connected(6)
    const usdcBefore = await tokenBalance('USDC', s.account)
    await fillForm(s, 'ETH', 'USDC', '0.01')
    fireEvent.click(button('Review swap'))
    await showView('SwapPreview')
    await waitFor(() => expect(button('Swap').disabled).toBe(false), { timeout: 10_000 })
    expect(within(dialog()).queryByRole('button', { name: 'Approve' })).toBeNull()

    // Back to the form, values kept, and forward again.
    fireEvent.click(button('Back'))
    await showView('Swap')
    expect(textbox('You pay').value).toBe('0.01')
    expect(button('Select token to pay: ETH')).toBeDefined()
    await waitFor(() => expect(button('Review swap').disabled).toBe(false))
    fireEvent.click(button('Review swap'))
    await showView('SwapPreview')
    await waitFor(() => expect(button('Swap').disabled).toBe(false), { timeout: 10_000 })
    const quoted = BigInt(s.swap().getSnapshot().context.quote!.toAmount)
    fireEvent.click(button('Swap'))
    await showView('Account')
    await s.advance(TOAST_RESHOW_MS)
    await waitFor(() => expect(toast()?.textContent).toContain('Swap'))
    const received = (await tokenBalance('USDC', s.account)) - usdcBefore
    expect(received).toBeGreaterThanOrEqual((quoted * 99n) / 100n)
    expect(received).toBeLessThanOrEqual(quoted)
  })

  it('the review button names the problem; Switch tokens reverses the pair; Max pays the whole balance', async () => {
    const s = await connected(8)
    await fillForm(s, 'USDC', 'STK', '1')
    type(textbox('You pay'), '1000000')
    await s.advance(SWAP_QUOTE_DEBOUNCE_MS)
    const review = () =>
      within(dialog()).getByRole('button', { name: /Review swap|Insufficient balance/ }) as HTMLButtonElement
    await waitFor(() => expect(review().textContent).toBe('Insufficient balance'), { timeout: 10_000 })
    expect(review().disabled).toBe(true)
    expect(textbox('You pay').getAttribute('aria-invalid')).toBe('true')

    fireEvent.click(button('Switch tokens'))
    expect(button('Select token to pay: STK')).toBeDefined()
    expect(button('Select token to receive: USDC')).toBeDefined()
    fireEvent.click(button('Max'))
    const stk = await tokenBalance('STK', s.account)
    expect(parseUnits(textbox('You pay').value, 18)).toBe(stk)
    await s.advance(SWAP_QUOTE_DEBOUNCE_MS)
    await waitFor(() => expect(review().disabled).toBe(false), { timeout: 10_000 })
    expect(review().textContent).toBe('Review swap')
    expect(textbox('You pay').getAttribute('aria-invalid')).toBeNull()
  })

  it('a failing quote call shows its error with Try again, which recovers', async () => {
    const s = await connected(7)
    await setFault({ mode: 'fail', path: '/v1/convert/quotes' })
    fireEvent.click(button('Swap'))
    await showView('Swap')
    for (const [picker, symbol] of [
      ['Select token to pay', 'USDC'],
      ['Select token to receive', 'STK'],
    ] as const) {
      fireEvent.click(await within(dialog()).findByRole('button', { name: new RegExp(`^${picker}`) }))
      await showView('SwapSelectToken')
      fireEvent.click(await within(dialog()).findByRole('button', { name: symbol }, { timeout: 10_000 }))
      await showView('Swap')
    }
    type(textbox('You pay'), '5')
    await s.advance(SWAP_QUOTE_DEBOUNCE_MS)
    await waitFor(() => expect(within(dialog()).getByRole('alert').textContent).toMatch(/quote/i), {
      timeout: 10_000,
    })
    // No quote: Try again takes the review's place.
    expect(within(dialog()).queryByRole('button', { name: 'Review swap' })).toBeNull()
    await setFault({ mode: 'off' })
    fireEvent.click(button('Try again'))
    await waitFor(() => expect(button('Review swap').disabled).toBe(false), { timeout: 10_000 })
    expect(within(dialog()).queryByRole('alert')).toBeNull()
    expect(textbox('You pay').value).toBe('5')
    expect(Number(textbox('You receive').value)).toBeGreaterThan(0)
  })
})
