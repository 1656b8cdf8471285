import { describe, expect, it } from 'vitest';
import { alertId, type Alert, type AlertMetric } from '../../domain/index.js';
import type { AlertNotification } from '../../domain/alertNotification.js';
import type { AlertFilter, AlertStore } from '../alertStore.js';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../errors.js';
import { FIXED_TIME, type StoreFactory } from './fixtures.js';

/** A valid open alert of `runId` on `metric` (override what a test is about). */
export function sampleAlert(runId: string, metric: AlertMetric = 'accuracy', overrides: Partial<Alert> = {}): Alert {
  return {
    id: alertId(runId, metric),
    run_id: runId,
    baseline_run_id: 'baseline-1',
    client_id: null,
    suite_id: 'suite-1',
    target_id: 'target-1',
    metric,
    severity: 'medium',
    previous: 0.9,
    current: 0.85,
    change: -5,
    change_unit: 'points',
    threshold: 2,
    p_value: 0.001,
    test: 'exact McNemar',
    affected_categories: [],
    message: 'accuracy dropped',
    live: false,
    paired_cases: 300,
    status: 'open',
    created_at: FIXED_TIME,
    updated_at: FIXED_TIME,
    acknowledged_at: null,
    acknowledged_by: null,
    delivery: { status: 'none', attempts: 0, last_error: null, delivered_at: null },
    ...overrides,
  };
}

export function sampleNotification(
  alert: string,
  severity: Alert['severity'] = 'medium',
  overrides: Partial<AlertNotification> = {},
): AlertNotification {
  return {
    id: `${alert}:${severity}:k1`,
    alert_id: alert,
    severity,
    target_key: 'k1',
    url: 'https://hooks.example.com/services/T000/B000/secret',
    format: 'slack',
    status: 'pending',
    attempts: 0,
    last_error: null,
    last_status: null,
    next_attempt_at: null,
    delivered_at: null,
    created_at: FIXED_TIME,
    updated_at: FIXED_TIME,
    ...overrides,
  };
}

const ALERTS = [
  sampleAlert('r1', 'accuracy', { client_id: 'acme', severity: 'critical', created_at: '2026-03-01T08:00:00.000Z' }),
  sampleAlert('r1', 'cost_per_case', {
    client_id: 'acme',
    change_unit: 'ratio',
    change: 1.3,
    threshold: 1.2,
    created_at: '2026-03-01T09:00:00+02:00',
  }),
  sampleAlert('r2', 'latency_p95', {
    client_id: 'globex',
    status: 'acknowledged',
    acknowledged_at: FIXED_TIME,
    acknowledged_by: 'ci',
    created_at: '2026-03-02T00:00:00.000Z',
  }),
  sampleAlert('r3', 'accuracy', { severity: 'critical', created_at: '2026-03-03T00:00:00.000Z' }),
];

const FILTERS: Array<[string, AlertFilter, string[]]> = [
  ['none (newest first, offsets compared in UTC)', {}, ['r3:accuracy', 'r2:latency_p95', 'r1:accuracy', 'r1:cost_per_case']],
  ['run', { run_id: 'r1' }, ['r1:accuracy', 'r1:cost_per_case']],
  ['client', { client_id: 'globex' }, ['r2:latency_p95']],
  ['status', { status: 'open' }, ['r3:accuracy', 'r1:accuracy', 'r1:cost_per_case']],
  ['severity', { severity: 'critical' }, ['r3:accuracy', 'r1:accuracy']],
  ['metric', { metric: 'accuracy' }, ['r3:accuracy', 'r1:accuracy']],
  ['combined', { client_id: 'acme', severity: 'medium', metric: 'cost_per_case' }, ['r1:cost_per_case']],
  ['no match', { run_id: 'r9' }, []],
];

/**
 * The AlertStore contract: create/upsert/get/replace/delete with ETags, list filters (run, client, status,
 * severity, metric) newest first with paging, notifications that can be created once only and replaced with an
 * ETag check, and live-check claims that succeed once per (run, step).
 */
