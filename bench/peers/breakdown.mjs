// What the Walletstate host app's first-click JavaScript is made of, by source file: builds the kit's package
// (vite.lib.config.ts, with source maps, into out/breakdown/package/) and the bench's Walletstate host app against
// it (the same Vite options as run.mjs, plus source maps, into out/breakdown/walletstate/), finds the files a page
// load fetches before the click (index.html's entry and preloads, and their static imports), and attributes each
// byte of them to a source file through the two source maps (host chunk -> package chunk -> src/ or a package).
// No browser: `node run.mjs` is the measurement; this says where the bytes are.
//
//   node breakdown.mjs [--top N] [--no-build] [--json out/breakdown.json] [--floor] [--no-minify]
//
// --floor: what a kit that only opens its modal on Connect would still cost before the first click, from this
// build's own figures: the sources such a shell cannot do without (FLOOR below: the modal's statechart library
// and charts, the config resolved and checked when the host calls createKitMachine, the modal and Connect in
// React, the wagmi config, the error base, constants, links and storage), each "gzip if removed", and what
// splitting the first click into several files costs (the files gzipped one by one, against one file).
// --no-minify: the host app's build left readable (its sizes are then not comparable), to see what keeps a
// module's code in the first click: the host's entry holds every statement of an entry-reachable package module
// that any chunk uses, so code only a lazy chunk needs still comes first when it shares a module with first-click
// code.
//
// gzip: each file gzipped alone (node:zlib level 9), as run.mjs counts it. Per source, "gzip if removed" is the
// first-click total minus the total with that source's bytes taken out of its files (what cutting it would save,
// give or take the code around it); "gzip share" is its raw bytes times its files' gzip/raw ratio.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { here, repo } from './build.mjs'

const { values } = parseArgs({
  options: {
    top: { type: 'string', default: '40' },
    'no-build': { type: 'boolean', default: false },
    json: { type: 'string' },
    kit: { type: 'string', default: 'walletstate' },
    floor: { type: 'boolean', default: false },
    'no-minify': { type: 'boolean', default: false },
  },
})
const out = join(here, 'out/breakdown')
const packageDir = join(out, 'package')
const appDir = join(out, values.kit)
const gz = (buf) => gzipSync(buf, { level: 9 }).length
const SHARED = ['react', 'react-dom', 'wagmi', 'viem', '@tanstack/react-query']

async function build() {
  if (values.kit === 'walletstate') {
    const r = spawnSync(
      process.execPath,
      [
        join(repo, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'vite.lib.config.ts',
        '--outDir',
        packageDir,
        '--sourcemap',
        '--logLevel',
        'error',
      ],
      { cwd: repo, encoding: 'utf8' },
    )
    if (r.status !== 0) throw new Error(`package build failed:\n${r.stderr || r.stdout}`)
  }
  const [{ build: viteBuild }, { default: react }] = await Promise.all([
    import('vite'),
    import('@vitejs/plugin-react'),
  ])
  await viteBuild({
    configFile: false,
    root: join(here, 'apps', values.kit),
    mode: 'production',
    logLevel: 'error',
    plugins: [react()],
    resolve: {
      dedupe: SHARED,
      alias:
        values.kit === 'walletstate'
          ? [
              { find: /^walletstate$/, replacement: join(packageDir, 'index.js') },
              { find: /^walletstate\/react$/, replacement: join(packageDir, 'react.js') },
            ]
          : [],
    },
    build: {
      outDir: appDir,
      emptyOutDir: true,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 100_000,
      sourcemap: true,
      ...(values['no-minify'] ? { minify: false } : {}),
    },
  })
}

/**
 * The sources a kit that opens its modal on Connect (nothing fetched between the press and Connect on screen)
 * needs before the first click, with no root statechart, connection or capability: `--floor`.
 */
const FLOOR = {
  'xstate (the modal is a statechart)': ['xstate (package)'],
  'the config resolved and checked (createKitMachine)': ['src/config.ts'],
  'the modal and Connect (React)': [
    'src/react/views/registry.tsx',
    'src/react/views/Connect.tsx',
    'src/react/components/KitModal.tsx',
    'src/react/components/FrameLogin.tsx',
    'src/react/components/SocialIcon.tsx',
    'src/react/components/ListedWallets.tsx',
    'src/react/KitRoot.tsx',
    'src/react/components/WalletImage.tsx',
    'src/react/components/ViewLoading.tsx',
    'src/react/components/KitModalLoader.tsx',
    'src/react/views/preloadable.ts',
    'src/react/controls.ts',
    'src/react/i18n.ts',
    'src/react/theme.ts',
    'src/react/hooks.ts',
    'src/react/actor.ts',
    'src/react/context.ts',
    'src/react/components/socialNames.ts',
    'src/react/glyphs.ts',
  ],
  'the modal and toast statecharts': ['src/machines/modal.ts', 'src/machines/toast.ts'],
  'error base, constants, links, storage, utils': [
    'src/errors/base.ts',
    'src/constants.ts',
    'src/utils/links.ts',
    'src/storage.ts',
    'src/utils/images.ts',
    'src/utils/httpUrl.ts',
    'src/utils/mobile.ts',
    'src/utils/environment.ts',
  ],
  'the wagmi config: connectors, transport': [
    'src/chains/eip155/wagmi.ts',
    'src/chains/eip155/transport.ts',
    'src/chains/eip155/walletConnect.ts',
    'src/chains/eip155/embedded.ts',
    'src/chains/eip155/embeddedBridge.ts',
  ],
}

/** The files fetched before the click: index.html's scripts and preloads, and their static imports. */
function firstClickFiles() {
  const html = readFileSync(join(appDir, 'index.html'), 'utf8')
  const start = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => join(appDir, m[1]))
  const files = new Set()
  const stack = [...start]
  while (stack.length) {
    const file = stack.pop()
    if (files.has(file)) continue
    files.add(file)
    const src = readFileSync(file, 'utf8')
    for (const m of src.matchAll(
      /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g,
    ))
      stack.push(resolve(dirname(file), m[1]))
  }
  return [...files].sort()
}

