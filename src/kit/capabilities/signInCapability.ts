import type { Capability } from '../../machines/capability'
import type { Eip155Account } from '../../machines/connection'
import { evmAccount } from '../../machines/kit/rules'
import type { SignInAccount, SignInEvent } from '../../machines/signIn'
import { signInConfig, signInRequired, siwxOf } from '../../siwx/adapter'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    /** What ConnectingSiwe and `useKitSession().signOut` send sign-in (forwarded once it runs). */
    signIn: Extract<SignInEvent, { type: 'signIn.sign' | 'signIn.cancel' | 'signIn.signOut' }>
  }
}

/** The account and chain sign-in is about: the connected address on its CAIP-2 chain. */
export const signInAccount = (account: Pick<Eip155Account, 'address' | 'chainId'>): SignInAccount => ({
  address: account.address,
  chainId: `eip155:${account.chainId}`,
})

/**
 * Sign-in with the wallet (SPEC §1 `siwx`, eip155): the sign-in machine (src/machines/signIn.ts) over the host's
 * SIWX config. It loads at the kit's start when the host configured sign-in, so a reconnect finds its session,
 * and follows the eip155 account itself (every connect, chain change and disconnect). A fresh eip155 connect
 * goes on to ConnectingSiwe, which stays open while it looks for a session; leaving ConnectingSiwe is "Cancel".
 * Its code and glue: src/kit/load/signIn.ts.
 */
export const signInCapability: Capability = {
  id: 'signIn',
  views: ['ConnectingSiwe'],
  offered: ({ config }) => signInConfig(config) !== undefined,
  atStart: ({ config }) => signInConfig(config) !== undefined,
  load: async (services) => {
    const [{ signInCapabilityCode }, siwx] = await Promise.all([
      import('../load/signIn'),
      siwxOf(services.config),
    ])
    return signInCapabilityCode(services, siwx!)
  },
  input: ({ config }) => ({ required: signInRequired(config) }),
  /** Each eip155 account (a session is for one account on one chain), and its disconnect. */
  accounts: (change) => {
    if (change.change !== 'started' && change.chain !== 'eip155') return undefined
    if (change.change === 'disconnected') return { type: 'signIn.disconnected' }
    const account = evmAccount(change.accounts.eip155)
    return account ? { type: 'signIn.account', account: signInAccount(account) } : undefined
  },
  afterConnect: ({ connected }) => (evmAccount(connected) ? 'ConnectingSiwe' : undefined),
  /** Closing ConnectingSiwe while sign-in asks is "Cancel" (required: disconnected). */
  leave: () => ({ type: 'signIn.cancel' }),
}
