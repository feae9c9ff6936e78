import type { KitMetadata } from '../../config'
import type { FrameDappMetadata } from '../../frame/protocol'
import type { ChainNamespace } from '../connection'
import type { WalletsEvent } from '../wallets'
import { tellAccounts } from './capabilities'
import { connectionRuns, DEFAULT_CHAIN, fetchBalances } from './rules'
import type { KitContext, KitEnqueue, KitEvent, KitTheme } from './types'

/*
 * The steps the kit's actions share (src/machines/kit/setup.ts): plain functions of its context that enqueue
 * what the action does.
 */

const WALLETS_EVENTS: ReadonlySet<string> = new Set<WalletsEvent['type']>([
  'wallets.load',
  'wallets.loadMore',
  'wallets.search',
  'wallets.retry',
  'wallets.filter',
])
/** The theme as the login frame's `syncTheme` carries it: the mode and the variables set. */
export function frameTheme({ themeMode, themeVariables }: KitTheme) {
  const variables: Record<string, string> = {}
  for (const [variable, value] of Object.entries(themeVariables))
    if (value !== undefined) variables[variable] = value
  return { themeMode, themeVariables: variables }
}

/** An event the wallet listing's machine takes. */
export const isWalletsEvent = (event: KitEvent): event is WalletsEvent => WALLETS_EVENTS.has(event.type)

/** What is for one account (a capability's flow) ends: another account, chain, or none is connected now. */
export function endAccountFlows(enqueue: KitEnqueue) {
  enqueue.raise({ type: 'capabilities.accountChanged' })
}

/**
 * Makes `namespace` the active one: its account (if any) is the one the views and the host see, its balances
 * are read, and what was for the other one's account (a swap, a send form) ends. The capabilities that follow
 * the accounts hear it (`activated`), unless the change that led here told them already (`told`).
 */
export function activate(
  context: KitContext,
  enqueue: KitEnqueue,
  chain: ChainNamespace,
  { told = false }: { told?: boolean } = {},
) {
  const connected = context.accounts[chain]
  enqueue.assign({ activeNamespace: chain, connected })
  enqueue.sendTo('chainStore', { type: 'chain.active', chain })
  enqueue.sendTo('modal', { type: 'modal.connected', connected: connected !== undefined })
  if (!told)
    tellAccounts(enqueue, context, {
      change: 'activated',
      chain,
      accounts: context.accounts,
      shown: connected,
      shownChanged: connected !== context.connected,
    })
  endAccountFlows(enqueue)
  if (connected) fetchBalances(context, enqueue, connected)
  else if (context.account) enqueue.sendTo(context.account, { type: 'account.clear' })
}

/** The active namespace's own WalletConnect connector when it is not the default one (Solana's); none otherwise. */
export function remoteConnector(context: KitContext) {
  const chain = context.activeNamespace
  if (chain === DEFAULT_CHAIN || !connectionRuns(context, chain)) return undefined
  return context.connectors.find((c) => c.chain === chain && c.type === 'walletconnect')
}

export function addAlert(context: KitContext, alert: KitContext['alerts'][number]) {
  return context.alerts.some((a) => a.code === alert.code) ? {} : { alerts: [...context.alerts, alert] }
}

/** The app as the login frame is told it (`syncDappData`): where wallets send the visitor back is WalletConnect's alone. */
export const frameDappMetadata = ({ redirect: _redirect, ...shown }: KitMetadata): FrameDappMetadata => ({
  ...shown,
  icons: [...shown.icons],
})
