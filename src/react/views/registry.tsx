import { type ComponentType, lazy } from 'react'
import type { ViewName } from '../../views'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { ConnectView } from './Connect'
import { preloadable } from './preloadable'

/**
 * Account: the view a connected visitor's click opens. Its own chunk, fetched as soon as a visitor is connected
 * ({@link preloadAccountView}), so that click never waits for it.
 */
const account = preloadable(() => import('./Account'))

/** Starts fetching the Account view's code (once; again after a failed fetch). */
export function preloadAccountView(): void {
  account.preload().catch(() => {
    // Nothing to do: when the view is shown, its lazy component fetches it again.
  })
}

/**
 * Which component renders each view. Connect ships with the kit; Account is fetched ahead once a visitor is
 * connected; every other view is a separate chunk loaded when first shown (DESIGN.md: feature views load on
 * demand).
 */
const lazyViews: Partial<Record<ViewName, ComponentType>> = {
  WhatIsAWallet: lazy(() => import('./WhatIsAWallet')),
  Networks: lazy(() => import('./Networks')),
  UnsupportedChain: lazy(() => import('./UnsupportedChain')),
  ConnectingExternal: lazy(() => import('./ConnectingExternal')),
  ConnectingSiwe: lazy(() => import('./ConnectingSiwe')),
  ConnectingWalletConnect: lazy(() => import('./ConnectingWalletConnect')),
  AllWallets: lazy(() => import('./AllWallets')),
  EmailVerifyOtp: lazy(() => import('./EmailVerifyOtp')),
  EmailVerifyDevice: lazy(() => import('./EmailVerifyDevice')),
  ConnectingSocial: lazy(() => import('./ConnectingSocial')),
  ConnectingFarcaster: lazy(() => import('./ConnectingFarcaster')),
  ApproveTransaction: lazy(() => import('./ApproveTransaction')),
  UpdateEmailWallet: lazy(() => import('./UpdateEmailWallet')),
  UpdateEmailPrimaryOtp: lazy(() => import('./UpdateEmailPrimaryOtp')),
  UpdateEmailSecondaryOtp: lazy(() => import('./UpdateEmailSecondaryOtp')),
  WalletReceive: lazy(() => import('./WalletReceive')),
  WalletSend: lazy(() => import('./WalletSend')),
  WalletSendSelectToken: lazy(() => import('./WalletSendSelectToken')),
  WalletSendPreview: lazy(() => import('./WalletSendPreview')),
  Swap: lazy(() => import('./Swap')),
  SwapSelectToken: lazy(() => import('./SwapSelectToken')),
  SwapPreview: lazy(() => import('./SwapPreview')),
}

/** Pay's view: fetched only for a payment the host opened (`pay.open`, with `features.pay` on). */
const PayView = lazy(() => import('./Pay'))

/** Pay by its name alone (`open('Pay')`) shows why nothing is there, and fetches no Pay code. */
function PayGate() {
  const kit = useKitActor()
  const paying = useSelector(kit, (s) => s.context.pay?.status === 'paying')
  const on = useSelector(kit, (s) => s.context.config.features.pay)
  if (paying) return <PayView />
  return (
    <p className="ws-error-text" role="alert">
      {on ? 'Pay opens with a payment from the app.' : 'Pay is not enabled.'}
    </p>
  )
}

const Unavailable = lazy(() => import('./Unavailable'))

export function viewComponent(view: ViewName): ComponentType {
  if (view === 'Connect') return ConnectView
  if (view === 'Account') return account.component
  if (view === 'Pay') return PayGate
  return lazyViews[view] ?? Unavailable
}

const TITLES: Partial<Record<ViewName, string>> = {
  Connect: 'Connect Wallet',
  Account: 'Account',
  AllWallets: 'All Wallets',
  Networks: 'Choose Network',
  SwitchNetwork: 'Switch Network',
  UnsupportedChain: 'Switch Network',
  WhatIsAWallet: 'What is a Wallet?',
  ConnectingExternal: 'Connecting',
  ConnectingSiwe: 'Sign In',
  ConnectingWalletConnect: 'WalletConnect',
  ApproveTransaction: 'Approve Transaction',
  EmailVerifyOtp: 'Confirm Email',
  EmailVerifyDevice: 'Register Device',
  ConnectingSocial: 'Log In',
  ConnectingFarcaster: 'Farcaster',
  UpdateEmailWallet: 'Update Email',
  UpdateEmailPrimaryOtp: 'Confirm Current Email',
  UpdateEmailSecondaryOtp: 'Confirm New Email',
  WalletSend: 'Send',
  WalletSendSelectToken: 'Select Token',
  WalletSendPreview: 'Review Send',
  WalletReceive: 'Receive',
  Swap: 'Swap',
  SwapSelectToken: 'Select Token',
  SwapPreview: 'Review Swap',
  Transactions: 'Activity',
  RegisterAccountName: 'Choose Name',
  Pay: 'Pay',
}

/** The header text of a view; views without their own title show their name split into words. */
export function viewTitle(view: ViewName): string {
  return TITLES[view] ?? view.replace(/([a-z])([A-Z])/g, '$1 $2')
}
