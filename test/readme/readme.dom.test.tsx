// @vitest-environment happy-dom
import { fireEvent, waitFor, within } from '@testing-library/react'
import { describe, expect, it, type MockInstance, vi } from 'vitest'
import { type Block, readAllBlocks, writeBlocks } from './blocks'
import { runBlocks } from './run'

// Every ```tsx block of README.md runs here, in happy-dom, on a page whose body is an empty `<div id="root">`
// (type-checked with the ts blocks in readme.test.ts). A block that renders into #root must show something
// there, and no block may log an error (React reports a failed render with console.error).
const all = readAllBlocks()
writeBlocks(all)
const blocks = all.filter((b) => b.lang === 'tsx')

/** Room for a first render on a busy machine (the unit tier runs its files side by side). */
const wait = { timeout: 5_000 }

/** What a block of a given section must show once it ran, beyond rendering something. */
const shows: Record<string, (root: HTMLElement) => Promise<void>> = {
  'Quick start (Vite, or any React app)': async (root) => {
    const button = await within(root).findByRole('button', { name: 'Connect Wallet' }, wait)
    expect(button.getAttribute('data-status')).toBe('disconnected')
    within(root).getByText('Your app')
  },
  'Using the kit in your components': async (root) => {
    await within(root).findByText('The kit is closed', {}, wait)
  },
  'Your own wagmi config': async (root) => {
    await within(root).findByRole('button', { name: 'Connect Wallet' }, wait)
    within(root).getByText('Not connected')
  },
  Save: async (root) => {
    await within(root).findByRole('button', { name: 'Connect Wallet' }, wait)
  },
  Theme: async (root) => {
    fireEvent.click(await within(root).findByRole('button', { name: 'Switch to the light theme' }, wait))
    await within(root).findByRole('button', { name: 'Switch to the dark theme' }, wait)
  },
}

let errors: MockInstance<typeof console.error> | undefined

describe('README code blocks (tsx)', () => {
  it('each section with expectations still has a block', () => {
    expect(Object.keys(shows).filter((section) => !blocks.some((b) => b.section === section))).toEqual([])
  })

  runBlocks(blocks, {
    setup: () => {
      document.body.innerHTML = '<div id="root"></div>'
      errors?.mockRestore()
      errors = vi.spyOn(console, 'error')
    },
    check: async (block: Block) => {
      const root = document.getElementById('root')!
      if (/getElementById\(\s*['"]root['"]\s*\)/.test(block.code)) {
        await waitFor(() => expect(root.childElementCount).toBeGreaterThan(0), wait)
      }
      await shows[block.section]?.(root)
      expect(errors).not.toHaveBeenCalled()
    },
  })
})
