import { describe, expect, it } from 'vitest';
import type { Client, Scorecard } from '../domain/index.js';
import { FIXED_TIME, sampleClient } from '../ports/contracts/fixtures.js';
import type { QueueMessage, QueuePort, Stores } from '../ports/index.js';
import { createRandom } from '../statistics/index.js';
import { checkRunRegressions } from './checkRunRegressions.js';
import { COST_TEST, LATENCY_TEST } from './evidenceFrom.js';
import { RETAIL_CLOCK as clock, storeRun, tempStores, useRetailRuns } from './retailRuns.test-helpers.js';

/** Records sends; drops a repeated messageId as the queues' duplicate detection does. */
class RecordingQueue implements QueuePort {
  readonly sent: Array<{ queue: string; messageId: string }> = [];
  async sendMessages<T>(queue: string, messages: readonly QueueMessage<T>[]) {
    const fresh = messages.filter((m) => !this.sent.some((s) => s.messageId === m.messageId));
    for (const m of fresh) this.sent.push({ queue, messageId: m.messageId });
    return { accepted: fresh.length, duplicates: messages.length - fresh.length };
  }
}

const { a, b, temps } = useRetailRuns();

function setup(): { stores: Stores; queue: RecordingQueue; deps: { stores: Stores; queue: RecordingQueue; clock: typeof clock } } {
  const stores = tempStores(temps);
  const queue = new RecordingQueue();
  return { stores, queue, deps: { stores, queue, clock } };
}

/**
 * `count` cards flipped (pass <-> fail): each flip goes either way with probability 1/2 (a seeded coin, then a
 * seeded card of that outcome), or always from pass to fail with `direction`.
 */
function withFlips(cards: readonly Scorecard[], count: number, seed: number, direction?: 'to_fail'): Scorecard[] {
  const random = createRandom(seed);
  const chosen = new Set<number>();
  while (chosen.size < count) {
    const fromPass = direction === 'to_fail' || random.next() < 0.5;
    const pool = cards.map((c, i) => i).filter((i) => cards[i]!.overall_passed === fromPass && !chosen.has(i));
    chosen.add(pool[random.int(pool.length)]!);
  }
  return cards.map((c, i) => (chosen.has(i) ? { ...c, overall_passed: !c.overall_passed } : c));
}

/** Every latency scaled by a seeded factor in [1 - spread, 1 + spread]. */
function withJitter(cards: readonly Scorecard[], spread: number, seed: number): Scorecard[] {
  const random = createRandom(seed);
  return cards.map((c) => ({ ...c, latency_ms: Math.round(c.latency_ms * (1 - spread + 2 * spread * random.next())) }));
}

