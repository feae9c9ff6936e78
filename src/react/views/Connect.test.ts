import { describe, expect, it } from 'vitest'
import { DEFAULT_FEATURES, defineEvmNetwork, resolveConfig } from '../../config'
import type { ConnectorInfo, RecentWallet } from '../../machines/connection'
import { listingImageOf } from '../../machines/wallets'
import { orderWallets } from './Connect'
import { walletLinks } from './ConnectingWalletConnect'

const network = defineEvmNetwork({
  id: 31337,
  name: 'Sandbox',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})

const connectors: ConnectorInfo[] = [
  { id: 'walletConnect', name: 'WalletConnect', type: 'walletconnect', chain: 'eip155' },
  { id: 'io.dev', name: 'Dev Wallet', type: 'announced', chain: 'eip155', rdns: 'io.dev' },
  // The host's own connector (its wagmi config's): SPEC §1 connector type `external`.
  { id: 'hostLedger', name: 'Host Ledger', type: 'external', chain: 'eip155' },
  { id: 'walletstateEmbedded', name: 'Email', type: 'auth', chain: 'eip155' },
]
const recent: RecentWallet[] = [{ id: 'recent-1', name: 'Recent One', connectorId: 'walletConnect' }]
const listing = {
  featured: [{ id: 'featured-1', name: 'Featured One' }],
  recommended: [
    { id: 'recommended-1', name: 'Recommended One' },
    // Listed too, but the host's custom wallet of that id comes first: shown once, in the custom slot.
    { id: 'custom-1', name: 'Custom One (listed)' },
  ],
}
const { customWallets } = resolveConfig({
  projectId: 'p',
  networks: [network],
  customWallets: [
    {
      id: 'custom-1',
      name: '  Custom\u0000 One ',
      image_url: 'https://custom.example/icon.png',
      mobile_link: 'customone://',
      desktop_link: 'customone-desktop://',
      webapp_link: ' https://app.custom.example/ ',
    },
  ],
})

describe('orderWallets', () => {
  it('default: the SPEC §1 connector order, custom and external in their slots, each wallet once', () => {
    const items = orderWallets(DEFAULT_FEATURES.connectorsOrder, connectors, recent, listing, customWallets)
    expect(items.map((item) => item.key)).toEqual([
      'walletConnect',
      'recent:recent-1',
      'connector:io.dev',
      'featured:featured-1',
      'custom:custom-1',
      'connector:hostLedger',
      'recommended:recommended-1',
    ])
    // The custom wallet pairs through WalletConnect with its links, as the config normalised them.
    expect(items.find((item) => item.key === 'custom:custom-1')?.wallet).toEqual({
      id: 'custom-1',
      name: 'Custom One',
      imageUrl: 'https://custom.example/icon.png',
      mobileLink: 'customone://',
      desktopLink: 'customone-desktop://',
      webappLink: 'https://app.custom.example/',
    })
    // The external connector is chosen as a local connector, by its id (no "Installed" badge: the host's own).
    expect(items.find((item) => item.key === 'connector:hostLedger')).toEqual({
      key: 'connector:hostLedger',
      wallet: { id: 'hostLedger', name: 'Host Ledger' },
    })
  })

  it('parameters: the host’s order moves the slots; a slot left out shows nothing', () => {
    const items = orderWallets(['external', 'custom', 'injected'], connectors, recent, listing, customWallets)
    expect(items.map((item) => item.key)).toEqual([
      'connector:hostLedger',
      'custom:custom-1',
      'connector:io.dev',
    ])
    // The injected slot does not take an external connector, nor the external slot an injected one.
    expect(orderWallets(['external'], connectors, []).map((item) => item.key)).toEqual([
      'connector:hostLedger',
    ])
    expect(orderWallets(['injected'], connectors, []).map((item) => item.key)).toEqual(['connector:io.dev'])
  })

  it("SPEC §3 Connector imageId: a local connector without an icon takes its listing entry's image (getWalletImage/{image_id})", () => {
    const walletImage =
      'https://wallets.example/getWalletImage/0b4e4a4c-aaaa-bbbb-cccc-000000000000?projectId=p'
    const recommended = [{ id: 'listed-dev', name: 'Dev Wallet', rdns: 'io.dev', imageUrl: walletImage }]
    // As the listing's code tells Connect (ListedWallets).
    const listed = {
      featured: [],
      recommended,
      imageOf: (connector: ConnectorInfo) => listingImageOf(connector, recommended),
    }
    const plain: ConnectorInfo[] = [
      // Matched by rdns, no icon of its own (the kit's generic image id of its type only).
      {
        id: 'io.dev',
        name: 'Dev Wallet',
        type: 'injected',
        chain: 'eip155',
        rdns: 'io.dev',
        imageId: 'generic',
      },
      // Matched by nothing in the listing.
      { id: 'hostLedger', name: 'Host Ledger', type: 'external', chain: 'eip155' },
    ]
    const items = orderWallets(['injected', 'external', 'recommended'], plain, [], listed)
    expect(items.map((i) => [i.key, i.wallet.imageUrl])).toEqual([
      ['connector:io.dev', walletImage],
      ['connector:hostLedger', undefined],
    ])
    // Its own icon (an EIP-6963 announcement's) stays.
    const own = { ...plain[0]!, type: 'announced' as const, imageUrl: 'data:image/svg+xml,<svg/>' }
    expect(orderWallets(['injected'], [own], [], listed)[0]!.wallet.imageUrl).toBe(own.imageUrl)
    // Matched as choosing it would be: by id too; never a WalletConnect connector.
    const byId: ConnectorInfo = { id: 'listed-dev', name: 'Dev', type: 'injected', chain: 'eip155' }
    expect(listingImageOf(byId, recommended)).toBe(walletImage)
    const wc: ConnectorInfo = { id: 'listed-dev', name: 'WC', type: 'walletconnect', chain: 'eip155' }
    expect(listingImageOf(wc, recommended)).toBeUndefined()
  })

  it('behavior: a custom wallet’s links open it with the pairing URI', () => {
    const wallet = orderWallets(['custom'], [], [], undefined, customWallets)[0]!.wallet
    expect(walletLinks(wallet, 'wc:abc@2')).toEqual([
      { label: 'Open Custom One', href: 'https://app.custom.example/?uri=wc%3Aabc%402' },
      { label: 'Open app', href: 'customone://wc?uri=wc%3Aabc%402' },
      { label: 'Open desktop app', href: 'customone-desktop://wc?uri=wc%3Aabc%402' },
    ])
  })
})
