import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startE2e } from './support.ts'

/*
 * The e2e tier's global setup (vitest.e2e.config.ts), run once before its files, which run two at a time, each
 * with its own sandbox. Each sandbox serves the demo and the wallet pages with Vite dev servers that share
 * Vite's dependency caches (node_modules/.vite): on a fresh clone the first visit optimises the dependencies
 * into them, and two servers doing that at once in one folder clash. So when a cache is missing, one sandbox
 * is started here and its pages visited once, which fills the caches before any file starts.
 */
const CACHES = ['../../node_modules/.vite/deps/', '../../node_modules/.vite/sandbox-wallets/deps/'].map(
  (path) => fileURLToPath(new URL(`${path}_metadata.json`, import.meta.url)),
)

export default async function warmUp(): Promise<void> {
  if (CACHES.every((path) => existsSync(path))) return
  const e2e = await startE2e()
  try {
    // The demo loads the injected wallets' scripts from the wallets server: both caches fill.
    const page = await e2e.newPage()
    await page
      .locator('button[aria-haspopup="dialog"]')
      .getByText('Connect Wallet')
      .waitFor({ timeout: 120_000 })
    // The WalletConnect wallet page (its own entry on the wallets server).
    await page.goto(e2e.sandbox.wallets.wcWalletUrl)
    await page.waitForLoadState('load')
    await page.close()
  } finally {
    await e2e.close()
  }
}
