import type { Capability } from '../../machines/capability'
import { evmAccount } from '../../machines/kit/rules'
import type { SmartSessionsAccount, SmartSessionsEvent } from '../../machines/smartSessions/events'
import type { KitStore } from '../../storage'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    smartSessions: Exclude<SmartSessionsEvent, { type: 'smartSessions.account' | 'smartSessions.stored' }>
  }
}

const sessionsAccountOf = (account: Parameters<typeof evmAccount>[0]): SmartSessionsAccount | undefined => {
  const evm = evmAccount(account)
  return evm ? { address: evm.address, chainId: evm.chainId } : undefined
}

/**
 * ERC-7715 permissions (`features.smartSessions`, off by default): the host's grants and revokes
 * (src/machines/smartSessions.ts), from the eip155 account shown. Offered only with the feature on: its code
 * and glue load with the host's first request (src/kit/load/smartSessions.ts), or at the kit's start when
 * permissions granted in an earlier visit are stored (so they are listed again), never otherwise. It follows the
 * account itself, so what was granted stays listed across a change of the account shown. Built by the
 * composition root, which holds the kit's store (none: nothing is stored).
 */
export function smartSessionsCapabilityFor(store: KitStore | undefined): Capability {
  return {
    id: 'smartSessions',
    views: [],
    offered: ({ config }) => config.features.smartSessions,
    atStart: ({ config }) =>
      config.features.smartSessions && (store?.read('grantedPermissions')?.length ?? 0) > 0,
    load: async (services) =>
      (await import('../load/smartSessions')).smartSessionsCapabilityCode(services, store),
    input: ({ config, connected }) => ({
      enabled: config.features.smartSessions,
      account: sessionsAccountOf(connected),
    }),
    accounts: (change) => {
      if (change.change === 'started' || !change.shownChanged) return undefined
      return { type: 'smartSessions.account', account: sessionsAccountOf(change.shown) }
    },
  }
}

/** Smart sessions without storage: what is granted is listed in this page only. */
export const smartSessionsCapability: Capability = smartSessionsCapabilityFor(undefined)
