import { useSelector } from '@xstate/react'
import { useEffect } from 'react'
import type { WalletListing } from '../../api/walletsApi'
import type { ChosenWallet } from '../../machines/connection'
import { selectRecommendedWallets, toChosenWallet, type WalletsActorRef } from '../../machines/wallets'

/** The wallets of the listing that Connect shows among its own: the host's featured, the recommended ones. */
export interface ConnectListing {
  featured: readonly ChosenWallet[]
  recommended: readonly ChosenWallet[]
}

/** The same wallets, in the same order (a new array of them is no change). */
const sameWallets = (a: readonly WalletListing[], b: readonly WalletListing[]) =>
  a.length === b.length && a.every((wallet, index) => wallet === b[index])

/**
 * Connect's wallets from the listing, told to Connect (`onChange`) whenever they change; renders nothing. Its
 * own chunk, fetched once the listing's machine runs, so the wallets machine's selectors never weigh on the
 * host's page (issue 14) and Connect paints its other wallets without waiting for them.
 */
export default function ListedWallets({
  wallets,
  onChange,
}: {
  wallets: WalletsActorRef
  onChange: (listing: ConnectListing) => void
}) {
  const featured = useSelector(wallets, (s) => s.context.featured)
  const recommended = useSelector(wallets, selectRecommendedWallets, sameWallets)
  useEffect(() => {
    onChange({ featured: featured.map(toChosenWallet), recommended: recommended.map(toChosenWallet) })
  }, [featured, recommended, onChange])
  return null
}
