/**
 * The house rules (issue 18, ../shared/DESIGN.md §3), checked by `npm run lint`:
 * imports point inward, no cycles (type-only imports count), and imports into another folder go through its index.ts.
 *
 * Layers, outermost first; a folder may import only folders listed after it (and itself):
 *   lib/cli                     the evalp command line (an entry point: it starts the embedded platform)
 *   lib/platform                the embedded platform: the host serving functions/ with embedded services
 *   functions                   Azure Functions entry points (thin)
 *   lib/dashboard               serving the built dashboard (web/) with its headers; imports nothing of the platform
 *   lib/app                     wiring: composes adapters into Services for both hosts
 *   lib/api                     route table, auth, OpenAPI
 *   lib/runs                    run lifecycle: planning, dispatch, case workers, finalize
 *   lib/alerts                  regression alerts and notifications
 *   lib/reports                 run and comparison reports
 *   lib/annotations             human annotation tasks, agreement and judge calibration
 *   lib/feedback                production feedback: interactions, candidate cases, their review queue
 *   lib/compare                 run comparison with paired statistics
 *   lib/goldset                 importing, exporting and reading gold sets
 *   lib/evaluation, lib/judges, lib/targets   the four stages, judges, target invokers
 *   lib/environments            stateful API simulators for stateful cases (pure, in-process; import ports, domain)
 *   lib/adapters/*              port implementations (import ports, domain, shared helpers; the embedded family also the host)
 *   lib/resilience, lib/telemetry   cross-cutting: retry, timeout, breaker, rate limiter; spans and metrics
 *   lib/tenancy                 organization-scoped stores and services, budgets (import ports, domain)
 *   lib/ports                   interfaces
 *   lib/metrics                 reference text metrics (BLEU, ROUGE, chrF, facts, numbers), pure
 *   lib/domain, lib/statistics, lib/ncrontab   pure schemas, folds and math
 *   lib/outbound                the outbound URL policy and the fetch that enforces it (imports nothing of the platform)
 *   lib/host                    the embedded Functions host: imports nothing of the app but lib/ncrontab
 */
const TEST = '(\\.test\\.ts|\\.test-helpers\\.ts|\\.bench\\.ts)$|/__fixtures__/|/contracts/|/testing/|/testapp/';

/** a module folder: lib/<name>, or lib/adapters/<name> and lib/evaluation/<name> */
const MODULE = 'adapters/[^/]+|evaluation/[^/]+|[^/]+';

const layer = (name, from, allowed) => ({
  name,
  comment: `${from} may import only ${allowed.join(', ')} (DESIGN §3 layering)`,
  severity: 'error',
  from: { path: `^${from}/`, pathNot: TEST },
  to: { path: '^(lib|functions)/', pathNot: [`^${from}/`, ...allowed.map((a) => `^${a}/`)] },
});

