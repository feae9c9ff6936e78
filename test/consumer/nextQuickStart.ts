// The README's Next.js Quick start, as the consumer tier's Next.js host (next.test.ts) builds and runs it.
import { readBlocks } from '../readme/blocks'

/** The README section whose blocks are the Next.js host's files. */
export const NEXT_QUICK_START_SECTION = 'Quick start (Next.js App Router)'

/**
 * The README's Next.js Quick start, file by file: each block of its section names its file on its first line
 * (`// app/layout.tsx`), and is written as it stands, that comment included, as a reader copies it. The kit's
 * machine is created once in a client module, since a server component cannot hand a machine to a client one.
 */
export function nextQuickStart(): Record<string, string> {
  const files: Record<string, string> = {}
  for (const block of readBlocks()) {
    if (block.section === NEXT_QUICK_START_SECTION && block.named) files[block.named] = block.code
  }
  return files
}

/** The Quick start's kit, which next.test.ts points at the sandbox instead (its only difference). */
export const QUICK_START_CHAIN_IMPORT = "import { mainnet } from 'viem/chains'\n"
export const QUICK_START_KIT =
  "const kit = createKitMachine({ projectId: 'YOUR_PROJECT_ID', networks: [mainnet] })"
