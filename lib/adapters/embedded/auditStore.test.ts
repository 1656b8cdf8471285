import { afterEach, describe, expect, it } from 'vitest';
import { auditStoreContract, sampleAuditRecord } from '../../ports/contracts/auditStore.contract.js';
import { EmbeddedAuditStore } from './auditStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

auditStoreContract('embedded audit', () => new EmbeddedAuditStore(temps.open().db));

describe('EmbeddedAuditStore', () => {
  it('keeps records across a restart and clamps page limits', async () => {
    const temp = temps.open();
    await new EmbeddedAuditStore(temp.db).createAuditRecord(sampleAuditRecord('kept'));
    const again = new EmbeddedAuditStore(temps.reopen(temp).db);
    expect((await again.listAuditRecords()).items).toEqual([sampleAuditRecord('kept')]);
    const page = await again.listAuditRecords({}, { limit: 5000, offset: -3 });
    expect([page.limit, page.offset, page.total]).toEqual([1000, 0, 1]);
  });
});
