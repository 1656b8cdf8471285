import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './apiTestPlatform.test-helpers.js';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

describe('PUT /api/v1/organizations/{id}/retention', () => {
  it("sets and removes an organization's retention period; bad days name the field; readers may not", async () => {
    const admin = t.keys['platform-admin'];
    expect((await t.call('POST', 'v1/organizations', { key: admin, body: { id: 'acme', name: 'Acme' } })).status).toBe(201);

    const set = await t.call('PUT', 'v1/organizations/acme/retention', { key: admin, body: { days: 14 } });
    expect([set.status, set.json.retention_days]).toEqual([200, 14]);
    expect((await t.call('GET', 'v1/organizations/acme', { key: admin })).json.retention_days).toBe(14);

    const bad = await t.call('PUT', 'v1/organizations/acme/retention', { key: admin, body: { days: 0 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('body.days');

    expect((await t.call('PUT', 'v1/organizations/acme/retention', { key: t.keys.reader, body: { days: 3 } })).status).toBe(403);
    expect((await t.call('PUT', 'v1/organizations/nobody/retention', { key: admin, body: { days: 3 } })).status).toBe(404);

    const removed = await t.call('PUT', 'v1/organizations/acme/retention', { key: admin, body: { days: null } });
    expect(removed.status).toBe(200);
    expect(removed.json.retention_days).toBeUndefined();
  });
});
