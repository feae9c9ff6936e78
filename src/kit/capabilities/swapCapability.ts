import type { Capability } from '../../machines/capability'
import type { ConnectionAccount } from '../../machines/connection'
import { evmAccount } from '../../machines/kit/rules'
import type { SwapEvent } from '../../machines/swap/types'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    swap: SwapEvent
  }
}

/** The account shown, when swaps are served on its namespace (SPEC §1: eip155 and Solana). */
const swapAccount = (account: ConnectionAccount | undefined) =>
  account && (evmAccount(account) !== undefined || account.namespace === 'solana') ? account : undefined

/**
 * Swap (SPEC §2 Swap): the swap flow (src/machines/swap.ts) for the eip155 or Solana account shown, with
 * `features.swaps` (Solana's swaps are its convert API's maker's: src/actors/solanaSwap.ts).
 * Its code and glue load with its first view (src/kit/load/swap.ts).
 */
export const swapCapability: Capability = {
  id: 'swap',
  views: ['Swap', 'SwapSelectToken', 'SwapPreview'],
  balanceViews: ['Swap', 'SwapSelectToken'],
  offered: ({ config, connected }) => config.features.swaps && swapAccount(connected) !== undefined,
  perAccount: true,
  load: async (services) => (await import('../load/swap')).swapCapabilityCode(services),
  /** For the account and chain shown, from the balances the account has. */
  input: ({ config, connected, balances }) => {
    const account = swapAccount(connected)
    return account
      ? {
          chainId: account.chainId,
          userAddress: account.address,
          // On Solana the wallet asked to sign after the maker.
          ...(account.namespace === 'solana' ? { connectorId: account.connectorId } : {}),
          balances: [...balances],
          ...(config.swapSlippage ? { slippage: config.swapSlippage } : {}),
        }
      : undefined
  },
  balances: (balances) => ({ type: 'swap.setBalances', balances }),
}
