import { hexId, uuidId } from './images.ts'

/** One wallet of the listing, in the provider's field names (SPEC §3, "Wallet listing entry"). */
export interface ListingWallet {
  /** 64 hex characters, like the real listing. */
  id: string
  name: string
  /** Served by `GET /getWalletImage/{image_id}` (except for the deliberately broken hostile entry). */
  image_id: string
  /** Position in the catalogue, 1-based; the listing is served in this order. */
  order: number
  homepage: string | null
  badge_type: 'certified' | 'none'
  rdns: string | null
  /** CAIP-2 chain ids. */
  chains: string[]
  mobile_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  app_store: string | null
  play_store: string | null
  chrome_store: string | null
  /** EIP-6963 / injected identifiers, when the wallet is a browser extension. */
  injected: Array<{ namespace: string; injected_id: string }> | null
  /** Whether the wallet pairs over WalletConnect. */
  supports_wc: boolean
}

/** A wallet the caller adds or overrides: `id` and `name` required, every other field optional. */
export type ListingWalletInput = Pick<ListingWallet, 'id' | 'name'> &
  Partial<Omit<ListingWallet, 'id' | 'name' | 'order'>>

export const CHAIN_NAMES: Record<string, string> = {
  'eip155:1': 'Ethereum',
  'eip155:10': 'OP Mainnet',
  'eip155:56': 'BNB Smart Chain',
  'eip155:137': 'Polygon',
  'eip155:8453': 'Base',
  'eip155:42161': 'Arbitrum One',
  'eip155:11155111': 'Sepolia',
  'eip155:31337': 'Anvil',
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'Solana',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'Solana Devnet',
}

const EVM_CHAINS = Object.keys(CHAIN_NAMES).filter((id) => id.startsWith('eip155:'))
const SOLANA_CHAINS = Object.keys(CHAIN_NAMES).filter((id) => id.startsWith('solana:'))

/** The ids of the two sandbox wallets, fixed so the demo, the orchestrator and the tests can name them. */
export const DEV_WALLET_IDS = {
  /** "Walletstate Dev Wallet": the injected EIP-6963 wallet, rdns `io.walletstate.devwallet`. */
  injected: hexId('walletstate/listing/dev-wallet'),
  /** "Walletstate WC Wallet": the WalletConnect wallet page. */
  walletConnect: hexId('walletstate/listing/wc-wallet'),
} as const

/** The entries the kit's safety tests look for; the API serves them verbatim, the kit must sanitise. */
export const HOSTILE_WALLET_IDS = {
  /** Name carries an HTML payload. */
  htmlName: hexId('walletstate/listing/hostile/html-name'),
  /** Every link uses the `javascript:` scheme. */
  javascriptLinks: hexId('walletstate/listing/hostile/javascript-links'),
  /** Every link uses the `data:` scheme. */
  dataLinks: hexId('walletstate/listing/hostile/data-links'),
  /** Name of 300 characters with no spaces to break on. */
  longName: hexId('walletstate/listing/hostile/long-name'),
  /** `image_id` that `GET /getWalletImage` answers 404 for. */
  missingImage: hexId('walletstate/listing/hostile/missing-image'),
} as const

/** The image id of the hostile entry whose image does not exist. */
export const MISSING_IMAGE_ID = uuidId('walletstate/image/missing')

export const HTML_NAME = '<img src=x onerror=alert(1)>Evil'
export const LONG_NAME = `Wallet${'Extraordinarily'.repeat(20)}`.slice(0, 300)

const PREFIXES = [
  'Aurora',
  'Basalt',
  'Cobalt',
  'Drift',
  'Ember',
  'Fjord',
  'Granite',
  'Harbor',
  'Indigo',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Meridian',
  'Nimbus',
  'Obsidian',
  'Pebble',
  'Quartz',
  'Rook',
  'Sable',
  'Tundra',
  'Umber',
  'Vesper',
  'Willow',
  'Xenon',
  'Yarrow',
  'Zephyr',
]
const SUFFIXES = ['Wallet', 'Vault', 'Keys']

/** How many ordinary generated wallets the catalogue holds (plus 2 dev wallets and 5 hostile entries). */
export const GENERATED_WALLET_COUNT = 64

function empty(): Omit<ListingWallet, 'id' | 'name' | 'image_id' | 'order'> {
  return {
    homepage: null,
    badge_type: 'none',
    rdns: null,
    chains: [],
    mobile_link: null,
    desktop_link: null,
    webapp_link: null,
    app_store: null,
    play_store: null,
    chrome_store: null,
    injected: null,
    supports_wc: true,
  }
}