/** Decoded source map of a file, with a lookup from a generated (line, column) to its segment's source. */
async function loadMap(file) {
  const { decode } = await import(
    join(repo, 'node_modules/@jridgewell/sourcemap-codec/dist/sourcemap-codec.mjs')
  )
  const mapFile = `${file}.map`
  if (!existsSync(mapFile)) return null
  const map = JSON.parse(readFileSync(mapFile, 'utf8'))
  const sources = map.sources.map((s) => resolve(dirname(file), map.sourceRoot ?? '', s))
  return { sources, lines: decode(map.mappings) }
}

function lookup(map, line, column) {
  const segs = map.lines[line]
  if (!segs?.length) return null
  let lo = 0
  let hi = segs.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (segs[mid][0] <= column) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  const seg = segs[found === -1 ? 0 : found]
  return seg.length >= 4 ? { source: map.sources[seg[1]], line: seg[2], column: seg[3] } : null
}

const label = (path) => {
  const rel = relative(repo, path)
  const nm = rel.lastIndexOf('node_modules/')
  if (nm !== -1) {
    const parts = rel.slice(nm + 13).split('/')
    return `${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]} (package)`
  }
  return rel
}

async function main() {
  if (!values['no-build']) await build()
  const files = firstClickFiles()
  const packageMaps = new Map()
  const packageMap = async (file) => {
    if (!packageMaps.has(file)) packageMaps.set(file, await loadMap(file))
    return packageMaps.get(file)
  }
  /** Per source: raw bytes, and per file the character ranges it owns. */
  const bySource = new Map()
  const fileInfo = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const info = { file: relative(appDir, file), raw: Buffer.byteLength(text), gzip: gz(text), ranges: [] }
    fileInfo.push(info)
    const map = await loadMap(file)
    const lineStarts = [0]
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1)
    const add = (source, from, to) => {
      if (to <= from) return
      let entry = bySource.get(source)
      if (!entry) {
        entry = { source, raw: 0, files: new Map() }
        bySource.set(source, entry)
      }
      entry.raw += to - from
      if (!entry.files.has(info.file)) entry.files.set(info.file, [])
      entry.files.get(info.file).push([from, to])
    }
    if (!map) {
      add('(no source map)', 0, text.length)
      continue
    }
    for (let line = 0; line < lineStarts.length; line++) {
      const lineStart = lineStarts[line]
      const lineEnd = line + 1 < lineStarts.length ? lineStarts[line + 1] : text.length
      const segs = map.lines[line] ?? []
      let cursor = lineStart
      let current = '(unmapped)'
      for (const seg of segs) {
        const at = lineStart + seg[0]
        add(current, cursor, at)
        cursor = at
        if (seg.length < 4) {
          current = '(unmapped)'
          continue
        }
        let source = map.sources[seg[1]]
        // Through the package's own map to src/.
        if (source.startsWith(packageDir)) {
          const pm = await packageMap(source)
          const hit = pm && lookup(pm, seg[2], seg[3])
          source = hit ? hit.source : `${source} (unmapped)`
        }
        current = label(source)
      }
      add(current, cursor, lineEnd)
    }
  }
  const total = fileInfo.reduce((n, f) => n + f.gzip, 0)
  const rawTotal = fileInfo.reduce((n, f) => n + f.raw, 0)
  const ratio = new Map(fileInfo.map((f) => [f.file, f.gzip / f.raw]))
  const texts = new Map(fileInfo.map((f) => [f.file, readFileSync(join(appDir, f.file), 'utf8')]))
  const rows = [...bySource.values()].map((e) => {
    let share = 0
    for (const [file, ranges] of e.files)
      share += ranges.reduce((n, [a, b]) => n + b - a, 0) * ratio.get(file)
    return { source: e.source, raw: e.raw, share, files: e.files }
  })
  rows.sort((a, b) => b.share - a.share)
  const top = Number(values.top)
  // --floor needs every source's "gzip if removed"; the list below still prints the top N.
  for (const row of rows.slice(0, values.floor ? rows.length : top)) {
    let without = 0
    for (const f of fileInfo) {
      const ranges = row.files.get(f.file)
      if (!ranges) {
        without += f.gzip
        continue
      }
      const text = texts.get(f.file)
      let kept = ''
      let at = 0
      for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
        kept += text.slice(at, a)
        at = b
      }
      kept += text.slice(at)
      without += gz(kept)
    }
    row.removed = total - without
  }
  console.log(`first-click files (${values.kit}): ${fileInfo.length}, raw ${rawTotal} B, gzip ${total} B`)
  for (const f of fileInfo)
    console.log(`  ${f.file.padEnd(44)} raw ${String(f.raw).padStart(7)}  gzip ${String(f.gzip).padStart(6)}`)
  const kitRows = rows.filter((r) => r.source.startsWith('src/'))
  const kitShare = kitRows.reduce((n, r) => n + r.share, 0)
  console.log(
    `\nthe kit's own sources (src/): ${kitRows.length} files, ~${Math.round(kitShare)} B gzip (share)`,
  )
  const byPackage = new Map()
  for (const r of rows) {
    const key = r.source.endsWith('(package)') ? r.source : r.source.startsWith('src/') ? 'src/' : r.source
    byPackage.set(key, (byPackage.get(key) ?? 0) + r.share)
  }
  console.log('by package:')
  for (const [k, v] of [...byPackage].sort((a, b) => b[1] - a[1]))
    console.log(`  ${k.padEnd(40)} ~${Math.round(v)} B gzip`)
  console.log(`\ntop ${top} sources by gzip share (raw minified bytes; gzip share; gzip saved if removed):`)
  for (const r of rows.slice(0, top))
    console.log(
      `  ${r.source.padEnd(60)} raw ${String(r.raw).padStart(6)}  share ${String(Math.round(r.share)).padStart(5)}  removed ${String(r.removed ?? '').padStart(5)}`,
    )
  if (values.floor) {
    const bySourceRow = new Map(rows.map((r) => [r.source, r]))
    console.log(
      '\nthe floor (--floor): gzip saved if removed, of the sources a modal-only shell still needs:',
    )
    let sum = 0
    for (const [what, sources] of Object.entries(FLOOR)) {
      const bytes = sources.reduce((n, s) => n + (bySourceRow.get(s)?.removed ?? 0), 0)
      sum += bytes
      console.log(`  ${what.padEnd(52)} ${String(bytes).padStart(6)} B`)
    }
    const together = gz(Buffer.concat(fileInfo.map((f) => Buffer.from(texts.get(f.file)))))
    console.log(`  ${'sum'.padEnd(52)} ${String(sum).padStart(6)} B (${(sum / 1024).toFixed(1)} KiB)`)
    console.log(
      `  the first click in ${fileInfo.length} files instead of one: +${total - together} B gzip (${total} against ${together})`,
    )
    const rest = rows.filter(
      (r) => r.source.startsWith('src/') && !Object.values(FLOOR).flat().includes(r.source),
    )
    console.log(
      `  the kit's other sources before the first click (root, connection, capabilities...): ${rest.reduce((n, r) => n + (r.removed ?? 0), 0)} B`,
    )
  }
  if (values.json)
    writeFileSync(
      values.json,
      JSON.stringify(
        { files: fileInfo.map(({ ranges, ...f }) => f), sources: rows.map(({ files, ...r }) => r) },
        null,
        2,
      ),
    )
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err)
  process.exit(1)
})
