// What holds the JS heap with the modal open: loads each built host app (out/build/<kit>/, from an earlier
// `node run.mjs`), clicks its button, waits for the network and animations to settle, collects garbage and takes a
// CDP heap snapshot (HeapProfiler.takeHeapSnapshot), then sums the snapshot's self sizes by node type and by
// constructor or code object name. Prints Walletstate's groups against the baseline's, largest difference first.
//
//   node heap.mjs [--kits walletstate] [--top 40] [--save]   (--save writes out/heap-<kit>.heapsnapshot)
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { CHROMIUM, CHROMIUM_ARGS, loadAndAim, serve, trackNetwork } from '../shared.mjs'
import { here } from './build.mjs'

const { values } = parseArgs({
  options: {
    kits: { type: 'string', default: 'walletstate' },
    top: { type: 'string', default: '40' },
    save: { type: 'boolean', default: false },
  },
})
const BUTTON = 'Connect Wallet'

/** One page load: click, settle, GC, snapshot; returns the parsed snapshot. */
async function snapshot(browser, kit) {
  const server = await serve(join(here, 'out/build', kit))
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 1280, height: 720 },
  })
  try {
    const page = await context.newPage()
    const origin = new URL(server.url).origin
    await page.route('**/*', (route) =>
      new URL(route.request().url()).origin === origin ? route.continue() : route.abort('blockedbyclient'),
    )
    await page.routeWebSocket(/.*/, (ws) => ws.close())
    const idle = trackNetwork(page, { quietMs: 500, timeoutMs: 15_000, fail: (m) => new Error(m) })
    const fail = (what, err) => new Error(`${kit}: ${what}: ${err}`)
    await loadAndAim(page, { url: server.url, name: BUTTON, timeoutMs: 30_000, fail })
    await idle('after load').catch(() => {})
    await page.mouse.down()
    await page.mouse.up()
    await page.waitForTimeout(1500)
    const cdp = await context.newCDPSession(page)
    await cdp.send('HeapProfiler.enable')
    await cdp.send('HeapProfiler.collectGarbage')
    const chunks = []
    cdp.on('HeapProfiler.addHeapSnapshotChunk', (e) => chunks.push(e.chunk))
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false })
    const text = chunks.join('')
    if (values.save) writeFileSync(join(here, `out/heap-${kit}.heapsnapshot`), text)
    return JSON.parse(text)
  } finally {
    await context.close()
    await server.close()
  }
}

/** Self sizes summed by "type: name" (objects by constructor, code by function or script name). */
function groups(snap) {
  const { node_fields: fields, node_types: types } = snap.snapshot.meta
  const width = fields.length
  const typeAt = fields.indexOf('type')
  const nameAt = fields.indexOf('name')
  const sizeAt = fields.indexOf('self_size')
  const typeNames = types[typeAt]
  const out = new Map()
  let total = 0
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = typeNames[snap.nodes[i + typeAt]]
    const size = snap.nodes[i + sizeAt]
    total += size
    let name = snap.strings[snap.nodes[i + nameAt]]
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '(strings)'
    else if (type === 'number') name = '(numbers)'
    else if (type === 'array') name = name.startsWith('(') ? name : '(array)'
    else name = name.length > 60 ? `${name.slice(0, 57)}...` : name
    const key = `${type}: ${name}`
    const g = out.get(key) ?? { size: 0, count: 0 }
    g.size += size
    g.count++
    out.set(key, g)
  }
  return { out, total }
}

async function main() {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
  try {
    const base = groups(await snapshot(browser, 'baseline'))
    for (const kit of values.kits.split(',')) {
      const mine = groups(await snapshot(browser, kit))
      console.log(
        `${kit}: snapshot ${mine.total} bytes, baseline ${base.total}, difference ${mine.total - base.total}`,
      )
      const keys = new Set([...mine.out.keys(), ...base.out.keys()])
      const rows = [...keys].map((k) => {
        const a = mine.out.get(k) ?? { size: 0, count: 0 }
        const b = base.out.get(k) ?? { size: 0, count: 0 }
        return { k, diff: a.size - b.size, size: a.size, count: a.count, baseCount: b.count }
      })
      rows.sort((x, y) => y.diff - x.diff)
      const byType = new Map()
      for (const r of rows) {
        const t = r.k.split(':')[0]
        byType.set(t, (byType.get(t) ?? 0) + r.diff)
      }
      console.log('by node type (difference over the baseline):')
      for (const [t, d] of [...byType].sort((a, b) => b[1] - a[1])) console.log(`  ${t.padEnd(24)} ${d}`)
      console.log(`top ${values.top} groups by difference (bytes, count here / in the baseline):`)
      for (const r of rows.slice(0, Number(values.top)))
        console.log(`  ${String(r.diff).padStart(8)}  ${r.k.padEnd(72)} ${r.count}/${r.baseCount}`)
    }
  } finally {
    await browser.close()
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err)
  process.exit(1)
})
