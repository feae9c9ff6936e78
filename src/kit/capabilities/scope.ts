import type { ConnectionAccount, Eip155Account } from '../../machines/connection'

/** The account if it is on eip155 (swap, Buy and names are eip155's). */
export const evmAccount = (account: ConnectionAccount | undefined): Eip155Account | undefined =>
  account && account.namespace !== 'solana' ? account : undefined
