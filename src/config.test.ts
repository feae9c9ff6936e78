import { describe, expect, it } from 'vitest'
import { walletConnectParameters } from './chains/walletConnectParameters'
import {
  configProblems,
  DEFAULT_FEATURES,
  defineEvmNetwork,
  defineSolanaNetwork,
  type KitConfig,
  resolveConfig,
} from './config'
import { ConfigError } from './errors/base'
import { createKitMachine } from './kit/createKit'
import { createSiwe } from './siwx/siwe'
import type { SiweConfig } from './siwx/types'

const network = defineEvmNetwork({
  id: 31337,
  name: 'Sandbox',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})
const base: KitConfig = { projectId: 'p1', networks: [network] }

describe('resolveConfig', () => {
  it('default: fills in the SPEC §1 defaults', () => {
    const resolved = resolveConfig(base)
    expect(resolved.features).toEqual(DEFAULT_FEATURES)
    expect(resolved.features.connectMethodsOrder).toEqual(['email', 'social', 'wallet'])
    expect(resolved.features.connectorsOrder).toEqual([
      'walletConnect',
      'recent',
      'injected',
      'featured',
      'custom',
      'external',
      'recommended',
    ])
    expect(resolved.themeMode).toBe('dark')
    expect(resolved.enableNetworkSwitch).toBe(true)
    expect(resolved.allowUnsupportedChain).toBe(false)
    expect(resolved.defaultNetwork).toBe(network)
    expect(resolved.alerts).toEqual([])
  })

  it('parameters: features merge over the defaults', () => {
    const resolved = resolveConfig({ ...base, features: { swaps: false, pay: true } })
    expect(resolved.features.swaps).toBe(false)
    expect(resolved.features.pay).toBe(true)
    expect(resolved.features.onramp).toBe(true)
  })

  it('behavior: a missing project id is the project-id-not-configured alert, not a crash', () => {
    const resolved = resolveConfig({ ...base, projectId: '  ' })
    expect(resolved.alerts.map((a) => a.code)).toEqual(['PROJECT_ID_NOT_CONFIGURED'])
    const machine = createKitMachine({ ...base, projectId: '' })
    expect(machine.config.context).toMatchObject({ alerts: [{ shortMessage: 'Project ID Not Configured' }] })
  })

  it('behavior: siweConfig and siwx together are refused', () => {
    expect(() =>
      resolveConfig({ ...base, siweConfig: appKitSiwe(), siwx: createSiwe() }),
    ).toThrowErrorMatchingInlineSnapshot(`[ConfigError: Cannot set both \`siweConfig\` and \`siwx\` options]`)
  })

  it('behavior: a sign-in config without its functions is refused, path by path', () => {
    expect(() => resolveConfig({ ...base, siwx: { createMessage: 'x' } as never })).toThrow(ConfigError)
    expect(configProblems({ ...base, siwx: { createMessage: () => {}, getRequired: true } })).toEqual([
      'siwx.addSession: must be a function',
      'siwx.getSessions: must be a function',
      'siwx.revokeSession: must be a function',
      'siwx.getRequired: must be a function',
    ])
    expect(configProblems({ ...base, siweConfig: 'yes' })).toEqual(['siweConfig: must be an object'])
    expect(configProblems({ ...base, siwx: createSiwe() })).toEqual([])
    // siweConfig is AppKit's SIWE config: its own functions.
    expect(configProblems({ ...base, siweConfig: { ...appKitSiwe(), getNonce: 'n', onSignIn: 1 } })).toEqual([
      'siweConfig.getNonce: must be a function',
      'siweConfig.onSignIn: must be a function',
    ])
    expect(configProblems({ ...base, siweConfig: appKitSiwe() })).toEqual([])
    expect(configProblems({ ...base, siweConfig: createSiwe() })).toContain(
      'siweConfig.getNonce: must be a function',
    )
  })

  it('behavior: an AppKit siweConfig with enabled: false turns sign-in off', () => {
    expect(resolveConfig({ ...base, siweConfig: appKitSiwe() }).siweConfig).toBeDefined()
    expect(
      resolveConfig({ ...base, siweConfig: { ...appKitSiwe(), enabled: false } }).siweConfig,
    ).toBeUndefined()
  })

  it('behavior: no networks, a malformed network or endpoint is a clear ConfigError', () => {
    expect(() => resolveConfig({ ...base, networks: [] as never })).toThrow(ConfigError)
    expect(() =>
      resolveConfig({ ...base, networks: [{ ...network, caipNetworkId: 'nonsense' as never }] }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [ConfigError: Invalid kit configuration

      Details: networks.0.caipNetworkId: must be namespace:reference]
    `)
    expect(() => resolveConfig({ ...base, endpoints: { api: 'not a url' } })).toThrow(
      /Invalid kit configuration/,
    )
  })

  it('parameters: every malformed option is named by its path, all at once', () => {
    const problems = configProblems({
      ...base,
      projectId: 7,
      themeMode: 'sepia',
      walletConnect: { proposalTtlMs: 10, relay: 'x' },
      endpoints: { api: 'not a url', mirror: 'https://example.test' },
      networks: [
        {
          ...network,
          id: -1,
          name: '',
          chainNamespace: 'bitcoin',
          nativeCurrency: { name: 'E', symbol: 'E', decimals: 1.5 },
          rpcUrls: { default: { http: [1] } },
        },
      ],
    })
    expect(problems).toEqual([
      'projectId: must be a string',
      'networks.0.id: must be a non-negative integer or a non-empty string',
      'networks.0.name: must be a non-empty string',
      "networks.0.chainNamespace: must be 'eip155', 'solana' or 'bip122'",
      'networks.0.nativeCurrency: must have a name, a symbol and whole-number decimals',
      'networks.0.rpcUrls.default.http: must be a list of URLs',
      "themeMode: must be 'dark' or 'light'",
      'walletConnect.relay: is not an option',
      'walletConnect.proposalTtlMs: must be a whole number of milliseconds, at least 1000',
      'endpoints.api: must be a URL',
      'endpoints.mirror: is not an endpoint',
    ])
    expect(configProblems(base)).toEqual([])
    // Bitcoin (bip122): named by its genesis block hash's first 32 hex characters.
    const bitcoin = {
      id: '0f9188f13cb7b2c71f2a335e3a4fc328',
      name: 'Bitcoin Regtest',
      chainNamespace: 'bip122',
      caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
      nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
      rpcUrls: { default: { http: [] } },
    }
    expect(configProblems({ ...base, networks: [network, bitcoin] })).toEqual([])
    expect(
      configProblems({ ...base, networks: [network, { ...bitcoin, caipNetworkId: 'bip122:regtest' }] }),
    ).toEqual(['networks.1.caipNetworkId: must be bip122:{genesis block hash, first 32 hex characters}'])
    expect(configProblems(null)).toEqual(['config: must be an object'])
    expect(configProblems({ ...base, networks: [null] })).toEqual(['networks.0: must be a network object'])
  })

  it('walletConnect.sessionPingIntervalMs: whole milliseconds, at least a second; kept when resolved', () => {
    expect(configProblems({ ...base, walletConnect: { sessionPingIntervalMs: 10 } })).toEqual([
      'walletConnect.sessionPingIntervalMs: must be a whole number of milliseconds, at least 1000',
    ])
    expect(resolveConfig({ ...base, walletConnect: { sessionPingIntervalMs: 5_000 } }).walletConnect).toEqual(
      { proposalTtlMs: undefined, sessionPingIntervalMs: 5_000 },
    )
  })

  it('parameters: locale is one of the kit’s locales; unset is English', () => {
    expect(resolveConfig(base).locale).toBe('en')
    expect(resolveConfig({ ...base, locale: 'ar' }).locale).toBe('ar')
    for (const bad of ['pt', 'EN', '', 7])
      expect(configProblems({ ...base, locale: bad })).toEqual([
        "locale: must be one of 'en', 'de', 'es', 'fr', 'ja', 'zh', 'ar'",
      ])
    expect(() => resolveConfig({ ...base, locale: 'xx' as never })).toThrow(/Invalid kit configuration/)
  })

  it('parameters: legalCheckbox needs a terms or privacy link, each https or loopback http', () => {
    expect(configProblems({ ...base, features: { legalCheckbox: true } })).toEqual([
      'features.legalCheckbox: needs termsConditionsUrl or privacyPolicyUrl',
    ])
    for (const bad of [
      'http://terms.example/',
      'javascript:alert(1)',
      'https://user:pw@terms.example/',
      'data:text/html,hi',
      '/terms',
      42,
    ])
      expect(
        configProblems({ ...base, features: { legalCheckbox: true }, termsConditionsUrl: bad as string }),
      ).toEqual(['termsConditionsUrl: must be an https URL (or http on the loopback host)'])
    const resolved = resolveConfig({
      ...base,
      features: { legalCheckbox: true },
      termsConditionsUrl: ' https://app.example/terms ',
      privacyPolicyUrl: 'http://127.0.0.1:5173/privacy',
    })
    expect([resolved.features.legalCheckbox, resolved.termsConditionsUrl, resolved.privacyPolicyUrl]).toEqual(
      [true, 'https://app.example/terms', 'http://127.0.0.1:5173/privacy'],
    )
    expect(resolveConfig(base).features.legalCheckbox).toBe(false)
  })

  it('parameters: customWallets are checked as the wallet listing is: safe links, names as text, unique ids', () => {
    expect(
      configProblems({
        ...base,
        customWallets: [
          { id: 'ok', name: 'Fine', mobile_link: 'fine://', webapp_link: 'https://fine.example/' },
          { id: 'ok', name: '\u0000 ', mobile_link: 'javascript:alert(1)//', desktop_link: 'search-ms://x' },
          {
            id: 'bad id!',
            name: 'Links',
            webapp_link: 'fine://',
            homepage: 'ftp://fine.example/',
            image_url: 'data:image/png;base64,AA',
          },
          'wallet',
        ] as never,
      }),
    ).toEqual([
      'customWallets.1.id: is not unique',
      'customWallets.1.name: must be a non-empty string',
      'customWallets.1.mobile_link: is not a safe link',
      'customWallets.1.desktop_link: is not a safe link',
      'customWallets.2.id: must be 1-128 characters of [A-Za-z0-9._:-]',
      'customWallets.2.image_url: is not a safe link',
      'customWallets.2.webapp_link: is not a safe link',
      'customWallets.2.homepage: is not a safe link',
      'customWallets.3: must be a wallet object',
    ])
    expect(configProblems({ ...base, customWallets: 'x' as never })).toEqual([
      'customWallets: must be a list of wallets',
    ])
    const [wallet] = resolveConfig({
      ...base,
      customWallets: [
        { id: 'w', name: ' <b>Wallet</b>\u202e ', mobile_link: 'W://x', homepage: 'https://w.example' },
      ],
    }).customWallets
    expect(wallet).toEqual({
      id: 'w',
      name: '<b>Wallet</b>',
      mobile_link: 'w://x',
      homepage: 'https://w.example/',
    })
    expect(resolveConfig(base).customWallets).toEqual([])
  })

  it('parameters: swapSlippage is a percentage above 0 and at most 50; unset leaves the default', () => {
    for (const bad of [0, -1, 50.5, Number.NaN, '1'])
      expect(configProblems({ ...base, swapSlippage: bad })).toEqual([
        'swapSlippage: must be a number of percent above 0, at most 50',
      ])
    expect(configProblems({ ...base, swapSlippage: 0.5 })).toEqual([])
    expect(resolveConfig({ ...base, swapSlippage: 2.5 }).swapSlippage).toBe(2.5)
    expect(resolveConfig(base).swapSlippage).toBeUndefined()
  })

  it("App metadata's redirect (SPEC §3): native, universal and link mode, each a safe link, reach WalletConnect's metadata", () => {
    const metadata = { name: 'App', description: '', url: 'https://app.example', icons: [] }
    const redirect = { native: 'myapp://', universal: 'https://app.example/return', linkMode: true }
    expect(configProblems({ ...base, metadata: { ...metadata, redirect } })).toEqual([])
    expect(
      walletConnectParameters(resolveConfig({ ...base, metadata: { ...metadata, redirect } })).metadata,
    ).toEqual({
      ...metadata,
      redirect,
    })
    // No redirect: none is sent.
    expect(walletConnectParameters(resolveConfig({ ...base, metadata })).metadata).toEqual(metadata)
    expect(
      configProblems({
        ...base,
        metadata: {
          ...metadata,
          redirect: {
            native: 'javascript:alert(1)',
            universal: 'http://app.example/',
            linkMode: 'yes',
          } as never,
        },
      }),
    ).toEqual([
      'metadata.redirect.native: is not a safe link',
      'metadata.redirect.universal: must be an https URL (or http on the loopback host)',
      'metadata.redirect.linkMode: must be true or false',
    ])
    expect(configProblems({ ...base, metadata: { ...metadata, redirect: { linkMode: true } } })).toEqual([
      'metadata.redirect.linkMode: needs metadata.redirect.universal',
    ])
    expect(configProblems({ ...base, metadata: { ...metadata, redirect: { back: 'x' } } as never })).toEqual([
      'metadata.redirect.back: is not an option',
    ])
    expect(configProblems({ ...base, metadata: 'app' as never })).toEqual(['metadata: must be an object'])
  })

  // Issue 33: the Buy partner page opens only on its provider's origins; a host may list its own per provider.
  it('parameters: onrampPartnerOrigins lists origins per provider over the built-in ones', () => {
    expect(resolveConfig(base).onrampPartnerOrigins).toEqual({
      coinbase: ['https://pay.coinbase.com'],
      meld: ['https://meldcrypto.com'],
    })
    expect(
      resolveConfig({ ...base, onrampPartnerOrigins: { meld: ['http://127.0.0.1:4000'] } })
        .onrampPartnerOrigins,
    ).toEqual({ coinbase: ['https://pay.coinbase.com'], meld: ['http://127.0.0.1:4000'] })
    for (const bad of [
      { coinbase: ['http://pay.example'] },
      { coinbase: ['https://pay.example/path'] },
      { coinbase: ['not a url'] },
      { coinbase: 'https://pay.example' },
      { 'Not An Id': ['https://pay.example'] },
    ])
      expect(
        () => resolveConfig({ ...base, onrampPartnerOrigins: bad as never }),
        JSON.stringify(bad),
      ).toThrow(/onrampPartnerOrigins/)
  })

  // Guards the swap router allow-list the build check reads (src/chains/eip155/swapBuildCheck.ts).
  it('parameters: swapRouters maps eip155 CAIP-2 ids to 20-byte addresses; unset allows none', () => {
    const router = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    expect(configProblems({ ...base, swapRouters: { 'eip155:31337': router } })).toEqual([])
    expect(resolveConfig({ ...base, swapRouters: { 'eip155:31337': router } }).swapRouters).toEqual({
      'eip155:31337': router,
    })
    expect(resolveConfig(base).swapRouters).toEqual({})
    expect(configProblems({ ...base, swapRouters: { 'eip155:1': '0x1234' } })).toEqual([
      'swapRouters.eip155:1: must be a 0x address of 20 bytes',
    ])
    expect(configProblems({ ...base, swapRouters: { 'solana:abc': router } as never })).toEqual([
      'swapRouters.solana:abc: is not an eip155 CAIP-2 id',
    ])
    expect(configProblems({ ...base, swapRouters: 'x' as never })).toEqual([
      'swapRouters: must be an object of eip155 CAIP-2 ids to router addresses',
    ])
  })

  it("parameters: preferredAccountTypes: smart account on eip155 and EOA on Solana by default (SPEC §4); the host's eip155 type", () => {
    expect(resolveConfig(base).preferredAccountTypes).toEqual({ eip155: 'smartAccount', solana: 'eoa' })
    expect(
      resolveConfig({ ...base, preferredAccountTypes: { eip155: 'eoa' } }).preferredAccountTypes,
    ).toEqual({
      eip155: 'eoa',
      solana: 'eoa',
    })
    expect(
      configProblems({ ...base, preferredAccountTypes: { eip155: 'smartAccount', solana: 'eoa' } }),
    ).toEqual([])
    expect(configProblems({ ...base, preferredAccountTypes: { eip155: 'smart' } as never })).toEqual([
      "preferredAccountTypes.eip155: must be 'smartAccount' or 'eoa'",
    ])
    expect(configProblems({ ...base, preferredAccountTypes: { solana: 'smartAccount' } as never })).toEqual([
      "preferredAccountTypes.solana: must be 'eoa' (Solana has no smart account)",
    ])
    expect(configProblems({ ...base, preferredAccountTypes: { polkadot: 'eoa' } as never })).toEqual([
      "preferredAccountTypes.polkadot: is not a namespace ('eip155' or 'solana')",
    ])
    expect(configProblems({ ...base, preferredAccountTypes: 'eoa' as never })).toEqual([
      "preferredAccountTypes: must be an object of namespaces ('eip155', 'solana') to account types",
    ])
    expect(() => resolveConfig({ ...base, preferredAccountTypes: { eip155: 'x' } as never })).toThrow(
      /preferredAccountTypes\.eip155/,
    )
  })

  it('parameters: rpcMap takes https URLs (http only on loopback) for configured networks only', () => {
    const ok = { 'eip155:31337': 'https://rpc.example/eth' } as const
    expect(configProblems({ ...base, rpcMap: ok })).toEqual([])
    for (const loopback of ['http://127.0.0.1:8545/', 'http://localhost:1/rpc', 'http://[::1]:9/'])
      expect(configProblems({ ...base, rpcMap: { 'eip155:31337': loopback } })).toEqual([])
    for (const bad of ['http://rpc.example/eth', 'ftp://127.0.0.1/', 'not a url', 42, 'wss://rpc.example/'])
      expect(configProblems({ ...base, rpcMap: { 'eip155:31337': bad } })).toEqual([
        'rpcMap.eip155:31337: must be an https URL (http only on a loopback host)',
      ])
    expect(configProblems({ ...base, rpcMap: { 'eip155:1': 'https://rpc.example/eth' } })).toEqual([
      'rpcMap.eip155:1: is not the caipNetworkId of a configured network',
    ])
    expect(configProblems({ ...base, rpcMap: ['https://rpc.example/eth'] })).toEqual([
      'rpcMap: must be an object of CAIP-2 network ids to URLs',
    ])
    expect(() => resolveConfig({ ...base, rpcMap: { 'eip155:10': 'https://rpc.example' } })).toThrow(
      ConfigError,
    )
    expect(resolveConfig({ ...base, rpcMap: ok }).rpcMap).toEqual(ok)
    expect(resolveConfig(base).rpcMap).toEqual({})
  })

  it('behavior: a default network outside the list is "Network not found"', () => {
    const other = { ...network, id: 1, caipNetworkId: 'eip155:1' as const }
    expect(() => resolveConfig({ ...base, defaultNetwork: other })).toThrow(/Network not found/)
  })

  it('behavior: Solana networks are accepted beside eip155 ones (issue 17), by genesis hash only', () => {
    const solana = defineSolanaNetwork({
      name: 'Solana Sandbox',
      genesisHash: 'Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx',
      rpcUrl: 'http://127.0.0.1:8899',
    })
    expect(solana.caipNetworkId).toBe('solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx')
    expect(resolveConfig({ ...base, networks: [network, solana] }).networks).toEqual([network, solana])
    expect(resolveConfig({ ...base, networks: [solana] }).defaultNetwork).toEqual(solana)
    // A cluster name is not a network id.
    const cluster = { ...solana, caipNetworkId: 'solana:mainnet' as const }
    expect(configProblems({ ...base, networks: [cluster] })).toEqual([
      'networks.0.caipNetworkId: must be solana:{genesis hash, 32 characters}',
    ])
  })

  it('behavior: a network whose namespace has no chain adapter is "Adapter not found"', () => {
    // A bitcoin network: no chain adapter for bip122.
    const bitcoin = { ...network, caipNetworkId: 'bip122:000000000019d6689c085ae165831e93' as const }
    const refused = (networks: KitConfig['networks']) => {
      try {
        resolveConfig({ ...base, networks })
      } catch (error) {
        return error
      }
      throw new Error('accepted')
    }
    const error = refused([network, bitcoin])
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).shortMessage).toBe('Adapter not found')
    expect((error as ConfigError).details).toContain('bip122:000000000019d6689c085ae165831e93')
    // A network that says eip155 but whose CAIP-2 id is another namespace's has no adapter either.
    const mislabelled = { ...network, caipNetworkId: 'cosmos:cosmoshub-4' as const }
    expect((refused([mislabelled]) as ConfigError).shortMessage).toBe('Adapter not found')
    // The kit machine is never built for such a config.
    expect(() => createKitMachine({ ...base, networks: [bitcoin] })).toThrow(/Adapter not found/)
  })
})

/** An AppKit-style SIWE config (`createSIWEConfig`'s shape) whose functions do nothing. */
function appKitSiwe(): SiweConfig {
  return {
    getNonce: async () => 'nonce1234',
    createMessage: () => '',
    getSession: async () => null,
    verifyMessage: async () => false,
    signOut: async () => true,
  }
}
