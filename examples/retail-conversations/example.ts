/**
 * The core of `npm run example:conversations` (run.ts prints it; example.test.ts asserts on it): starts the embedded
 * platform on a temporary data dir and the scripted model server with the GENERATED decisions of two SIMULATED models
 * (decisions.jsonl); through the platform's HTTP API registers the retail environment's catalog, imports the GENERATED
 * cases (cases.jsonl, JSON Lines import), makes a suite, registers one `openai` target per simulated model (the real
 * `openai` client runs the tool loop; stage 3 on the `environment` provider), runs both, and reads back the run views,
 * scorecards and the comparison. Every figure comes from the API's answers.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Comparison, EfficiencyStats, RunStats, Scorecard } from '../../lib/domain/index.js';
import { RETAIL_CATALOG } from '../../lib/environments/index.js';
import { createApiKey } from '../../lib/api/index.js';
import { silentLogger } from '../../lib/host/index.js';
import { startEmbeddedPlatform } from '../../lib/platform/embedded.js';
import { startScriptedModelServer } from '../retail-mcp/scriptedModelServer.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const SIMULATED_MODELS = ['simulated-model-a', 'simulated-model-b'] as const;

export interface ModelRun {
  model: (typeof SIMULATED_MODELS)[number];
  run_id: string;
  status: string;
  stats: RunStats;
  efficiency: EfficiencyStats | null;
  scorecards: Scorecard[];
  /** the run report's failures (GET /runs/{id}/report?format=json): first failing turn, its question, the diff */
  report_failures: Array<{
    test_case_id: string;
    failing_turn?: number;
    question: string | null;
    error_code: string | null;
    message: string;
    diff: string[];
  }>;
  /** per turn index (0-based) of the conversation cases: turns scored and passed */
  by_turn: Array<{ turn: number; passed: number; scored: number }>;
}

export interface ExampleResult {
  cases: number;
  conversations: number;
  runs: ModelRun[];
  comparison: Comparison;
  model_requests: number;
  seconds: number;
}

/** Runs the example on all cases, or on the cases whose ids are given. */
export async function runConversationsExample(options: { caseIds?: string[]; keep?: boolean; log?: (line: string) => void } = {}) {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const dataDir = mkdtempSync(join(tmpdir(), 'evalp-example-conversations-'));
  const model = await startScriptedModelServer({ decisionsPath: join(HERE, 'decisions.jsonl') });
  const platform = await startEmbeddedPlatform({ dataDir, port: 0, hostname: '127.0.0.1', baseDir: HERE, logger: silentLogger });
  try {
    const { key } = await createApiKey(
      platform.services.apiKeys,
      { name: 'example:conversations', roles: ['platform-admin', 'test-admin', 'suite-admin', 'runner', 'reader'] },
      platform.services.clock,
    );
    const api = async <T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> => {
      const response = await fetch(`${platform.url}/api/v1/${path}`, {
        method,
        headers: { 'content-type': contentType, authorization: `Bearer ${key}` },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} /api/v1/${path} answered ${response.status}: ${text}`);
      return JSON.parse(text) as T;
    };

    const wanted = options.caseIds ? new Set(options.caseIds) : undefined;
    const lines = readFileSync(join(HERE, 'cases.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && (!wanted || wanted.has((JSON.parse(line) as { id: string }).id)));
    if (wanted && lines.length !== wanted.size) throw new Error(`cases.jsonl holds ${lines.length} of the ${wanted.size} cases asked for`);
    await api('POST', 'tool-catalogs', RETAIL_CATALOG);
    await api('POST', 'test-cases/import', lines.join('\n') + '\n', 'application/x-ndjson');
    const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
    const conversations = lines.filter((line) => (JSON.parse(line) as { turns?: unknown[] }).turns?.length).length;
    await api('POST', 'test-suites', {
      id: 'retail-conversations',
      name: `Retail conversations (GENERATED, ${ids.length} cases)`,
      kind: 'static',
      test_case_ids: ids,
    });
    for (const name of SIMULATED_MODELS) {
      await api('POST', 'target-systems', {
        id: name,
        name: `${name} (SIMULATED: generated decisions) over the OpenAI protocol, retail environment tools`,
        client_type: 'openai-tools',
        settings: { kind: 'openai', base_url: model.openaiBaseUrl, model: name, agentic_loop: { enabled: true, max_turns: 6 } },
        tool_catalog: { name: RETAIL_CATALOG.name, version: RETAIL_CATALOG.tool_schema_version },
        max_retries: 0,
      });
    }
    log(`platform ${platform.url} (data ${dataDir}); simulated models at ${model.origin}`);
    log(`running ${ids.length} GENERATED cases (${conversations} conversations) on ${SIMULATED_MODELS.join(' and ')} ...`);
    const config = { execution: { enabled: true, provider: 'environment' } };
    const created: Array<{ id: string }> = [];
    for (const name of SIMULATED_MODELS)
      created.push(await api('POST', 'runs', { suite_id: 'retail-conversations', target_id: name, config }));

    const runs: ModelRun[] = [];
    for (const [i, { id }] of created.entries()) {
      type View = { status: string; stats: RunStats | null; efficiency?: EfficiencyStats | null; error: string | null };
      let view: View;
      for (;;) {
        view = await api<View>('GET', `runs/${id}`);
        if (['completed', 'degraded', 'failed', 'cancelled', 'timed_out'].includes(view.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      if (view.status !== 'completed') throw new Error(`run ${id} ended ${view.status}: ${view.error ?? ''}`);
      const scorecards: Scorecard[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await api<{ items: Scorecard[] }>('GET', `runs/${id}/scorecards?limit=100&offset=${offset}`);
        scorecards.push(...page.items);
        if (page.items.length < 100) break;
      }
      const byTurn = new Map<number, { passed: number; scored: number }>();
      for (const card of scorecards) {
        if (card.outcome === 'not_scored') continue;
        for (const turn of card.turns ?? []) {
          const row = byTurn.get(turn.index) ?? { passed: 0, scored: 0 };
          row.scored++;
          if (turn.passed) row.passed++;
          byTurn.set(turn.index, row);
        }
      }
      const report = await api<{ failures: { cases: ModelRun['report_failures'] } }>('GET', `runs/${id}/report?format=json`);
      runs.push({
        model: SIMULATED_MODELS[i]!,
        report_failures: report.failures.cases,
        run_id: id,
        status: view.status,
        stats: view.stats!,
        efficiency: view.efficiency ?? null,
        scorecards,
        by_turn: [...byTurn.entries()].sort(([a], [b]) => a - b).map(([turn, row]) => ({ turn, ...row })),
      });
    }
    const comparison = await api<Comparison>('POST', 'compare', { run_ids: created.map((r) => r.id) });
    const requests = model.requests.openai;
    return { cases: ids.length, conversations, runs, comparison, model_requests: requests, seconds: (Date.now() - started) / 1000 };
  } finally {
    await platform.stop();
    await model.close();
    if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
  }
}
