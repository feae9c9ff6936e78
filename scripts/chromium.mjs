// The one place that says how Chromium runs on this machine: Debian's build, as root, with no network.
// Used by the end-to-end tests, the sandbox's browser tests and the benchmarks.

/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * The browser the tests launch: `CHROMIUM_PATH` when set, else Debian's. `scripts/ensure-chromium.mjs` installs
 * it when missing and `npm test` passes the path it settled on to every later stage in `CHROMIUM_PATH`.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || DEBIAN_CHROMIUM

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
