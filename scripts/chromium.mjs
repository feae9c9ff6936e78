// The one place that says how Chromium runs on this machine: Debian's build, as root, with no network.
// Used by the end-to-end tests, the sandbox's browser tests and the benchmarks.

/** Debian's Chromium; `scripts/ensure-chromium.mjs` installs it when missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** No sandbox as root, and no background traffic to hosts this machine cannot reach. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
