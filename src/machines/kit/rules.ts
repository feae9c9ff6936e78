import type { ViewName } from '../../views'
import type { ChosenWallet, ConnectorInfo } from '../connection'
import type { ModalEvent } from '../modal'
import type { SendNotice } from '../send'
import type { KitContext } from './types'

/*
 * The kit's cross-machine rules as plain functions of its context and an event: its guards call them, and
 * tests can read them without a running kit.
 */

/** The view the modal shows, or undefined while it is closed. */
export const shownView = (context: Pick<KitContext, 'modal'>): ViewName | undefined =>
  context.modal.open ? context.modal.history.at(-1) : undefined

/** SPEC §2: after a send, an ERC-20 send returns to Account, a native one goes back. */
export function routeAfterSend(notice: Extract<SendNotice, { type: 'send.succeeded' }>): ModalEvent {
  return notice.native ? { type: 'router.back' } : { type: 'router.replace', view: 'Account' }
}

/** Views of the frame's login flows: leaving one cancels the flow. */
export const FRAME_FLOW_VIEWS: ReadonlySet<ViewName> = new Set<ViewName>([
  'EmailVerifyOtp',
  'EmailVerifyDevice',
  'ConnectingSocial',
  'ConnectingFarcaster',
  'UpdateEmailWallet',
  'UpdateEmailPrimaryOtp',
  'UpdateEmailSecondaryOtp',
])

/** Views whose machine loads on demand: showing one sends its load event. */
export const SEND_VIEWS: ReadonlySet<ViewName> = new Set<ViewName>([
  'WalletSend',
  'WalletSendSelectToken',
  'WalletSendPreview',
])

/** A listing wallet matches an installed connector by rdns, else by id (an EIP-6963 connector's id is its rdns). */
export function matchConnector(
  connectors: readonly ConnectorInfo[],
  wallet: ChosenWallet,
): ConnectorInfo | undefined {
  return connectors.find(
    (c) =>
      c.type !== 'walletconnect' &&
      (c.id === wallet.id || (wallet.rdns !== undefined && (c.rdns === wallet.rdns || c.id === wallet.rdns))),
  )
}
