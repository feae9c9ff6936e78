import type { ChainNamespace, ConnectionAccount } from '../connection'
import type { WalletsEvent } from '../wallets'
import { fetchBalances } from './rules'
import type { KitContext, KitEvent, KitTheme } from './types'

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
  for (const [name, value] of Object.entries(themeVariables)) if (value !== undefined) variables[name] = value
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
 * are read, and what was for the other one's account (a swap, a send form) ends.
 */
export function activate(context: KitContext, enqueue: KitEnqueue, namespace: ChainNamespace) {
  const connected = context.accounts[namespace]
  enqueue.assign({ activeNamespace: namespace, connected })
  enqueue.sendTo('namespaceStore', { type: 'namespace.active', namespace })
  enqueue.sendTo('modal', { type: 'modal.connected', connected: connected !== undefined })
  if (context.sendFlow) enqueue.sendTo(context.sendFlow, { type: 'send.reset' })
  tellSender(context, enqueue, connected)
  endAccountFlows(enqueue)
  if (connected) fetchBalances(context, enqueue, connected)
  else if (context.account) enqueue.sendTo(context.account, { type: 'account.clear' })
}

/** The send flow is asked to take the payment (as the active account): its form, reset, becomes the payment. */
export function askPay(
  context: KitContext,
  enqueue: KitEnqueue,
  pending: NonNullable<KitContext['payPending']>,
) {
  const send = context.sendFlow
  if (!send) return
  enqueue.sendTo(send, { type: 'send.reset' })
  enqueue.sendTo(send, { type: 'send.setSender', sender: context.connected })
  enqueue.sendTo(send, { type: 'send.pay', request: pending.request, networks: context.config.networks })
}

/** The send flow sends as the active account: it hears each change (a Solana send signs with its connector). */
export function tellSender(context: KitContext, enqueue: KitEnqueue, sender: ConnectionAccount | undefined) {
  if (context.sendFlow) enqueue.sendTo(context.sendFlow, { type: 'send.setSender', sender })
}

/** Solana's WalletConnect connector when Solana is the active namespace; eip155's WalletConnect otherwise. */
export function remoteConnector(context: KitContext) {
  if (context.activeNamespace !== 'solana' || !context.solana) return undefined
  return context.connectors.find((c) => c.chain === 'solana' && c.type === 'walletconnect')
}

export function addAlert(context: KitContext, alert: KitContext['alerts'][number]) {
  return context.alerts.some((a) => a.code === alert.code) ? {} : { alerts: [...context.alerts, alert] }
}

/** What the kit's rules enqueue, structurally (xstate's enqueuer is generic over the whole setup). */
export interface KitEnqueue {
  assign: (values: Partial<KitContext>) => void
  // biome-ignore lint/suspicious/noExplicitAny: any child or the modal by its id; the events are checked where built
  sendTo: (to: any, event: any) => void
  raise: (event: KitEvent) => void
}
