// The entry of the WalletConnect bundle (scripts/walletconnect-bundle.mjs): the kit's inner connector, and
// WalletConnect's two largest libraries as chunks of their own.
//
// A host's bundler makes one chunk of everything only one `import()` reaches: the provider and all it imports were
// one chunk of ~590 kB, over the 500 kB a Vite host warns about. Imported here too, @walletconnect/utils and
// @walletconnect/core are reached by two `import()`s, so they stay chunks of their own in the host's build
// (each under 300 kB). They are fetched beside the provider, which imports them anyway: nothing more is loaded.
import type { LazyWalletConnectParameters } from '../src/chains/eip155/walletConnect'
import { createInnerWalletConnect as createInner } from '../src/chains/eip155/walletConnectInner'

// The sign client the provider runs on, for the Solana adapter's WalletConnect pairing (src/chains/solana/
// walletConnect.ts): one WalletConnect client in the package, not a second copy installed beside it.
export { SignClient } from '@walletconnect/sign-client'

let fetched = false

export function createInnerWalletConnect(
  parameters: LazyWalletConnectParameters,
): ReturnType<typeof createInner> {
  if (!fetched) {
    fetched = true
    // A failed fetch is the provider's to report, when its own import of the same chunk fails.
    Promise.all([import('@walletconnect/utils'), import('@walletconnect/core')]).catch(() => {})
  }
  return createInner(parameters)
}
