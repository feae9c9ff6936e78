import { type ComponentType, lazy } from 'react'
import type { RegisteredCapability } from '../../machines/capability'
import type { PayActorRef } from '../../machines/pay'
import type { ViewName } from '../../views'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useCapability } from '../hooks'
import { en, type MessageKey, type Translate, useT } from '../i18n'
import { ConnectView } from './Connect'
import { preloadable } from './preloadable'

/**
 * Account: the view a connected visitor's click opens. Its own chunk, fetched as soon as a visitor is connected
 * ({@link preloadAccountView}), so that click never waits for it.
 */
const account = preloadable(() => import('./accountChunk'))

/**
 * The connected account's name for the host button (issue 20): it comes with the Account view's code
 * (views/accountChunk.ts), fetched once a visitor is connected, and the Data API client with it.
 */
export const AccountNameLabel = lazy(() =>
  account.preload().then((module) => ({ default: module.AccountNameLabel })),
)

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
  ConnectingWalletConnectBasic: lazy(() =>
    import('./ConnectingWalletConnect').then((module) => ({ default: module.ConnectingWalletConnectBasic })),
  ),
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
  OnRampProviders: lazy(() => import('./OnRampProviders')),
  OnRampFiatSelect: lazy(() => import('./OnRampFiatSelect')),
  OnRampTokenSelect: lazy(() => import('./OnRampTokenSelect')),
  OnRampPurchase: lazy(() => import('./OnRampPurchase')),
  RegisterAccountName: lazy(() => import('./RegisterAccountName')),
  RegisterAccountNameSuccess: lazy(() => import('./RegisterAccountNameSuccess')),
}

/** Pay's view: fetched only for a payment the host opened (`pay.open`, with `features.pay` on). */
const PayView = lazy(() => import('./Pay'))

/** Pay by its name alone (`open('Pay')`) shows why nothing is there, and fetches no Pay code. */
function PayGate() {
  const kit = useKitActor()
  const pay = useCapability<PayActorRef>('pay').actor
  const paying = useSelector(pay, (s) => s?.context.pay?.status === 'paying')
  const on = useSelector(kit, (s) => s.context.config.features.pay)
  const t = useT()
  if (paying) return <PayView />
  return (
    <p className="ws-error-text" role="alert">
      {on ? t('pay.gateOn') : t('pay.gateOff')}
    </p>
  )
}

const Unavailable = lazy(() => import('./Unavailable'))

/** The components of capabilities' own views, made lazy once per loader (a capability's `components`). */
const capabilityViews = new Map<() => Promise<{ default: unknown }>, ComponentType>()

/**
 * The component that draws a view: the kit's own, or the one a registered capability brings for it (its
 * `components`, loaded when first shown); "Unavailable" for a view nothing draws.
 */
export function viewComponent(
  view: ViewName,
  capabilities: readonly RegisteredCapability[] = [],
): ComponentType {
  if (view === 'Connect') return ConnectView
  if (view === 'Account') return account.component
  if (view === 'Pay') return PayGate
  const own = lazyViews[view]
  if (own) return own
  const load = capabilities.find((c) => c.views.includes(view))?.components?.[view]
  if (!load) return Unavailable
  let component = capabilityViews.get(load)
  if (!component) {
    component = lazy(load as () => Promise<{ default: ComponentType }>)
    capabilityViews.set(load, component)
  }
  return component
}

/** The header text of a view; views without their own title show their name split into words. */
export function viewTitle(view: ViewName, t: Translate): string {
  const key = `title.${view}` as MessageKey
  return key in en() ? t(key) : view.replace(/([a-z])([A-Z])/g, '$1 $2')
}
