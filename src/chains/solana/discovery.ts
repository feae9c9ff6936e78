import {
  isWalletAdapterCompatibleStandardWallet,
  type WalletAdapterCompatibleStandardWallet,
} from '@solana/wallet-adapter-base'
import { getWallets, type Wallets } from '@wallet-standard/app'
import { WALLET_NAME_MAX_LENGTH } from '../../constants'
import { safeHttpUrl } from '../../utils/httpUrl'
import { safeText } from '../../utils/links'

/*
 * Wallet Standard discovery of Solana wallets (Phantom, Solflare, Backpack, the sandbox's dev wallet): the
 * registry of @wallet-standard/app, filtered by the wallet adapter's own compatibility check. A wallet's name,
 * icon and chains come from page scripts we do not control, so they are cleaned before anything shows them.
 */

/** A registered Wallet Standard wallet, as @wallet-standard/app hands it out. */
export type StandardWallet = ReturnType<Wallets['get']>[number]

/** A Solana wallet found in the page, as the kit lists it. */
export interface SolanaWalletInfo {
  /** `solana:` + the name's slug (`solana:phantom`), with `-2`, `-3`... for a repeated name; stable per wallet. */
  id: string
  /** The wallet's name as `safeText` cleans it, at most WALLET_NAME_MAX_LENGTH characters. */
  name: string
  /** A `data:image/...` or `https:` icon; absent when the wallet's is anything else. */
  icon?: string
  /** The Wallet Standard chains it serves (`solana:mainnet`, `solana:localnet`, ...). */
  chains: string[]
}

const SLUG_MAX = 48
const CHAINS_MAX = 16
const CHAIN_MAX = 64
/** Longest data: icon kept (EIP-6963 and Wallet Standard icons are small SVGs or PNGs). */
const ICON_DATA_MAX = 200_000
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)(;base64)?,/i

/**
 * A wallet icon safe for `<img src>`: a bounded `data:image/...` URI or an `https:` URL without credentials.
 * `http:`, `javascript:`, other `data:` types and anything malformed are dropped (the hostile data rule).
 *
 * @example
 * safeWalletIcon('data:image/svg+xml;base64,PHN2Zy8+') // kept
 * safeWalletIcon('javascript:alert(1)') // undefined
 */
export function safeWalletIcon(icon: unknown): string | undefined {
  if (typeof icon !== 'string') return undefined
  const trimmed = icon.trim()
  if (DATA_IMAGE.test(trimmed)) return trimmed.length <= ICON_DATA_MAX ? trimmed : undefined
  const url = safeHttpUrl(trimmed)
  return url?.startsWith('https:') ? url : undefined
}

/**
 * A wallet's name fit to show, cleaned as the listing's and EIP-6963 wallets' names are (`safeText`: no control,
 * bidi or invisible characters, no lone surrogates, whitespace collapsed, cut with an ellipsis past
 * WALLET_NAME_MAX_LENGTH); `''` when nothing is left. Any page script can register a Wallet Standard wallet.
 *
 * @example cleanWalletName('Pha\u0000ntom\u202e') // 'Phantom'
 */
export function cleanWalletName(name: unknown): string {
  return safeText(name, WALLET_NAME_MAX_LENGTH)
}

/**
 * The id part a name gives: lowercase ASCII letters and digits joined by `-`.
 *
 * @example walletSlug('Walletstate Solana Dev Wallet') // 'walletstate-solana-dev-wallet'
 */
export function walletSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '')
  return slug || 'wallet'
}

/**
 * Ids handed out, per wallet object: a wallet keeps its id for as long as the page lives, even when another
 * of the same name comes or goes.
 */
const ids = new WeakMap<StandardWallet, string>()
const taken = new Set<string>()

function idOf(wallet: StandardWallet, name: string): string {
  const known = ids.get(wallet)
  if (known) return known
  const base = `solana:${walletSlug(name)}`
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
  taken.add(id)
  ids.set(wallet, id)
  return id
}

/** Whether a registered wallet can be used through the Solana wallet adapter; a hostile shape is `false`. */
export function isSolanaWallet(wallet: StandardWallet): wallet is WalletAdapterCompatibleStandardWallet {
  try {
    return Boolean(wallet?.features) && isWalletAdapterCompatibleStandardWallet(wallet)
  } catch {
    return false
  }
}

/**
 * The Solana wallets among registered ones, cleaned: wallets without a name are left out, icons checked,
 * chains limited to `solana:` ones.
 *
 * @example toSolanaWalletInfos(getWallets().get())
 */
export function toSolanaWalletInfos(wallets: readonly StandardWallet[]): SolanaWalletInfo[] {
  const out: SolanaWalletInfo[] = []
  for (const wallet of wallets) {
    if (!isSolanaWallet(wallet)) continue
    const name = cleanWalletName(wallet.name)
    if (!name) continue
    const icon = safeWalletIcon(wallet.icon)
    const chains = Array.isArray(wallet.chains)
      ? wallet.chains
          .filter((c): c is `${string}:${string}` => typeof c === 'string' && c.startsWith('solana:'))
          .filter((c) => c.length <= CHAIN_MAX)
          .slice(0, CHAINS_MAX)
      : []
    out.push({ id: idOf(wallet, name), name, ...(icon ? { icon } : {}), chains })
  }
  return out
}

/**
 * The Solana wallets registered in this page now.
 *
 * @example listSolanaWallets().map((w) => w.name) // ['Phantom', 'Walletstate Solana Dev Wallet']
 */
export function listSolanaWallets(): SolanaWalletInfo[] {
  return toSolanaWalletInfos(getWallets().get())
}

/**
 * Follows registrations and unregistrations: `onChange` gets the whole list now and after every change.
 * Returns the unsubscribe.
 *
 * @example
 * const stop = subscribeSolanaWallets((wallets) => actor.send({ type: 'wallets.solana', wallets }))
 */
export function subscribeSolanaWallets(onChange: (wallets: SolanaWalletInfo[]) => void): () => void {
  const registry = getWallets()
  const emit = () => onChange(toSolanaWalletInfos(registry.get()))
  const offRegister = registry.on('register', emit)
  const offUnregister = registry.on('unregister', emit)
  emit()
  return () => {
    offRegister()
    offUnregister()
  }
}

/**
 * The registered wallet behind a `SolanaWalletInfo` id, or `undefined` when it is gone.
 *
 * @example findSolanaWallet('solana:phantom')
 */
export function findSolanaWallet(id: string): WalletAdapterCompatibleStandardWallet | undefined {
  const wallets = getWallets().get()
  // Listing gives every Solana wallet its id (a wallet not listed before gets one now).
  toSolanaWalletInfos(wallets)
  return wallets.filter(isSolanaWallet).find((wallet) => ids.get(wallet) === id)
}
