import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEvaluationConfig, TargetSystemSchema, type TestCase } from '../../domain/index.js';
import { silentLogger } from '../../host/index.js';
import { nextStage, startCase } from '../../evaluation/pipeline/index.js';
import { sampleRun } from '../../ports/contracts/fixtures.js';
import { processCaseMessages } from '../../runs/caseWorker.js';
import { caseMessageId, QUEUES, type CaseMessage } from '../../runs/queues.js';
import { RunContextCache } from '../../runs/runContext.js';
import { checkStalledRuns } from '../../runs/watchdog.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../platform/embedded.js';
import { RETAIL_DIR, storeRetail } from './retailAgent.test-helpers.js';

let platform: EmbeddedPlatform;
let dataDir: string;
let cases: TestCase[];
const outputs = new Map<string, unknown>();
const config = resolveEvaluationConfig({ semantics: { enabled: true, judge: 'local' } });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-poison-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  cases = await storeRetail(platform.services);
  for (const line of (await readFile(join(RETAIL_DIR, 'outputs-model-a.jsonl'), 'utf8')).split('\n').filter(Boolean)) {
    const row = JSON.parse(line) as { test_case_id: string; output: unknown };
    outputs.set(row.test_case_id, row.output);
  }
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

/** `n` judge-cases messages of a run, as stage 1-2 workers forward them (real CaseStates of real cases). */
function judgeMessages(runId: string, n: number): CaseMessage[] {
  const messages: CaseMessage[] = [];
  for (const testCase of cases) {
    const state = startCase({ runId, testCase, output: outputs.get(testCase.id) }, config);
    if (nextStage(state, { execution: false, semantics: true }) !== 'semantics') continue;
    messages.push({ run_id: runId, test_case_id: testCase.id, attempt: 1, stage: 'judge', state });
    if (messages.length === n) break;
  }
  return messages;
}

