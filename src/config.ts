import type { Config as WagmiConfig } from 'wagmi'
import { DEFAULT_ACCOUNT_TYPES, ONRAMP_PARTNER_ORIGINS, SWAP_SLIPPAGE_MAX } from './constants'
import { ALERTS, ConfigError, type KitAlert } from './errors/base'
import type { AccountType } from './frame/protocol'
import type { SiweConfig, SiwxConfig } from './siwx/types'
import { checkHttp, normaliseLink } from './utils/httpUrl'
import { safeDeepLink, safeHttpUrl, safeText } from './utils/links'

/**
 * A chain as viem defines it (`viem/chains`, viem's `defineChain`, wagmi's chains): the fields the kit reads of
 * one. `networks` takes such a chain as it is, on eip155; the kit derives its CAIP-2 id (`eip155:<id>`) and keeps
 * the rest of it (contracts such as Multicall3, formatters) for the wagmi config it builds.
 */
export interface EvmChain {
  id: number
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: { default: { http: readonly string[] } }
  blockExplorers?: { default: { name: string; url: string } } | undefined
  testnet?: boolean | undefined
}

/**
 * A network as a host gives it: a viem chain (eip155) as it is, or a `KitNetwork` (`defineSolanaNetwork`, or
 * `defineEvmNetwork` for an eip155 chain with fields of one's own).
 */
export type KitNetworkInput = KitNetwork | EvmChain

/** SPEC §3 Network. `id` is the chain reference (a number on eip155). */
export interface KitNetwork {
  id: number | string
  name: string
  /** bip122 (Bitcoin): a multichain WalletConnect wallet's account, held and signing; no balance is read. */
  chainNamespace: 'eip155' | 'solana' | 'bip122'
  /** `namespace:reference`, e.g. `eip155:1`. */
  caipNetworkId: `${string}:${string}`
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: { default: { http: readonly string[] } }
  blockExplorers?: { default: { name: string; url: string } }
  testnet?: boolean
}

/** SPEC §1 feature flags. */
export interface KitFeatures {
  swaps: boolean
  onramp: boolean
  /** Account names (issue 20): Account offers "Choose a name" to an eip155 account. Ours: on by default. */
  names: boolean
  receive: boolean
  send: boolean
  email: boolean
  socials: readonly SocialProvider[] | false
  history: boolean
  analytics: boolean
  allWallets: boolean
  legalCheckbox: boolean
  smartSessions: boolean
  collapseWallets: boolean
  pay: boolean
  connectMethodsOrder: readonly ConnectMethod[]
  walletFeaturesOrder: readonly WalletFeature[]
  connectorsOrder: readonly ConnectorOrderItem[]
}

export type SocialProvider = 'google' | 'x' | 'discord' | 'farcaster' | 'github' | 'apple' | 'facebook'
export type ConnectMethod = 'email' | 'social' | 'wallet'
export type WalletFeature = 'onramp' | 'swaps' | 'receive' | 'send'
export type ConnectorOrderItem =
  | 'walletConnect'
  | 'recent'
  | 'injected'
  | 'featured'
  | 'custom'
  | 'external'
  | 'recommended'
export type ThemeMode = 'dark' | 'light'

/** The languages the kit's views come in (src/react/locales/); English is the source and ships with the kit. */
export const KIT_LOCALES = ['en', 'de', 'es', 'fr', 'ja', 'zh', 'ar'] as const
export type KitLocale = (typeof KIT_LOCALES)[number]
/** Whether a value names one of the kit's locales. */
export const isKitLocale = (value: unknown): value is KitLocale =>
  typeof value === 'string' && (KIT_LOCALES as readonly string[]).includes(value)
/**
 * A wallet the host adds to Connect (the `custom` slot of `connectorsOrder`), in the listing's shape (SPEC §3
 * wallet listing entry). Choosing it pairs through WalletConnect and offers its links, as a listed wallet.
 * Links must be safe (`https:`, loopback `http:`, or a wallet's own `name://` scheme for the app links).
 */
export interface KitCustomWallet {
  /** 1-128 characters of [A-Za-z0-9._:-], unique among the custom wallets. */
  id: string
  name: string
  image_url?: string
  mobile_link?: string
  desktop_link?: string
  webapp_link?: string
  homepage?: string
}

/** Where the provider's services live; the sandbox overrides every one. */
export interface KitEndpoints {
  api: string
  walletsApi: string
  rpc: string
  relay: string
  frame: string
  telemetry: string
  /** Domain verification (SPEC §3 Verify context): where the page registers its attestation for a pairing. */
  verify: string
  /** The ERC-4337 bundler host (SPEC §7): `POST {bundler}/v1/bundler?projectId&chainId&bundler`. */
  bundler: string
}

/** App metadata shown to wallets (SPEC §3 App metadata). */
export interface KitMetadata {
  name: string
  description: string
  url: string
  icons: readonly string[]
  /**
   * Where a wallet on another device or app sends the visitor back once they approved (SPEC §3 App metadata
   * `redirect`): `native`, the app's own scheme link (`myapp://`); `universal`, an https link to the app (http on
   * the loopback host); `linkMode`, WalletConnect's link mode (answers through the universal link; needs one).
   */
  redirect?: { native?: string; universal?: string; linkMode?: boolean }
}

/** Theme variables a host may override; values are sanitised before they reach CSS. */
export interface KitThemeVariables {
  '--ws-accent'?: string
  '--ws-accent-contrast'?: string
  '--ws-font-family'?: string
  '--ws-radius'?: string
  '--ws-z-index'?: string
  '--ws-background'?: string
  '--ws-foreground'?: string
}

