import type { Capability } from '../../machines/capability'
import { evmAccount } from '../../machines/kit/rules'
import type { SwapEvent } from '../../machines/swap/types'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    swap: SwapEvent
  }
}

/**
 * Swap (SPEC §2 Swap): the swap flow (src/machines/swap.ts) for the eip155 account shown, with `features.swaps`.
 * Its code and glue load with its first view (src/kit/load/swap.ts).
 */
export const swapCapability: Capability = {
  id: 'swap',
  views: ['Swap', 'SwapSelectToken', 'SwapPreview'],
  balanceViews: ['Swap', 'SwapSelectToken'],
  offered: ({ config, connected }) => config.features.swaps && evmAccount(connected) !== undefined,
  perAccount: true,
  load: async (services) => (await import('../load/swap')).swapCapabilityCode(services),
  /** For the account and chain shown, from the balances the account has. */
  input: ({ config, connected, balances }) => {
    const account = evmAccount(connected)
    return account
      ? {
          chainId: account.chainId,
          userAddress: account.address,
          balances: [...balances],
          ...(config.swapSlippage ? { slippage: config.swapSlippage } : {}),
        }
      : undefined
  },
  balances: (balances) => ({ type: 'swap.setBalances', balances }),
}
