import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveEvaluationConfig, STAGE_NAMES, type Scorecard, type StageName } from '../../lib/domain/index.js';
import { RecordedApiProvider } from '../../lib/evaluation/execution/index.js';
import { JsonlCassette } from '../../lib/adapters/execution/jsonlCassette.js';
import { loadGoldSet, parseToolCatalog, readOutputsFile, scoreOutputs } from '../../lib/goldset/offline/index.js';
import { LocalReferenceJudge } from '../../lib/judges/index.js';

export const SAMPLE_MODELS = { 'model-a': 'outputs-model-a.jsonl', 'model-b': 'outputs-model-b.jsonl' } as const;
export type SampleModel = keyof typeof SAMPLE_MODELS;

/**
 * Scores one model's recorded outputs offline with the real pipeline, as `evalp evaluate --execution recorded
 * --judge local` does: all four stages, recorded API responses, the local heuristic judge (default coercion
 * policy unless told otherwise).
 */
export async function scoreSample(
  dir: string,
  model: SampleModel,
  options: { coercion?: 'default' | 'strict' } = {},
): Promise<Scorecard[]> {
  const gold = await loadGoldSet({ gold: join(dir, 'gold.jsonl') });
  const catalog = parseToolCatalog(JSON.parse(await readFile(join(dir, 'catalog.json'), 'utf8')));
  const cassette = await JsonlCassette.load(join(dir, 'cassette.jsonl'));
  const config = resolveEvaluationConfig({
    profile: 'nightly',
    coercion: options.coercion ?? 'default',
    execution: { enabled: true, provider: 'recorded' },
    semantics: { enabled: true, judge: 'local' },
  });
  const cards: Scorecard[] = [];
  for await (const item of scoreOutputs(readOutputsFile(join(dir, SAMPLE_MODELS[model])), {
    gold,
    config,
    runId: `sample-${model}`,
    defaultCatalog: catalog,
    deps: { apiProvider: new RecordedApiProvider({ cassette, mode: 'replay' }), judge: new LocalReferenceJudge() },
  })) {
    if (item.kind === 'error') throw new Error(item.message);
    cards.push({ ...item.scorecard, timestamp: '2026-10-14T10:00:00.000Z' });
  }
  return cards;
}

export interface RateRow {
  key: string;
  cases: number;
  pass_rate: number;
  stages: Record<StageName, number | null>;
}

/** Pass rates overall and per stage (over the cases where the stage ran), grouped by a key. */
export function passRates(cards: readonly Scorecard[], keyOf: (card: Scorecard) => string): RateRow[] {
  const groups = new Map<string, Scorecard[]>();
  for (const card of cards) groups.set(keyOf(card), [...(groups.get(keyOf(card)) ?? []), card]);
  return [...groups.entries()].map(([key, group]) => {
    const stages = {} as Record<StageName, number | null>;
    for (const stage of STAGE_NAMES) {
      const ran = group.filter((c) => c.stages[stage].status !== 'skipped');
      stages[stage] = ran.length ? ran.filter((c) => c.stages[stage].status === 'passed').length / ran.length : null;
    }
    return { key, cases: group.length, pass_rate: group.filter((c) => c.overall_passed).length / group.length, stages };
  });
}