/** The theme variables a host may set (`KitThemeVariables`' keys). */
export const THEME_VARIABLE_NAMES: ReadonlySet<string> = new Set<keyof KitThemeVariables>([
  '--ws-accent',
  '--ws-accent-contrast',
  '--ws-font-family',
  '--ws-radius',
  '--ws-z-index',
  '--ws-background',
  '--ws-foreground',
])

/** A CSS value with nothing that could end the declaration, open a block or fetch a resource. */
export function isSafeCssValue(value: string): boolean {
  return value.length <= 200 && !/[;{}<>\\]|url\s*\(|expression\s*\(|@import|\/\*/i.test(value)
}

/**
 * What is wrong with theme variables, one "path: problem" each: the config's `themeVariables` and
 * `setThemeVariables` alike. A variable set to `undefined` is left out (at run time: removed).
 */
export function themeVariablesProblems(variables: unknown, path = 'themeVariables'): string[] {
  if (!isRecord(variables)) return [`${path}: must be an object`]
  const problems: string[] = []
  for (const [name, value] of Object.entries(variables)) {
    if (!THEME_VARIABLE_NAMES.has(name)) problems.push(`${path}.${name}: is not a theme variable`)
    else if (value !== undefined && (typeof value !== 'string' || !isSafeCssValue(value)))
      problems.push(
        `${path}.${name}: must be a CSS value without ; { } < > \\, url(), expression(), @import or comments`,
      )
  }
  return problems
}

/** The kit's theme events (`KitEvent`), as the run-time setters send them. */
export type ThemeEvent =
  | { type: 'kit.setThemeMode'; themeMode: ThemeMode }
  | { type: 'kit.setThemeVariables'; themeVariables: KitThemeVariables }

/**
 * Sets the theme mode at run time: the modal shows it at once and the login frame is told (`syncTheme`).
 * `kit` is the running kit actor (`createActor(kit).start()`, or `useKitActor()`). Throws `ConfigError` for
 * anything but `'dark'` or `'light'`, as the config does.
 *
 * @example
 * import { mainnet } from 'viem/chains'
 * import { createKitMachine, setThemeMode } from 'walletstate'
 * import { createActor } from 'xstate'
 *
 * const kitActor = createActor(createKitMachine({ projectId: 'abc', networks: [mainnet] })).start()
 * setThemeMode(kitActor, 'light')
 */
export function setThemeMode(kit: { send(event: ThemeEvent): void }, themeMode: ThemeMode): void {
  if (themeMode !== 'dark' && themeMode !== 'light')
    throw new ConfigError('Invalid theme', { details: "themeMode: must be 'dark' or 'light'" })
  kit.send({ type: 'kit.setThemeMode', themeMode })
}

/**
 * Sets theme variables at run time, merged into the current ones (a variable set to `undefined` goes back to
 * the theme's own value); the login frame is told (`syncTheme`). Throws `ConfigError` naming each variable the
 * config would refuse (an unknown name, a value that could escape its declaration); then nothing is written.
 *
 * @example
 * import { mainnet } from 'viem/chains'
 * import { createKitMachine, setThemeVariables } from 'walletstate'
 * import { createActor } from 'xstate'
 *
 * const kitActor = createActor(createKitMachine({ projectId: 'abc', networks: [mainnet] })).start()
 * setThemeVariables(kitActor, { '--ws-accent': '#e8590c' })
 */
export function setThemeVariables(
  kit: { send(event: ThemeEvent): void },
  themeVariables: KitThemeVariables,
): void {
  const problems = themeVariablesProblems(themeVariables)
  if (problems.length > 0) throw new ConfigError('Invalid theme', { details: problems.join('; ') })
  kit.send({ type: 'kit.setThemeVariables', themeVariables })
}

/** Key-value storage the kit persists to (SPEC §3); `localStorage` by default. Failures are only logged. */
export interface KitStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * Sign-in (SPEC §1 `siwx`): how the host makes the message and keeps the sessions; `createSiwe()` is a ready
 * EIP-4361 one. `siweConfig` is AppKit's older SIWE configuration, mapped onto the same machinery; never both (§5).
 */
export type { SiweConfig, SiwxConfig }

/**
 * What a host passes to `createKitMachine`. Only `projectId` and `networks` are required.
 *
 * @example
 * import { mainnet, sepolia } from 'viem/chains'
 * import { createKitMachine } from 'walletstate'
 *
 * const kit = createKitMachine({ projectId: 'abc', networks: [mainnet, sepolia] })
 */
export interface KitConfig {
  projectId: string
  /** viem chains as they are (`viem/chains`), and Solana networks from `defineSolanaNetwork`; at least one. */
  networks: readonly [KitNetworkInput, ...KitNetworkInput[]]
  /** One of `networks`; the first when unset. */
  defaultNetwork?: KitNetworkInput
  metadata?: KitMetadata
  features?: Partial<KitFeatures>
  themeMode?: ThemeMode
  themeVariables?: KitThemeVariables
  allowUnsupportedChain?: boolean
  enableNetworkSwitch?: boolean
  featuredWalletIds?: readonly string[]
  includeWalletIds?: readonly string[]
  excludeWalletIds?: readonly string[]
  siweConfig?: SiweConfig
  siwx?: SiwxConfig
  storage?: KitStorage
  endpoints?: Partial<KitEndpoints>
  /** WalletConnect pairing options. */
  walletConnect?: Partial<KitWalletConnectOptions>
  /** The swap's slippage tolerance, in percent (above 0, at most 50); the SPEC's 1 when unset. */
  swapSlippage?: number
  /**
   * The host's own wagmi config (`createConfig` from wagmi): the kit uses it, with its chains, transports,
   * storage and connectors, instead of building one, and adds its own connectors (WalletConnect, the embedded
   * wallet) to it. Every eip155 network of `networks` must be one of its chains. `KitRoot` reuses a
   * `WagmiProvider` (and a `QueryClientProvider`) already above it.
   */
  wagmiConfig?: WagmiConfig
  /** The language of the kit's views (`KIT_LOCALES`); 'en' when unset. `useKitLocale().setLocale` changes it. */
  locale?: KitLocale
  /**
   * A chain's own RPC URL by its CAIP-2 id (SPEC §7 "or a custom rpcMap URL"): the kit's reads and the
   * WalletConnect session's RPC for that network go there instead of the provider's RPC host (eip155) or the
   * network's URL (Solana). https, or http on a loopback host; every key a configured network.
   *
   * @example
   * import { mainnet } from 'viem/chains'
   * import { createKitMachine } from 'walletstate'
   *
   * const kit = createKitMachine({
   *   projectId: 'abc',
   *   networks: [mainnet],
   *   rpcMap: { 'eip155:1': 'https://eth.example/rpc' },
   * })
   */
  rpcMap?: Readonly<Record<`${string}:${string}`, string>>
  /** With `features.legalCheckbox`: the terms the visitor agrees to before connecting (https, or loopback http). */
  termsConditionsUrl?: string
  /** With `features.legalCheckbox`: the privacy policy the visitor agrees to (https, or loopback http). */
  privacyPolicyUrl?: string
  /** The host's own wallets, shown in the `custom` slot of `features.connectorsOrder`. */
  customWallets?: readonly KitCustomWallet[]
  /**
   * Buy: the origins each provider's partner page may be on, by provider id (`coinbase`, `meld`); a provider
   * listed here replaces its built-in list (`ONRAMP_PARTNER_ORIGINS`), the others keep theirs. Each an https
   * origin (or http on the loopback host). A partner URL on another origin is refused.
   *
   * @example
   * import { mainnet } from 'viem/chains'
   * import { createKitMachine } from 'walletstate'
   *
   * const kit = createKitMachine({
   *   projectId: 'abc',
   *   networks: [mainnet],
   *   onrampPartnerOrigins: { coinbase: ['https://pay.coinbase.com'] },
   * })
   */
  onrampPartnerOrigins?: Readonly<Record<string, readonly string[]>>
  /**
   * The swap router the kit lets a wallet be asked to approve and call, by CAIP-2 id: every transaction the
   * convert API builds is decoded and refused unless its spender and target are this chain's router. A chain
   * without an entry cannot swap.
   *
   * @example
   * import { foundry } from 'viem/chains'
   * import { createKitMachine } from 'walletstate'
   *
   * const kit = createKitMachine({
   *   projectId: 'abc',
   *   networks: [foundry],
   *   swapRouters: { 'eip155:31337': '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
   * })
   */
  swapRouters?: Readonly<Record<`eip155:${string}`, string>>
  /**
   * The embedded wallet's account type per namespace at a fresh login (SPEC §4): `'smartAccount'` or `'eoa'`
   * on eip155 (the smart account when unset), `'eoa'` on Solana (its only type). The visitor can switch in
   * Account; a restored login keeps the type the visitor last chose.
   *
   * @example
   * import { mainnet } from 'viem/chains'
   * import { createKitMachine } from 'walletstate'
   *
   * const kit = createKitMachine({ projectId: 'abc', networks: [mainnet], preferredAccountTypes: { eip155: 'eoa' } })
   */
  preferredAccountTypes?: Partial<KitAccountTypes>
}

/** The embedded wallet's account type per namespace (`preferredAccountTypes`). */
export interface KitAccountTypes {
  eip155: AccountType
  solana: 'eoa'
}

export interface KitWalletConnectOptions {
  /**
   * How long a pairing proposal waits for the wallet before the QR view offers a fresh one; the library's
   * own lifetime (5 min) when unset. Shorter values are for demos and tests.
   */
  proposalTtlMs: number | undefined
  /**
   * How long a connected WalletConnect wallet may stay silent before the kit pings it (a wallet that does not
   * answer is shown as not answering); 5 min when unset. Shorter values are for demos and tests.
   */
  sessionPingIntervalMs?: number | undefined
}

/** The config after validation, with every default filled in. */
export interface ResolvedKitConfig {
  projectId: string
  networks: readonly [KitNetwork, ...KitNetwork[]]
  defaultNetwork: KitNetwork
  metadata: KitMetadata | undefined
  features: KitFeatures
  themeMode: ThemeMode
  themeVariables: KitThemeVariables
  allowUnsupportedChain: boolean
  enableNetworkSwitch: boolean
  featuredWalletIds: readonly string[]
  includeWalletIds: readonly string[]
  excludeWalletIds: readonly string[]
  /** Unset when the host's `siweConfig` says `enabled: false`. */
  siweConfig: SiweConfig | undefined
  siwx: SiwxConfig | undefined
  storage: KitStorage | undefined
  endpoints: KitEndpoints
  walletConnect: KitWalletConnectOptions
  /** In percent; undefined for the default (DEFAULT_SLIPPAGE). */
  swapSlippage: number | undefined
  /** The host's custom RPC URLs by CAIP-2 id (empty when none). */
  rpcMap: Readonly<Record<string, string>>
  termsConditionsUrl: string | undefined
  privacyPolicyUrl: string | undefined
  /** Names as display-safe text, links as the safe-link checks normalised them. */
  customWallets: readonly KitCustomWallet[]
  /** Buy: the origins each provider's partner page may be on (the built-in lists with the host's over them). */
  onrampPartnerOrigins: Readonly<Record<string, readonly string[]>>
  /** The swap routers by CAIP-2 id (empty when none: no chain can swap). */
  swapRouters: Readonly<Record<string, string>>
  /** The embedded wallet's account type per namespace at a fresh login (DEFAULT_ACCOUNT_TYPES under the host's). */
  preferredAccountTypes: KitAccountTypes
  /** Problems that do not stop the kit but are shown in the modal (SPEC §5, §8). */
  alerts: readonly KitAlert[]
  /** The language the views start in. */
  locale: KitLocale
}

/** SPEC §1 defaults. */
export const DEFAULT_FEATURES: KitFeatures = Object.freeze({
  swaps: true,
  onramp: true,
  names: true,
  receive: true,
  send: true,
  email: true,
  socials: Object.freeze(['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'] as const),
  history: true,
  analytics: true,
  allWallets: true,
  legalCheckbox: false,
  smartSessions: false,
  collapseWallets: false,
  pay: false,
  connectMethodsOrder: Object.freeze(['email', 'social', 'wallet'] as const),
  walletFeaturesOrder: Object.freeze(['onramp', 'swaps', 'receive', 'send'] as const),
  connectorsOrder: Object.freeze([
    'walletConnect',
    'recent',
    'injected',
    'featured',
    'custom',
    'external',
    'recommended',
  ] as const),
})

/** The provider's hosted services; a sandbox or a self-hosted deployment overrides them. */
export const DEFAULT_ENDPOINTS: KitEndpoints = Object.freeze({
  api: 'https://api.walletstate.io',
  walletsApi: 'https://wallets.walletstate.io',
  rpc: 'https://rpc.walletstate.io',
  relay: 'wss://relay.walletstate.io',
  frame: 'https://secure.walletstate.io',
  telemetry: 'https://pulse.walletstate.io',
  verify: 'https://verify.walletstate.io',
  bundler: 'https://rpc.walletstate.io',
})

/*
 * The host's config is checked by hand, not with valibot (which checks every API answer and frame message, in
 * the chunks that load with them): this module is on the host page's first-click path, where valibot's core
 * would cost ~3 KiB gzip (issue 14's budget). The checks follow the KitConfig types; each problem is named by
 * its path.
 */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isWholeNumber = (value: unknown, min = 0): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min
const isUrl = (value: unknown): boolean => {
  if (typeof value !== 'string') return false
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}
const CAIP_NETWORK_ID = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
const ENDPOINT_KEYS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_ENDPOINTS))

