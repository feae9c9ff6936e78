import { portsFromEnv, startSandbox } from '../sandbox/index.ts'

/**
 * `npm start`: the sandbox and the demo host app on 127.0.0.1, one URL per service, Ctrl-C stops everything.
 * Ports come from WALLETSTATE_*_PORT variables (see sandbox/index.ts), otherwise free ones.
 */
const started = Date.now()
console.log('Starting the Walletstate sandbox…')
const sandbox = await startSandbox({ ports: portsFromEnv() })
const width = Math.max(...sandbox.urls.map(([label]) => label.length))
for (const [label, url] of sandbox.urls) console.log(`  ${label.padEnd(width)}  ${url}`)
console.log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Press Ctrl-C to stop.`)

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`\n${signal}: stopping…`)
  await sandbox.close()
  console.log('Stopped.')
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
