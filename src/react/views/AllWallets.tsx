import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual'
import {
  type ChangeEvent,
  type KeyboardEvent,
  memo,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react'
import type { WalletListing } from '../../api/walletsApi'
import { WALLETS_VIRTUAL_FROM } from '../../constants'
import { WALLETS_API_ERROR_MESSAGE } from '../../errors/api'
import type { ChosenWallet } from '../../machines/connection'
import { selectCapability, selectLegalAccepted } from '../../machines/kit'
import {
  selectHasMoreWallets,
  selectWalletList,
  selectWalletsMode,
  selectWalletsStatus,
  toChosenWallet,
  type WalletsStatus,
} from '../../machines/wallets'
import { safeText } from '../../utils/links'
import { useSelector } from '../actor'
import { LegalCheckbox } from '../components/LegalCheckbox'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useKitConfig, useWalletsActor } from '../hooks'
import { localizeText, useI18n, useT } from '../i18nViews'

/**
 * SPEC §2 AllWallets: every wallet of the listing, searchable, loaded page by page as the visitor scrolls.
 * The list and its states are the wallets machine's; this view only renders them and sends events. Listing
 * data is untrusted: names are rendered as text, and no link of the listing is rendered here at all (the
 * connecting views open them, after `safeDeepLink`).
 *
 * A long list (from `WALLETS_VIRTUAL_FROM` wallets) renders only the rows in view, plus a few either side and
 * the row holding focus; each item says its place (`aria-posinset` of `aria-setsize`) so a screen reader still
 * knows the whole. Every wallet button is in the Tab order, and the arrow keys move focus by cell and row
 * (Home and End to the first and last wallet), scrolling the wallet into view first when it is not rendered.
 */

/** How far below the visible list the next page starts loading. */
const PREFETCH_MARGIN_PX = 240
/** The grid's geometry, as the CSS below lays it out: cells at least 76 px wide, 8 px apart, rows 104 px. */
const CELL_MIN_WIDTH_PX = 76
const GAP_PX = 8
const ROW_HEIGHT_PX = 104
/** Room around the cells so focus rings are not clipped. */
const PAD_PX = 2
/** Rows rendered beyond those in view, so Tab and the arrow keys find their next wallet rendered already. */
const OVERSCAN_ROWS = 3

