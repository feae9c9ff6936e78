import { PAY_UNAVAILABLE } from '../../errors/pay'
import type { Capability } from '../../machines/capability'
import type { SendEvent } from '../../machines/send/types'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    send: SendEvent
  }
}

/**
 * Sending a token (SPEC §4 "Sending a token"): the send flow (src/machines/send.ts) for the account shown, eip155
 * or Solana. Its code and glue load with its first view or with a payment (src/kit/load/send.ts). It sends as the
 * account shown: it hears each change of it; another account shown, or none, also resets its form (a
 * transaction already sent is still followed to its receipt).
 */
export const sendCapability: Capability = {
  id: 'send',
  views: ['WalletSend', 'WalletSendSelectToken', 'WalletSendPreview'],
  balanceViews: ['WalletSend', 'WalletSendSelectToken'],
  offered: () => true,
  load: async (services) => (await import('../load/send')).sendCapabilityCode(services),
  /** The token picker starts from the balances the account already has; the sender is the account shown. */
  input: ({ balances, connected }) => ({ tokenBalances: [...balances], sender: connected }),
  balances: (tokenBalances) => ({ type: 'send.setTokenBalances', tokenBalances }),
  accounts: (change) => {
    if (change.change === 'started' || !change.shownChanged) return undefined
    const sender: SendEvent = { type: 'send.setSender', sender: change.shown }
    return change.change === 'disconnected' || change.change === 'activated'
      ? [sender, { type: 'send.reset' }]
      : sender
  },
  /** A payment that waited for the send flow is refused (it can be asked again: the next one loads it again). */
  unavailable: (held) =>
    held.some((event) => event.type === 'send.pay') ? [{ type: 'pay.refused', error: PAY_UNAVAILABLE }] : [],
}
