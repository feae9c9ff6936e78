import { assertEvent } from 'xstate'
import type { ViewName } from '../../views'
import { type ChainNamespace, type ConnectionAccount, chainNamespaceOf, chainOfNotice } from '../connection'
import { tellAccounts, viewAfterConnect } from './capabilities'
import { activate, endAccountFlows, remoteConnector } from './helpers'
import {
  DEFAULT_CHAIN,
  fetchBalances,
  matchConnector,
  multichainAlso,
  multichainConnectorOf,
  pairsWithoutBranding,
  toChainConnection,
} from './rules'
import type { KitContext, KitEnqueue, KitEvent } from './types'

/*
 * The kit's accounts, one per namespace (SPEC §3/§4): what the root does when a connection connects, disconnects,
 * changes chain or account, and when the visitor picks a wallet. The kit's actions (setup.ts) call these; none names
 * a capability.
 */

/** A fresh connection closes the modal and is tracked (SPEC §4); a silent reconnect at start is not. */
export function onConnected(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  assertEvent(event, 'account.connected')
  const chain = chainNamespaceOf(event.account)
  const accounts = { ...context.accounts, [chain]: event.account }
  // A multichain pairing's other namespace (or one reconnected at start) is kept beside the one shown.
  const along = context.pairedAlong.includes(chain)
  const kept = (event.reconnected || along) && chain !== context.activeNamespace
  const shown = kept ? context.connected : event.account
  if (along) enqueue.assign({ pairedAlong: context.pairedAlong.filter((c) => c !== chain) })
  tellAccounts(enqueue, context, {
    change: 'connected',
    chain,
    accounts,
    shown,
    shownChanged: shown !== context.connected,
  })
  // The other namespace reconnected at start: kept for when the visitor turns to it, not shown.
  if (kept) {
    enqueue.assign({ accounts })
    return
  }
  // (The connection stores its namespace as the last used itself.)
  enqueue.assign({
    connected: event.account,
    accounts,
    activeNamespace: chain,
    connecting: undefined,
  })
  // A swap flow is for one account: the one connected now gets its own.
  endAccountFlows(enqueue)
  enqueue.sendTo('modal', { type: 'modal.connected', connected: true })
  if (event.account.connectorId === context.input.connectorIds.walletConnect) {
    enqueue.raise({ type: 'remoteSessions.load' })
    // SPEC §1 multichain: the pairing proposed other namespaces too; each takes what the wallet approved there
    // (`along`: one it did not approve stays as it was, quietly), unless it holds an account of its own already.
    if (!event.reconnected)
      for (const other of context.pairedAlong)
        if (!context.accounts[other])
          toChainConnection(context, enqueue, other, {
            type: 'connection.connect',
            connectorId: multichainConnectorOf(context, other)!,
            method: event.method,
            along: true,
          })
  }
  fetchBalances(context, enqueue, event.account)
  if (event.reconnected) return
  // A capability may go on from a fresh connect in a view of its own (sign-in: ConnectingSiwe, open while it
  // looks for a session); else the modal closes.
  const next = viewAfterConnect({ ...context, accounts }, event.account)
  if (next !== undefined) enqueue.sendTo('modal', { type: 'router.replace', view: next as ViewName })
  else enqueue.sendTo('modal', { type: 'modal.close' })
  enqueue.sendTo('telemetry', {
    type: 'telemetry.send',
    event: {
      type: 'track',
      event: 'CONNECT_SUCCESS',
      properties: { method: event.method, connector: event.account.connectorId },
    },
  })
}

