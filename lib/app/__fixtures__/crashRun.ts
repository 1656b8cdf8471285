/**
 * Test fixture for the crash test: starts the embedded platform on a data dir, loads a synthetic suite of
 * `--cases` cases with a replay target and recorded APIs, starts a run over HTTP, prints one JSON line
 * {"event":"run", url, id, key} and keeps running until killed.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TargetSystemSchema, TestSuiteSchema, type TestCase } from '../../domain/index.js';
import { createApiKey } from '../../api/index.js';
import { ROLES } from '../../domain/roles.js';
import { silentLogger } from '../../host/index.js';
import { startEmbeddedPlatform } from '../../platform/embedded.js';
import { syntheticCatalog } from '../../../bench/fixtures/syntheticGoldSet.js';
import { writeRunSample } from '../../../bench/fixtures/pooledRunSample.js';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, cases: { type: 'string', default: '6000' } } });
const dataDir = values['data-dir']!;
const sample = await writeRunSample({
  count: Number(values.cases),
  poolSize: 2000,
  outputsPath: join(dataDir, 'outputs.jsonl'),
  cassettePath: join(dataDir, 'cassette.jsonl'),
});
const platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
const { stores, apiKeys, clock } = platform.services;
const catalog = syntheticCatalog();
await stores.catalogs.upsert({ ...catalog, id: `${catalog.name}@${catalog.tool_schema_version}` });
const cases: TestCase[] = [...sample.cases()];
for (let i = 0; i < cases.length; i += 1000) await stores.testCases.upsertTestCases(cases.slice(i, i + 1000));
const now = clock.now().toISOString();
await stores.suites.upsert(
  TestSuiteSchema.parse({ id: 'crash', name: 'crash', kind: 'dynamic', filter: { tags: ['bench'] }, created_at: now, updated_at: now }),
);
await stores.targets.upsert(
  TargetSystemSchema.parse({
    id: 'replay',
    name: 'replay',
    settings: { kind: 'replay', outputs_path: join(dataDir, 'outputs.jsonl') },
    tool_catalog: { name: catalog.name, version: catalog.tool_schema_version },
    created_at: now,
    updated_at: now,
  }),
);
const { key } = await createApiKey(apiKeys, { name: 'crash-test', roles: [...ROLES] }, clock);
const res = await fetch(`${platform.url}/api/v1/runs`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    suite_id: 'crash',
    target_id: 'replay',
    config: { profile: 'release', execution: { provider: 'recorded', cassette_path: join(dataDir, 'cassette.jsonl') } },
  }),
});
const run = (await res.json()) as { id: string };
process.stdout.write(JSON.stringify({ event: 'run', url: platform.url, id: run.id, key }) + '\n');