function generatedWallet(index: number): Omit<ListingWallet, 'order'> {
  const name = `${PREFIXES[index % PREFIXES.length]} ${SUFFIXES[Math.floor(index / PREFIXES.length)]}`
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '')
  const bits = Number.parseInt(hexId(`walletstate/listing/traits/${name}`).slice(0, 8), 16)
  // Most wallets are EVM; about a third also do Solana; every eighth is Solana-only, so the chains filter bites.
  const solanaOnly = index % 8 === 7
  const evm = solanaOnly ? [] : EVM_CHAINS.filter((_, i) => i === 0 || (bits >> i) & 1)
  const withLocal = !solanaOnly && index % 2 === 0 && !evm.includes('eip155:31337') ? ['eip155:31337'] : []
  const solana = solanaOnly || (bits >> 12) % 3 === 0 ? SOLANA_CHAINS.slice(0, 1 + ((bits >> 14) & 1)) : []
  const isExtension = index % 4 === 1
  const rdns = `com.${slug}`
  return {
    ...empty(),
    id: hexId(`walletstate/listing/wallet/${name}`),
    name,
    image_id: uuidId(`walletstate/image/wallet/${name}`),
    homepage: `https://${slug}.example`,
    badge_type: index % 3 === 0 ? 'certified' : 'none',
    rdns,
    chains: [...evm, ...withLocal, ...solana],
    mobile_link: index % 5 === 4 ? null : `${slug}://`,
    desktop_link: index % 6 === 0 ? `${slug}-desktop://` : null,
    webapp_link: index % 7 === 3 ? `https://app.${slug}.example/` : null,
    app_store: `https://apps.example/${slug}`,
    play_store: `https://play.example/${slug}`,
    chrome_store: isExtension ? `https://extensions.example/${slug}` : null,
    injected: isExtension ? [{ namespace: solanaOnly ? 'solana' : 'eip155', injected_id: rdns }] : null,
    supports_wc: !isExtension || index % 8 === 1,
  }
}

function devWallets(): Array<Omit<ListingWallet, 'order'>> {
  return [
    {
      ...empty(),
      id: DEV_WALLET_IDS.injected,
      name: 'Walletstate Dev Wallet',
      image_id: uuidId('walletstate/image/wallet/dev-wallet'),
      homepage: 'https://walletstate.example/dev-wallet',
      badge_type: 'certified',
      rdns: 'io.walletstate.devwallet',
      chains: ['eip155:31337', 'eip155:1'],
      injected: [{ namespace: 'eip155', injected_id: 'io.walletstate.devwallet' }],
      supports_wc: false,
    },
    {
      ...empty(),
      id: DEV_WALLET_IDS.walletConnect,
      name: 'Walletstate WC Wallet',
      image_id: uuidId('walletstate/image/wallet/wc-wallet'),
      homepage: 'https://walletstate.example/wc-wallet',
      badge_type: 'certified',
      rdns: 'io.walletstate.wcwallet',
      chains: ['eip155:31337', 'eip155:1'],
      // The orchestrator overrides this with the real page URL (its port is only known at start).
      webapp_link: null,
      supports_wc: true,
    },
  ]
}

function hostileWallets(): Array<Omit<ListingWallet, 'order'>> {
  const image = (seed: string) => uuidId(`walletstate/image/wallet/hostile/${seed}`)
  return [
    {
      ...empty(),
      id: HOSTILE_WALLET_IDS.htmlName,
      name: HTML_NAME,
      image_id: image('html-name'),
      homepage: 'https://evil.example',
      rdns: 'com.evil.html',
      chains: ['eip155:1', 'eip155:31337'],
      mobile_link: 'evil://',
    },
    {
      ...empty(),
      id: HOSTILE_WALLET_IDS.javascriptLinks,
      name: 'Script Link Wallet',
      image_id: image('javascript-links'),
      homepage: 'javascript:alert(document.domain)',
      rdns: 'com.evil.javascript',
      chains: ['eip155:1', 'eip155:31337'],
      mobile_link: 'javascript:alert(1)//',
      desktop_link: 'JavaScript:alert(2)',
      webapp_link: ' javascript:alert(3)',
    },
    {
      ...empty(),
      id: HOSTILE_WALLET_IDS.dataLinks,
      name: 'Data Link Wallet',
      image_id: image('data-links'),
      homepage: 'data:text/html,<script>alert(1)</script>',
      rdns: 'com.evil.data',
      chains: ['eip155:1', 'eip155:31337'],
      mobile_link: 'data:text/html,<script>alert(1)</script>',
      desktop_link: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgyKTwvc2NyaXB0Pg==',
      webapp_link: 'data:text/html,<script>alert(3)</script>',
    },
    {
      ...empty(),
      id: HOSTILE_WALLET_IDS.longName,
      name: LONG_NAME,
      image_id: image('long-name'),
      homepage: 'https://long.example',
      rdns: 'com.evil.long',
      chains: ['eip155:1', 'eip155:31337'],
      mobile_link: 'longname://',
    },
    {
      ...empty(),
      id: HOSTILE_WALLET_IDS.missingImage,
      name: 'Missing Image Wallet',
      image_id: MISSING_IMAGE_ID,
      homepage: 'https://missing.example',
      rdns: 'com.evil.missingimage',
      chains: ['eip155:1', 'eip155:31337'],
      mobile_link: 'missingimage://',
    },
  ]
}

