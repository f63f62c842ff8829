/**
 * The import rules `npm run lint:deps` checks (dependency-cruiser): no import circle, type-only
 * imports included, and no import from a lower layer to a higher one. Layers, lowest first:
 *
 *   fixtures       seeded documents: the data every layer above generates or stores
 *   src/core       plan, runner, statistics, results: runs in the page and in Node alike, in rooms
 *                  (ROOMS below) that import only downwards
 *   src/adapters   one file per store
 *   suites         what is measured
 *   src/studies    published studies and their reports
 *   src/export     CSV, TSV, XLSX, JSON
 *   src/ui | src/cli   the page and the Node CLI, side by side: they meet only in the layers below
 *
 * Inside src/cli, commands/ (one file or folder per command of the storebench binary) and scripts/
 * (the project's own tools: npm run bench:overhead, schema, between-runs) sit above the folders
 * that serve them: args, browser-runs, build, drivers, files, server, terminal, trials; bin.ts
 * (the installed storebench command) dispatches to the commands. Commands share code through
 * those folders, never by importing one another.
 *
 * Node's own modules and Node-only packages (Playwright, Vite) are for src/cli alone, and the
 * chart packages for src/ui alone, so neither side's bundle pulls in the other's world. Inside
 * src/ui the explorer's model is pure and the charts sit below the explorer that shows them.
 */
const LAYERS = [
  ['fixtures', '^fixtures/'],
  ['src/core', '^src/core/'],
  ['src/adapters', '^src/adapters/'],
  ['suites', '^suites/'],
  ['src/studies', '^src/studies/'],
  ['src/export', '^src/export/'],
  ['src/ui and src/cli', '^src/(ui|cli)/'],
];

/**
 * The rooms of src/core, lowest first: a room imports only from itself and the rooms below it.
 * Each room's main module opens with what the room owns (docs/architecture.md lists them all).
 *
 *   base       text, numbers, errors, timers, a case's identity: what every room uses
 *   stats      summary statistics, intervals, sequential looks, paired ratios
 *   plan       what to run: the Plan, its defaults, its form and its URL, budgets and variants
 *   schema     the results file's definition, its words, its caps and its checker
 *   store      what a store adapter and a suite are, capabilities, queries, the contract
 *   verdicts   findings, comparisons, baselines, A/B, the gate: results in, decisions out
 *   results    reading, recomputing, building and merging results documents
 *   history    series of results over time and their change points
 *   run        the runner: groups, rows, timed samples, sampling policy, events
 */
const ROOMS = ['base', 'stats', 'plan', 'schema', 'store', 'verdicts', 'results', 'history', 'run'];

const roomRules = ROOMS.slice(0, -1).map((room, i) => ({
  name: `core-${room}-imports-no-higher-room`,
  comment: `src/core/${room}/ is below ${ROOMS.slice(i + 1).join(', ')}: it must not import them`,
  severity: 'error',
  from: { path: `^src/core/${room}/` },
  to: { path: ROOMS.slice(i + 1).map((above) => `^src/core/${above}/`) },
}));

const layerRules = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `${name.replace(/\//g, '-')}-imports-no-higher-layer`,
  comment: `${name} is below ${LAYERS.slice(i + 1)
    .map(([n]) => n)
    .join(', ')}: it must not import them`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, above]) => above) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'An import circle, type-only imports included: give the shared thing a module of its own, below both.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...roomRules,
    {
      name: 'core-modules-in-rooms',
      comment:
        'Every module of src/core stands in one of its rooms (ROOMS), so the order above covers it: none at its top.',
      severity: 'error',
      from: {},
      to: { path: '^src/core/[^/]+$' },
    },
    {
      name: 'reading-results-computes-no-verdict',
      comment:
        "results/results.ts reads and checks a file: what readers derive from its samples (statistics, A/B, findings) is results/recompute.ts's, so the file's types and check depend on no verdict.",
      severity: 'error',
      from: { path: '^src/core/results/results\\.ts$' },
      to: { path: '^src/core/(stats|verdicts)/' },
    },
    {
      name: 'ui-imports-no-cli',
      comment:
        'The page and the CLI meet only in the layers below them (src/core, src/export, ...).',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'cli-imports-no-ui',
      comment:
        'The page and the CLI meet only in the layers below them (src/core, src/export, ...).',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/ui/' },
    },
    {
      name: 'node-only-in-cli',
      comment: 'Only the CLI runs in Node: everything else is bundled into the page too.',
      severity: 'error',
      from: { path: '^(fixtures|suites|src)/', pathNot: '^src/cli/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'node-packages-only-in-cli',
      comment:
        'Playwright and Vite drive browsers and build the page from Node: the CLI alone imports them.',
      severity: 'error',
      from: { path: '^(fixtures|suites|src)/', pathNot: '^src/cli/' },
      to: { path: '^node_modules/(playwright-core|@playwright/test|vite)/' },
    },
    {
      name: 'chart-packages-only-in-ui',
      comment: 'Chart.js draws on a canvas: the page alone imports it.',
      severity: 'error',
      from: { path: '^(fixtures|suites|src)/', pathNot: '^src/ui/' },
      to: { path: '^node_modules/(chart\\.js|@sgratzl/chartjs-chart-boxplot)/' },
    },
    {
      name: 'core-imports-no-package',
      comment:
        'fixtures and src/core run unchanged in every browser and in Node: no package under them. ' +
        "schema/results-schema.ts is the results schema's one definition in TypeBox: readers take only its types and the JSON file it publishes, so TypeBox never reaches a bundle (npm run schema writes the file).",
      severity: 'error',
      from: { path: '^(fixtures|src/core)/', pathNot: '^src/core/schema/results-schema\\.ts$' },
      to: {
        dependencyTypes: [
          'npm',
          'npm-dev',
          'npm-optional',
          'npm-peer',
          'npm-bundled',
          'npm-no-pkg',
          'npm-unknown',
        ],
      },
    },
    {
      name: 'ui-model-is-pure',
      comment: "The explorer's model is data in, data out: no DOM module, no chart, no view.",
      severity: 'error',
      from: { path: '^src/ui/model/' },
      to: { path: '^(src/ui/(?!model/)|node_modules/)' },
    },
    {
      name: 'charts-below-explorer',
      comment: 'The explorer shows the charts: a chart must not import the explorer.',
      severity: 'error',
      from: { path: '^src/ui/charts/' },
      to: { path: '^src/ui/explorer/' },
    },
    {
      name: 'cli-helpers-import-no-command',
      comment:
        'src/cli/commands/ and src/cli/scripts/ hold the entry points; the folders beside them (args, browser-runs, build, drivers, files, server, terminal, trials) serve them and must not import one. src/cli/bin.ts, the installed storebench command, is above them: it dispatches to them.',
      severity: 'error',
      from: { path: '^src/cli/', pathNot: '^src/cli/(commands/|scripts/|bin\\.ts$)' },
      to: { path: '^src/cli/commands/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing: a typo, or a package that is not installed.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '^node_modules/' },
    // Type-only imports count: a circle of types is still a circle for the reader.
    tsPreCompilationDeps: true,
    // Vite and Playwright publish only under the `import` condition of their package exports.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
