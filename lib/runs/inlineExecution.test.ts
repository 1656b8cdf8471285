import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, TargetSystemSchema, type Scorecard, type TestCase } from '../domain/index.js';
import { silentLogger } from '../host/index.js';
import { sampleRun } from '../ports/contracts/fixtures.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';
import { RETAIL_DIR, storeRetail } from '../app/faults/retailAgent.test-helpers.js';
import { processCaseMessages } from './caseWorker.js';
import { executesInline } from './inlineExecution.js';
import { caseMessageId, QUEUES, type CaseMessage } from './queues.js';
import { RunContextCache } from './runContext.js';

describe('executesInline', () => {
  it.each([
    [{ enabled: true, provider: 'recorded', mode: 'replay' }, true],
    [{ enabled: true, provider: 'expected', mode: 'replay' }, true],
    [{ enabled: true, provider: 'environment', mode: 'replay' }, true],
    [{ enabled: true, provider: 'recorded', mode: 'record' }, false],
    [{ enabled: true, provider: 'http', mode: 'replay' }, false],
    [{ enabled: true, provider: 'mcp', mode: 'replay' }, false],
    [{ enabled: false, provider: 'expected', mode: 'replay' }, false],
  ] as const)('%j -> %s', (execution, inline) => {
    expect(executesInline(execution)).toBe(inline);
  });
});

describe('stage 3 in the evaluate step', () => {
  let platform: EmbeddedPlatform;
  let dataDir: string;
  let cases: TestCase[];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'evalp-inline-'));
    platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
    cases = (await storeRetail(platform.services)).filter((c) => c.expected_raw_data !== undefined).slice(0, 20);
    const now = platform.services.clock.now().toISOString();
    await platform.services.stores.targets.upsert(
      TargetSystemSchema.parse({
        id: 'recorded-a',
        name: 'simulated model A (recorded)',
        settings: { kind: 'replay', outputs_path: join(RETAIL_DIR, 'outputs-model-a.jsonl') },
        created_at: now,
        updated_at: now,
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await platform?.stop({ timeoutInMs: 5_000 });
    await rm(dataDir, { recursive: true, force: true });
  });

  async function evaluate(runId: string, execution: Record<string, unknown>) {
    const { services } = platform;
    const config = resolveEvaluationConfig({ execution: { enabled: true, ...execution } });
    await services.stores.runs.createRun(
      sampleRun(runId, { suite_id: 'retail', target_id: 'recorded-a', status: 'running', config, total_cases: cases.length }),
    );
    const batch: CaseMessage[] = cases.map((c) => ({ run_id: runId, test_case_id: c.id, attempt: 1, stage: 'evaluate' }));
    const result = await processCaseMessages(batch, services, new RunContextCache(services), undefined, {
      queueName: QUEUES.evaluate,
      messageIds: batch.map((m) => caseMessageId(m.run_id, m.test_case_id, m.stage, m.attempt)),
      deliveryCounts: batch.map(() => 1),
    });
    const cards: Scorecard[] = [];
    for await (const card of services.stores.scorecards.iterateScorecards(runId)) cards.push(card);
    return { result, cards };
  }

  it('a local provider scores stage 3 in the same step (no execute-queue message); a live one forwards every case', async () => {
    expect(cases.length).toBeGreaterThan(5);
    const inline = await evaluate('run-inline', { provider: 'expected' });
    expect([inline.result.written, inline.result.forwarded]).toEqual([cases.length, 0]);
    const passedSyntax = inline.cards.filter((c) => c.stages.syntax.passed);
    expect(passedSyntax.length).toBeGreaterThan(0);
    // every case that passed the gate ran stage 3 with the expected data (not skipped, not pending)
    for (const card of passedSyntax) expect(card.stages.execution.status).not.toBe('skipped');

    const queued = await evaluate('run-queued', { provider: 'http', base_url: 'http://127.0.0.1:9/' });
    expect(queued.result.written + queued.result.forwarded).toBe(cases.length);
    expect(queued.result.forwarded).toBe(passedSyntax.length);
  });
});
