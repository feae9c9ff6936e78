import type { Capability } from '../../machines/capability'
import { evmAccount } from '../../machines/kit/rules'
import type { SmartSessionsAccount, SmartSessionsEvent } from '../../machines/smartSessions/events'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    smartSessions: Exclude<SmartSessionsEvent, { type: 'smartSessions.account' }>
  }
}

const sessionsAccountOf = (account: Parameters<typeof evmAccount>[0]): SmartSessionsAccount | undefined => {
  const evm = evmAccount(account)
  return evm ? { address: evm.address, chainId: evm.chainId } : undefined
}

/**
 * ERC-7715 permissions (`features.smartSessions`, off by default): the host's grants and revokes
 * (src/machines/smartSessions.ts), from the eip155 account shown. Offered only with the feature on: its code
 * and glue load with the host's first request (src/kit/load/smartSessions.ts), never before. It follows the
 * account itself, so what was granted stays listed across a change of the account shown.
 */
export const smartSessionsCapability: Capability = {
  id: 'smartSessions',
  views: [],
  offered: ({ config }) => config.features.smartSessions,
  load: async (services) => (await import('../load/smartSessions')).smartSessionsCapabilityCode(services),
  input: ({ config, connected }) => ({
    enabled: config.features.smartSessions,
    account: sessionsAccountOf(connected),
  }),
  accounts: (change) => {
    if (change.change === 'started' || !change.shownChanged) return undefined
    return { type: 'smartSessions.account', account: sessionsAccountOf(change.shown) }
  },
}
