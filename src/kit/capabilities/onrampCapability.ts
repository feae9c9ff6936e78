import type { Capability } from '../../machines/capability'
import { evmAccount } from '../../machines/kit/rules'
import type { OnrampEvent } from '../../machines/onramp/types'
import { isOnrampRestricted } from '../../utils/onrampRegion'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    onramp: OnrampEvent
  }
}

/**
 * Buy (SPEC §1 `onramp`): the Buy flow (src/machines/onramp.ts) for the eip155 account shown. Offered when
 * `features.onramp` is on, an eip155 account is connected (the partners deliver on eip155 networks) and the
 * visitor's time zone is not one of the restricted ones (SPEC §9, China region). Its code and glue load with
 * its first view (src/kit/load/onramp.ts).
 */
export const onrampCapability: Capability = {
  id: 'onramp',
  views: ['OnRampProviders', 'OnRampFiatSelect', 'OnRampTokenSelect', 'OnRampPurchase'],
  offered: ({ config, connected, timeZone }) =>
    config.features.onramp && evmAccount(connected) !== undefined && !isOnrampRestricted(timeZone),
  perAccount: true,
  load: async (services) => (await import('../load/onramp')).onrampCapabilityCode(services),
  /** Delivering to the account shown, on its chain. */
  input: ({ connected }) => {
    const account = evmAccount(connected)
    return account ? { address: account.address, chainId: account.chainId } : undefined
  },
}
