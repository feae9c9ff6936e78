// Makes sure Chromium is there for the browser tests, installing Debian's `chromium` package when it is not
// (never a downloaded browser build), and says which path to use.
//
//   node scripts/ensure-chromium.mjs                  prints the path as its last line
//   node scripts/ensure-chromium.mjs -- <command…>    then runs the command with CHROMIUM_PATH set to it
//
// A CHROMIUM_PATH that names a missing file is installed for like any missing browser; the package puts it at
// /usr/bin/chromium, which is then used (and handed on) instead.
import { execFileSync, spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DEBIAN_CHROMIUM } from './chromium.mjs'

const runnable = (path) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** apt-get as root, through sudo otherwise; the package lists are refreshed only when the install needs it. */
function installDebianChromium() {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const aptGet = (...args) =>
    execFileSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['apt-get', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  const install = () => aptGet('install', '-y', '-qq', 'chromium')
  try {
    install()
  } catch {
    // A fresh container has no package lists (or stale ones): fetch them and try once more.
    aptGet('update', '-qq')
    install()
  }
}

/**
 * The Chromium to launch: `CHROMIUM_PATH` (or /usr/bin/chromium) when it runs; otherwise Debian's package is
 * installed and the path that then runs is returned. Throws when there is none after installing.
 *
 * @example
 * const path = ensureChromium() // '/usr/bin/chromium'
 */
export function ensureChromium(env = process.env) {
  const wanted = env.CHROMIUM_PATH || DEBIAN_CHROMIUM
  if (runnable(wanted)) return wanted
  console.log(`Chromium is missing at ${wanted}: installing Debian's chromium package…`)
  try {
    installDebianChromium()
  } catch (error) {
    throw new Error(
      `could not install chromium (${error.message}); install it with: apt-get install -y chromium`,
    )
  }
  for (const path of [wanted, DEBIAN_CHROMIUM]) {
    if (runnable(path)) {
      if (path !== wanted) console.log(`Using ${path} (CHROMIUM_PATH=${wanted} does not exist)`)
      return path
    }
  }
  throw new Error(
    `chromium is installed but neither ${wanted} nor ${DEBIAN_CHROMIUM} runs; set CHROMIUM_PATH`,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let path
  try {
    path = ensureChromium()
  } catch (error) {
    console.error(`ensure-chromium: ${error.message}`)
    process.exit(1)
  }
  const dashes = process.argv.indexOf('--')
  const command = dashes === -1 ? [] : process.argv.slice(dashes + 1)
  if (command.length === 0) {
    console.log(path)
  } else {
    const [file, ...args] = command
    const result = spawnSync(file, args, { stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: path } })
    if (result.error) console.error(`ensure-chromium: ${file}: ${result.error.message}`)
    process.exit(result.status ?? 1)
  }
}
