import { useSelector } from '@xstate/react'
import { type ChangeEvent, memo, useCallback, useEffect, useId, useRef, useState } from 'react'
import type { WalletListing } from '../../api/walletsApi'
import type { ChosenWallet } from '../../machines/connection'
import {
  selectHasMoreWallets,
  selectWalletList,
  selectWalletsMode,
  selectWalletsStatus,
  toChosenWallet,
} from '../../machines/wallets'
import { safeText } from '../../utils/links'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useKitConfig, useWalletsActor } from '../hooks'

/**
 * SPEC §2 AllWallets: every wallet of the listing, searchable, loaded page by page as the visitor scrolls.
 * The list and its states are the wallets machine's; this view only renders them and sends events. Listing
 * data is untrusted: names are rendered as text, and no link of the listing is rendered here at all (the
 * connecting views open them, after `safeDeepLink`).
 */

/** How far below the visible list the next page starts loading. */
const PREFETCH_MARGIN_PX = 240

// Scoped to the view's root so these rules never reach another view's elements of the same class.
const CSS = `
[data-walletstate] .ws-all-wallets { display: grid; gap: 12px; }
[data-walletstate] .ws-all-wallets .ws-search {
  width: 100%; padding: 10px 12px; border-radius: 12px; border: 1px solid var(--ws-border);
  background: var(--ws-surface); color: var(--ws-foreground); font: inherit;
}
[data-walletstate] .ws-all-wallets .ws-search::placeholder { color: var(--ws-muted); }
[data-walletstate] .ws-all-wallets .ws-wallet-scroll { max-height: min(56vh, 440px); overflow-y: auto; overscroll-behavior: contain; }
[data-walletstate] .ws-all-wallets .ws-wallet-grid {
  list-style: none; margin: 0; padding: 2px; display: grid; gap: 8px;
  grid-template-columns: repeat(auto-fill, minmax(76px, 1fr));
}
[data-walletstate] .ws-all-wallets .ws-wallet {
  width: 100%; height: 100%; display: grid; justify-items: center; align-content: start; gap: 6px;
  padding: 10px 4px; border-radius: 12px; border: 1px solid transparent; background: var(--ws-surface);
  color: inherit; font: inherit; font-size: 12px; cursor: pointer;
}
[data-walletstate] .ws-all-wallets .ws-wallet:hover { background: var(--ws-surface-hover); }
[data-walletstate] .ws-all-wallets .ws-wallet-icon, [data-walletstate] .ws-all-wallets .ws-wallet-fallback {
  width: 48px; height: 48px; border-radius: 12px; object-fit: cover;
}
[data-walletstate] .ws-all-wallets .ws-wallet-fallback {
  display: grid; place-items: center; background: var(--ws-surface-hover); color: var(--ws-muted);
  font-size: 20px; font-weight: 600;
}
[data-walletstate] .ws-all-wallets .ws-wallet-name {
  max-width: 100%; text-align: center; line-height: 1.3; overflow: hidden; overflow-wrap: anywhere;
  display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical;
}
[data-walletstate] .ws-all-wallets .ws-wallets-note { text-align: center; padding: 16px 0; }
[data-walletstate] .ws-all-wallets .ws-wallets-error { display: grid; gap: 8px; justify-items: center; padding: 12px 0; }
[data-walletstate] .ws-all-wallets .ws-wallets-error p { margin: 0; color: var(--ws-error); }
[data-walletstate] .ws-all-wallets .ws-visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; border: 0; padding: 0;
}
`

