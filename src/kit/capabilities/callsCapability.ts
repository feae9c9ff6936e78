import type { CallsAccount, CallsEvent } from '../../machines/calls/types'
import type { Capability } from '../../machines/capability'
import { evmAccount } from '../../machines/kit/rules'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    calls: Extract<CallsEvent, { type: 'calls.send' | 'calls.showStatus' }>
  }
}

const callsAccountOf = (account: Parameters<typeof evmAccount>[0]): CallsAccount | undefined => {
  const evm = evmAccount(account)
  return evm ? { address: evm.address, chainId: evm.chainId } : undefined
}

/**
 * Batched calls (EIP-5792, SPEC §5 and §7): the host's batches (src/machines/calls.ts), from the eip155 account
 * shown. Its code and glue load with the host's first batch (`calls.send`, which waits for it), never before
 * (src/kit/load/calls.ts). It follows the account itself, so a batch on its way is still followed to its end when
 * the account changes.
 */
export const callsCapability: Capability = {
  id: 'calls',
  views: [],
  offered: () => true,
  load: async (services) => (await import('../load/calls')).callsCapabilityCode(services),
  input: ({ connected }) => ({ account: callsAccountOf(connected) }),
  accounts: (change) => {
    if (change.change === 'started' || !change.shownChanged) return undefined
    return { type: 'calls.account', account: callsAccountOf(change.shown) }
  },
}
