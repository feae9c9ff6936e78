import type { ResolvedKitConfig } from '../config'
import { browserStorage } from '../storage'
import type { SiwxConfig } from './types'

/** The host's sign-in (`siwx`, or AppKit's `siweConfig`), if any. */
export const signInConfig = (config: ResolvedKitConfig) => config.siwx ?? config.siweConfig

/** Whether declining to sign disconnects: SIWX `getRequired()`, or the SIWE config's `required`. */
export const signInRequired = ({ siwx, siweConfig }: ResolvedKitConfig): boolean =>
  (siwx ? siwx.getRequired?.() : siweConfig?.required) ?? false

const adapters = new WeakMap<ResolvedKitConfig, Promise<SiwxConfig>>()

/**
 * The kit's one SIWX adapter for a config: the host's `siwx` as it is, or its AppKit `siweConfig` mapped on
 * demand (./fromSiweConfig.ts, loaded then). WalletConnect's one-click sign-in and the sign-in capability share
 * it, so a session one of them keeps is the other's. Undefined without sign-in configured.
 */
export function siwxOf(config: ResolvedKitConfig): Promise<SiwxConfig> | undefined {
  const { siwx, siweConfig } = config
  if (!siwx && !siweConfig) return undefined
  let adapter = adapters.get(config)
  if (!adapter) {
    adapter = siwx
      ? Promise.resolve(siwx)
      : import('./fromSiweConfig').then(({ siwxFromSiweConfig }) =>
          siwxFromSiweConfig(siweConfig!, config.storage ?? browserStorage()),
        )
    adapters.set(config, adapter)
  }
  return adapter
}