type Report = (path: string, problem: string) => void

const SOLANA_NETWORK_ID = /^solana:[1-9A-HJ-NP-Za-km-z]{32}$/
/** CAIP-2's bip122 profile: the genesis block hash's first 32 hex characters. */
const BIP122_NETWORK_ID = /^bip122:[0-9a-f]{32}$/

/**
 * A host's network: a viem chain as it is (neither `chainNamespace` nor `caipNetworkId`: eip155, its id a chain
 * id), or a kit network, whose CAIP-2 id must fit its namespace (on eip155: its id).
 */
function checkNetwork(network: unknown, path: string, report: Report): void {
  if (!isRecord(network)) {
    report(path, 'must be a network object')
    return
  }
  const { id, name, chainNamespace, caipNetworkId, nativeCurrency, rpcUrls } = network
  const written = isKitNetwork(network)
  if (!written && !(Number.isSafeInteger(id) && (id as number) > 0))
    report(`${path}.id`, 'must be a whole-number chain id above 0 (Solana: defineSolanaNetwork)')
  else if (written && !isWholeNumber(id) && !(typeof id === 'string' && id.length > 0))
    report(`${path}.id`, 'must be a non-negative integer or a non-empty string')
  if (typeof name !== 'string' || name.length === 0) report(`${path}.name`, 'must be a non-empty string')
  if (written) {
    if (chainNamespace !== 'eip155' && chainNamespace !== 'solana' && chainNamespace !== 'bip122')
      report(`${path}.chainNamespace`, "must be 'eip155', 'solana' or 'bip122'")
    if (typeof caipNetworkId !== 'string' || !CAIP_NETWORK_ID.test(caipNetworkId))
      report(`${path}.caipNetworkId`, 'must be namespace:reference')
    // A Solana network is named by its genesis hash (CAIP-2's Solana profile): the wallet adapter's cluster names
    // (`solana:mainnet`) are not network ids.
    else if (chainNamespace === 'solana' && !SOLANA_NETWORK_ID.test(caipNetworkId))
      report(`${path}.caipNetworkId`, 'must be solana:{genesis hash, 32 characters}')
    else if (chainNamespace === 'bip122' && !BIP122_NETWORK_ID.test(caipNetworkId))
      report(`${path}.caipNetworkId`, 'must be bip122:{genesis block hash, first 32 hex characters}')
    // On eip155 the CAIP-2 id is derived from the chain id: the two never name different chains.
    else if (
      chainNamespace === 'eip155' &&
      caipNetworkId.startsWith('eip155:') &&
      caipNetworkId !== `eip155:${String(id)}`
    )
      report(`${path}.caipNetworkId`, `must be eip155:${String(id)} (its chain id)`)
  }
  if (
    !isRecord(nativeCurrency) ||
    typeof nativeCurrency.name !== 'string' ||
    typeof nativeCurrency.symbol !== 'string' ||
    !isWholeNumber(nativeCurrency.decimals)
  )
    report(`${path}.nativeCurrency`, 'must have a name, a symbol and whole-number decimals')
  const http = isRecord(rpcUrls) && isRecord(rpcUrls.default) ? rpcUrls.default.http : undefined
  if (!Array.isArray(http) || !http.every((url) => typeof url === 'string'))
    report(`${path}.rpcUrls.default.http`, 'must be a list of URLs')
}

