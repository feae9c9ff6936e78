/**
 * The modal's view names (DESIGN.md contract): the `data-view` values QA scripts select on. Add views here;
 * never rename one.
 */
export const VIEW_NAMES = [
  'Connect',
  'Account',
  'AllWallets',
  'Networks',
  'SwitchNetwork',
  'UnsupportedChain',
  'WhatIsAWallet',
  'ConnectingExternal',
  'ConnectingWalletConnect',
  'ConnectingWalletConnectBasic',
  'ConnectingSiwe',
  'ConnectingSocial',
  'ConnectingFarcaster',
  'EmailVerifyOtp',
  'EmailVerifyDevice',
  'UpdateEmailWallet',
  'UpdateEmailPrimaryOtp',
  'UpdateEmailSecondaryOtp',
  'ApproveTransaction',
  'WalletSend',
  'WalletSendSelectToken',
  'WalletSendPreview',
  'WalletReceive',
  'Swap',
  'SwapSelectToken',
  'SwapPreview',
  'OnRampProviders',
  'OnRampFiatSelect',
  'OnRampTokenSelect',
  'OnRampPurchase',
  'Transactions',
  'RegisterAccountName',
  'RegisterAccountNameSuccess',
  'Pay',
] as const

/**
 * A view a capability of the host's own brings (the capability contract's `views` and `components`): its
 * capability's id, a dot, and its name (`counter.Main`), so it never clashes with the kit's own.
 */
export type CapabilityViewName = `${string}.${string}`

export type ViewName = (typeof VIEW_NAMES)[number] | CapabilityViewName

/** A capability's view name: its capability's id (lower camel case), a dot, its name (upper camel case). */
const CAPABILITY_VIEW = /^[a-z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9]*$/

/** The view a closed modal opens on: Account once connected, Connect otherwise (SPEC §2). */
export function homeView(connected: boolean): ViewName {
  return connected ? 'Account' : 'Connect'
}

export function isViewName(value: unknown): value is ViewName {
  return (
    typeof value === 'string' &&
    ((VIEW_NAMES as readonly string[]).includes(value) || CAPABILITY_VIEW.test(value))
  )
}
