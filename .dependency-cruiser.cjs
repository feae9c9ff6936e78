/**
 * The kit's layering (issue 11, item 6), checked by `npm run lint:deps` (part of `npm run lint`).
 *
 *   react ──▶ machines ──(types only)──▶ actors ──▶ api, chains, storage
 *
 * - src/kit/** is the composition root: the one place that imports everything and wires the real actors in.
 * - Machines import only types from actors, api, chains, storage and react: their actors are provided.
 * - Actors implement machine slots: types from machines, values from api/chains/storage.
 * - api, chains and storage are the bottom: types only from the layers above.
 * - Only src/react (and the composition root) imports src/react; sandbox/, test/, demo/ may import src,
 *   src never imports them.
 * - No import cycle in src/, type-only ones included.
 *
 * Paths are relative to the directory cruised from (`baseDir`), so test/layering runs the same rules on
 * fixture trees laid out like the repository.
 */

/** Directories (or single-file modules) under src/, as a path pattern. */
const layer = (...names) => `^src/(${names.join('|')})(/|\\.tsx?$)`
const VALUE = { dependencyTypesNot: ['type-only'] }

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle in src/ (type-only imports count too): move the shared part to its own module.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'machines-import-types-only',
      severity: 'error',
      comment:
        'A machine imports only types from actors, api, chains, storage and react: the composition root ' +
        '(src/kit) provides the real actors.',
      from: { path: layer('machines') },
      to: { path: layer('actors', 'api', 'chains', 'storage', 'react'), ...VALUE },
    },
    {
      name: 'react-only-from-react',
      severity: 'error',
      comment: 'Nothing in src/ outside src/react (and the composition root src/kit) imports src/react.',
      from: { path: '^src/', pathNot: layer('react', 'kit') },
      to: { path: layer('react') },
    },
    {
      name: 'react-not-to-actors',
      severity: 'error',
      comment: 'Views talk to machines; actors are wired in by the composition root (src/kit).',
      from: { path: layer('react') },
      to: { path: layer('actors', 'storage'), ...VALUE },
    },
    {
      name: 'react-through-machines',
      severity: 'error',
      comment:
        'Views reach api and chains through the kit (machines, the QueryClient of the composition root), not ' +
        'by importing their values (issue 11 item 5). The one door: src/api/queries.ts, the react-query ' +
        'descriptors of the one data path (the QueryClient runs them).',
      from: { path: layer('react') },
      to: { path: layer('api', 'chains'), pathNot: '^src/api/queries\\.ts$', ...VALUE },
    },
    {
      name: 'actors-below-machines',
      severity: 'error',
      comment:
        'Actors implement machine slots: they import types from machines, never values, and never react.',
      from: { path: layer('actors') },
      to: { path: layer('machines', 'react', 'kit'), ...VALUE },
    },
    {
      name: 'bottom-layers',
      severity: 'error',
      comment:
        'api, chains and storage are the bottom layers: only types from machines; nothing from actors, react or the kit.',
      from: { path: layer('api', 'chains', 'storage') },
      to: { path: layer('machines', 'actors', 'react', 'kit'), ...VALUE },
    },
    {
      name: 'src-not-to-dev-trees',
      severity: 'error',
      comment: 'The library never imports the sandbox, the tests, the demo, the benchmarks or the scripts.',
      from: { path: '^src/' },
      to: { path: '^(sandbox|test|demo|bench|scripts)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing: a typo, or a package missing from package.json.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Tests colocated in src/ may import the sandbox and anything else: the rules are for the library.
    exclude: { path: '\\.test(-d)?\\.tsx?$' },
    doNotFollow: { path: 'node_modules' },
    // Keep type-only imports in the graph, marked `type-only`, so the rules can tell them from value imports.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
}
