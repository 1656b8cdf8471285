import { type ExpectedToolCall, type JsonObject, representativeValue } from '../../../lib/domain/index.js';
import { simulateApi } from './api/simulateApi.js';
import { buildCassette } from './cassette.js';
import { RETAIL_CATALOG, type ToolName } from './catalog.js';
import { buildTestCase } from './gold.js';
import { calibrationLabels } from './models/calibrationLabels.js';
import { buildOutputs, type Annotation } from './models/outputs.js';
import { planModel } from './models/plan.js';
import { MODEL_A, MODEL_B } from './models/profiles.js';
import { emittedCalls } from './models/render.js';
import { Prng } from './prng.js';
import { allScenarios } from './scenarios/allScenarios.js';
import type { Call } from './scenarios/types.js';
import { buildWorld } from './world/buildWorld.js';

export const SEED = 20_261_014;

export const SAMPLE_FILES = [
  'sample.json',
  'catalog.json',
  'gold.jsonl',
  'cassette.jsonl',
  'outputs-model-a.jsonl',
  'outputs-model-b.jsonl',
  'annotations.jsonl',
  'calibration-model-a.jsonl',
  'calibration-model-b.jsonl',
] as const;
export type SampleFile = (typeof SAMPLE_FILES)[number];

export interface Sample {
  files: Record<SampleFile, string>;
  annotations: Annotation[];
  caseCount: number;
  cassetteCount: number;
}

function jsonl(rows: readonly unknown[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** The expected call with every matcher resolved, unless an argument accepts anything (no single call stands for it). */
function representativeCall(expected: ExpectedToolCall): Call | undefined {
  if (JSON.stringify(expected.arguments).includes('"$any"')) return undefined;
  return { tool_name: expected.tool_name as ToolName, arguments: representativeValue(expected.arguments) as JsonObject };
}

/** sample.json: what a loader (`npm start`) needs to know about the files, without reading the README. */
function manifest(caseCount: number, cassetteCount: number): JsonObject {
  const target = (p: typeof MODEL_A, name: string) => ({
    id: `simulated-${p.id}`,
    name,
    kind: 'replay',
    outputs: `outputs-${p.id}.jsonl`,
    model: p.model,
    output_format: p.format === 'openai' ? 'openai_chat' : 'anthropic',
  });
  return {
    name: 'retail',
    description:
      'A fictional online retailer: 14 tools over orders, customers, products, inventory, shipping, refunds, support and analytics.',
    seed: SEED,
    generated_by: 'npx tsx examples/retail/generate.ts',
    catalog: { file: 'catalog.json', name: RETAIL_CATALOG.name, tool_schema_version: RETAIL_CATALOG.tool_schema_version },
    gold: { file: 'gold.jsonl', format: 'native', cases: caseCount },
    execution: { provider: 'recorded', mode: 'replay', cassette: 'cassette.jsonl', entries: cassetteCount },
    targets: [
      target(MODEL_A, 'Simulated model A (generated outputs, recorded)'),
      target(MODEL_B, 'Simulated model B (generated outputs, recorded)'),
    ],
    baseline_target: `simulated-${MODEL_A.id}`,
    planted_regression: { target: `simulated-${MODEL_B.id}`, category: 'refunds', pass_rate_baseline: 0.89, pass_rate_regressed: 0.6 },
    annotations: 'annotations.jsonl',
    calibration: {
      files: { [`simulated-${MODEL_A.id}`]: 'calibration-model-a.jsonl', [`simulated-${MODEL_B.id}`]: 'calibration-model-b.jsonl' },
      label_schema: 'pass_fail',
      annotator: 'catalogue-derived',
      made_by: 'generated from the mistake catalogue (annotations.jsonl), not human raters',
    },
    recommended_config: {
      profile: 'nightly',
      execution: { enabled: true, provider: 'recorded' },
      semantics: { enabled: true, judge: 'local' },
    },
  };
}

/** The whole sample, deterministically from SEED: file contents by name, plus the annotations as objects. */
export function generateSample(): Sample {
  const rng = new Prng(SEED);
  const world = buildWorld(rng.fork('world'));
  const specs = allScenarios({ world, rng: rng.fork('scenarios'), probe: (c) => simulateApi(world, c) });
  const goldRng = rng.fork('gold');
  const built = specs.map((spec, i) => buildTestCase(spec, i, world, goldRng));
  const cases = built.map((b) => b.parsed);

  const planA = planModel({ profile: MODEL_A, specs, cases, world, rng: rng.fork('plan/a') });
  const hardForA = new Set(planA.flatMap((b, i) => (b.outcome === 'mistake' ? [i] : [])));
  const planB = planModel({ profile: MODEL_B, specs, cases, world, rng: rng.fork('plan/b'), hardFor: hardForA });
  const a = buildOutputs(MODEL_A, specs, planA, world, rng.fork('outputs/a'));
  const b = buildOutputs(MODEL_B, specs, planB, world, rng.fork('outputs/b'));

  // every call anyone makes or the gold names gets a recording: right ones, variants, and the models' mistakes
  const everyCall: Call[] = [
    ...specs.flatMap((s) => [...s.calls, ...(s.variants ?? []).flatMap((v) => v.calls), ...(s.alternatives ?? []).flatMap((x) => x.calls)]),
    ...cases.flatMap((c) =>
      [...c.expected_tool_calls, ...c.alternative_tool_calls.flat()].map(representativeCall).filter((x): x is Call => x !== undefined),
    ),
    ...planA.flatMap(emittedCalls),
    ...planB.flatMap(emittedCalls),
  ];
  const cassette = buildCassette(world, everyCall);
  const annotations = [...a.annotations, ...b.annotations];
  return {
    files: {
      'sample.json': `${JSON.stringify(manifest(specs.length, cassette.length), null, 2)}\n`,
      'catalog.json': `${JSON.stringify(RETAIL_CATALOG, null, 2)}\n`,
      'gold.jsonl': jsonl(built.map((x) => x.written)),
      'cassette.jsonl': jsonl(cassette),
      'outputs-model-a.jsonl': jsonl(a.lines),
      'outputs-model-b.jsonl': jsonl(b.lines),
      'annotations.jsonl': jsonl(annotations),
      'calibration-model-a.jsonl': jsonl(calibrationLabels(annotations, MODEL_A.id)),
      'calibration-model-b.jsonl': jsonl(calibrationLabels(annotations, MODEL_B.id)),
    },
    annotations,
    caseCount: specs.length,
    cassetteCount: cassette.length,
  };
}
