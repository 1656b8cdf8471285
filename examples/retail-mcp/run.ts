/**
 * `npm run example:mcp`: an agent evaluated over MCP, offline. Starts the platform on a temporary data dir, the
 * scripted (simulated) model server and, through the platform, the retail MCP server over stdio; registers three
 * targets (an OpenAI-protocol client with the MCP tools, a Claude-protocol client with the MCP tools, and the same
 * simulated model without tools as the baseline); starts the retail suite with `trials: 3` as two baseline-vs-enhanced
 * pairs; and prints pass@1, pass^3, the pairwise win rate against the baseline, tool calls and cost per case.
 * Every model here is SIMULATED (generated decisions, examples/retail-mcp/decisions.jsonl); the prices are illustrative.
 * Options: --cases N (the first N retail cases; default all 327), --trials K (default 3), --keep (keep the data dir).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPlatform } from '../../lib/platform/embedded.js';
import { loadRetailSample } from '../../lib/app/demo.js';
import { createApiKey } from '../../lib/api/index.js';
import { TestSuiteSchema } from '../../lib/domain/index.js';
import type { RunPairComparison as Pair } from '../../lib/domain/pairComparison.js';
import { startScriptedModelServer, SIMULATED_JUDGE } from './scriptedModelServer.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RETAIL = join(HERE, '..', 'retail');
const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const trials = option('--trials', 3);
const limit = option('--cases', 327);
const keep = argv.includes('--keep');

const started = Date.now();
const dataDir = mkdtempSync(join(tmpdir(), 'evalp-example-mcp-'));
const model = await startScriptedModelServer();
const platform = await startEmbeddedPlatform({
  dataDir,
  port: 0,
  hostname: '127.0.0.1',
  baseDir: RETAIL,
  // the pairwise judge (an OpenAI-compatible model) is the scripted server's simulated judge
  env: { ...process.env, OPENAI_BASE_URL: model.openaiBaseUrl, OPENAI_API_KEY: 'simulated' },
});
// an API key for this script (the API is called as any client would call it)
const { key } = await createApiKey(
  platform.services.apiKeys,
  { name: 'example:mcp', roles: ['platform-admin', 'test-admin', 'suite-admin', 'runner', 'reader'] },
  platform.services.clock,
);
const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${platform.url}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /api/v1/${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
};

try {
  const { cases } = await loadRetailSample(platform.services, RETAIL);
  const all = await platform.services.stores.suites.get('retail-demo');
  const ids = (all?.kind === 'static' ? all.test_case_ids : []).slice(0, limit);
  const now = new Date().toISOString();
  await platform.services.stores.suites.upsert(
    TestSuiteSchema.parse({
      id: 'retail-mcp',
      name: `Retail over MCP (${ids.length} of ${cases} cases)`,
      kind: 'static',
      test_case_ids: ids,
      created_at: now,
      updated_at: now,
    }),
  );

  const retailMcp = {
    name: 'retail',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', join(HERE, 'server.ts')],
    connect_timeout_ms: 60_000,
  };
  const targets = [
    {
      id: 'openai-mcp',
      name: 'simulated model A over the OpenAI protocol, retail MCP tools',
      settings: {
        kind: 'openai',
        base_url: model.openaiBaseUrl,
        model: 'simulated-model-a',
        agentic_loop: { enabled: true, max_turns: 5 },
        pricing: { input_per_mtok: 2, output_per_mtok: 8 },
      },
      mcp_servers: [retailMcp],
      client_type: 'openai-mcp',
    },
    {
      id: 'claude-mcp',
      name: 'simulated model B over the Anthropic Messages protocol, retail MCP tools',
      settings: {
        kind: 'anthropic',
        base_url: model.anthropicBaseUrl,
        model: 'simulated-model-b',
        agentic_loop: { enabled: true, max_turns: 5 },
        prompt_caching: true,
        pricing: { input_per_mtok: 3, output_per_mtok: 15 },
      },
      mcp_servers: [retailMcp],
      client_type: 'claude-mcp',
    },
    {
      id: 'no-tools',
      name: 'simulated model A without tools (baseline)',
      settings: {
        kind: 'openai',
        base_url: model.openaiBaseUrl,
        model: 'simulated-model-a',
        pricing: { input_per_mtok: 2, output_per_mtok: 8 },
      },
      client_type: 'openai-no-tools',
    },
  ];
  for (const target of targets) await api('POST', 'target-systems', target);

  const config = {
    trials,
    execution: { enabled: true, provider: 'recorded', cassette_path: join(RETAIL, 'cassette.jsonl') },
    semantics: { enabled: true, judge: 'local' },
  };
  console.log(`platform ${platform.url} (data ${dataDir}); simulated models at ${model.origin}`);
  console.log(`running ${ids.length} retail cases x ${trials} trials on openai-mcp, claude-mcp and the no-tools baseline ...`);
  const pairs: Array<{ pair_id: string; baseline_run_id: string; enhanced_run_id: string }> = [];
  for (const enhanced of ['openai-mcp', 'claude-mcp']) {
    pairs.push(
      await api('POST', 'run-pairs', {
        suite_id: 'retail-mcp',
        baseline_target_id: 'no-tools',
        enhanced_target_id: enhanced,
        config,
        pair_id: enhanced,
      }),
    );
  }
  const runIds = pairs.flatMap((p) => [p.baseline_run_id, p.enhanced_run_id]);
  type RunView = {
    id: string;
    status: string;
    error: string | null;
    notes: string[];
    progress_pct: number;
    trial_stats?: { pass_at_1: number | null; pass_hat_k: number | null; pass_at_k: number | null; flaky_cases: number };
  };
  const views = new Map<string, RunView>();
  for (;;) {
    for (const id of runIds) views.set(id, await api<RunView>('GET', `runs/${id}`));
    const line = runIds.map((id) => `${id} ${views.get(id)!.status} ${Math.round(views.get(id)!.progress_pct)}%`).join(' | ');
    process.stdout.write(`\r${line}   `);
    if ([...views.values()].every((v) => ['completed', 'failed', 'cancelled', 'timed_out'].includes(v.status))) break;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  process.stdout.write('\n');
  for (const v of views.values()) if (v.status !== 'completed') console.log(`run ${v.id} ${v.status}: ${v.error ?? ''}`);

  const comparisons: Pair[] = [];
  for (const pair of pairs) comparisons.push(await api<Pair>('GET', `run-pairs/${pair.pair_id}?judge_model=${SIMULATED_JUDGE}`));

  const pct = (x: number | null | undefined) => (x === null || x === undefined ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);
  const rows: string[][] = [
    ['target', 'protocol', 'pass@1', `pass^${trials}`, 'win rate vs baseline [95% CI]', 'W/T/L', 'calls/case', 'cost/case'],
  ];
  const baselineView = views.get(pairs[0]!.baseline_run_id)!;
  const baseline = comparisons[0]!.baseline;
  rows.push([
    'no-tools (baseline)',
    'openai',
    pct(baselineView.trial_stats?.pass_at_1 ?? baseline.pass_rate.estimate),
    pct(baselineView.trial_stats?.pass_hat_k),
    '-',
    '-',
    baseline.calls_per_case.toFixed(2),
    `$${baseline.mean_cost_usd.toFixed(5)}`,
  ]);
  for (const [i, c] of comparisons.entries()) {
    const view = views.get(c.enhanced.run_id)!;
    const w = c.pairwise?.win_rate;
    rows.push([
      c.enhanced.target_id,
      i === 0 ? 'openai' : 'anthropic',
      pct(view.trial_stats?.pass_at_1 ?? c.enhanced.pass_rate.estimate),
      pct(view.trial_stats?.pass_hat_k),
      w ? `${pct(w.estimate)} [${pct(w.lower).trim()}, ${pct(w.upper).trim()}]` : '-',
      c.pairwise ? `${c.pairwise.enhanced_wins}/${c.pairwise.ties}/${c.pairwise.baseline_wins}` : '-',
      c.enhanced.calls_per_case.toFixed(2),
      `$${c.enhanced.mean_cost_usd.toFixed(5)}`,
    ]);
  }
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  console.log('\nBaseline vs enhanced (simulated models; generated decisions; illustrative prices)');
  for (const row of rows) console.log(row.map((cell, col) => cell.padEnd(widths[col]!)).join('  '));
  for (const c of comparisons) {
    const view = views.get(c.enhanced.run_id)!;
    console.log(
      `${c.enhanced.target_id}: ${view.trial_stats?.flaky_cases ?? '?'} flaky cases; pairwise judged ${c.pairwise?.judged ?? 0} answer pairs (${c.pairwise?.inconsistent ?? 0} verdicts not confirmed by the position swap, ${c.pairwise?.errors ?? 0} judge errors); notes: ${view.notes.join(' | ') || '-'}`,
    );
  }
  const sample = await api<{
    items: Array<{
      test_case_id: string;
      trajectory?: { turns: number; steps: Array<{ kind: string; tool_name?: string; turn: number; ok?: boolean }> };
    }>;
  }>('GET', `runs/${pairs[1]!.enhanced_run_id}/scorecards?limit=50`);
  const withCalls = (s: (typeof sample.items)[number]) => s.trajectory?.steps.some((step) => step.kind === 'tool_call') ?? false;
  const shown =
    sample.items.find((s) => (s.trajectory?.turns ?? 0) > 2) ?? sample.items.find(withCalls) ?? sample.items.find((s) => s.trajectory);
  if (shown?.trajectory) {
    const steps = shown.trajectory.steps
      .map((s) => (s.kind === 'model' ? `model#${s.turn}` : `${s.tool_name}${s.ok ? '' : '(error)'}`))
      .join(' -> ');
    console.log(`trajectory of ${shown.test_case_id} on claude-mcp: ${steps}`);
  }
  console.log(
    `model requests served: ${model.requests.openai} OpenAI-protocol, ${model.requests.anthropic} Anthropic-protocol; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} finally {
  await platform.stop();
  await model.close();
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
}
