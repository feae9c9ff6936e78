import type { Capability } from '../../machines/capability'
import { evmAccount } from '../../machines/kit/rules'
import type { NamesEvent } from '../../machines/names/types'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    names: NamesEvent
  }
}

/**
 * Account names (SPEC §1 `names`, eip155 only): the names flow (src/machines/names.ts) for the account shown,
 * signing on its chain. Its code and glue load with Account's "Choose a name" (src/kit/load/names.ts).
 */
export const namesCapability: Capability = {
  id: 'names',
  views: ['RegisterAccountName'],
  offered: ({ config, connected }) => config.features.names && evmAccount(connected) !== undefined,
  perAccount: true,
  load: async (services) => (await import('../load/names')).namesCapabilityCode(services),
  input: ({ connected }) => {
    const account = evmAccount(connected)
    return account ? { address: account.address, chainId: account.chainId } : undefined
  },
}
