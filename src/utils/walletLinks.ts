import { SCHEME } from './httpUrl'
import { safeDeepLink } from './links'

/*
 * Wallet links with a pairing URI: only the views and actors that pair by WalletConnect need them, all loaded on
 * demand. Kept out of ./links.ts, whose checks the kit's first-click code uses (a host's bundler keeps all of a
 * module that code imports, even what only later code calls).
 */

/**
 * The link that opens a wallet with a WalletConnect pairing URI (issue 18 item 5), from the wallet's listing link
 * in WalletConnect's format: a deep link `scheme://wc?uri=<encoded URI>` or a universal link
 * `https://host/path/wc?uri=<encoded URI>` (the wallet's link with `wc` as a last path segment). The listing link
 * must pass {@link safeDeepLink} and so must the result; otherwise `undefined`, and nothing is opened.
 *
 * @example
 * walletLinkWithUri('metamask://', 'wc:ab@2?x=1') // 'metamask://wc?uri=wc%3Aab%402%3Fx%3D1'
 * walletLinkWithUri('https://metamask.app.link', 'wc:ab@2') // 'https://metamask.app.link/wc?uri=wc%3Aab%402'
 * walletLinkWithUri('javascript:alert(1)//', 'wc:ab@2') // undefined
 */
export function walletLinkWithUri(link: unknown, uri: string): string | undefined {
  const safe = safeDeepLink(link)
  if (!safe) return undefined
  const param = `uri=${encodeURIComponent(uri)}`
  const scheme = SCHEME.exec(safe)?.[1]?.toLowerCase()
  if (scheme === 'http' || scheme === 'https') {
    // The wallet's own query and fragment are dropped: the link is the wallet's path, plus `wc`.
    const url = new URL(safe)
    const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`
    return safeDeepLink(`${url.origin}${path}wc?${param}`)
  }
  // `name://` or `name://path`: the path goes on, and `wc` follows it as WalletConnect's docs show.
  const base = safe.split(/[?#]/, 1)[0]!
  return safeDeepLink(`${base.endsWith('/') ? base : `${base}/`}wc?${param}`)
}