export function alertStoreContract(name: string, createStore: StoreFactory<AlertStore>): void {
  describe(`${name}: AlertStore contract`, () => {
    it('creates and gets an alert; refuses an existing id; undefined when missing', async () => {
      const store = await createStore();
      const created = await store.createAlert(ALERTS[0]!);
      expect(created).toEqual({ ...ALERTS[0], _etag: expect.any(String) });
      expect(await store.getAlert('r1:accuracy')).toEqual(created);
      await expect(store.createAlert(ALERTS[0]!)).rejects.toBeInstanceOf(ConflictError);
      expect(await store.getAlert('missing')).toBeUndefined();
    });

    it('upserts (creates, then replaces with a new ETag); a _etag passed back is not stored', async () => {
      const store = await createStore();
      const first = await store.upsertAlert(ALERTS[1]!);
      const second = await store.upsertAlert({ ...first, severity: 'critical', threshold: 1.5 });
      expect(second).toEqual({ ...ALERTS[1], severity: 'critical', threshold: 1.5, _etag: expect.any(String) });
      expect(second._etag).not.toBe(first._etag);
      expect(await store.getAlert(ALERTS[1]!.id)).toEqual(second);
    });

    it('replaces with the current ETag, refuses a stale one (412) and a missing alert (404)', async () => {
      const store = await createStore();
      const created = await store.createAlert(ALERTS[0]!);
      const acked = await store.replaceAlert(
        { ...created, status: 'acknowledged', acknowledged_by: 'ops', acknowledged_at: FIXED_TIME },
        { ifMatch: created._etag },
      );
      expect(acked.status).toBe('acknowledged');
      await expect(store.replaceAlert({ ...created, status: 'open' }, { ifMatch: created._etag })).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
      await expect(store.replaceAlert(sampleAlert('nope'))).rejects.toBeInstanceOf(NotFoundError);
      expect(await store.getAlert(created.id)).toEqual(acked);
    });

    it('refuses an invalid alert and stores nothing', async () => {
      const store = await createStore();
      await expect(store.createAlert({ ...ALERTS[0]!, p_value: 2 })).rejects.toThrow();
      expect(await store.getAlert(ALERTS[0]!.id)).toBeUndefined();
    });

    it.each(FILTERS)('lists by filter: %s', async (_label, filter, ids) => {
      const store = await createStore();
      for (const alert of ALERTS) await store.createAlert(alert);
      const page = await store.listAlerts(filter);
      expect(page.items.map((a) => a.id)).toEqual(ids);
      expect([page.total, page.has_more]).toEqual([ids.length, false]);
    });

    it('pages newest first with total and has_more', async () => {
      const store = await createStore();
      for (const alert of ALERTS) await store.createAlert(alert);
      const first = await store.listAlerts({}, { limit: 3 });
      const second = await store.listAlerts({}, { limit: 3, offset: 3 });
      expect([first.items.length, first.total, first.has_more, second.items.map((a) => a.id), second.has_more]).toEqual([
        3,
        4,
        true,
        ['r1:cost_per_case'],
        false,
      ]);
    });

    it("deletes idempotently, with the alert's notifications", async () => {
      const store = await createStore();
      await store.createAlert(ALERTS[0]!);
      await store.createNotification(sampleNotification(ALERTS[0]!.id));
      await store.deleteAlert(ALERTS[0]!.id);
      await store.deleteAlert(ALERTS[0]!.id);
      expect([await store.getAlert(ALERTS[0]!.id), await store.listNotifications(ALERTS[0]!.id)]).toEqual([undefined, []]);
    });

    it("creates a notification once per id, lists an alert's notifications oldest first, replaces with an ETag check", async () => {
      const store = await createStore();
      const warning = await store.createNotification(sampleNotification('r1:accuracy', 'medium'));
      const critical = await store.createNotification(
        sampleNotification('r1:accuracy', 'critical', { created_at: '2026-03-01T12:05:00.000Z' }),
      );
      await store.createNotification(sampleNotification('r2:accuracy'));
      await expect(store.createNotification(sampleNotification('r1:accuracy', 'medium', { status: 'delivered' }))).rejects.toBeInstanceOf(
        ConflictError,
      );
      expect(await store.listNotifications('r1:accuracy')).toEqual([warning, critical]);
      const claimed = await store.replaceNotification({ ...warning, attempts: 1 }, { ifMatch: warning._etag });
      expect(await store.getNotification(warning.id)).toEqual({
        ...sampleNotification('r1:accuracy', 'medium', { attempts: 1 }),
        _etag: claimed._etag,
      });
      await expect(store.replaceNotification({ ...warning, attempts: 1 }, { ifMatch: warning._etag })).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
      await expect(store.replaceNotification(sampleNotification('r9:accuracy'))).rejects.toBeInstanceOf(NotFoundError);
      expect(await store.getNotification('missing')).toBeUndefined();
      expect(await store.listNotifications('none')).toEqual([]);
    });

    it('claims a live check once per run and step', async () => {
      const store = await createStore();
      expect([
        await store.claimLiveCheck('r1', 1),
        await store.claimLiveCheck('r1', 1),
        await store.claimLiveCheck('r1', 2),
        await store.claimLiveCheck('r2', 1),
        await store.claimLiveCheck('r1', 2),
      ]).toEqual([true, false, true, true, false]);
    });
  });
}