/** A kit network (`defineSolanaNetwork`'s, `defineEvmNetwork`'s, or one written out), not a bare viem chain. */
const isKitNetwork = (network: object): network is KitNetwork =>
  'chainNamespace' in network || 'caipNetworkId' in network

/** A host's network as the kit keeps it: a viem chain becomes an eip155 network; a kit network stays as it is. */
const kitNetworkOf = (network: KitNetworkInput): KitNetwork =>
  isKitNetwork(network) ? network : defineEvmNetwork(network)

/**
 * What is wrong with a host's config, one "path: problem" each (empty when nothing is).
 * @internal
 */
export function configProblems(config: unknown): string[] {
  const problems: string[] = []
  const report: Report = (path, problem) => {
    problems.push(`${path}: ${problem}`)
  }
  if (!isRecord(config)) return ['config: must be an object']
  if (config.projectId !== undefined && typeof config.projectId !== 'string')
    report('projectId', 'must be a string')
  if (!Array.isArray(config.networks) || config.networks.length === 0)
    report('networks', 'needs at least one network')
  else
    for (const [index, network] of config.networks.entries())
      checkNetwork(network, `networks.${index}`, report)
  if (config.defaultNetwork !== undefined) checkNetwork(config.defaultNetwork, 'defaultNetwork', report)
  // The networks as the kit keeps them (a viem chain's CAIP-2 id derived), for the checks that name them.
  const networks = Array.isArray(config.networks)
    ? config.networks.map((n) => (isRecord(n) ? kitNetworkOf(n as unknown as KitNetworkInput) : n))
    : []
  if (config.themeMode !== undefined && config.themeMode !== 'dark' && config.themeMode !== 'light')
    report('themeMode', "must be 'dark' or 'light'")
  if (config.themeVariables !== undefined) problems.push(...themeVariablesProblems(config.themeVariables))
  if (config.locale !== undefined && !isKitLocale(config.locale))
    report('locale', `must be one of ${KIT_LOCALES.map((l) => `'${l}'`).join(', ')}`)
  for (const option of ['siwx', 'siweConfig'] as const) checkSignIn(config[option], option, report)
  const { walletConnect, endpoints, swapSlippage, rpcMap } = config
  if (rpcMap !== undefined) checkRpcMap(rpcMap, networks, report)
  if (
    swapSlippage !== undefined &&
    !(typeof swapSlippage === 'number' && swapSlippage > 0 && swapSlippage <= SWAP_SLIPPAGE_MAX)
  )
    report('swapSlippage', `must be a number of percent above 0, at most ${SWAP_SLIPPAGE_MAX}`)
  if (config.swapRouters !== undefined) checkSwapRouters(config.swapRouters, report)
  if (config.preferredAccountTypes !== undefined) checkAccountTypes(config.preferredAccountTypes, report)
  checkWagmiConfig(config.wagmiConfig, networks, report)
  for (const option of ['termsConditionsUrl', 'privacyPolicyUrl'] as const)
    if (config[option] !== undefined && safePageUrl(config[option]) === undefined)
      report(option, 'must be an https URL (or http on the loopback host)')
  const features = isRecord(config.features) ? config.features : {}
  if (
    features.legalCheckbox === true &&
    config.termsConditionsUrl === undefined &&
    config.privacyPolicyUrl === undefined
  )
    report('features.legalCheckbox', 'needs termsConditionsUrl or privacyPolicyUrl')
  checkCustomWallets(config.customWallets, report)
  checkMetadata(config.metadata, report)
  checkPartnerOrigins(config.onrampPartnerOrigins, report)
  if (walletConnect !== undefined) {
    if (!isRecord(walletConnect)) report('walletConnect', 'must be an object')
    else {
      for (const key of Object.keys(walletConnect))
        if (key !== 'proposalTtlMs' && key !== 'sessionPingIntervalMs')
          report(`walletConnect.${key}`, 'is not an option')
      if (walletConnect.proposalTtlMs !== undefined && !isWholeNumber(walletConnect.proposalTtlMs, 1_000))
        report('walletConnect.proposalTtlMs', 'must be a whole number of milliseconds, at least 1000')
      if (
        walletConnect.sessionPingIntervalMs !== undefined &&
        !isWholeNumber(walletConnect.sessionPingIntervalMs, 1_000)
      )
        report('walletConnect.sessionPingIntervalMs', 'must be a whole number of milliseconds, at least 1000')
    }
  }
  if (endpoints !== undefined) {
    if (!isRecord(endpoints)) report('endpoints', 'must be an object')
    else
      for (const [key, url] of Object.entries(endpoints)) {
        if (!ENDPOINT_KEYS.has(key)) report(`endpoints.${key}`, 'is not an endpoint')
        else if (url !== undefined && !isUrl(url)) report(`endpoints.${key}`, 'must be a URL')
      }
  }
  return problems
}

