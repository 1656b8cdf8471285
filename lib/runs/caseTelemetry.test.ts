import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../api/index.js';
import { ROLES } from '../domain/roles.js';
import { DEMO_SUITE_ID, DEMO_TARGETS, demoRunConfig, loadRetailSample } from '../app/demo.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';
import { packageRoot } from '../app/packageRoot.js';
import { silentLogger } from '../host/index.js';
import { METRICS, SPANS } from '../telemetry/index.js';
import { startTestTelemetry, type TestTelemetry } from '../telemetry/telemetry.test-helpers.js';
import { QUEUES } from './queues.js';

// The whole path on the real embedded platform, with telemetry recorded by an in-memory span exporter and a pull
// metric reader: HTTP request (with a traceparent) -> orchestration -> enqueueShard -> evaluate/execute/judge
// queues -> scorecard write. Every span of the run must carry the request's trace id.

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';
const SAMPLE = join(packageRoot(), 'examples', 'retail');

let telemetry: TestTelemetry;
let platform: EmbeddedPlatform;
let dataDir: string;
let key: string;
let cases: number;

beforeAll(async () => {
  telemetry = await startTestTelemetry(); // before the platform: its startTelemetry keeps this one
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-trace-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  cases = (await loadRetailSample(platform.services, SAMPLE)).cases;
  key = (await createApiKey(platform.services.apiKeys, { name: 'admin', roles: [...ROLES] }, platform.services.clock)).key;
});

afterAll(async () => {
  await platform?.stop();
  await telemetry?.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

async function runToCompletion(headers: Record<string, string>): Promise<{ id: string; status: string }> {
  const res = await fetch(`${platform.url}/api/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ suite_id: DEMO_SUITE_ID, target_id: DEMO_TARGETS[0].id, config: demoRunConfig(SAMPLE) }),
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const run = (await (await fetch(`${platform.url}/api/v1/runs/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      status: string;
    };
    if (['completed', 'failed', 'cancelled', 'timed_out'].includes(run.status)) return { id, status: run.status };
  }
  throw new Error(`run ${id} did not finish`);
}

describe('trace context from the HTTP request through the queues to the scorecard write', () => {
  it('processes every case of a run under the trace id of the request that started it, and records the metrics', async () => {
    const run = await runToCompletion({ traceparent: `00-${TRACE_ID}-${PARENT_SPAN}-01` });
    expect(run.status).toBe('completed');
    const spans = telemetry.spans().filter((s) => s.attributes['eval.run_id'] === run.id || s.name === SPANS.writeScorecard);
    const byName = (name: string) => spans.filter((s) => s.name === name);

    const [runSpan] = byName(SPANS.run);
    expect([runSpan?.spanContext().traceId, runSpan?.parentSpanContext?.spanId]).toEqual([TRACE_ID, PARENT_SPAN]);
    // one target call and one span per stage per case: stages 1-2 inline on evaluate-cases, 3 and 4 on their queues
    for (const name of [SPANS.invokeTarget, SPANS.stage.syntax]) expect(byName(name)).toHaveLength(cases);
    for (const name of [SPANS.stage.logic, SPANS.stage.execution, SPANS.stage.semantics])
      expect(byName(name).length).toBeGreaterThan(cases * 0.9);
    expect(byName(SPANS.writeScorecard).length).toBeGreaterThan(0);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([TRACE_ID]));
    // every case span hangs under the run span
    const runSpanId = runSpan!.spanContext().spanId;
    expect(spans.filter((s) => s.name !== SPANS.run).every((s) => s.parentSpanContext?.spanId === runSpanId)).toBe(true);
    expect(byName(SPANS.invokeTarget)[0]!.attributes).toMatchObject({
      'eval.run_id': run.id,
      'eval.target_id': DEMO_TARGETS[0].id,
      'eval.test_case_id': expect.any(String),
    });

    const processed = await telemetry.points(METRICS.tasksProcessed);
    const processedOn = (queue: string) =>
      processed.filter((p) => p.attributes['eval.queue'] === queue).reduce((n, p) => n + Number(p.value), 0);
    expect(processedOn(QUEUES.evaluate)).toBe(cases);
    expect(processedOn(QUEUES.judge)).toBeGreaterThan(0);
    const durations = await telemetry.points(METRICS.stageDuration);
    expect(new Set(durations.map((p) => p.attributes['eval.stage']))).toEqual(new Set(['syntax', 'logic', 'execution', 'semantics']));
    const syntax = durations.find((p) => p.attributes['eval.stage'] === 'syntax')!.value as { count: number };
    expect(syntax.count).toBe(cases);
    const depth = await telemetry.points(METRICS.queueDepth);
    expect(new Set(depth.map((p) => p.attributes['eval.queue']))).toEqual(new Set(Object.values(QUEUES)));
  }, 60_000);

  it("without a traceparent the request's invocation starts a trace (as the Functions host does), still one trace for the whole run", async () => {
    const before = new Set(telemetry.spans().map((s) => s.spanContext().traceId));
    const run = await runToCompletion({});
    const spans = telemetry.spans().filter((s) => s.attributes['eval.run_id'] === run.id);
    const traces = new Set(spans.map((s) => s.spanContext().traceId));
    expect(traces.size).toBe(1);
    expect(before.has([...traces][0]!)).toBe(false);
    // the run span hangs under the POST invocation's trace context, in the same trace
    expect(spans.find((s) => s.name === SPANS.run)?.parentSpanContext?.traceId).toBe([...traces][0]);
  }, 60_000);
});
