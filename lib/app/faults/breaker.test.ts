import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeKindOf, TERMINAL_RUN_STATUSES, type Run, type RunHealth, type Scorecard } from '../../domain/index.js';
import { silentLogger } from '../../host/index.js';
import { createApiKey } from '../../api/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../platform/embedded.js';
import { startRetailAgent, storeAgentTarget, storeRetail, type RetailAgent } from './retailAgent.test-helpers.js';

let platform: EmbeddedPlatform;
let dataDir: string;
let caseIds: string[];
let runner: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-breaker-'));
  // a short open window so the test waits seconds, not minutes; 5 failed cases open the circuit (the default)
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger, env: { ...process.env, EVALP_CIRCUIT_OPEN_MS: '300' } });
  caseIds = (await storeRetail(platform.services)).map((c) => c.id);
  runner = (await createApiKey(platform.services.apiKeys, { name: 'ci', roles: ['reader', 'runner'] }, platform.services.clock)).key;
}, 60_000);

afterAll(async () => {
  await platform?.stop({ timeoutInMs: 5_000 });
  await rm(dataDir, { recursive: true, force: true });
});

async function runOn(
  targetId: string,
  timeoutMs = 120_000,
): Promise<{ run: Run; cards: Map<string, Scorecard>; maxDeferred: number; circuitStates: Set<string> }> {
  const { services } = platform;
  const res = await fetch(`${platform.url}/api/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${runner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ suite_id: 'retail', target_id: targetId }),
  });
  expect(res.status).toBe(202);
  const run = (await res.json()) as Run;
  const until = Date.now() + timeoutMs;
  let maxDeferred = 0;
  const circuitStates = new Set<string>();
  for (;;) {
    // what GET /runs/{id} shows while it runs: the breaker and the cases it put off
    const view = (await (
      await fetch(`${platform.url}/api/v1/runs/${run.id}`, { headers: { authorization: `Bearer ${runner}` } })
    ).json()) as { health: RunHealth | null };
    maxDeferred = Math.max(maxDeferred, view.health?.deferred ?? 0);
    if (view.health?.circuit) circuitStates.add(view.health.circuit.state);
    const current = await services.stores.runs.getRun(run.id);
    if (current && TERMINAL_RUN_STATUSES.has(current.status)) {
      const cards = new Map<string, Scorecard>();
      for await (const card of services.stores.scorecards.iterateScorecards(run.id)) cards.set(card.test_case_id, card);
      return { run: current, cards, maxDeferred, circuitStates };
    }
    if (Date.now() > until) throw new Error(`run ${run.id} still ${current?.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a model is judged on: equal for a case scored in two runs means the infrastructure moved nothing. */
const verdictOf = (c: Scorecard) => ({
  passed: c.overall_passed,
  score: c.overall_score,
  error_code: c.error_code ?? null,
  stages: Object.values(c.stages).map((s) => s.status),
});

describe('the circuit breaker defers, it does not score', () => {
  let agent: RetailAgent;
  afterAll(() => agent?.close());

  it('an HTTP agent failing permanently on ~8% of cases: healthy cases scored exactly as in a fault-free run, failed ones not scored, pass rate unaffected', async () => {
    const broken = new Set(caseIds.filter((_, i) => i % 12 === 5));
    agent = await startRetailAgent((id) =>
      broken.has(id.replace(/^fault-free:/, '')) && !id.startsWith('fault-free:') ? 'http500' : 'ok',
    );
    await storeAgentTarget(platform.services, 'agent-flaky', agent.url);
    await storeAgentTarget(platform.services, 'agent-healthy', agent.url);
    const healthyIds = caseIds.filter((id) => !broken.has(id));

    // the same agent with nothing broken: make the broken cases answer for this run only
    const reference = await (async () => {
      const saved = [...broken];
      broken.clear();
      try {
        return await runOn('agent-healthy');
      } finally {
        for (const id of saved) broken.add(id);
      }
    })();
    agent.requests.clear();
    const flaky = await runOn('agent-flaky');

    expect(reference.run.status).toBe('completed');
    expect(reference.cards.size).toBe(caseIds.length);
    expect(flaky.cards.size).toBe(caseIds.length);
    // every healthy case scored exactly as in the fault-free run (the old code gave hundreds of them target_error)
    const differing = healthyIds.filter(
      (id) => JSON.stringify(verdictOf(flaky.cards.get(id)!)) !== JSON.stringify(verdictOf(reference.cards.get(id)!)),
    );
    expect(differing).toEqual([]);
    // the broken ones are not scored: target errors after their delivery budget, never model failures
    for (const id of broken) {
      const card = flaky.cards.get(id)!;
      expect([outcomeKindOf(card), card.outcome, card.error_code, card.stages.syntax.status]).toEqual([
        'not_scored',
        'not_scored',
        'target_error',
        'error',
      ]);
      expect(card.stages.syntax.message).toMatch(/after 3 deliveries/);
    }
    // each broken case: 3 deliveries x (1 + 1 retry) requests at most; never more (the budget holds)
    for (const id of broken) expect(agent.requests.get(id)).toBeLessThanOrEqual(6);
    const stats = (await platform.services.stores.runStats.getRunStats(flaky.run.id))!;
    const refStats = (await platform.services.stores.runStats.getRunStats(reference.run.id))!;
    const healthyPassed = healthyIds.filter((id) => reference.cards.get(id)!.overall_passed).length;
    expect(stats).toMatchObject({
      completed: caseIds.length,
      not_scored: broken.size,
      scored: healthyIds.length,
      passed: healthyPassed,
      error_codes: expect.objectContaining({ target_error: broken.size }),
    });
    expect(stats.pass_rate).toBe(healthyPassed / healthyIds.length);
    expect(stats.infrastructure_failure_rate).toBe(broken.size / caseIds.length);
    // the pass rate is that of the same cases in the fault-free run (not dragged down by the outage)
    expect(Math.abs(stats.pass_rate! - refStats.pass_rate!)).toBeLessThan(0.02);
    // 27 of 327 (8.3%) not scored is more than the default 5%: the run says it is degraded
    expect(flaky.run.status).toBe('degraded');
    // the breaker did open, and the run showed the cases it put off (GET /runs/{id} health)
    expect(flaky.circuitStates.has('open') || flaky.circuitStates.has('half_open')).toBe(true);
    expect(flaky.maxDeferred).toBeGreaterThan(0);
  }, 240_000);
});
