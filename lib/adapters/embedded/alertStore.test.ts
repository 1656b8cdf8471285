import { afterEach, describe, expect, it } from 'vitest';
import { alertStoreContract, sampleAlert, sampleNotification } from '../../ports/contracts/alertStore.contract.js';
import { EmbeddedAlertStore } from './alertStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

alertStoreContract('EmbeddedAlertStore', () => new EmbeddedAlertStore(temps.open().db));

describe('EmbeddedAlertStore (embedded specifics)', () => {
  it('keeps alerts, notifications and live-check claims across a restart', async () => {
    const temp = temps.open();
    const store = new EmbeddedAlertStore(temp.db);
    const alert = await store.createAlert(sampleAlert('r1'));
    const notification = await store.createNotification(sampleNotification(alert.id));
    await store.claimLiveCheck('r1', 1);
    const again = new EmbeddedAlertStore(temps.reopen(temp).db);
    expect([await again.getAlert(alert.id), await again.listNotifications(alert.id), await again.claimLiveCheck('r1', 1)]).toEqual([
      alert,
      [notification],
      false,
    ]);
  });

  it('keeps the created_at text as given and orders by it in UTC', async () => {
    const temp = temps.open();
    const store = new EmbeddedAlertStore(temp.db);
    await store.createAlert(sampleAlert('late', 'accuracy', { created_at: '2026-03-01T10:00:00+02:00' }));
    await store.createAlert(sampleAlert('early', 'accuracy', { created_at: '2026-03-01T09:00:00Z' }));
    expect((await store.listAlerts()).items.map((a) => [a.id, a.created_at])).toEqual([
      ['early:accuracy', '2026-03-01T09:00:00Z'],
      ['late:accuracy', '2026-03-01T10:00:00+02:00'],
    ]);
  });

  it('migrates alerts and notifications stored with the old severities at start: warning becomes medium, critical stays', async () => {
    const temp = temps.open();
    const store = new EmbeddedAlertStore(temp.db);
    const old = await store.createAlert(sampleAlert('old', 'accuracy', { severity: 'medium' }));
    await store.createAlert(sampleAlert('older', 'accuracy', { severity: 'critical' }));
    await store.createNotification(sampleNotification(old.id, 'medium'));
    // what a database written before the new severities holds
    temp.db.exec(`UPDATE st_alerts SET severity = 'warning', body = json_set(body, '$.severity', 'warning') WHERE id = 'old:accuracy';
      UPDATE st_alert_notifications SET body = json_set(body, '$.severity', 'warning');`);
    const again = new EmbeddedAlertStore(temps.reopen(temp).db);
    expect((await again.getAlert(old.id))?.severity).toBe('medium');
    expect((await again.listAlerts({ severity: 'medium' })).items.map((a) => a.id)).toEqual(['old:accuracy']);
    expect((await again.listAlerts({ severity: 'critical' })).items.map((a) => a.id)).toEqual(['older:accuracy']);
    expect((await again.listNotifications(old.id)).map((n) => n.severity)).toEqual(['medium']);
  });
});