const FEATURE_BASE = [
  'lib/evaluation',
  'lib/judges',
  'lib/targets',
  'lib/environments',
  'lib/resilience',
  'lib/telemetry',
  'lib/tenancy',
  'lib/outbound',
  'lib/ports',
  'lib/metrics',
  'lib/domain',
  'lib/statistics',
  'lib/ncrontab',
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycles, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'through-index',
      comment: "an import into another folder goes through that folder's index.ts (tests and fixtures may reach in)",
      severity: 'error',
      from: { path: `^lib/(${MODULE})/`, pathNot: TEST },
      to: { path: `^lib/(${MODULE})/`, pathNot: [`^lib/(${MODULE})/index\\.ts$`, '^lib/$1/'] },
    },
    {
      name: 'functions-through-index',
      comment: 'functions/ imports lib folders through their index.ts',
      severity: 'error',
      from: { path: '^functions/', pathNot: TEST },
      to: { path: `^lib/(${MODULE})/`, pathNot: `^lib/(${MODULE})/index\\.ts$` },
    },
    layer('platform', 'lib/platform', [
      'lib/annotations',
      'functions',
      'lib/app',
      'lib/api',
      'lib/runs',
      'lib/alerts',
      'lib/reports',
      'lib/compare',
      'lib/goldset',
      'lib/adapters',
      'lib/host',
      ...FEATURE_BASE,
    ]),
    layer('functions', 'functions', [
      'lib/annotations',
      'lib/app',
      'lib/dashboard',
      'lib/api',
      'lib/runs',
      'lib/alerts',
      'lib/reports',
      'lib/compare',
      'lib/goldset',
      ...FEATURE_BASE,
    ]),
    layer('app', 'lib/app', [
      'lib/annotations',
      'lib/api',
      'lib/runs',
      'lib/alerts',
      'lib/reports',
      'lib/compare',
      'lib/goldset',
      'lib/adapters',
      'lib/host',
      'bench/fixtures',
      ...FEATURE_BASE,
    ]),
    layer('api', 'lib/api', [
      'lib/feedback',
      'lib/annotations',
      'lib/runs',
      'lib/alerts',
      'lib/reports',
      'lib/compare',
      'lib/goldset',
      ...FEATURE_BASE,
    ]),
    layer('runs', 'lib/runs', ['lib/annotations', 'lib/alerts', 'lib/reports', 'lib/compare', 'lib/goldset', ...FEATURE_BASE]),
    layer('alerts', 'lib/alerts', ['lib/compare', ...FEATURE_BASE]),
    layer('reports', 'lib/reports', ['lib/annotations', 'lib/compare', ...FEATURE_BASE]),
    layer('annotations', 'lib/annotations', ['lib/compare', ...FEATURE_BASE]),
    layer('feedback', 'lib/feedback', FEATURE_BASE),
    layer('compare', 'lib/compare', FEATURE_BASE),
    layer('goldset', 'lib/goldset', FEATURE_BASE),
    layer('evaluation', 'lib/evaluation', [
      'lib/environments',
      'lib/metrics',
      'lib/ports',
      'lib/domain',
      'lib/statistics',
      'lib/telemetry',
    ]),
    layer('environments', 'lib/environments', ['lib/ports', 'lib/domain']),
    layer('judges', 'lib/judges', [
      'lib/metrics',
      'lib/resilience',
      'lib/telemetry',
      'lib/outbound',
      'lib/ports',
      'lib/domain',
      'lib/statistics',
    ]),
    layer('targets', 'lib/targets', ['lib/resilience', 'lib/telemetry', 'lib/outbound', 'lib/ports', 'lib/domain']),
    layer('adapters-embedded', 'lib/adapters/embedded', [
      'lib/adapters/shared',
      'lib/host',
      'lib/telemetry',
      'lib/outbound',
      'lib/ports',
      'lib/domain',
    ]),
    layer('adapters-azure', 'lib/adapters/azure', [
      'lib/adapters/shared',
      'lib/resilience',
      'lib/telemetry',
      'lib/outbound',
      'lib/ports',
      'lib/domain',
    ]),
    layer('adapters-execution', 'lib/adapters/execution', [
      'lib/adapters/shared',
      'lib/resilience',
      'lib/outbound',
      'lib/ports',
      'lib/domain',
    ]),
    layer('adapters-shared', 'lib/adapters/shared', ['lib/ports', 'lib/domain']),
    layer('resilience', 'lib/resilience', ['lib/telemetry', 'lib/outbound', 'lib/ports', 'lib/domain']),
    layer('telemetry', 'lib/telemetry', ['lib/domain']),
    layer('tenancy', 'lib/tenancy', ['lib/ports', 'lib/domain']),
    layer('ports', 'lib/ports', ['lib/outbound', 'lib/domain']),
    layer('outbound', 'lib/outbound', []),
    layer('dashboard', 'lib/dashboard', []),
    layer('domain', 'lib/domain', []),
    layer('statistics', 'lib/statistics', []),
    layer('metrics', 'lib/metrics', ['lib/ports', 'lib/domain', 'lib/statistics']),
    layer('ncrontab', 'lib/ncrontab', []),
    layer('host', 'lib/host', ['lib/ncrontab']),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
    moduleSystems: ['es6'],
  },
};
