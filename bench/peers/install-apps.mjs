// `npm install` in bench/peers runs this afterwards: each host app in apps/ has its own package.json and
// lockfile (the kits want different wagmi and React versions), so each gets its own `npm install`.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const apps = fileURLToPath(new URL('./apps/', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
// npm passes its own settings to lifecycle scripts as npm_config_*; the nested installs must not inherit them
// (a --prefix or --global there would install into the wrong place).
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)))

for (const name of readdirSync(apps).sort()) {
  const dir = join(apps, name)
  if (!existsSync(join(dir, 'package.json'))) continue
  const command = 'install'
  console.log(`bench/peers: npm ${command} in apps/${name}`)
  const r = spawnSync(npm, [command, '--no-audit', '--no-fund'], { cwd: dir, env, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`bench/peers: npm ${command} in apps/${name} failed (exit ${r.status ?? r.signal})`)
    process.exit(1)
  }
}