/**
 * The host's wagmi config: what the kit calls of it is there (a config from wagmi's `createConfig`), and each
 * eip155 network the kit shows is one of its chains (a network it lacks could not be read or switched to).
 */
function checkWagmiConfig(value: unknown, networks: unknown, report: Report): void {
  if (value === undefined) return
  const internal = isRecord(value) ? value._internal : undefined
  if (
    !isRecord(value) ||
    !Array.isArray(value.chains) ||
    !Array.isArray(value.connectors) ||
    typeof value.getClient !== 'function' ||
    !isRecord(internal) ||
    !isRecord(internal.connectors) ||
    typeof internal.connectors.setup !== 'function' ||
    typeof internal.connectors.setState !== 'function'
  ) {
    report('wagmiConfig', "must be a wagmi config (wagmi's createConfig)")
    return
  }
  if (!Array.isArray(networks)) return
  const chainIds = new Set(value.chains.map((chain) => (isRecord(chain) ? chain.id : undefined)))
  for (const [index, network] of networks.entries())
    if (isRecord(network) && network.chainNamespace === 'eip155' && !chainIds.has(network.id))
      report(`networks.${index}`, `chain ${String(network.id)} is not one of wagmiConfig's chains`)
}

/** A loopback host (`localhost`, 127.0.0.0/8, `[::1]`): the only place a plain-http RPC URL may point. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/

/**
 * `onrampPartnerOrigins`: provider ids as the Data API names them, each with a list of origins (scheme, host and
 * port only: https, or http on a loopback host).
 */
