import { Fragment, useEffect, useId, useState } from 'react'
import type { KitCustomWallet } from '../../config'
import { AFTER_OPEN_PAINT_MS, CONNECTOR_IMAGE_IDS } from '../../constants'
import type { ChosenWallet, ConnectorInfo, RecentWallet } from '../../machines/connection'
import { selectLegalAccepted } from '../../machines/kit'
import { assetImageUrl } from '../../utils/images'
import { useSelector } from '../actor'
import { EmailLogin, FrameNotice, SocialLogins } from '../components/FrameLogin'
import {
  ConnectListedWallets,
  type ConnectListing,
  loadListingCode,
  NO_LISTING,
} from '../components/ListedWallets'
import { WalletImage } from '../components/WalletImage'
import { useKitActor } from '../context'
import { GLYPH_MORE } from '../glyphs'
import { useConnectionActor, useKitConfig } from '../hooks'
import { type MessageKey, useT } from '../i18n'
import { preloadable } from './preloadable'

interface WalletItem {
  key: string
  wallet: ChosenWallet
  badge?: string
}

/** The badges `orderWallets` gives, in the language shown. */
const BADGES: Record<string, MessageKey | undefined> = {
  'QR code': 'connect.badge.qrCode',
  Recent: 'connect.badge.recent',
  Installed: 'connect.badge.installed',
}

const WALLETCONNECT: ChosenWallet = {
  id: 'walletConnect',
  name: 'WalletConnect',
  imageId: CONNECTOR_IMAGE_IDS.walletConnect,
}

/*
 * The legal checkbox (`features.legalCheckbox`, off by default) is a chunk of its own, with its texts and styles: a
 * kit without it never fetches it. A kit with it fetches it as it starts (`preloadLegalCheckbox`, from KitRoot),
 * so Connect shows it at once; should Connect come first, the view waits for it.
 */
const legal = preloadable<{ explanationId: string }>(() =>
  import('../components/LegalCheckbox').then((module) => ({ default: module.LegalCheckbox })),
)
export const preloadLegalCheckbox = legal.preload
function LegalCheckbox({ explanationId }: { explanationId: string }) {
  const Loaded = legal.ready() ?? legal.component
  return <Loaded explanationId={explanationId} />
}

/**
 * SPEC §2 Connect: the connect methods in the SPEC §1 order (`connectMethodsOrder`: e-mail, socials, wallets),
 * each only when its feature is on. The frame's status and errors show once, under the first embedded-wallet
 * method. With `legalCheckbox`, a checkbox with the host's terms and privacy links comes first and every
 * connect control is unavailable until it is ticked (the kit refuses a connect before, `legalAccepted`). With
 * `collapseWallets`, beside e-mail or social logins, the wallets wait behind "Continue with a wallet".
 */
export function ConnectView() {
  const kit = useKitActor()
  const { email, socials, connectMethodsOrder, legalCheckbox, collapseWallets } = useKitConfig().features
  const providers = socials || []
  const noticeId = useId()
  const legalId = useId()
  // Unticked: the connect controls point at the explanation.
  const blockedBy = useSelector(kit, selectLegalAccepted) ? undefined : legalId
  const methods = connectMethodsOrder.filter(
    (method) =>
      method === 'wallet' || (method === 'email' && email) || (method === 'social' && providers.length > 0),
  )
  const noticeAfter = methods.find((method) => method !== 'wallet')
  const t = useT()
  return (
    <div>
      {legalCheckbox ? <LegalCheckbox explanationId={legalId} /> : null}
      {methods.map((method, index) => (
        <Fragment key={method}>
          {index > 0 ? <hr className="ws-divider" /> : null}
          {method === 'email' ? (
            <EmailLogin noticeId={noticeId} blockedBy={blockedBy} />
          ) : method === 'social' ? (
            <SocialLogins providers={providers} blockedBy={blockedBy} />
          ) : collapseWallets && noticeAfter ? (
            <CollapsedWallets blockedBy={blockedBy} />
          ) : (
            <WalletList blockedBy={blockedBy} />
          )}
          {method === noticeAfter ? <FrameNotice id={noticeId} /> : null}
        </Fragment>
      ))}
      <button
        type="button"
        className="ws-link"
        onClick={() => kit.send({ type: 'router.push', view: 'WhatIsAWallet' })}
      >
        {t('connect.whatIsAWallet')}
      </button>
      <button
        type="button"
        className="ws-link"
        onClick={() => kit.send({ type: 'router.push', view: 'Networks' })}
      >
        {t('connect.supportedNetworks')}
      </button>
    </div>
  )
}

