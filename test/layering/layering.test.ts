import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { cruise, type ICruiseResult } from 'dependency-cruiser'
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options'
import { describe, expect, it } from 'vitest'

// The lint stage's layering check (`npm run lint:deps`) run with the same config on small trees laid out like
// the repository: it fails on a deliberate violation and a deliberate cycle, and passes on a clean tree.
const CONFIG = fileURLToPath(new URL('../../.dependency-cruiser.cjs', import.meta.url))
const CLI = fileURLToPath(
  new URL('../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url),
)
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

async function check(name: string) {
  const options = await extractDepcruiseOptions(CONFIG)
  const reported = await cruise(['src'], { ...options, baseDir: fixture(name) })
  const result = reported.output as ICruiseResult
  return {
    exitCode: reported.exitCode,
    summary: result.summary,
    violations: result.summary.violations.map((v) => ({
      rule: v.rule.name,
      severity: v.rule.severity,
      from: v.from,
      to: v.to,
      ...(v.cycle ? { cycle: v.cycle.map((step) => step.name) } : {}),
    })),
  }
}

describe('layering check (.dependency-cruiser.cjs)', () => {
  it('reports a machine that imports a value from an actor', async () => {
    const { violations, summary } = await check('machine-imports-actor')
    expect(violations).toEqual([
      {
        rule: 'machines-import-types-only',
        severity: 'error',
        from: 'src/machines/connection.ts',
        to: 'src/actors/connection.ts',
      },
    ])
    expect(summary.error).toBe(1)
  })

  it('reports an import cycle, even when one side imports only types', async () => {
    const { violations, summary } = await check('cycle')
    // One report per cycle (dependency-cruiser reports a cycle once, from the first module it meets on it).
    expect(violations).toEqual([
      {
        rule: 'no-circular',
        severity: 'error',
        from: 'src/machines/session.ts',
        to: 'src/session/rules.ts',
        cycle: ['src/session/rules.ts', 'src/machines/session.ts'],
      },
    ])
    expect(summary.error).toBe(1)
  })

  it('passes a clean tree: type-only imports into a machine, and the composition root importing every layer', async () => {
    const { violations, summary } = await check('clean')
    expect(violations).toEqual([])
    expect(summary.error).toBe(0)
    expect(summary.warn).toBe(0)
    // The tree was really cruised: seven modules and the imports between them.
    expect(summary.totalCruised).toBe(7)
    expect(summary.totalDependenciesCruised).toBe(9)
  })

  it('fails the lint command (`depcruise src --config .dependency-cruiser.cjs`) on a violation, passes it on a clean tree', () => {
    const run = (name: string) =>
      spawnSync(process.execPath, [CLI, 'src', '--config', CONFIG], { cwd: fixture(name), encoding: 'utf8' })
    const failing = run('machine-imports-actor')
    expect(failing.status).not.toBe(0)
    expect(failing.stdout).toContain(
      'error machines-import-types-only: src/machines/connection.ts → src/actors/connection.ts',
    )
    const cycle = run('cycle')
    expect(cycle.status).not.toBe(0)
    expect(cycle.stdout).toContain('error no-circular: src/machines/session.ts')
    const clean = run('clean')
    expect(clean.stdout).toContain('no dependency violations found')
    expect(clean.status).toBe(0)
  })
})
