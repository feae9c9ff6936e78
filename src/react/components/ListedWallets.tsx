import { Suspense, use, useEffect, useRef } from 'react'
import type { WalletListing } from '../../api/walletsApi'
import type { ChosenWallet, ConnectorInfo } from '../../machines/connection'
import type { WalletsActorRef } from '../../machines/wallets'
import { useSelector } from '../actor'
import { useWalletsActor } from '../hooks'

/** The wallets of the listing that Connect shows among its own: the host's featured, the recommended ones. */
export interface ConnectListing {
  featured: readonly ChosenWallet[]
  recommended: readonly ChosenWallet[]
  /** The image of the listing entry a local connector matches (SPEC §3 Connector `imageId`). */
  imageOf?: (connector: ConnectorInfo) => string | undefined
}

export const NO_LISTING: ConnectListing = { featured: [], recommended: [] }

/**
 * The listing's selectors live with its machine (src/machines/wallets.ts), whose code the kit loads on demand
 * (issue 14: never with the host's page). Once its actor runs, that module has loaded: this is the same one.
 * Connect asks for it as it opens (`loadListingCode`), beside the kit, so by the time the listing's actor runs
 * the module is at hand and ListedWallets renders at once, rather than suspending for a module that is already
 * there (a fallback, a retry React holds back 300 ms, one more commit: issue 14, the heap with the modal open).
 */
type ListingCode = typeof import('../../machines/wallets')
let listingCode: Promise<ListingCode> | undefined
/** Starts (once) loading the listing's selectors; Connect calls it when it opens with the listing on. */
export const loadListingCode = () => {
  if (!listingCode) {
    const loading = import('../../machines/wallets')
    listingCode = loading
    // A chunk that fails to load is ListedWallets' to show (`use` throws it), not an unhandled rejection here.
    // The settled promise says so the way React's `use` reads it (`status`, `value`), so a render after the
    // load takes the code at once, and every render calls `use` alike (React requires it).
    loading.then(
      (code) => {
        Object.assign(loading, { status: 'fulfilled', value: code })
      },
      (reason: unknown) => {
        Object.assign(loading, { status: 'rejected', reason })
      },
    )
  }
  return listingCode
}

/** The same wallets, in the same order (a new array of them is no change). */
const sameWallets = (a: readonly WalletListing[], b: readonly WalletListing[]) =>
  a.length === b.length && a.every((wallet, index) => wallet === b[index])

/**
 * Connect's wallets from the listing, once the kit runs its machine (it loads it as the modal opens). Only this
 * renders again when that machine arrives, not Connect's list of wallets, whose DOM would be diffed for nothing
 * (issue 14: the heap with the modal open).
 */
export function ConnectListedWallets({ onChange }: { onChange: (listing: ConnectListing) => void }) {
  const wallets = useWalletsActor()
  return wallets ? (
    <Suspense fallback={null}>
      <ListedWallets wallets={wallets} onChange={onChange} />
    </Suspense>
  ) : null
}

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
  const { listingImageOf, selectRecommendedWallets, toChosenWallet } = use(loadListingCode())
  const featured = useSelector(wallets, (s) => s.context.featured)
  const recommended = useSelector(wallets, selectRecommendedWallets, sameWallets)
  // Connect starts with no listed wallets: telling it so again would only render its list once more.
  const told = useRef(false)
  useEffect(() => {
    if (!told.current && featured.length === 0 && recommended.length === 0) return
    told.current = true
    const listed = { featured: featured.map(toChosenWallet), recommended: recommended.map(toChosenWallet) }
    const all = [...listed.featured, ...listed.recommended]
    onChange({ ...listed, imageOf: (connector) => listingImageOf(connector, all) })
  }, [featured, recommended, onChange, toChosenWallet, listingImageOf])
  return null
}