/** Disconnected: the modal closes, the account's balances and the send form go (SPEC §4). */
export function onDisconnected(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  assertEvent(event, 'account.disconnected')
  const chain = chainOfNotice(event)
  const accounts: KitContext['accounts'] = { ...context.accounts }
  delete accounts[chain]
  // SPEC §1 multichain: the default namespace's WalletConnect session ended, and with it the accounts other
  // namespaces took from it (their connections let go of them).
  if (context.accounts[chain]?.connectorId === context.input.connectorIds.walletConnect)
    for (const other of Object.keys(accounts) as ChainNamespace[]) {
      const connectorId = multichainConnectorOf(context, other)
      if (connectorId === undefined || accounts[other]?.connectorId !== connectorId) continue
      delete accounts[other]
      toChainConnection(context, enqueue, other, { type: 'connection.disconnect' })
    }
  // Another namespace still connected (its account is untouched: SPEC §4, disconnect is per chain).
  const other = (Object.keys(accounts) as ChainNamespace[]).find((chain) => accounts[chain] !== undefined)
  // When the one shown goes, the other's is shown, if connected.
  const shown =
    chain !== context.activeNamespace ? context.connected : other === undefined ? undefined : accounts[other]
  tellAccounts(enqueue, context, {
    change: 'disconnected',
    chain,
    accounts,
    shown,
    shownChanged: shown !== context.connected,
  })
  if (chain !== context.activeNamespace) {
    enqueue.assign({ accounts })
    return
  }
  if (other !== undefined) {
    // Still connected on the other namespace: it becomes the active one (the capabilities heard it above).
    enqueue.assign({ accounts, connecting: undefined })
    enqueue.sendTo('modal', { type: 'modal.close' })
    activate({ ...context, accounts }, enqueue, other, { told: true })
    return
  }
  enqueue.assign({ connected: undefined, accounts, connecting: undefined })
  enqueue.sendTo('modal', { type: 'modal.connected', connected: false })
  enqueue.sendTo('modal', { type: 'modal.close' })
  if (context.account) enqueue.sendTo(context.account, { type: 'account.clear' })
  endAccountFlows(enqueue)
}

export function followChain(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  assertEvent(event, 'account.chainChanged')
  const chain = chainOfNotice(event)
  const account = context.accounts[chain]
  if (!account) return
  const moved = { ...account, chainId: event.chainId } as ConnectionAccount
  const accounts = { ...context.accounts, [chain]: moved }
  const active = chain === context.activeNamespace
  enqueue.assign({ accounts })
  tellAccounts(enqueue, context, {
    change: 'chainChanged',
    chain,
    accounts,
    shown: active ? moved : context.connected,
    shownChanged: active,
  })
  if (!active) return
  enqueue.assign({ connected: moved })
  fetchBalances(context, enqueue, moved)
  endAccountFlows(enqueue)
}

/** Another of the wallet's shared accounts is shown (SPEC §3 allAccounts): its balances, and flows start over. */
export function followAccount(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  assertEvent(event, 'account.changed')
  const chain = chainNamespaceOf(event.account)
  if (!context.accounts[chain]) return
  const accounts = { ...context.accounts, [chain]: event.account }
  const active = chain === context.activeNamespace
  enqueue.assign({ accounts })
  tellAccounts(enqueue, context, {
    change: 'accountChanged',
    chain,
    accounts,
    shown: active ? event.account : context.connected,
    shownChanged: active,
  })
  if (!active) return
  enqueue.assign({ connected: event.account })
  fetchBalances(context, enqueue, event.account)
  endAccountFlows(enqueue)
}

export function selectWallet(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  assertEvent(event, 'wallet.select')
  const local = matchConnector(context.connectors, event.wallet)
  // SPEC §1 multichain: a listing wallet on several of the kit's namespaces pairs once for all of them, through
  // the default namespace's WalletConnect pairing, whichever namespace is shown.
  const along = local ? [] : multichainAlso(context, event.wallet)
  // No local connector: WalletConnect, Solana's own while Solana is the namespace shown (issue 17).
  const remote = local || along.length > 0 ? undefined : remoteConnector(context)
  const connectorId = local?.id ?? remote?.id ?? context.input.connectorIds.walletConnect
  const chain: ChainNamespace = local?.chain ?? remote?.chain ?? DEFAULT_CHAIN
  // SPEC §1: the pairing of a wallet that names Bitcoin proposes bip122 too, as optional.
  const alsoPropose =
    along.length > 0 && event.wallet.chainNamespaces?.includes('bip122') && !along.includes('bip122' as never)
      ? [...along, 'bip122']
      : along
  if (chain !== context.activeNamespace) activate(context, enqueue, chain)
  enqueue.assign({ connecting: connectorId, pairedAlong: along })
  toChainConnection(context, enqueue, chain, {
    type: 'connection.connect',
    connectorId,
    wallet: event.wallet,
    method: local ? 'browser' : 'qrcode',
    ...(alsoPropose.length > 0 ? { alsoPropose } : {}),
  })
  enqueue.raise({
    type: 'kit.showConnecting',
    wallet: event.wallet,
    view: local
      ? 'ConnectingExternal'
      : pairsWithoutBranding(event.wallet, context.input.connectorIds.walletConnect)
        ? 'ConnectingWalletConnectBasic'
        : 'ConnectingWalletConnect',
  })
  // The session client follows eip155's WalletConnect provider; Solana's client keeps its own sessions.
  if (!local && !remote) enqueue.raise({ type: 'remoteSessions.load' })
}
