import type { CreateConnectorFn } from 'wagmi'

/** The parts of WalletConnect's EthereumProvider that one-click auth reaches (it has no public types here). */
interface EthereumProviderLike {
  session?: unknown
  authenticate(params: Record<string, unknown>): Promise<{ auths?: unknown }>
  signer: {
    client: { formatAuthMessage(params: { request: Record<string, unknown>; iss: string }): string }
    authenticate?: (...args: unknown[]) => Promise<unknown>
  }
  on(event: 'display_uri', listener: (uri: string) => void): void
  removeListener(event: 'display_uri', listener: (uri: string) => void): void
}

type ConnectorConfig = Parameters<CreateConnectorFn>[0]
type Inner = ReturnType<CreateConnectorFn>

/** What one-click auth uses of WalletConnect's provider. */
export interface OneClickProvider {
  /** `wc_sessionAuthenticate`; `chains` are CAIP-2 ids (`eip155:1`). */
  authenticate(params: { chains: string[] } & Record<string, unknown>): Promise<{ auths?: unknown }>
  /** The CAIP-122 text of a CACAO payload, as the wallet signed it. */
  formatAuthMessage(payload: Record<string, unknown>, iss: string): string
}

/** The kit's one-click sign-in, given the provider and the chains the kit has. */
export type OneClickAuthenticate = (provider: OneClickProvider, chainIds: readonly number[]) => Promise<void>

/**
 * Pairs WalletConnect by one-click auth (issue 15), unless a session is already there; the wagmi connect that
 * follows finds the session made and does not pair again. Loaded with the first WalletConnect connect of a kit
 * with sign-in. The pairing URI is passed on as wagmi's connector passes a plain pairing's (its own listener
 * is added by that connect, too late for this one).
 */
export async function pairByOneClickAuth(
  loaded: Inner,
  config: ConnectorConfig,
  authenticate: OneClickAuthenticate,
): Promise<void> {
  const provider = (await loaded.getProvider()) as EthereumProviderLike
  if (provider.session) return
  const chainIds = config.chains.map((chain) => chain.id)
  const onUri = (uri: string) => config.emitter.emit('message', { type: 'display_uri', data: uri })
  provider.on('display_uri', onUri)
  // A wallet's refusal reaches the provider as its words alone, and the provider passes it on as an Error
  // without them: they are kept here on the way, so "User rejected." still reads as a decline.
  const { signer } = provider
  const original = signer.authenticate
  let refusal: string | undefined
  if (original)
    signer.authenticate = (...args) =>
      original.apply(signer, args).catch((reason: unknown) => {
        if (typeof reason === 'string') refusal = reason
        throw reason
      })
  try {
    await authenticate(
      {
        // The provider takes chain numbers and asks for them as eip155 CAIP-2 ids.
        authenticate: (params) =>
          provider.authenticate({ ...params, chains: params.chains.map((id) => Number(id.split(':')[1])) }),
        formatAuthMessage: (payload, iss) =>
          provider.signer.client.formatAuthMessage({ request: payload, iss }),
      },
      chainIds,
    )
  } catch (error) {
    throw refusal === undefined ? error : new Error(refusal, { cause: error })
  } finally {
    if (original) signer.authenticate = original
    provider.removeListener('display_uri', onUri)
  }
  // The session is for every chain the kit has: wagmi's connect must not take it for stale and pair again.
  await (loaded as { setRequestedChainsIds?: (ids: number[]) => Promise<void> }).setRequestedChainsIds?.(
    chainIds,
  )
}