/**
 * SPEC §1 `collapseWallets`: the wallets behind one button, beside the e-mail and social logins (as AppKit).
 * Opening it shows the list and moves focus to its first wallet.
 */
function CollapsedWallets({ blockedBy }: { blockedBy: string | undefined }) {
  const [open, setOpen] = useState(false)
  const t = useT()
  if (open) return <WalletList blockedBy={blockedBy} focusFirst />
  return (
    <button type="button" className="ws-item" aria-expanded={false} onClick={() => setOpen(true)}>
      <span className="ws-wallet-fallback" aria-hidden="true" style={{ width: 32, height: 32 }}>
        {GLYPH_MORE}
      </span>
      <span>{t('connect.continueWithWallet')}</span>
    </button>
  )
}

/**
 * The wallets in the SPEC §1 connector order — WalletConnect, recent, installed (injected and
 * EIP-6963), the host's featured wallets, its custom wallets, the host's own connectors (`external`), then
 * the listing's recommended ones — and All Wallets. Each wallet shows once, where it first appears.
 */
function WalletList({
  blockedBy,
  focusFirst = false,
}: {
  blockedBy: string | undefined
  focusFirst?: boolean
}) {
  const kit = useKitActor()
  const config = useKitConfig()
  const connection = useConnectionActor()
  // Every namespace's connectors (eip155's and, with a Solana network, Solana's): the kit holds them together.
  const connectors = useSelector(kit, (s) => s.context.connectors)
  const recent = useSelector(connection, (s) => s.context.recentWallets)
  // The listing is asked once, when Connect is first shown; it answers from memory afterwards. Its wallets join
  // once its machine runs (the kit loads it when the modal opens); the others paint at once without them.
  const [listing, setListing] = useState(NO_LISTING)
  // The kit loads the listing's machine past the open's first paint (`afterOpenPaint`): its selectors, the same
  // module, load beside it (once), so nothing is fetched between the press and Connect on screen.
  const listingOn = config.features.allWallets
  useEffect(() => {
    if (!listingOn) return
    const timer = setTimeout(() => void loadListingCode(), AFTER_OPEN_PAINT_MS)
    return () => clearTimeout(timer)
  }, [listingOn])
  const items = orderWallets(
    config.features.connectorsOrder,
    connectors,
    recent,
    listing,
    config.customWallets,
  )
  const t = useT()
  // SPEC §3 Connector imageId: a wallet without its own image shows the provider's (getAssetImage).
  const walletImage = (wallet: ChosenWallet) =>
    wallet.imageUrl ?? assetImageUrl(config.endpoints, config.projectId, wallet.imageId)
  return (
    <ul className="ws-list" aria-label={t('connect.wallets')}>
      <ConnectListedWallets onChange={setListing} />
      {items.map((item, index) => (
        <li key={item.key}>
          {/* Unavailable until the legal checkbox is ticked: aria-disabled (focusable, explained); the kit
              refuses the wallet's connect all the same. */}
          <button
            type="button"
            className="ws-item"
            aria-disabled={blockedBy ? true : undefined}
            aria-describedby={blockedBy}
            ref={focusFirst && index === 0 ? focusOnMount : undefined}
            onClick={() => kit.send({ type: 'wallet.select', wallet: item.wallet })}
          >
            <WalletImage name={item.wallet.name} src={walletImage(item.wallet)} />
            <span>{item.wallet.name}</span>
            {item.badge ? (
              <span className="ws-badge">{BADGES[item.badge] ? t(BADGES[item.badge]!) : item.badge}</span>
            ) : null}
          </button>
        </li>
      ))}
      {config.features.allWallets ? (
        <li>
          <button
            type="button"
            className="ws-item"
            onClick={() => kit.send({ type: 'router.push', view: 'AllWallets' })}
          >
            <span className="ws-wallet-fallback" aria-hidden="true" style={{ width: 32, height: 32 }}>
              {GLYPH_MORE}
            </span>
            <span>{t('connect.allWallets')}</span>
          </button>
        </li>
      ) : null}
    </ul>
  )
}

