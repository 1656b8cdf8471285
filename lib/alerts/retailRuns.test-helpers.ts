/**
 * Test helper: the retail sample's two recorded models scored with the real pipeline (examples/retail
 * scoreSample: all four stages, recorded APIs, local judge), stored as runs on real SQLite stores.
 */
import { join } from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import type { Run, Scorecard } from '../domain/index.js';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { packageRoot } from '../app/packageRoot.js';
import { sampleRun } from '../ports/contracts/fixtures.js';
import type { QueueMessage, QueuePort, Stores } from '../ports/index.js';
import { scoreSample } from '../../examples/retail/scoreSample.js';

export const RETAIL_MODELS = { a: 'simulated-model-a', b: 'simulated-model-b' } as const;

let scored: Promise<{ a: Scorecard[]; b: Scorecard[] }> | undefined;

/** Both models' scorecards (scored once per test file), with the model as client_version as a replay target records it. */
export function retailCards(): Promise<{ a: Scorecard[]; b: Scorecard[] }> {
  scored ??= (async () => {
    const dir = join(packageRoot(), 'examples', 'retail');
    const [a, b] = await Promise.all([scoreSample(dir, 'model-a'), scoreSample(dir, 'model-b')]);
    return { a: a.map((c) => ({ ...c, client_version: RETAIL_MODELS.a })), b: b.map((c) => ({ ...c, client_version: RETAIL_MODELS.b })) };
  })();
  return scored;
}

/** Fresh embedded stores on a temp SQLite file. */
export function tempStores(temps: TempDatabases): Stores {
  const { db, changeLog } = temps.open();
  return createEmbeddedStores(db, changeLog);
}

/** Stores a run with these cards (run_id rewritten) and its statistics recounted from them. */
export async function storeRun(stores: Stores, id: string, cards: readonly Scorecard[], overrides: Partial<Run> = {}): Promise<Run> {
  const run = await stores.runs.createRun(
    sampleRun(id, {
      suite_id: 'retail-demo',
      target_id: 'simulated-model-a',
      status: 'completed',
      total_cases: cards.length,
      ...overrides,
    }),
  );
  await stores.scorecards.upsertScorecards(cards.map((c) => ({ ...c, run_id: id })));
  await stores.runStats.recomputeRunStats(id, cards.length);
  return run;
}

/** The clock of the regression tests: the day after the stored runs. */
export const RETAIL_CLOCK = { now: () => new Date('2026-03-02T00:00:00.000Z') };

/** A queue that accepts every message (for tests where notifications are not under test). */
export const acceptingQueue: QueuePort = {
  sendMessages: async <T>(_queue: string, messages: readonly QueueMessage<T>[]) => ({ accepted: messages.length, duplicates: 0 }),
};

export interface RetailRunsFixture {
  /** Model A's and model B's scorecards: empty until the file's beforeAll has scored them, then filled in place. */
  a: Scorecard[];
  b: Scorecard[];
  /** Temp databases of the running test, closed after each test (open stores with `tempStores(temps)`). */
  temps: TempDatabases;
}

/**
 * Registers a test file's hooks for regression tests on the retail runs (call at the top level): beforeAll scores
 * both models (60 s budget) into `a` and `b`, afterEach closes the test's temp databases.
 */
export function useRetailRuns(): RetailRunsFixture {
  const fixture: RetailRunsFixture = { a: [], b: [], temps: new TempDatabases() };
  afterEach(() => fixture.temps.closeAll());
  beforeAll(async () => {
    const { a, b } = await retailCards();
    fixture.a.push(...a);
    fixture.b.push(...b);
  }, 60_000);
  return fixture;
}
