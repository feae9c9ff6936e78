/*
 * The expiry of a WalletConnect pairing URI: only the lazy WalletConnect code (eip155's connection calls,
 * Solana's client) reads it, so it is its own module, kept out of the kit's first-click code.
 */

/** A pairing URI without its own expiry is treated as valid this long (WalletConnect's default is 5 min). */
const DEFAULT_PAIRING_TTL_MS = 5 * 60_000

/** The expiry a WalletConnect URI carries (`expiryTimestamp`, seconds), else five minutes from now. */
export function pairingExpiry(uri: string, now = Date.now()): number {
  const match = /[?&]expiryTimestamp=(\d{9,11})(?:&|$)/.exec(uri)
  if (!match) return now + DEFAULT_PAIRING_TTL_MS
  return Number(match[1]) * 1_000
}
