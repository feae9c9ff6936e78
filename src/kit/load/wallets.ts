import { createWalletsActors } from '../../actors/wallets'
import { walletsMachine } from '../../machines/wallets'

/**
 * The wallet listing's machine and its request slot (the listing client itself loads with the first request).
 * What the kit's `loadWallets` loads, in one `import()` (see ./account.ts).
 */
export function walletsLogic() {
  return walletsMachine.provide({ actors: createWalletsActors() })
}