function checkPartnerOrigins(value: unknown, report: Report): void {
  if (value === undefined) return
  if (!isRecord(value)) {
    report('onrampPartnerOrigins', 'must be an object of provider ids and origin lists')
    return
  }
  for (const [provider, origins] of Object.entries(value)) {
    const path = `onrampPartnerOrigins.${provider}`
    if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(provider)) report(path, 'is not a provider id')
    if (!Array.isArray(origins)) {
      report(path, 'must be a list of origins')
      continue
    }
    for (const [index, origin] of origins.entries())
      if (!isPartnerOrigin(origin))
        report(`${path}.${index}`, 'must be an origin: https (or http on the loopback host), no path')
  }
}

function isPartnerOrigin(value: unknown): boolean {
  if (typeof value !== 'string') return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.origin !== value) return false
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname))
}

/** `rpcMap`: each key a configured network's CAIP-2 id, each URL https (or http on a loopback host). */
function checkRpcMap(rpcMap: unknown, networks: unknown, report: Report): void {
  if (!isRecord(rpcMap)) {
    report('rpcMap', 'must be an object of CAIP-2 network ids to URLs')
    return
  }
  const known = Array.isArray(networks)
    ? networks.map((n) => (isRecord(n) ? n.caipNetworkId : undefined))
    : []
  for (const [key, url] of Object.entries(rpcMap)) {
    if (!known.includes(key)) report(`rpcMap.${key}`, 'is not the caipNetworkId of a configured network')
    let parsed: URL | undefined
    try {
      parsed = typeof url === 'string' ? new URL(url) : undefined
    } catch {
      parsed = undefined
    }
    if (
      !parsed ||
      !(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK.test(parsed.hostname)))
    )
      report(`rpcMap.${key}`, 'must be an https URL (http only on a loopback host)')
  }
}

/** `swapRouters`: each key an eip155 CAIP-2 id, each value a 0x address of 20 bytes. */
function checkSwapRouters(routers: unknown, report: Report): void {
  if (!isRecord(routers)) {
    report('swapRouters', 'must be an object of eip155 CAIP-2 ids to router addresses')
    return
  }
  for (const [key, address] of Object.entries(routers)) {
    if (!/^eip155:\d{1,16}$/.test(key)) report(`swapRouters.${key}`, 'is not an eip155 CAIP-2 id')
    if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address))
      report(`swapRouters.${key}`, 'must be a 0x address of 20 bytes')
  }
}

/** `preferredAccountTypes`: per namespace, a type that namespace has (SPEC §4: Solana's only one is the EOA). */
function checkAccountTypes(types: unknown, report: Report): void {
  if (!isRecord(types)) {
    report('preferredAccountTypes', "must be an object of namespaces ('eip155', 'solana') to account types")
    return
  }
  for (const [key, type] of Object.entries(types)) {
    if (key === 'eip155') {
      if (type !== undefined && type !== 'smartAccount' && type !== 'eoa')
        report('preferredAccountTypes.eip155', "must be 'smartAccount' or 'eoa'")
    } else if (key === 'solana') {
      if (type !== undefined && type !== 'eoa')
        report('preferredAccountTypes.solana', "must be 'eoa' (Solana has no smart account)")
    } else report(`preferredAccountTypes.${key}`, "is not a namespace ('eip155' or 'solana')")
  }
}

/**
 * The RPC URL a network's calls go to outside the provider's host: its `rpcMap` entry, else its own first URL.
 * @internal
 */
export function networkRpcUrl(
  config: Pick<ResolvedKitConfig, 'rpcMap'>,
  network: Pick<KitNetwork, 'caipNetworkId' | 'rpcUrls'>,
): string | undefined {
  return config.rpcMap[network.caipNetworkId] ?? network.rpcUrls.default.http[0]
}

/**
 * A page the visitor reads (terms, privacy policy): `https:`, or `http:` on the loopback host only (a local
 * sandbox), without credentials; else `undefined`.
 * @internal
 */
export function safePageUrl(value: unknown): string | undefined {
  const link = normaliseLink(value)
  const url = link === undefined ? undefined : checkHttp(link)
  if (url === undefined) return undefined
  const { protocol, hostname } = new URL(url)
  return protocol === 'https:' || LOOPBACK_HOSTS.has(hostname) ? url : undefined
}
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]'])

const WALLET_ID = /^[A-Za-z0-9._:-]{1,128}$/
/** Longest custom wallet name kept (the listing's limit). */
const WALLET_NAME_MAX = 64
/** A custom wallet's links and the check each must pass (the wallet listing's: src/api/walletsApi.ts). */
const CUSTOM_WALLET_LINKS = {
  image_url: safeHttpUrl,
  mobile_link: safeDeepLink,
  desktop_link: safeDeepLink,
  webapp_link: safeHttpUrl,
  homepage: safeHttpUrl,
} as const

function checkCustomWallets(value: unknown, report: Report): void {
  if (value === undefined) return
  if (!Array.isArray(value)) {
    report('customWallets', 'must be a list of wallets')
    return
  }
  const ids = new Set<string>()
  for (const [index, wallet] of value.entries()) {
    const path = `customWallets.${index}`
    if (!isRecord(wallet)) {
      report(path, 'must be a wallet object')
      continue
    }
    if (typeof wallet.id !== 'string' || !WALLET_ID.test(wallet.id))
      report(`${path}.id`, 'must be 1-128 characters of [A-Za-z0-9._:-]')
    else if (ids.has(wallet.id)) report(`${path}.id`, 'is not unique')
    else ids.add(wallet.id)
    if (safeText(wallet.name, WALLET_NAME_MAX) === '') report(`${path}.name`, 'must be a non-empty string')
    for (const [key, check] of Object.entries(CUSTOM_WALLET_LINKS))
      if (wallet[key] !== undefined && check(wallet[key]) === undefined)
        report(`${path}.${key}`, 'is not a safe link')
  }
}

