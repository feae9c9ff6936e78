import {
  createKitMachine,
  defineEvmNetwork,
  defineSolanaNetwork,
  KIT_LOCALES,
  type KitLocale,
  type KitNetwork,
} from '../src'
import { createSiwe } from '../src/siwx'
import type { DemoSandboxConfig } from './sandbox-config'

/**
 * The demo's kit: the sandbox's services and the options its URL asks for. A function of its inputs (no
 * `window`), so a test can build in Node the very kit a recorded demo page ran, and replay the recording's
 * kit actor against it (test/e2e/recording.test.ts).
 *
 * @example
 * const kit = createDemoKit(sandboxConfig, window.location.search, window.location.origin)
 */
export function createDemoKit(sandboxConfig: DemoSandboxConfig, search: string, origin: string) {
  const params = new URLSearchParams(search)
  const localChain: KitNetwork = defineEvmNetwork({
    id: sandboxConfig.chain?.id ?? 31337,
    name: sandboxConfig.chain?.name ?? 'Sandbox Chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [sandboxConfig.chain?.rpcUrl ?? 'http://127.0.0.1:8545'] } },
    testnet: true,
  })

  /** The sandbox's second EVM chain, so Networks switches between two EVM chains. */
  const moreChains: KitNetwork[] = (sandboxConfig.moreChains ?? []).map((chain) =>
    defineEvmNetwork({
      id: chain.id,
      name: chain.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
      testnet: true,
    }),
  )

  const BITCOIN_REGTEST: KitNetwork = {
    id: '0f9188f13cb7b2c71f2a335e3a4fc328',
    name: 'Bitcoin Regtest',
    chainNamespace: 'bip122',
    caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
    nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
    rpcUrls: { default: { http: [] } },
    testnet: true,
  }
  /** The sandbox's Solana chain (issue 17), beside the EVM one: one modal for both namespaces. */
  const solanaChain: KitNetwork | undefined = sandboxConfig.solana
    ? defineSolanaNetwork({
        name: sandboxConfig.solana.name,
        genesisHash: sandboxConfig.solana.chainId.slice('solana:'.length),
        rpcUrl: sandboxConfig.solana.rpcUrl,
        testnet: true,
      })
    : undefined

  /** `?proposalTtl=MS`: a short pairing-proposal lifetime, to watch the QR code renew (demos and tests). */
  const proposalTtl = Number(params.get('proposalTtl'))
  /** `?sessionPing=MS`: a WalletConnect wallet silent this long is pinged (demos and tests; default 5 min). */
  const sessionPing = Number(params.get('sessionPing'))
  const walletConnect = {
    ...(Number.isInteger(proposalTtl) && proposalTtl >= 1_000 ? { proposalTtlMs: proposalTtl } : {}),
    ...(Number.isInteger(sessionPing) && sessionPing >= 1_000 ? { sessionPingIntervalMs: sessionPing } : {}),
  }
  /**
   * `?siwx=1`: sign-in with the wallet (issue 15), sessions in this browser's storage; `?siwx=api`: sessions on
   * the sandbox Data API (`/v1/sessions`); `&siwxRequired=1`: declining disconnects.
   */
  const siwxMode = params.get('siwx')
  const siwx =
    siwxMode === '1' || siwxMode === 'api'
      ? createSiwe({
          statement: 'Sign in to the Walletstate demo',
          required: params.get('siwxRequired') === '1',
          ...(siwxMode === 'api' && sandboxConfig.endpoints?.api
            ? { sessionsApi: { url: sandboxConfig.endpoints.api, projectId: sandboxConfig.projectId } }
            : {}),
        })
      : undefined

  /**
   * Issue 18's options, for demos and tests: `?legal=1` the legal checkbox (with terms and privacy links),
   * `?collapseWallets=1` the wallets behind "Continue with a wallet", `?customWallet=1` a custom wallet.
   */
  const legal = params.get('legal') === '1'
  const optionFeatures = {
    ...(legal ? { legalCheckbox: true } : {}),
    ...(params.get('collapseWallets') === '1' ? { collapseWallets: true } : {}),
    // `?smartSessions=1`: ERC-7715 permissions (SPEC §1 `features.smartSessions`, off by default) and the demo's
    // "Grant 10 USDC" / "Spend … as the app" / "Revoke" buttons.
    ...(params.get('smartSessions') === '1' ? { smartSessions: true } : {}),
  }

  /**
   * `?pay=1`: Pay on (SPEC §1 `features.pay`, off by default) and the demo's "Pay" button, which asks the wallet to
   * pay 0.01 ETH to the second dev account; `?pay=off`: the button with Pay left off, to see the kit refuse.
   */
  const payMode = params.get('pay')

  /** `?locale=de`: the kit's language at start (issue 18); the page's "Language" select changes it at run time. */
  const startLocale = params.get('locale')

  return createKitMachine({
    projectId: sandboxConfig.projectId,
    ...((KIT_LOCALES as readonly string[]).includes(startLocale ?? '')
      ? { locale: startLocale as KitLocale }
      : {}),
    ...(Object.keys(optionFeatures).length > 0 || payMode === '1'
      ? { features: { ...optionFeatures, ...(payMode === '1' ? { pay: true } : {}) } }
      : {}),
    ...(legal
      ? {
          termsConditionsUrl: 'https://walletstate.example/terms',
          privacyPolicyUrl: 'https://walletstate.example/privacy',
        }
      : {}),
    ...(params.get('customWallet') === '1'
      ? {
          customWallets: [
            {
              id: 'walletstate-custom',
              name: 'Walletstate Custom Wallet',
              desktop_link: 'walletstate-custom://',
              webapp_link: 'https://custom.walletstate.example/',
              homepage: 'https://walletstate.example/custom',
            },
          ],
        }
      : {}),
    ...(Object.keys(walletConnect).length > 0 ? { walletConnect } : {}),
    networks: [
      localChain,
      ...(solanaChain ? [solanaChain] : []),
      ...moreChains,
      // `?bitcoin=1`: Bitcoin regtest, where a multichain WalletConnect wallet's bip122 account shows (no balance:
      // the sandbox has no Bitcoin node).
      ...(params.get('bitcoin') === '1' ? [BITCOIN_REGTEST] : []),
    ],
    // The kit asks a wallet only for swaps through this router (it checks every transaction the API builds).
    ...(sandboxConfig.swapRouter
      ? { swapRouters: { [`eip155:${localChain.id}`]: sandboxConfig.swapRouter } }
      : {}),
    endpoints: sandboxConfig.endpoints,
    ...(sandboxConfig.onrampPartnerOrigins
      ? { onrampPartnerOrigins: sandboxConfig.onrampPartnerOrigins }
      : {}),
    ...(siwx ? { siwx } : {}),
    metadata: {
      name: 'Walletstate demo',
      description: 'The demo host app of the Walletstate kit',
      url: origin,
      icons: [],
      // A wallet on another tab or device sends the visitor back here once they approved.
      redirect: { universal: `${origin}/` },
    },
  })
}

/** `?pay=1` / `?pay=off` (see createDemoKit). */
export const payModeOf = (search: string) => new URLSearchParams(search).get('pay')
