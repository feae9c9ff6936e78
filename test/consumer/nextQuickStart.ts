// The README's Next.js Quick start, as the consumer tier's Next.js host (next.test.ts) builds and runs it.

/**
 * The README's Next.js Quick start, file by file. The server page renders the kit's button (`walletstate/react`
 * is a client module, 'use client' in dist/); the kit's machine is created once in a client module, since a
 * server component cannot hand a machine to a client one.
 */
export const NEXT_QUICK_START = {
  'app/providers.tsx': `'use client'

import type { ReactNode } from 'react'
import { mainnet } from 'viem/chains'
import { createKitMachine, defineEvmNetwork } from 'walletstate'
import { KitRoot } from 'walletstate/react'

const kit = createKitMachine({ projectId: 'YOUR_PROJECT_ID', networks: [defineEvmNetwork(mainnet)] })

export function Providers({ children }: { children: ReactNode }) {
  return <KitRoot machine={kit}>{children}</KitRoot>
}
`,
  'app/layout.tsx': `import type { ReactNode } from 'react'
import { Providers } from './providers'

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  )
}
`,
  'app/page.tsx': `import { ConnectButton } from 'walletstate/react'

export default function Home() {
  return (
    <main>
      <h1>My app</h1>
      <ConnectButton />
    </main>
  )
}
`,
}

/** The Quick start's kit, which next.test.ts points at the sandbox instead (its only difference). */
export const QUICK_START_CHAIN_IMPORT = "import { mainnet } from 'viem/chains'\n"
export const QUICK_START_KIT =
  "const kit = createKitMachine({ projectId: 'YOUR_PROJECT_ID', networks: [defineEvmNetwork(mainnet)] })"
