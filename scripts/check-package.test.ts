import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkPackage, isClean } from './check-package.mjs'

// scripts/check-package.mjs over package folders laid out as npm installs them: the findings come from the files.

const work = mkdtempSync(join(tmpdir(), 'walletstate-check-package-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function write(path: string, content: unknown) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
}

const SCRIPT = join(import.meta.dirname, 'check-package.mjs')
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' })

/** A host folder with the package installed in it, and the packages it pulls in beside it. */
function host(name: string, manifest: Record<string, unknown>, dist: Record<string, string>) {
  const root = join(work, name)
  const pkg = join(root, 'node_modules', 'fx')
  write(join(pkg, 'package.json'), { name: 'fx', version: '1.0.0', ...manifest })
  for (const [path, text] of Object.entries(dist)) write(join(pkg, path), text)
  const installed = (id: string, own: Record<string, unknown> = {}) =>
    write(join(root, 'node_modules', id, 'package.json'), { name: id, version: '2.0.0', ...own })
  return { pkg, installed }
}

describe('check-package', () => {
  it('finds install scripts, undeclared and unused dependencies, engines conflicts, and notes install scripts below', () => {
    const { pkg, installed } = host(
      'findings',
      {
        engines: { node: '^20.19.0 || >=22.12.0' },
        scripts: { prepare: 'node build.mjs', build: 'vite build' },
        dependencies: { used: '^2.0.0', unused: '^2.0.0' },
        peerDependencies: { react: '*', inspector: '*' },
        peerDependenciesMeta: { inspector: { optional: true } },
      },
      {
        'dist/index.js': [
          "import { a } from 'used/sub'",
          "import React from 'react'",
          "import { readFileSync } from 'node:fs'",
          // A bare built-in name a browser bundler resolves to a package; not declared, it is Node's own.
          "import { Buffer } from 'buffer'",
          "export * from 'reexported'",
          'const text = `import { x } from "in-a-string"`',
          "export const later = () => import('lazy')",
        ].join('\n'),
        'dist/types/index.d.ts': "export type T = import('types-only').T\n",
        'dist/demo/app.js': "import 'demo-only'\n",
        'bin/cli.js': "import 'from-bin'\n",
      },
    )
    installed('used', { engines: { node: '>=22' }, dependencies: { native: '^2.0.0' } })
    installed('native', { scripts: { install: 'node-gyp rebuild' } })
    installed('unused', { engines: { node: '>=18' } })
    installed('react', { engines: { node: '>=0.10.0' } })
    const report = checkPackage(pkg)
    expect(report.installScripts).toEqual(['prepare: node build.mjs'])
    expect(report.undeclared.map((u) => u.package)).toEqual(['from-bin', 'lazy', 'reexported', 'types-only'])
    expect(report.undeclared.find((u) => u.package === 'types-only')?.importedBy).toEqual([
      'dist/types/index.d.ts',
    ])
    expect(report.unused).toEqual(['unused'])
    expect(report.enginesConflicts).toEqual([
      { package: 'used@2.0.0', node: '>=22', via: 'fx@1.0.0 > used@2.0.0' },
    ])
    expect(report.notes.dependencyInstallScripts).toEqual([
      { package: 'native@2.0.0', scripts: ['install'], via: 'fx@1.0.0 > used@2.0.0 > native@2.0.0' },
    ])
    expect(isClean(report)).toBe(false)
    const cli = run(pkg)
    expect(cli.status).toBe(1)
    expect(cli.stdout).toContain('✗ install scripts in the published manifest: 1')
    expect(cli.stdout).toContain('used@2.0.0 needs node >=22: fx@1.0.0 > used@2.0.0')
  })

  it('a package that imports what it declares, with engines that agree, is clean (exit 0), packed or installed', () => {
    const { pkg, installed } = host(
      'clean',
      {
        engines: { node: '^20.19.0 || >=22.12.0' },
        scripts: { build: 'vite build', prepack: 'npm run build' },
        dependencies: { used: '^2.0.0' },
      },
      { 'dist/index.js': "export { a } from 'used'\n" },
    )
    // `20 || >=22` accepts every version the package's range does (not Node 21).
    installed('used', { engines: { node: '20 || >=22' } })
    expect(isClean(checkPackage(pkg))).toBe(true)
    const installedRun = run(pkg, '--json')
    expect(installedRun.status).toBe(0)
    expect(JSON.parse(installedRun.stdout).enginesConflicts).toEqual([])
    // The tarball npm pack makes: one package/ folder; its dependencies resolved from the host folder.
    const staging = join(work, 'clean-pack')
    mkdirSync(staging)
    cpSync(pkg, join(staging, 'package'), { recursive: true })
    const tarball = join(work, 'fx-1.0.0.tgz')
    execFileSync('tar', ['-czf', tarball, '-C', staging, 'package'])
    const packed = run(tarball, '--resolve-from', join(work, 'clean'))
    expect(packed.status, packed.stderr).toBe(0)
    expect(packed.stdout).toContain('✓ imported but not a dependency or peer: none')
  })

  it('a missing folder, a folder without dist/ or a bad option: exit 2 and one line on stderr', () => {
    for (const args of [[join(work, 'nowhere')], [work], ['--nope']]) {
      const result = run(...args)
      expect(result.status, args.join(' ')).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(/^check-package: [^\n]+\n$/)
    }
  })
})
