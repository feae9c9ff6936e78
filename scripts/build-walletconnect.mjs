// Builds the WalletConnect bundle (src/chains/eip155/vendor/; see scripts/walletconnect-bundle.mjs).
//
//   node scripts/build-walletconnect.mjs               (re)builds it
//   node scripts/build-walletconnect.mjs --if-missing  only when it is missing or was built from other sources
//                                                     (what start, build, test and the vitest configs run)
import { ensureWalletConnectBundle } from './walletconnect-bundle.mjs'

await ensureWalletConnectBundle({ force: !process.argv.includes('--if-missing') })