const METADATA_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'url', 'icons', 'redirect'])
const REDIRECT_KEYS: ReadonlySet<string> = new Set(['native', 'universal', 'linkMode'])

/**
 * The app metadata wallets are shown (SPEC §3): its redirect links are where a wallet sends the visitor, so each
 * must be a safe link (`native` an app scheme or https; `universal` an https page), and link mode needs the
 * universal link it answers through.
 */
function checkMetadata(value: unknown, report: Report): void {
  if (value === undefined) return
  if (!isRecord(value)) {
    report('metadata', 'must be an object')
    return
  }
  for (const key of Object.keys(value))
    if (!METADATA_KEYS.has(key)) report(`metadata.${key}`, 'is not an option')
  const { redirect } = value
  if (redirect === undefined) return
  if (!isRecord(redirect)) {
    report('metadata.redirect', 'must be an object')
    return
  }
  for (const key of Object.keys(redirect))
    if (!REDIRECT_KEYS.has(key)) report(`metadata.redirect.${key}`, 'is not an option')
  if (redirect.native !== undefined && safeDeepLink(redirect.native) === undefined)
    report('metadata.redirect.native', 'is not a safe link')
  if (redirect.universal !== undefined && safePageUrl(redirect.universal) === undefined)
    report('metadata.redirect.universal', 'must be an https URL (or http on the loopback host)')
  if (redirect.linkMode !== undefined && typeof redirect.linkMode !== 'boolean')
    report('metadata.redirect.linkMode', 'must be true or false')
  if (redirect.linkMode === true && redirect.universal === undefined)
    report('metadata.redirect.linkMode', 'needs metadata.redirect.universal')
}

/** A custom wallet as the kit shows it: its name as display text, its links as the checks normalised them. */
function resolveCustomWallet(wallet: KitCustomWallet): KitCustomWallet {
  const out: KitCustomWallet = { id: wallet.id, name: safeText(wallet.name, WALLET_NAME_MAX) }
  for (const [key, check] of Object.entries(CUSTOM_WALLET_LINKS)) {
    const link = check(wallet[key as keyof typeof CUSTOM_WALLET_LINKS])
    if (link !== undefined) out[key as keyof typeof CUSTOM_WALLET_LINKS] = link
  }
  return out
}

/** The functions the kit calls: SIWX's, and AppKit's SIWE config's; the second list's are optional. */
const SIGN_IN_FUNCTIONS = {
  siwx: [['createMessage', 'addSession', 'getSessions', 'revokeSession'], ['getRequired']],
  siweConfig: [
    ['createMessage', 'getNonce', 'getSession', 'verifyMessage', 'signOut'],
    ['getMessageParams', 'onSignIn', 'onSignOut'],
  ],
} as const

function checkSignIn(value: unknown, path: keyof typeof SIGN_IN_FUNCTIONS, report: Report): void {
  if (value === undefined) return
  if (!isRecord(value)) {
    report(path, path === 'siwx' ? 'must be an object (e.g. createSiwe())' : 'must be an object')
    return
  }
  const [required, optional] = SIGN_IN_FUNCTIONS[path]
  for (const name of required)
    if (typeof value[name] !== 'function') report(`${path}.${name}`, 'must be a function')
  for (const name of optional)
    if (value[name] !== undefined && typeof value[name] !== 'function')
      report(`${path}.${name}`, 'must be a function')
}

/**
 * The chain namespaces this kit has an adapter for (`src/chains/`).
 * @internal
 */
export const CHAIN_ADAPTER_NAMESPACES: readonly string[] = ['eip155', 'solana', 'bip122']

/** A network's namespace, by its `chainNamespace` and its CAIP-2 id alike, has a chain adapter. */
function hasChainAdapter(network: KitNetwork): boolean {
  const caipNamespace = network.caipNetworkId.slice(0, network.caipNetworkId.indexOf(':'))
  return CHAIN_ADAPTER_NAMESPACES.includes(network.chainNamespace) && network.chainNamespace === caipNamespace
}

/**
 * Validates a host's config (SPEC §5) and fills in the defaults (SPEC §1). Throws `ConfigError` for what the
 * kit cannot run with (no networks, a network without a chain adapter, `siweConfig` with `siwx`); a missing project id does not throw but adds
 * the project-id-not-configured alert, which the modal shows.
 *
 * @example
 * import { mainnet } from 'viem/chains'
 * import { resolveConfig } from 'walletstate'
 *
 * const resolved = resolveConfig({ projectId: 'abc', networks: [mainnet] })
 * resolved.defaultNetwork.caipNetworkId // 'eip155:1'
 */
