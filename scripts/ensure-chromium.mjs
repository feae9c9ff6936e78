// Installs Debian's Chromium for the end-to-end tests when it is missing (never a downloaded browser build).
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (existsSync(path)) process.exit(0)
console.log(`Chromium is missing at ${path}: installing Debian's chromium package…`)
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0
const run = (args) =>
  execFileSync(asRoot ? args[0] : 'sudo', asRoot ? args.slice(1) : args, { stdio: 'inherit' })
try {
  run(['apt-get', 'update', '-qq'])
  run(['apt-get', 'install', '-y', '-qq', 'chromium'])
} catch (error) {
  console.error(`Could not install chromium (${error.message}). Install it with: apt-get install -y chromium`)
  process.exit(1)
}
if (!existsSync(path)) {
  console.error(`chromium installed but ${path} does not exist; set CHROMIUM_PATH`)
  process.exit(1)
}