/**
 * The whole listing, deterministic: the two dev wallets first, then 64 generated wallets, then the hostile
 * entries (on the last page, so the demo's first page stays clean). `extra` entries override catalogue entries
 * with the same id field by field, or are placed after the dev wallets when new.
 *
 * @example
 * buildCatalogue([{ id: DEV_WALLET_IDS.walletConnect, name: 'Walletstate WC Wallet', webapp_link: url }])
 */
export function buildCatalogue(extra: readonly ListingWalletInput[] = []): ListingWallet[] {
  const base = [
    ...devWallets(),
    ...Array.from({ length: GENERATED_WALLET_COUNT }, (_, i) => generatedWallet(i)),
    ...hostileWallets(),
  ]
  const added: Array<Omit<ListingWallet, 'order'>> = []
  for (const input of extra) {
    const index = base.findIndex((wallet) => wallet.id === input.id)
    if (index >= 0) base[index] = { ...base[index]!, ...input }
    else added.push({ ...empty(), image_id: uuidId(`walletstate/image/wallet/${input.id}`), ...input })
  }
  const devCount = devWallets().length
  const all = [...base.slice(0, devCount), ...added, ...base.slice(devCount)]
  // Key order as the provider serves it: identity first, then links.
  return all.map(({ id, name, image_id, ...rest }, i) => ({ id, name, image_id, order: i + 1, ...rest }))
}

/**
 * The networks with an image (SPEC §7 `getAssetImage`): the listing's chains, and this sandbox's own (its second
 * anvil and its Solana, whose genesis hash is sandbox/solana/rpc.ts's `SANDBOX_GENESIS_HASH`).
 */
const NETWORK_IMAGE_NAMES: Record<string, string> = {
  ...CHAIN_NAMES,
  'eip155:31338': 'Second Sandbox',
  'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZxJRRevfEkSSoW': 'Solana Sandbox',
}

/** Network and connector images (`GET /public/getAssetImage/{id}`), keyed by CAIP-2 id or `connector:<id>`. */
export const ASSET_IMAGE_IDS: Record<string, string> = Object.fromEntries([
  ...Object.keys(NETWORK_IMAGE_NAMES).map((chain) => [chain, uuidId(`walletstate/image/network/${chain}`)]),
  ...['injected', 'walletConnect', 'auth', 'coinbaseWallet', 'safe'].map((id) => [
    `connector:${id}`,
    uuidId(`walletstate/image/connector/${id}`),
  ]),
])

/** Labels for the asset images, so each badge shows sensible initials. */
export const ASSET_IMAGE_LABELS: Record<string, string> = Object.fromEntries(
  Object.entries(ASSET_IMAGE_IDS).map(([key, id]) => [
    id,
    NETWORK_IMAGE_NAMES[key] ?? key.replace('connector:', ''),
  ]),
)

/** Fiat currencies served by `GET /public/getCurrencyImage/{code}` (ISO 4217 codes, upper case). */
export const CURRENCY_CODES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CAD',
  'AUD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'BRL',
  'INR',
]

/** Token symbols served by `GET /public/getTokenImage/{symbol}` (upper case). */
export const TOKEN_SYMBOLS = [
  'ETH',
  'WETH',
  'USDC',
  'USDT',
  'STK',
  'DAI',
  'SOL',
  'BTC',
  'POL',
  'BNB',
  'ARB',
  'OP',
]
