import { describe, expect, it } from 'vitest';
import { demoRunConfig } from '../../app/demo.js';
import { TERMINAL_RUN_STATUSES } from '../../domain/index.js';
import { mcnemarExact } from '../../statistics/index.js';
import { RETAIL_DIR } from '../../reports/testing/retailPlatform.test-helpers.js';
import { retailApiForTests } from './retailApi.test-helpers.js';

const api = retailApiForTests();
const call = api.call;

const experimentBody = (method: string) => ({
  name: `model B vs model A (${method})`,
  hypothesis: 'simulated model B passes more retail cases than simulated model A',
  suite_id: 'retail-demo',
  guardrails: [{ metric: 'latency_ms', max_degradation: 0.5 }],
  variants: [
    { name: 'model-a', control: true, target_id: 'simulated-model-a', config: demoRunConfig(RETAIL_DIR) },
    { name: 'model-b', target_id: 'simulated-model-b', config: demoRunConfig(RETAIL_DIR) },
  ],
  method,
  expected_discordance: 0.2,
});

async function waitForRuns(runIds: string[]): Promise<void> {
  const until = Date.now() + 120_000;
  for (const id of runIds) {
    for (;;) {
      const run = (await call('GET', `v1/runs/${id}`)).json;
      if (TERMINAL_RUN_STATUSES.has(run.status)) break;
      if (Date.now() > until) throw new Error(`run ${id} still ${run.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('/api/v1/experiments', () => {
  it('refuses bad bodies with problem+json naming the field, and readers cannot create', async () => {
    const bad = await call('POST', 'v1/experiments', {
      ...experimentBody('frequentist'),
      variants: [
        { name: 'x', target_id: 'simulated-model-a' },
        { name: 'y', target_id: 'simulated-model-b' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.type).toMatch(/application\/problem\+json/);
    expect(JSON.stringify(bad.json)).toMatch(/variants.*exactly one variant must be the control/);
    const unknown = await call('POST', 'v1/experiments', { ...experimentBody('frequentist'), suite_id: 'nope' });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.json)).toMatch(/suite_id/);
    expect((await call('POST', 'v1/experiments', experimentBody('frequentist'), api.readerKey)).status).toBe(403);
    expect((await call('GET', 'v1/experiments/nope')).status).toBe(404);
  });

  it('creates, starts both variant runs on one pinned version, reports paired results, concludes and freezes', async () => {
    const created = await call('POST', 'v1/experiments', experimentBody('frequentist'));
    expect(created.status).toBe(201);
    const experiment = created.json;
    // Connor 1987 at discordance 0.2, 5 points, alpha 0.05, power 0.8
    expect(experiment).toMatchObject({ status: 'draft', minimum_sample_size: 626, method: 'frequentist' });
    expect((await call('GET', 'v1/experiments')).json.items.map((e: { id: string }) => e.id)).toContain(experiment.id);

    const started = await call('POST', `v1/experiments/${experiment.id}/start`);
    expect(started.status).toBe(202);
    expect(started.json.status).toBe('running');
    expect(started.json.pinned_suite_version).toBe(1);
    const runIds = [started.json.runs['model-a'], started.json.runs['model-b']] as string[];
    expect((await call('POST', `v1/experiments/${experiment.id}/start`)).status).toBe(409);
    await waitForRuns(runIds);
    const runs = await Promise.all(runIds.map(async (id) => (await call('GET', `v1/runs/${id}`)).json));
    expect(runs.map((r) => r.suite_version)).toEqual([1, 1]);
    expect(runs.map((r) => r.trigger_metadata.experiment_variant)).toEqual(['model-a', 'model-b']);

    const results = (await call('GET', `v1/experiments/${experiment.id}/results`)).json;
    expect(results.runs_complete).toBe(true);
    expect(results.variants.map((v: { name: string }) => v.name)).toEqual(['model-a', 'model-b']);
    for (const [i, v] of results.variants.entries()) {
      expect(v.run_id).toBe(runIds[i]);
      expect(v.scored).toBeGreaterThan(100);
      expect(v.pass_rate.lower).toBeLessThanOrEqual(v.pass_rate.estimate);
      expect(v.pass_rate.upper).toBeGreaterThanOrEqual(v.pass_rate.estimate);
      expect(v.latency_ms).not.toBeNull();
    }
    const c = results.comparisons[0];
    expect(c.variant).toBe('model-b');
    expect(c.p_value).toBeCloseTo(mcnemarExact(c.control_only, c.variant_only).p_value, 12);
    const [a, b] = results.variants;
    expect(c.difference.estimate).toBeCloseTo((c.variant_only - c.control_only) / c.paired_cases, 12);
    expect(b.passed - a.passed).toBe(c.variant_only - c.control_only);
    expect(c.guardrails[0].metric).toBe('latency_ms');
    expect(['winner', 'no_winner']).toContain(results.verdict);
    expect(results.recommendation.length).toBeGreaterThan(10);

    const concluded = await call('POST', `v1/experiments/${experiment.id}/conclude`);
    expect(concluded.status).toBe(200);
    expect(concluded.json.status).toBe('concluded');
    expect(concluded.json.conclusion).toMatchObject({ ...results, status: 'concluded' });
    expect((await call('POST', `v1/experiments/${experiment.id}/conclude`)).status).toBe(409);
    expect((await call('GET', `v1/experiments/${experiment.id}/results`)).json.status).toBe('concluded');
  }, 180_000);

  it('the OpenAPI document lists the experiment routes', async () => {
    const doc = (await call('GET', 'openapi.json')).json;
    for (const path of [
      '/v1/experiments',
      '/v1/experiments/{id}',
      '/v1/experiments/{id}/start',
      '/v1/experiments/{id}/results',
      '/v1/experiments/{id}/conclude',
    ])
      expect(Object.keys(doc.paths).some((p) => p.endsWith(path))).toBe(true);
  });
});
