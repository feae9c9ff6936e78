import { describe, it } from 'vitest'
import type { Block } from './blocks'

/**
 * Runs each block as a module (a dynamic import of its copy: Vite transforms it as any test file). A block that
 * imports vitest is a test file of its own: it is imported while the suite is collected, so its `describe`s and
 * `it`s run as tests under the block's name. Any other block is one test: importing it runs its code, and the
 * test fails on what it throws (or rejects with, for top-level await), then on `check`.
 */
export function runBlocks(
  blocks: Block[],
  options: { setup?: (block: Block) => void; check?: (block: Block) => Promise<void> } = {},
): void {
  for (const block of blocks) {
    if (/from\s+['"]vitest['"]/.test(block.code)) {
      describe(block.name, async () => {
        options.setup?.(block)
        await import(/* @vite-ignore */ block.file)
      })
    } else {
      it(`${block.name} runs`, async () => {
        options.setup?.(block)
        await import(/* @vite-ignore */ block.file)
        await options.check?.(block)
      })
    }
  }
}
