import { readFile } from 'node:fs/promises';
import { type ReferenceMetricName, TargetSystemSchema, TestSuiteSchema } from '../domain/index.js';
import { join } from 'node:path';
import type { Services } from '../ports/index.js';
import { importCases, importJsonl, parseToolCatalog } from '../goldset/index.js';

export const DEMO_SUITE_ID = 'retail-demo';
export const DEMO_TARGETS = [
  {
    id: 'simulated-model-a',
    name: 'Retail agent on simulated model A (generated outputs, recorded)',
    outputs: 'outputs-model-a.jsonl',
    client_type: 'openai-tools',
  },
  {
    id: 'simulated-model-b',
    name: 'Retail agent on simulated model B (generated outputs, recorded)',
    outputs: 'outputs-model-b.jsonl',
    client_type: 'anthropic-tools',
  },
] as const;

/**
 * Loads the bundled retail sample (examples/retail): its tool catalog, gold cases, a static suite of all of them,
 * and one replay target per recorded model. Idempotent (upserts), so every start can call it.
 */
export async function loadRetailSample(services: Services, sampleDir: string): Promise<{ cases: number; catalogId: string }> {
  const { stores, clock } = services;
  const now = clock.now().toISOString();
  const catalog = parseToolCatalog(JSON.parse(await readFile(join(sampleDir, 'catalog.json'), 'utf8')), 'retail');
  const imported = await importJsonl(await readFile(join(sampleDir, 'gold.jsonl'), 'utf8'), { source: 'examples/retail' });
  if (imported.errors.length)
    throw new Error(`the bundled sample has ${imported.errors.length} bad rows, e.g. ${JSON.stringify(imported.errors[0])}`);
  const [catalogId] = (await importCases(stores, { cases: imported.cases, catalogs: [catalog] })).catalogs as [string];
  await stores.suites.upsert(
    TestSuiteSchema.parse({
      id: DEMO_SUITE_ID,
      name: 'Retail demo: every bundled gold case',
      kind: 'static',
      test_case_ids: imported.cases.map((c) => c.id),
      created_at: now,
      updated_at: now,
    }),
  );
  for (const t of DEMO_TARGETS) {
    await stores.targets.upsert(
      TargetSystemSchema.parse({
        id: t.id,
        name: t.name,
        settings: { kind: 'replay', outputs_path: join(sampleDir, t.outputs) },
        tool_catalog: { name: catalog.name, version: catalog.tool_schema_version },
        client_type: t.client_type,
        created_at: now,
        updated_at: now,
      }),
    );
  }
  return { cases: imported.cases.length, catalogId };
}

/** The evaluation config of a demo run: all four stages, recorded APIs, the offline reference judge, reference metrics beside it. */
export function demoRunConfig(sampleDir: string) {
  return {
    profile: 'nightly' as const,
    execution: { enabled: true, provider: 'recorded' as const, cassette_path: join(sampleDir, 'cassette.jsonl') },
    semantics: {
      enabled: true,
      judge: 'local' as const,
      reference_metrics: ['bleu', 'rougeL', 'chrf', 'embedding_cosine'] satisfies ReferenceMetricName[],
    },
  };
}
