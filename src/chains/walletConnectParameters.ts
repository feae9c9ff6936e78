import type { ResolvedKitConfig } from '../config'
import {
  BIP122_CHAIN_IDS,
  KIT_BIP122_METHODS,
  KIT_SOLANA_METHODS,
  SESSION_DEFAULT_EVENTS,
} from '../constants'

/*
 * What every WalletConnect client of the kit is configured with (eip155's provider, Solana's sign client): one
 * place that reads the kit config, so both namespaces pair through the same relay with the same app metadata.
 */

/** The app as wallets see it in a session proposal (SPEC §3 App metadata). */
export interface WalletConnectMetadata {
  name: string
  description: string
  url: string
  icons: string[]
  /** Where the wallet sends the visitor back (checked by the kit's config). */
  redirect?: { native?: string; universal?: string; linkMode?: boolean }
}

export interface WalletConnectParameters {
  projectId: string
  /** The relay's WebSocket URL (`endpoints.relay`; the sandbox's loopback relay in tests). */
  relayUrl: string
  metadata: WalletConnectMetadata
}

/**
 * The project id, relay URL and metadata of a kit's WalletConnect clients; the metadata's defaults are the
 * kit's name and the page's origin.
 *
 * @example
 * const { projectId, relayUrl, metadata } = walletConnectParameters(resolveConfig(config))
 */
export function walletConnectParameters(config: ResolvedKitConfig): WalletConnectParameters {
  return {
    projectId: config.projectId,
    relayUrl: config.endpoints.relay,
    metadata: {
      name: config.metadata?.name ?? 'Walletstate',
      description: config.metadata?.description ?? '',
      url: config.metadata?.url ?? (typeof window !== 'undefined' ? window.location.origin : ''),
      icons: [...(config.metadata?.icons ?? [])],
      ...(config.metadata?.redirect ? { redirect: { ...config.metadata.redirect } } : {}),
    },
  }
}

/**
 * Turns off a WalletConnect core's own registration with the hosted Verify service (an iframe to
 * verify.walletconnect.org that no stand-in answers, and that gives the page's origin away): the kit registers
 * each pairing with `endpoints.verify` itself. Its `isDevEnv` switch skips the registration.
 */
export function offHostedVerify(core: unknown): void {
  const verify = (core as { verify?: { isDevEnv?: boolean } } | undefined)?.verify
  if (verify) verify.isDevEnv = true
}

/**
 * The kit's namespaces other than eip155 as a multichain pairing proposes them beside eip155 (SPEC §1: methods
 * and the default events per namespace): Solana on the configured Solana networks, and bip122 (optional).
 *
 * @example
 * const { solana } = otherWalletConnectNamespaces(resolveConfig(config))
 */
export function otherWalletConnectNamespaces(
  config: Pick<ResolvedKitConfig, 'networks'>,
): Record<string, { chains: string[]; methods: string[]; events: string[] }> {
  const solana = config.networks.filter((n) => n.chainNamespace === 'solana').map((n) => n.caipNetworkId)
  // Bitcoin (bip122) is proposed as optional on its public chains and regtest: a wallet may add its account.
  const bip122 = {
    chains: [...BIP122_CHAIN_IDS],
    methods: [...KIT_BIP122_METHODS],
    events: [...SESSION_DEFAULT_EVENTS],
  }
  return solana.length === 0
    ? { bip122 }
    : {
        solana: { chains: solana, methods: [...KIT_SOLANA_METHODS], events: [...SESSION_DEFAULT_EVENTS] },
        bip122,
      }
}