// Scoped to the view's root so these rules never reach another view's elements of the same class.
const CSS = `
[data-walletstate] .ws-all-wallets { display: grid; gap: 12px; }
[data-walletstate] .ws-all-wallets .ws-search {
  width: 100%; min-height: 44px; padding: 10px 12px; border-radius: 12px; border: 1px solid var(--ws-border-strong);
  background: var(--ws-surface); color: var(--ws-foreground); font: inherit;
}
[data-walletstate] .ws-all-wallets .ws-search::placeholder { color: var(--ws-muted); }
[data-walletstate] .ws-all-wallets .ws-wallet-scroll { max-height: min(56vh, 440px); overflow-y: auto; overscroll-behavior: contain; }
[data-walletstate] .ws-all-wallets .ws-wallet-grid {
  list-style: none; margin: 0; padding: 2px; display: grid; gap: 8px;
  grid-template-columns: repeat(auto-fill, minmax(76px, 1fr));
}
[data-walletstate] .ws-all-wallets .ws-wallet-grid[data-virtual] { display: block; position: relative; padding: 0; box-sizing: border-box; }
[data-walletstate] .ws-all-wallets .ws-wallet-grid[data-virtual] > li { position: absolute; height: 104px; }
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
[data-walletstate] .ws-all-wallets .ws-wallet-filter { display: flex; gap: 8px; align-items: center; font-size: 14px; }
[data-walletstate] .ws-all-wallets .ws-wallet-filter input { margin: 0; accent-color: var(--ws-accent); }
@media (max-width: 430px) {
  /* The checkbox is tapped by its label too: the label is a finger's height (44 px, WCAG 2.5.5). */
  [data-walletstate] .ws-all-wallets .ws-wallet-filter label { display: inline-flex; align-items: center; min-height: 44px; }
}
[data-walletstate] .ws-all-wallets .ws-wallet-head { display: flex; gap: 4px; align-items: center; max-width: 100%; }
[data-walletstate] .ws-all-wallets .ws-certified { flex: none; color: var(--ws-accent); }
[data-walletstate] .ws-all-wallets .ws-wallet[aria-disabled="true"] { cursor: default; opacity: 0.7; }
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

const NO_WALLETS: WalletListing[] = []

export default function AllWallets() {
  const kit = useKitActor()
  const walletsActor = useWalletsActor()
  const t = useT()
  const { legalCheckbox } = useKitConfig().features
  const legalId = useId()
  // The legal checkbox unticked: the wallets are unavailable (the kit refuses their connect) and say why.
  const blockedBy = useSelector(kit, selectLegalAccepted) ? undefined : legalId
  const codeFailed = useSelector(kit, (s) => selectCapability(s, 'wallets') === 'failed')
  // Until the listing's machine runs, its code is loading (the list's spinner) or failed to (its error).
  const wallets = useSelector(walletsActor, (s) => (s ? selectWalletList(s) : NO_WALLETS))
  const status: WalletsStatus =
    useSelector(walletsActor, (s) => s && selectWalletsStatus(s)) ?? (codeFailed ? 'failed' : 'loading')
  const mode = useSelector(walletsActor, (s) => (s ? selectWalletsMode(s) : 'browse'))
  const hasMore = useSelector(walletsActor, (s) => (s ? selectHasMoreWallets(s) : false))
  const error =
    useSelector(walletsActor, (s) => s?.context.error) ??
    (codeFailed ? t('allWallets.codeFailed') : undefined)
  // A search typed before the listing's machine ran is kept by the kit and reaches it once it runs.
  const [text, setText] = useState(() => walletsActor?.getSnapshot().context.query ?? '')
  const [certified, setCertified] = useState(() => walletsActor?.getSnapshot().context.certified ?? false)
  const filterId = useId()
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

  // "Certified only": the listing is asked again with badge_type=certified (SPEC §7).
  const onFilter = (event: ChangeEvent<HTMLInputElement>) => {
    setCertified(event.target.checked)
    kit.send({ type: 'wallets.filter', certified: event.target.checked })
  }

  // The listing failed: ask it again; its code failed to load: load it again.
  const retry = () => kit.send(walletsActor ? { type: 'wallets.retry' } : { type: 'listing.load' })
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
          aria-label={t('allWallets.search')}
          aria-controls={listId}
          placeholder={t('allWallets.search')}
          value={text}
          onChange={onSearch}
        />
      </search>
      <div className="ws-wallet-filter">
        <input id={filterId} type="checkbox" checked={certified} aria-controls={listId} onChange={onFilter} />
        <label htmlFor={filterId}>{t('allWallets.certifiedOnly')}</label>
      </div>
      {legalCheckbox ? <LegalCheckbox explanationId={legalId} /> : null}

      {status === 'failed' ? (
        <ErrorNote message={error} onRetry={retry} />
      ) : status === 'loading' && empty ? (
        <ViewLoading label={t('allWallets.loading')} />
      ) : (
        <div className="ws-wallet-scroll" ref={scrollRef}>
          {status === 'searching' ? (
            <p className="ws-visually-hidden" role="status">
              {t('allWallets.searching')}
            </p>
          ) : null}
          {empty && status !== 'searching' && status !== 'loading' ? (
            <p className="ws-muted ws-wallets-note" role="status">
              {t('allWallets.none')}
            </p>
          ) : null}
          <WalletGrid
            id={listId}
            label={mode === 'search' ? t('allWallets.matching') : t('connect.wallets')}
            busy={status === 'searching' || status === 'loadingMore'}
            wallets={wallets}
            scrollRef={scrollRef}
            onSelect={select}
            blockedBy={blockedBy}
          />
          {status === 'loadingMore' ? <ViewLoading label={t('allWallets.loadingMore')} /> : null}
          {status === 'partError' ? <ErrorNote message={error} onRetry={retry} /> : null}
          {/* The button stays in place while a page loads (scrolling it into view loads one), so a pointer or
              a keypress aimed at it never lands on a node that has just gone; the machine ignores it until then. */}
          {hasMore && (canLoadMore || status === 'loadingMore') ? (
            <>
              {canLoadMore ? <div ref={sentinelRef} aria-hidden="true" style={{ height: 1 }} /> : null}
              <div className="ws-wallets-note">
                <button
                  type="button"
                  className="ws-link"
                  aria-disabled={canLoadMore ? undefined : true}
                  onClick={() => kit.send({ type: 'wallets.loadMore' })}
                >
                  {t('common.loadMore')}
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
  const t = useT()
  return (
    <div className="ws-wallets-error" role="alert">
      <p>{localizeText(t, message ?? WALLETS_API_ERROR_MESSAGE)}</p>
      <button type="button" className="ws-primary" onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </div>
  )
}

interface WalletGridProps {
  id: string
  label: string
  busy: boolean
  wallets: readonly WalletListing[]
  scrollRef: RefObject<HTMLDivElement | null>
  onSelect: (wallet: ChosenWallet) => void
  /** Why no wallet may be chosen yet (the legal checkbox's note), if so. */
  blockedBy: string | undefined
}

/** How many columns the grid has at `width` (the CSS's `repeat(auto-fill, minmax(76px, 1fr))`). */
function columnsAt(width: number): number {
  return Math.max(1, Math.floor((width + GAP_PX) / (CELL_MIN_WIDTH_PX + GAP_PX)))
}

/** The next wallet's index for an arrow key, Home or End; `undefined` for any other key. */
function nextIndex(key: string, index: number, columns: number, count: number): number | undefined {
  const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }
  if (key === 'Home') return 0
  if (key === 'End') return count - 1
  const delta = step[key]
  if (delta === undefined) return undefined
  const next = index + delta
  return next < 0 || next >= count ? index : next
}

/**
 * The wallets as a list of buttons laid out in a grid: all of them for a short list, only the rows near the
 * view for a long one (`WALLETS_VIRTUAL_FROM`).
 */
function WalletGrid({ id, label, busy, wallets, scrollRef, onSelect, blockedBy }: WalletGridProps) {
  const listRef = useRef<HTMLUListElement>(null)
  const [columns, setColumns] = useState(4)
  const [scrollMargin, setScrollMargin] = useState(0)
  const [pendingFocus, setPendingFocus] = useState<number | undefined>(undefined)
  const focusedRow = useRef<number | undefined>(undefined)
  const virtual = wallets.length >= WALLETS_VIRTUAL_FROM
  const { dir } = useI18n()

  useLayoutEffect(() => {
    const list = listRef.current
    if (!list) return
    const measure = () => {
      setColumns(columnsAt(list.clientWidth - 2 * PAD_PX))
      // Where the list starts inside the scrolled content: the rows' offsets are counted from there.
      const scroller = scrollRef.current
      if (scroller) {
        const top =
          list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop
        setScrollMargin(Math.round(top))
      }
    }
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(list)
    return () => observer.disconnect()
  }, [scrollRef])

  const rows = Math.ceil(wallets.length / columns)
  const rangeExtractor = useCallback((range: Range) => {
    // The row holding focus stays rendered, so focus is never lost to a scroll.
    const indexes = defaultRangeExtractor(range)
    const row = focusedRow.current
    if (row === undefined || row >= range.count || indexes.includes(row)) return indexes
    return [...indexes, row].sort((a, b) => a - b)
  }, [])
  const virtualizer = useVirtualizer({
    count: virtual ? rows : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT_PX + GAP_PX,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    rangeExtractor,
  })

  // Focus asked for by a key lands once its wallet is rendered.
  const virtualItems = virtualizer.getVirtualItems()
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the rendered rows change
  useEffect(() => {
    if (pendingFocus === undefined) return
    const button = listRef.current?.querySelector<HTMLButtonElement>(`button[data-index="${pendingFocus}"]`)
    if (!button) return
    button.focus()
    setPendingFocus(undefined)
  }, [pendingFocus, virtualItems])

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const current = Number((event.target as HTMLElement).dataset?.index)
    if (!Number.isInteger(current)) return
    // The grid runs right to left in Arabic: the horizontal arrows follow it.
    const key =
      dir !== 'rtl'
        ? event.key
        : ({ ArrowLeft: 'ArrowRight', ArrowRight: 'ArrowLeft' }[event.key] ?? event.key)
    const next = nextIndex(key, current, columns, wallets.length)
    if (next === undefined) return
    event.preventDefault()
    if (next === current) return
    if (virtual) virtualizer.scrollToIndex(Math.floor(next / columns), { align: 'auto' })
    setPendingFocus(next)
  }
  const onFocus = (event: { target: EventTarget }) => {
    const index = Number((event.target as HTMLElement).dataset?.index)
    focusedRow.current = Number.isInteger(index) ? Math.floor(index / columns) : undefined
  }

  const onBlur = (event: { relatedTarget: EventTarget | null }) => {
    if (!(event.relatedTarget instanceof Node) || !listRef.current?.contains(event.relatedTarget))
      focusedRow.current = undefined
  }

  const common = {
    id,
    ref: listRef,
    className: 'ws-wallet-grid',
    'aria-label': label,
    'aria-busy': busy,
    onKeyDown,
    onFocus,
    onBlur,
  }
  if (!virtual) {
    return (
      <ul {...common}>
        {wallets.map((wallet, index) => (
          <li key={wallet.id}>
            <WalletButton
              wallet={wallet}
              index={index}
              imageUrl={wallet.image_url}
              onSelect={onSelect}
              blockedBy={blockedBy}
            />
          </li>
        ))}
      </ul>
    )
  }
  const width = `(100% - ${2 * PAD_PX + (columns - 1) * GAP_PX}px) / ${columns}`
  return (
    <ul {...common} data-virtual="" style={{ height: virtualizer.getTotalSize() + 2 * PAD_PX }}>
      {virtualItems.flatMap((row) =>
        wallets.slice(row.index * columns, (row.index + 1) * columns).map((wallet, column) => {
          const index = row.index * columns + column
          return (
            <li
              key={wallet.id}
              aria-setsize={wallets.length}
              aria-posinset={index + 1}
              style={{
                top: row.start - scrollMargin + PAD_PX,
                insetInlineStart: `calc(${width} * ${column} + ${PAD_PX + column * GAP_PX}px)`,
                width: `calc(${width})`,
              }}
            >
              <WalletButton
                wallet={wallet}
                index={index}
                imageUrl={wallet.image_url}
                onSelect={onSelect}
                blockedBy={blockedBy}
              />
            </li>
          )
        }),
      )}
    </ul>
  )
}

interface WalletButtonProps {
  wallet: WalletListing
  /** The wallet's place in the list, for keyboard moves. */
  index: number
  imageUrl: string | undefined
  onSelect: (wallet: ChosenWallet) => void
  blockedBy: string | undefined
}

/**
 * One wallet: its icon (or its initial when the image is missing or fails), its name as text, and the
 * listing's certified mark (`badge_type`).
 */
const WalletButton = memo(function WalletButton({
  wallet,
  index,
  imageUrl,
  onSelect,
  blockedBy,
}: WalletButtonProps) {
  const [failed, setFailed] = useState(false)
  // Parsed names are display-safe already; this bounds them again for a grid cell.
  const name = safeText(wallet.name, 64)
  const initial = (Array.from(name)[0] ?? '?').toUpperCase()
  return (
    <button
      type="button"
      className="ws-wallet"
      data-wallet-id={wallet.id}
      data-index={index}
      title={name}
      aria-disabled={blockedBy ? true : undefined}
      aria-describedby={blockedBy}
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
      <span className="ws-wallet-head">
        <span className="ws-wallet-name">{name}</span>
        {wallet.badge_type === 'certified' ? <CertifiedMark /> : null}
      </span>
    </button>
  )
})

/** The listing's certified mark: an image named "Certified" (no text, so the wallet's name reads as before). */
function CertifiedMark() {
  const t = useT()
  return (
    <svg
      className="ws-certified"
      role="img"
      aria-label={t('allWallets.certified')}
      data-certified=""
      width="12"
      height="12"
      viewBox="0 0 12 12"
    >
      <circle cx="6" cy="6" r="6" fill="currentColor" />
      <path d="M3.2 6.2 5.1 8l3.7-4" fill="none" stroke="#fff" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  )
}
