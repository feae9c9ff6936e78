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

export type ViewName = (typeof VIEW_NAMES)[number]

/** The view a closed modal opens on: Account once connected, Connect otherwise (SPEC §2). */
export function homeView(connected: boolean): ViewName {
  return connected ? 'Account' : 'Connect'
}

export function isViewName(value: unknown): value is ViewName {
  return typeof value === 'string' && (VIEW_NAMES as readonly string[]).includes(value)
}