export function resolveConfig(config: KitConfig): ResolvedKitConfig {
  const problems = configProblems(config)
  if (problems.length > 0) {
    throw new ConfigError('Invalid kit configuration', { details: problems.join('; ') })
  }
  if (config.siweConfig !== undefined && config.siwx !== undefined) {
    throw new ConfigError('Cannot set both `siweConfig` and `siwx` options')
  }
  const alerts: KitAlert[] = []
  const projectId = (config.projectId ?? '').trim()
  if (projectId === '') alerts.push(ALERTS.PROJECT_ID_NOT_CONFIGURED)
  // SPEC §8 'Adapter not found': a network is served by its namespace's chain adapter (eip155's, Solana's). A
  // network the kit cannot connect to is refused here, not shown and left dead.
  // A viem chain becomes an eip155 network here (its CAIP-2 id derived); nothing after reads the host's objects.
  const networks = config.networks.map(kitNetworkOf) as [KitNetwork, ...KitNetwork[]]
  const orphan = networks.find((n) => !hasChainAdapter(n))
  if (orphan) {
    throw new ConfigError('Adapter not found', {
      details: `${orphan.caipNetworkId} (${orphan.name}): no chain adapter for namespace ${orphan.chainNamespace}; this kit has ${CHAIN_ADAPTER_NAMESPACES.join(', ')}`,
    })
  }
  const chosen = config.defaultNetwork && kitNetworkOf(config.defaultNetwork).caipNetworkId
  const defaultNetwork = chosen ? networks.find((n) => n.caipNetworkId === chosen) : networks[0]
  if (!defaultNetwork) throw new ConfigError('Network not found', { details: `defaultNetwork ${chosen}` })
  return {
    projectId,
    networks,
    defaultNetwork,
    metadata: config.metadata,
    features: { ...DEFAULT_FEATURES, ...config.features },
    themeMode: config.themeMode ?? 'dark',
    themeVariables: config.themeVariables ?? {},
    allowUnsupportedChain: config.allowUnsupportedChain ?? false,
    enableNetworkSwitch: config.enableNetworkSwitch ?? true,
    featuredWalletIds: config.featuredWalletIds ?? [],
    includeWalletIds: config.includeWalletIds ?? [],
    excludeWalletIds: config.excludeWalletIds ?? [],
    siweConfig: config.siweConfig?.enabled === false ? undefined : config.siweConfig,
    siwx: config.siwx,
    storage: config.storage,
    endpoints: { ...DEFAULT_ENDPOINTS, ...config.endpoints },
    walletConnect: {
      proposalTtlMs: config.walletConnect?.proposalTtlMs,
      ...(config.walletConnect?.sessionPingIntervalMs === undefined
        ? {}
        : { sessionPingIntervalMs: config.walletConnect.sessionPingIntervalMs }),
    },
    swapSlippage: config.swapSlippage,
    rpcMap: { ...config.rpcMap },
    termsConditionsUrl: safePageUrl(config.termsConditionsUrl),
    privacyPolicyUrl: safePageUrl(config.privacyPolicyUrl),
    customWallets: (config.customWallets ?? []).map(resolveCustomWallet),
    onrampPartnerOrigins: { ...ONRAMP_PARTNER_ORIGINS, ...config.onrampPartnerOrigins },
    swapRouters: { ...config.swapRouters },
    preferredAccountTypes: {
      eip155: config.preferredAccountTypes?.eip155 ?? DEFAULT_ACCOUNT_TYPES.eip155,
      solana: DEFAULT_ACCOUNT_TYPES.solana,
    },
    alerts,
    locale: config.locale ?? 'en',
  }
}

/**
 * A Solana network for the kit (issue 17): its CAIP-2 id is `solana:` and the first 32 characters of the
 * genesis hash; SOL is its native currency.
 *
 * @example
 * import { mainnet } from 'viem/chains'
 * import { createKitMachine, defineSolanaNetwork } from 'walletstate'
 *
 * const sandbox = defineSolanaNetwork({
 *   name: 'Solana Sandbox',
 *   genesisHash: 'Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx',
 *   rpcUrl: 'http://127.0.0.1:8899',
 *   testnet: true,
 * })
 * const kit = createKitMachine({ projectId: 'abc', networks: [mainnet, sandbox] })
 */
export function defineSolanaNetwork(network: {
  name: string
  /** The genesis hash, or its first 32 characters. */
  genesisHash: string
  rpcUrl: string
  blockExplorer?: { name: string; url: string }
  testnet?: boolean
}): KitNetwork {
  const reference = network.genesisHash.slice(0, 32)
  return {
    id: reference,
    name: network.name,
    chainNamespace: 'solana',
    caipNetworkId: `solana:${reference}`,
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    rpcUrls: { default: { http: [network.rpcUrl] } },
    ...(network.blockExplorer ? { blockExplorers: { default: network.blockExplorer } } : {}),
    ...(network.testnet !== undefined ? { testnet: network.testnet } : {}),
  }
}

/** The chain each eip155 network was made from, as the host gave it (see `evmChainOf`). */
const sourceChains = new WeakMap<KitNetwork, EvmChain>()

/**
 * A viem chain (or any chain object of that shape) as a kit network on eip155, its CAIP-2 id `eip155:<id>`.
 * `networks` takes viem chains as they are; this is for a chain with fields of one's own (a name, an RPC URL).
 *
 * @example
 * import { mainnet } from 'viem/chains'
 * import { createKitMachine, defineEvmNetwork } from 'walletstate'
 *
 * const ethereum = defineEvmNetwork({ ...mainnet, name: 'Ethereum' })
 * const kit = createKitMachine({ projectId: 'abc', networks: [ethereum] })
 */
export function defineEvmNetwork(chain: EvmChain): KitNetwork {
  const network: KitNetwork = {
    id: chain.id,
    name: chain.name,
    chainNamespace: 'eip155',
    caipNetworkId: `eip155:${chain.id}`,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: chain.rpcUrls,
    ...(chain.blockExplorers ? { blockExplorers: chain.blockExplorers } : {}),
    ...(chain.testnet !== undefined ? { testnet: chain.testnet } : {}),
  }
  sourceChains.set(network, chain)
  return network
}

/**
 * The chain an eip155 network was made from (a viem chain given to `networks` or to `defineEvmNetwork`), with
 * what the kit network does not carry (its contracts, such as Multicall3, its formatters); `undefined` for a
 * network written out by hand.
 * @internal
 */
export function evmChainOf(network: KitNetwork): EvmChain | undefined {
  return sourceChains.get(network)
}
