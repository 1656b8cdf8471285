/** Test helper: the retail sample's two recorded models scored offline and stored as finished runs in real SQLite. */
import { join } from 'node:path';
import type { Run, Scorecard } from '../domain/index.js';
import type { Stores } from '../ports/index.js';
import { createEmbeddedStores } from '../adapters/embedded/index.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleRun } from '../ports/contracts/fixtures.js';
import { packageRoot } from '../app/packageRoot.js';
import { scoreSample, type SampleModel } from '../../examples/retail/scoreSample.js';

export const RETAIL_DIR = join(packageRoot(), 'examples', 'retail');

const scored = new Map<SampleModel, Promise<Scorecard[]>>();

/** Model A's or B's scorecards (scored once per test file). */
export function retailCards(model: SampleModel): Promise<Scorecard[]> {
  let cards = scored.get(model);
  if (!cards) scored.set(model, (cards = scoreSample(RETAIL_DIR, model)));
  return cards;
}

export type TestStores = ReturnType<typeof createEmbeddedStores>;

export function openStores(temps: TempDatabases): TestStores {
  const temp = temps.open();
  return createEmbeddedStores(temp.db, temp.changeLog);
}

/** Stores a finished run with the given scorecards (re-keyed to the run). */
export async function storeRun(
  stores: Pick<Stores, 'runs' | 'scorecards'>,
  id: string,
  cards: readonly Scorecard[],
  overrides: Partial<Run> = {},
): Promise<Run> {
  const run = sampleRun(id, {
    status: 'completed',
    total_cases: cards.length,
    suite_id: 'retail-demo',
    completed_at: '2026-10-14T10:05:00.000Z',
    ...overrides,
  });
  await stores.runs.createRun(run);
  await stores.scorecards.upsertScorecards(cards.map((c) => ({ ...c, run_id: id })));
  return run;
}

/** A copy of the cards with `count` seeded-random cases flipped (pass <-> fail). */
export function withRandomFlips(cards: readonly Scorecard[], count: number, seed: number): Scorecard[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(next() * cards.length));
  return cards.map((c, i) => (chosen.has(i) ? { ...c, overall_passed: !c.overall_passed, overall_score: c.overall_passed ? 0 : 1 } : c));
}