export default function AllWallets() {
  const kit = useKitActor()
  const walletsActor = useWalletsActor()
  const _config = useKitConfig()
  const wallets = useSelector(walletsActor, selectWalletList)
  const status = useSelector(walletsActor, selectWalletsStatus)
  const mode = useSelector(walletsActor, selectWalletsMode)
  const hasMore = useSelector(walletsActor, selectHasMoreWallets)
  const error = useSelector(walletsActor, (s) => s.context.error)
  const [text, setText] = useState(() => walletsActor.getSnapshot().context.query)
  const scrollRef = useRef<HTMLDivElement>(null)
  const sentinelRef = useRef<HTMLDivElement>(null)
  const listId = useId()

  // The list loads when first shown; once loaded it stays (the machine ignores a second load).
  useEffect(() => {
    kit.send({ type: 'wallets.load' })
  }, [kit])

  // Infinite scroll. The observer is made again after every page, so a sentinel that stays in view (a tall
  // screen) asks for the next page too: a new observer reports the current intersection at once.
  const canLoadMore = hasMore && status === 'ready'
  // biome-ignore lint/correctness/useExhaustiveDependencies: wallets.length re-arms the observer per page
  useEffect(() => {
    const sentinel = sentinelRef.current
    if (!canLoadMore || !sentinel || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) kit.send({ type: 'wallets.loadMore' })
      },
      { root: scrollRef.current, rootMargin: `0px 0px ${PREFETCH_MARGIN_PX}px 0px` },
    )
    observer.observe(sentinel)
    return () => observer.disconnect()
  }, [canLoadMore, kit, wallets.length])

  const onSearch = (event: ChangeEvent<HTMLInputElement>) => {
    setText(event.target.value)
    kit.send({ type: 'wallets.search', query: event.target.value })
  }

  const retry = () => kit.send({ type: 'wallets.retry' })
  const select = useCallback((wallet: ChosenWallet) => kit.send({ type: 'wallet.select', wallet }), [kit])
  const empty = wallets.length === 0

  return (
    <div className="ws-all-wallets">
      <style>{CSS}</style>
      <search>
        <input
          className="ws-search"
          type="text"
          inputMode="search"
          enterKeyHint="search"
          autoComplete="off"
          spellCheck={false}
          maxLength={100}
          aria-label="Search wallets"
          aria-controls={listId}
          placeholder="Search wallets"
          value={text}
          onChange={onSearch}
        />
      </search>

      {status === 'failed' ? (
        <ErrorNote message={error} onRetry={retry} />
      ) : status === 'loading' && empty ? (
        <ViewLoading label="Loading wallets…" />
      ) : (
        <div className="ws-wallet-scroll" ref={scrollRef}>
          {status === 'searching' ? (
            <p className="ws-visually-hidden" role="status">
              Searching…
            </p>
          ) : null}
          {empty && status !== 'searching' && status !== 'loading' ? (
            <p className="ws-muted ws-wallets-note" role="status">
              No wallets found
            </p>
          ) : null}
          <ul
            id={listId}
            className="ws-wallet-grid"
            aria-label={mode === 'search' ? 'Matching wallets' : 'Wallets'}
            aria-busy={status === 'searching' || status === 'loadingMore'}
          >
            {wallets.map((wallet) => (
              <li key={wallet.id}>
                <WalletButton wallet={wallet} imageUrl={wallet.image_url} onSelect={select} />
              </li>
            ))}
          </ul>
          {status === 'loadingMore' ? <ViewLoading label="Loading more wallets…" /> : null}
          {status === 'partError' ? <ErrorNote message={error} onRetry={retry} /> : null}
          {canLoadMore ? (
            <>
              <div ref={sentinelRef} aria-hidden="true" style={{ height: 1 }} />
              <div className="ws-wallets-note">
                <button
                  type="button"
                  className="ws-link"
                  onClick={() => kit.send({ type: 'wallets.loadMore' })}
                >
                  Load more
                </button>
              </div>
            </>
          ) : null}
        </div>
      )}
    </div>
  )
}

function ErrorNote({ message, onRetry }: { message: string | undefined; onRetry: () => void }) {
  return (
    <div className="ws-wallets-error" role="alert">
      <p>{message ?? 'Could not load wallets'}</p>
      <button type="button" className="ws-primary" onClick={onRetry}>
        Try again
      </button>
    </div>
  )
}

interface WalletButtonProps {
  wallet: WalletListing
  imageUrl: string | undefined
  onSelect: (wallet: ChosenWallet) => void
}

/** One wallet: its icon (or its initial when the image is missing or fails) and its name, as text. */
const WalletButton = memo(function WalletButton({ wallet, imageUrl, onSelect }: WalletButtonProps) {
  const [failed, setFailed] = useState(false)
  // Parsed names are display-safe already; this bounds them again for a grid cell.
  const name = safeText(wallet.name, 64)
  const initial = (Array.from(name)[0] ?? '?').toUpperCase()
  return (
    <button
      type="button"
      className="ws-wallet"
      data-wallet-id={wallet.id}
      title={name}
      onClick={() => onSelect(toChosenWallet(wallet))}
    >
      {imageUrl && !failed ? (
        <img
          className="ws-wallet-icon"
          src={imageUrl}
          alt=""
          loading="lazy"
          decoding="async"
          width={48}
          height={48}
          onError={() => setFailed(true)}
        />
      ) : (
        <span className="ws-wallet-fallback" aria-hidden="true" data-fallback="">
          {initial}
        </span>
      )}
      <span className="ws-wallet-name">{name}</span>
    </button>
  )
})
