import type { Capability } from '../../machines/capability'
import type { ConnectionAccount } from '../../machines/connection'
import { evmAccount } from '../../machines/kit/rules'
import type { OnrampEvent } from '../../machines/onramp/types'
import { isOnrampRestricted } from '../../utils/onrampRegion'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    onramp: OnrampEvent
  }
}

/** The account shown, when the partners deliver on its namespace (eip155 and Solana networks). */
const buyAccount = (account: ConnectionAccount | undefined) =>
  account && (evmAccount(account) !== undefined || account.namespace === 'solana') ? account : undefined

/**
 * Buy (SPEC §1 `onramp`): the Buy flow (src/machines/onramp.ts) for the eip155 or Solana account shown. Offered
 * when `features.onramp` is on, such an account is connected (the partners deliver on eip155 and Solana networks,
 * each to an address of its own namespace) and the visitor's time zone is not one of the restricted ones
 * (SPEC §9, China region). Its code and glue load with its first view (src/kit/load/onramp.ts).
 */
export const onrampCapability: Capability = {
  id: 'onramp',
  views: ['OnRampProviders', 'OnRampFiatSelect', 'OnRampTokenSelect', 'OnRampPurchase'],
  offered: ({ config, connected, timeZone }) =>
    config.features.onramp && buyAccount(connected) !== undefined && !isOnrampRestricted(timeZone),
  perAccount: true,
  load: async (services) => (await import('../load/onramp')).onrampCapabilityCode(services),
  /** Delivering to the account shown, on its chain. */
  input: ({ connected }) => {
    const account = buyAccount(connected)
    return account ? { address: account.address, chainId: account.chainId } : undefined
  },
}
