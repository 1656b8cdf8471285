/**
 * Test helper: stores the bundled quickstart example (examples/quickstart) on a platform: its tool catalog, its
 * gold cases, and a replay target `recorded` answering with its recorded outputs. Suites are the caller's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TargetSystemSchema, type TestCase } from '../domain/index.js';
import { importJsonl } from '../goldset/importers/index.js';
import { parseToolCatalog } from '../goldset/offline/index.js';
import type { Services } from '../ports/index.js';
import { packageRoot } from './packageRoot.js';

export const QUICKSTART_DIR = join(packageRoot(), 'examples', 'quickstart');
export const QUICKSTART_TARGET_ID = 'recorded';

/** Upserts the catalog, the cases and the `recorded` target (timestamps from the services' clock); returns the cases. */
export async function storeQuickstart(services: Pick<Services, 'stores' | 'clock'>): Promise<TestCase[]> {
  const { stores, clock } = services;
  const now = clock.now().toISOString();
  const catalog = parseToolCatalog(JSON.parse(await readFile(join(QUICKSTART_DIR, 'catalog.json'), 'utf8')));
  await stores.catalogs.upsert({ ...catalog, id: `${catalog.name}@${catalog.tool_schema_version}` });
  const { cases } = await importJsonl(await readFile(join(QUICKSTART_DIR, 'gold.jsonl'), 'utf8'));
  await stores.testCases.upsertTestCases(cases);
  await stores.targets.upsert(
    TargetSystemSchema.parse({
      id: QUICKSTART_TARGET_ID,
      name: 'recorded outputs',
      settings: { kind: 'replay', outputs_path: join(QUICKSTART_DIR, 'outputs.jsonl') },
      tool_catalog: { name: catalog.name, version: catalog.tool_schema_version },
      created_at: now,
      updated_at: now,
    }),
  );
  return cases;
}