describe('checkRunRegressions on the retail sample', () => {
  it('B against A raises a high accuracy alert (refunds fell 29.8 points: twice the critical 5) and a high cost alert', async () => {
    const { stores, deps } = setup();
    await storeRun(stores, 'run-a', a);
    const run = await storeRun(stores, 'run-b', b, { target_id: 'simulated-model-b', baseline_run_id: 'run-a', status: 'running' });
    const check = await checkRunRegressions(run, { live: false }, deps);
    expect([check.baseline?.id, check.evidence?.paired_cases]).toEqual(['run-a', 327]);
    expect(check.alerts.map((x) => [x.id, x.metric, x.severity, x.live])).toEqual([
      ['run-b:accuracy', 'accuracy', 'high', false],
      ['run-b:cost_per_case', 'cost_per_case', 'high', false],
    ]);
    const accuracy = check.alerts[0]!;
    expect(accuracy).toMatchObject({
      baseline_run_id: 'run-a',
      suite_id: 'retail-demo',
      target_id: 'simulated-model-b',
      change_unit: 'points',
      threshold: 10,
      status: 'open',
      paired_cases: 327,
    });
    expect([accuracy.previous.toFixed(3), accuracy.current.toFixed(3), accuracy.change.toFixed(1)]).toEqual(['0.878', '0.832', '-4.6']);
    expect(accuracy.affected_categories.map((c) => [c.category, c.change.toFixed(1)])).toEqual([['refunds', '-29.8']]);
    expect(accuracy.affected_categories[0]!.p_value_adjusted).toBeLessThan(0.05);
    const cost = check.alerts[1]!;
    expect([cost.test, cost.change > 1.5, cost.p_value < 0.001]).toEqual([COST_TEST, true, true]);
    expect(check.evidence?.latency_p95).toMatchObject({ test: LATENCY_TEST });
    expect((await stores.alerts.listAlerts({ run_id: 'run-b' })).total).toBe(2);
  });

  it.each<[string, (cards: Scorecard[]) => Scorecard[]]>([
    ['identical outputs', (cards) => cards],
    ['five flips, all from pass to fail', (cards) => withFlips(cards, 5, 7, 'to_fail')],
    ['twelve flips each way at random', (cards) => withFlips(cards, 12, 11)],
    ['random latency jitter of ±10% and a few flips', (cards) => withJitter(withFlips(cards, 6, 3), 0.1, 5)],
  ])('noise never alerts: A against A with %s', async (_label, noise) => {
    const { stores, deps, queue } = setup();
    await storeRun(stores, 'run-a', a);
    const run = await storeRun(stores, 'run-a2', noise(a), { status: 'running', created_at: '2026-03-01T13:00:00.000Z' });
    const check = await checkRunRegressions(run, { live: false }, deps);
    expect([check.baseline?.id, check.alerts, (await stores.alerts.listAlerts()).total, queue.sent]).toEqual(['run-a', [], 0, []]);
  });

  it.each<[string, Partial<NonNullable<Client['thresholds']>>, Array<[string, string]>]>([
    [
      'defaults',
      {},
      [
        ['accuracy', 'high'],
        ['cost_per_case', 'high'],
      ],
    ],
    [
      'a 40-point critical accuracy threshold',
      { accuracy_drop_critical_pts: 40 },
      [
        ['accuracy', 'low'],
        ['cost_per_case', 'high'],
      ],
    ],
    [
      'warning at 35 points, cost ratios 2.5 / 3',
      { accuracy_drop_warning_pts: 35, accuracy_drop_critical_pts: 40, cost_per_case_ratio_warning: 2.5, cost_per_case_ratio_critical: 3 },
      [],
    ],
  ])("respects the client's thresholds: %s", async (_label, thresholds, expected) => {
    const { stores, deps } = setup();
    await stores.clients.upsert({
      ...sampleClient('acme'),
      thresholds: {
        accuracy_drop_warning_pts: 2,
        accuracy_drop_critical_pts: 5,
        p95_latency_ratio_warning: 1.5,
        p95_latency_ratio_critical: 2,
        cost_per_case_ratio_warning: 1.2,
        cost_per_case_ratio_critical: 1.5,
        criterion_drop_warning: 0.25,
        criterion_drop_critical: 0.5,
        alpha: 0.05,
        ...thresholds,
      },
    });
    await storeRun(stores, 'run-a', a, { client_id: 'acme' });
    const run = await storeRun(stores, 'run-b', b, { client_id: 'acme', status: 'running', created_at: '2026-03-01T13:00:00.000Z' });
    const check = await checkRunRegressions(run, { live: false }, deps);
    expect([check.baseline?.id, check.alerts.map((x) => [x.metric, x.severity])]).toEqual(['run-a', expected]);
  });

  it('without a baseline raises nothing', async () => {
    const { stores, deps } = setup();
    const run = await storeRun(stores, 'run-b', b, { status: 'running' });
    expect(await checkRunRegressions(run, { live: false }, deps)).toEqual({ run_id: 'run-b', baseline: null, evidence: null, alerts: [] });
  });

  it('queues one notification per client webhook, once per severity, and confirms a live alert in place', async () => {
    const { stores, deps, queue } = setup();
    const client = {
      ...sampleClient('acme'),
      notify: [{ kind: 'webhook' as const, url: 'https://hooks.example.com/a', format: 'slack' as const }],
    };
    await stores.clients.upsert(client);
    await storeRun(stores, 'run-a', a, { client_id: 'acme' });
    const run = await storeRun(stores, 'run-b', b, { client_id: 'acme', status: 'running', created_at: '2026-03-01T13:00:00.000Z' });
    const live = await checkRunRegressions(run, { live: true }, deps);
    const final = await checkRunRegressions(run, { live: false }, deps);
    expect(live.alerts.map((x) => [x.id, x.live])).toEqual([
      ['run-b:accuracy', true],
      ['run-b:cost_per_case', true],
    ]);
    expect(final.alerts.map((x) => [x.id, x.live, x.created_at])).toEqual([
      ['run-b:accuracy', false, live.alerts[0]!.created_at],
      ['run-b:cost_per_case', false, live.alerts[1]!.created_at],
    ]);
    expect(queue.sent.map((m) => m.messageId.replace(/:[0-9a-f]{12}:/, ':<key>:'))).toEqual([
      'run-b:accuracy:high:<key>:1',
      'run-b:cost_per_case:high:<key>:1',
    ]);
    expect((await stores.alerts.getAlert('run-b:accuracy'))!.delivery).toEqual({
      status: 'pending',
      attempts: 0,
      last_error: null,
      delivered_at: null,
    });
    expect(FIXED_TIME < live.alerts[0]!.created_at).toBe(true);
  });

  it('keeps a live alert the finished run does not confirm, marked unconfirmed; a late live check changes nothing', async () => {
    const { stores, deps } = setup();
    await storeRun(stores, 'run-a', a);
    const run = await storeRun(stores, 'run-b', b, { status: 'running', created_at: '2026-03-01T13:00:00.000Z' });
    const live = await checkRunRegressions(run, { live: true }, deps);
    // the cases are re-evaluated (a higher attempt) and now score as model A did
    await stores.scorecards.upsertScorecards(a.map((c) => ({ ...c, run_id: 'run-b', attempt_number: 2 })));
    const final = await checkRunRegressions(run, { live: false }, deps);
    const late = await checkRunRegressions(run, { live: true }, deps);
    expect([live.alerts.length, final.alerts, late.alerts]).toEqual([2, [], []]);
    const stored = (await stores.alerts.listAlerts({ run_id: 'run-b' })).items;
    expect(
      stored
        .map((x) => [
          x.metric,
          x.live,
          x.message.startsWith('not confirmed by the finished run; raised live: accuracy') ||
            x.message.startsWith('not confirmed by the finished run; raised live: cost'),
        ])
        .sort(),
    ).toEqual([
      ['accuracy', true, true],
      ['cost_per_case', true, true],
    ]);
    await checkRunRegressions(run, { live: false }, deps);
    expect((await stores.alerts.listAlerts({ run_id: 'run-b' })).items.map((x) => x.message)).toEqual(stored.map((x) => x.message));
  });
});
