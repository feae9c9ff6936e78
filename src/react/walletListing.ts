import { type WalletListing, walletImageUrl } from '../api/walletsApi'
import type { KitEndpoints } from '../config'
import type { ChosenWallet } from '../machines/connection'
import { safeDeepLink, safeHttpUrl } from '../utils/links'

/** What the connection machine needs of a listing entry; links checked again, here at the last step. */
export function toChosenWallet(wallet: WalletListing, imageUrl: string | undefined): ChosenWallet {
  return {
    id: wallet.id,
    name: wallet.name,
    ...(wallet.rdns ? { rdns: wallet.rdns } : {}),
    ...(imageUrl ? { imageUrl } : {}),
    ...optional('mobileLink', safeDeepLink(wallet.mobile_link)),
    ...optional('desktopLink', safeDeepLink(wallet.desktop_link)),
    ...optional('webappLink', safeHttpUrl(wallet.webapp_link)),
  }
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>)
}

export function imageUrlOf(
  endpoints: KitEndpoints,
  projectId: string,
  wallet: WalletListing,
): string | undefined {
  if (!wallet.image_id) return undefined
  try {
    return walletImageUrl(endpoints, projectId, wallet.image_id)
  } catch {
    return undefined
  }
}