describe('poison isolation', () => {
  it('one malformed judge-cases message in a batch of 84: only it is dead-lettered (with the validation error), the 83 healthy ones are scored', async () => {
    const { services } = platform;
    await services.stores.runs.createRun(
      sampleRun('run-poison', {
        suite_id: 'retail',
        target_id: 'recorded-a',
        status: 'running',
        config,
        total_cases: 84,
        deadline_at: '2099-01-01T00:00:00.000Z',
      }),
    );
    const healthy = judgeMessages('run-poison', 83);
    expect(healthy).toHaveLength(83);
    // the finding: a state whose stages were lost (truncated, hand-edited) threw inside the batch's Promise.all
    const { stages: _lost, ...broken } = healthy[0]!.state as Record<string, unknown>;
    const poison: CaseMessage = { ...healthy[0]!, test_case_id: cases.at(-1)!.id, state: { ...broken, test_case_id: cases.at(-1)!.id } };
    const batch = [...healthy.slice(0, 40), poison, ...healthy.slice(40)];
    const ids = batch.map((m) => caseMessageId(m.run_id, m.test_case_id, m.stage, m.attempt));

    const result = await processCaseMessages(batch, services, new RunContextCache(services), undefined, {
      queueName: QUEUES.judge,
      messageIds: ids,
      deliveryCounts: batch.map(() => 1),
    });

    expect([result.written, result.dead_lettered, result.failed, result.rejected.length]).toEqual([83, 1, 0, 1]);
    const scored: string[] = [];
    for await (const card of services.stores.scorecards.iterateScorecards('run-poison')) scored.push(card.test_case_id);
    expect(scored.sort()).toEqual(healthy.map((m) => m.test_case_id).sort());
    const dead = platform.host.queues.listDeadLetters(QUEUES.judge);
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ messageId: ids[40], deadLetterReason: 'InvalidMessage', correlationId: 'run-poison' });
    expect(dead[0]!.deadLetterErrorDescription).toMatch(/^state\.stages: /);
    // the run shows it: its dead letters and the last error
    expect(await services.runQueues!.runQueueCounts('run-poison', Object.values(QUEUES))).toMatchObject({
      dead_lettered: 1,
      last_dead_letter: { reason: 'InvalidMessage' },
    });

    // the same batch delivered again (a crash before it completed): one scorecard per case still, the poison dead-lettered once
    const again = await processCaseMessages(batch, services, new RunContextCache(services), undefined, {
      queueName: QUEUES.judge,
      messageIds: ids,
    });
    expect([again.written + again.unchanged, again.dead_lettered]).toEqual([83, 0]);
    let cards = 0;
    for await (const _ of services.stores.scorecards.iterateScorecards('run-poison')) cards++;
    expect(cards).toBe(83);
    expect(platform.host.queues.listDeadLetters(QUEUES.judge)).toHaveLength(1);
  });

  it('a message that is not a stage message at all is dead-lettered at once, naming the fields', async () => {
    const { services } = platform;
    const result = await processCaseMessages(
      [{ run_id: 'run-poison', stage: 'judge' }, 'not json'],
      services,
      new RunContextCache(services),
      undefined,
      { queueName: QUEUES.judge, messageIds: ['bad-1', 'bad-2'] },
    );
    expect(result.dead_lettered).toBe(2);
    const dead = platform.host.queues.listDeadLetters(QUEUES.judge).filter((m) => m.messageId.startsWith('bad-'));
    expect(dead.map((m) => [m.messageId, m.deadLetterReason])).toEqual([
      ['bad-1', 'InvalidMessage'],
      ['bad-2', 'InvalidMessage'],
    ]);
    expect(dead[0]!.deadLetterErrorDescription).toContain('test_case_id');
  });

  it('runs never hang: the watchdog marks a run with dead letters and nothing left stalled, with the reason; a replay makes it run again; it can be cancelled', async () => {
    const { services } = platform;
    // run-poison (first test): 83 of 84 cases in, its poison message dead-lettered, nothing else queued
    const stallAfterMs = 10 * 60_000;
    const first = await checkStalledRuns(services, { stallAfterMs });
    expect(first.stalled.map((s) => s.run_id)).toContain('run-poison');
    const stalled = (await services.stores.runs.getRun('run-poison'))!;
    expect(stalled.status).toBe('stalled');
    expect(stalled.error).toMatch(/^stalled: 2 message\(s\) of this run are dead-lettered \(last: InvalidMessage: /);
    const { EmbeddedRunQueues } = await import('../../adapters/embedded/embeddedRunQueues.js');
    expect(await new EmbeddedRunQueues(platform.host.queues).runQueueCounts('run-poison', Object.values(QUEUES))).toMatchObject({
      dead_lettered: 2,
      waiting: 0,
    });
    // a second check changes nothing (idempotent)
    expect((await checkStalledRuns(services, { stallAfterMs })).stalled.map((s) => s.run_id)).not.toContain('run-poison');
  });

  it('a run with no progress for N minutes and nothing scheduled is stalled with that reason, and a stalled run can be cancelled', async () => {
    const { services } = platform;
    await services.stores.runs.createRun(
      sampleRun('run-idle', {
        suite_id: 'retail',
        target_id: 'recorded-a',
        status: 'running',
        total_cases: 5,
        started_at: '2026-01-01T00:00:00.000Z',
        deadline_at: '2099-01-01T00:00:00.000Z',
      }),
    );
    const result = await checkStalledRuns(services, { stallAfterMs: 60_000 });
    expect(result.stalled.find((s) => s.run_id === 'run-idle')?.reason).toMatch(
      /^stalled: no progress for \d+ minute\(s\) \(0 of 5 cases in, 0 message\(s\) waiting\)/,
    );
    expect((await services.stores.runs.getRun('run-idle'))!.status).toBe('stalled');
    // work for it appears again (a replay, a deferred case): running again, the reason cleared
    await services.queue.sendMessages(QUEUES.evaluate, [
      {
        messageId: 'run-idle:later',
        correlationId: 'run-idle',
        body: { run_id: 'run-idle', test_case_id: cases[0]!.id, attempt: 1, stage: 'evaluate' },
        scheduledEnqueueTimeUtc: new Date('2099-01-01T00:00:00Z'),
      },
    ]);
    expect((await checkStalledRuns(services, { stallAfterMs: 60_000 })).resumed).toEqual(['run-idle']);
    expect((await services.stores.runs.getRun('run-idle'))!).toMatchObject({ status: 'running', error: null });
    // and a stalled run can be cancelled (the API's cancel accepts stalled)
    await services.stores.runs.updateRun('run-idle', { status: 'stalled' });
    expect(
      await services.stores.runs.updateRun('run-idle', { status: 'cancelled' }, { from: ['pending', 'running', 'stalled'] }),
    ).toMatchObject({ status: 'cancelled' });
  });
});