/** Focus lands on the element once, as it mounts (the wallets a button has just revealed). */
const focusOnMount = (element: HTMLButtonElement | null) => {
  element?.focus()
}

/** A host's custom wallet as the connection takes it: pairs through WalletConnect, with its links. */
export function customWallet(wallet: KitCustomWallet): ChosenWallet {
  return {
    id: wallet.id,
    name: wallet.name,
    ...(wallet.image_url ? { imageUrl: wallet.image_url } : {}),
    ...(wallet.mobile_link ? { mobileLink: wallet.mobile_link } : {}),
    ...(wallet.desktop_link ? { desktopLink: wallet.desktop_link } : {}),
    ...(wallet.webapp_link ? { webappLink: wallet.webapp_link } : {}),
  }
}

/**
 * A local connector as Connect lists it. Without an icon of its own it takes the image of the listing entry it
 * matches (SPEC §3 Connector `imageId`: `getWalletImage/{image_id}`, found by the listing's code,
 * `ConnectListing.imageOf`), over the kit's generic image of its type.
 */
const connectorWallet = (connector: ConnectorInfo, listing: ConnectListing): ChosenWallet => {
  const imageUrl = connector.imageUrl ?? listing.imageOf?.(connector)
  return {
    id: connector.id,
    name: connector.name,
    ...(connector.rdns ? { rdns: connector.rdns } : {}),
    ...(imageUrl ? { imageUrl } : {}),
    ...(connector.imageId ? { imageId: connector.imageId } : {}),
  }
}

/** The Connect view's list in the configured connector order, each wallet once. */
export function orderWallets(
  order: readonly string[],
  connectors: readonly ConnectorInfo[],
  recent: readonly RecentWallet[],
  listing: ConnectListing = NO_LISTING,
  custom: readonly KitCustomWallet[] = [],
): WalletItem[] {
  const out: WalletItem[] = []
  const seen = new Set<string>()
  const add = (item: WalletItem, ...keys: (string | undefined)[]) => {
    if (keys.some((k) => k !== undefined && seen.has(k))) return
    for (const k of keys) if (k !== undefined) seen.add(k)
    out.push(item)
  }
  for (const section of order) {
    if (section === 'walletConnect') {
      add({ key: 'walletConnect', wallet: WALLETCONNECT, badge: 'QR code' }, 'walletConnect')
    } else if (section === 'recent') {
      for (const wallet of recent) {
        add(
          {
            key: `recent:${wallet.id}`,
            wallet: {
              id: wallet.id,
              name: wallet.name,
              ...(wallet.rdns ? { rdns: wallet.rdns } : {}),
              ...(wallet.imageUrl ? { imageUrl: wallet.imageUrl } : {}),
            },
            badge: 'Recent',
          },
          wallet.id,
          wallet.rdns,
          wallet.connectorId === 'walletConnect' ? undefined : wallet.connectorId,
        )
      }
    } else if (section === 'injected') {
      for (const connector of connectors) {
        if (connector.type !== 'injected' && connector.type !== 'announced') continue
        add(
          {
            key: `connector:${connector.id}`,
            wallet: connectorWallet(connector, listing),
            badge: 'Installed',
          },
          connector.id,
          connector.rdns,
        )
      }
    } else if (section === 'external') {
      // The host's own connectors (its wagmi config's): chosen as any local connector.
      for (const connector of connectors) {
        if (connector.type !== 'external') continue
        add(
          { key: `connector:${connector.id}`, wallet: connectorWallet(connector, listing) },
          connector.id,
          connector.rdns,
        )
      }
    } else if (section === 'custom') {
      for (const wallet of custom)
        add({ key: `custom:${wallet.id}`, wallet: customWallet(wallet) }, wallet.id)
    } else if (section === 'featured' || section === 'recommended') {
      for (const wallet of listing[section]) {
        add({ key: `${section}:${wallet.id}`, wallet }, wallet.id, wallet.rdns)
      }
    }
  }
  return out
}
