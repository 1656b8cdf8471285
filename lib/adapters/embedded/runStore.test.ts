import { afterEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { sampleRun } from '../../ports/contracts/fixtures.js';
import { runStoreContract } from '../../ports/contracts/runStore.contract.js';
import { runFilterSql } from './runFilterSql.js';
import { EmbeddedRunStore } from './runStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

runStoreContract('EmbeddedRunStore', () => new EmbeddedRunStore(temps.open().db));

describe('EmbeddedRunStore (embedded specifics)', () => {
  it('refuses a patch that breaks the schema, keeping the stored run', async () => {
    const store = new EmbeddedRunStore(temps.open().db);
    const created = await store.createRun(sampleRun('r'));
    await expect(store.updateRun('r', { status: 'exploded' as never })).rejects.toBeInstanceOf(ZodError);
    expect(await store.getRun('r')).toEqual(created);
  });

  it('keeps the created_at text as given and compares it in UTC', async () => {
    const temp = temps.open();
    const store = new EmbeddedRunStore(temp.db);
    await store.createRun(sampleRun('r', { created_at: '2026-03-01T10:00:00+02:00' }));
    expect((await store.getRun('r'))?.created_at).toBe('2026-03-01T10:00:00+02:00');
    expect(temp.db.prepare("SELECT created_at FROM st_runs WHERE id = 'r'").get()).toEqual({ created_at: '2026-03-01T08:00:00.000Z' });
  });

  it('keeps runs and shards across a restart', async () => {
    const temp = temps.open();
    const first = new EmbeddedRunStore(temp.db);
    await first.createRun(sampleRun('r'));
    await first.putShards('r', [['a'], ['b']]);
    const again = new EmbeddedRunStore(temps.reopen(temp).db);
    expect((await again.getRun('r'))?.id).toBe('r');
    expect(await again.getShard('r', 1)).toEqual(['b']);
  });

  it.each([
    ['created_after', { created_after: 'yesterday' }],
    ['created_before', { created_before: '' }],
  ])('throws a RangeError naming %s for a bound that is not a date-time', (field, filter) => {
    expect(() => runFilterSql(filter)).toThrow(
      new RangeError(`${field} must be an ISO date-time, got ${JSON.stringify(Object.values(filter)[0])}`),
    );
  });
});
