import { useSelector } from '@xstate/react'
import { use, useEffect } from 'react'
import type { WalletListing } from '../../api/walletsApi'
import type { ChosenWallet } from '../../machines/connection'
import type { WalletsActorRef } from '../../machines/wallets'

/** The wallets of the listing that Connect shows among its own: the host's featured, the recommended ones. */
export interface ConnectListing {
  featured: readonly ChosenWallet[]
  recommended: readonly ChosenWallet[]
}

export const NO_LISTING: ConnectListing = { featured: [], recommended: [] }

/**
 * The listing's selectors live with its machine (src/machines/wallets.ts), whose code the kit loads on demand
 * (issue 14: never with the host's page). Once its actor runs, that module has loaded: this is the same one.
 */
let listingCode: Promise<typeof import('../../machines/wallets')> | undefined
const loadListingCode = () => {
  listingCode ??= import('../../machines/wallets')
  return listingCode
}

/** The same wallets, in the same order (a new array of them is no change). */
const sameWallets = (a: readonly WalletListing[], b: readonly WalletListing[]) =>
  a.length === b.length && a.every((wallet, index) => wallet === b[index])

/**
 * Connect's wallets from the listing, told to Connect (`onChange`) whenever they change; renders nothing (put
 * it under a `<Suspense>` of its own: it waits for the listing's selectors, so Connect paints its other wallets
 * without them).
 */
export function ListedWallets({
  wallets,
  onChange,
}: {
  wallets: WalletsActorRef
  onChange: (listing: ConnectListing) => void
}) {
  const { selectRecommendedWallets, toChosenWallet } = use(loadListingCode())
  const featured = useSelector(wallets, (s) => s.context.featured)
  const recommended = useSelector(wallets, selectRecommendedWallets, sameWallets)
  useEffect(() => {
    onChange({ featured: featured.map(toChosenWallet), recommended: recommended.map(toChosenWallet) })
  }, [featured, recommended, onChange, toChosenWallet])
  return null
}
