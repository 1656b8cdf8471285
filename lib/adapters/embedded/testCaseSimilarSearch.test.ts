import { afterEach, describe, expect, it } from 'vitest';
import { sampleTestCase } from '../../ports/contracts/fixtures.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';
import { textSimilarity } from '../shared/testCaseSimilarity.js';
import { EmbeddedTestCaseStore } from './testCaseStore.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

describe('EmbeddedTestCaseStore.findSimilarTestCases (embedded specifics)', () => {
  it('finds a question made of common words among thousands that share them (rarest words drive the candidates)', async () => {
    const store = new EmbeddedTestCaseStore(temps.open().db);
    const filler = Array.from({ length: 3_000 }, (_, i) =>
      sampleTestCase(`f-${i}`, { nl_query: `What is the status of my order number ${i} please` }),
    );
    await store.upsertTestCases([...filler, sampleTestCase('target', { nl_query: 'What is the status of my order please' })]);
    const found = await store.findSimilarTestCases('what is the status of my order please?', { limit: 3, minScore: 0 });
    expect(found[0]).toEqual({ id: 'target', nl_query: 'What is the status of my order please', score: 1 });
    expect(found).toHaveLength(3);
    const typo = await store.findSimilarTestCases('What is the status of my order number 1234 pleas', { limit: 1 });
    expect(typo).toEqual([{ id: 'f-1234', nl_query: 'What is the status of my order number 1234 please', score: expect.any(Number) }]);
    expect(typo[0]!.score).toBeGreaterThan(0.9);
  });

  it('clamps limit to 1-100 and minScore to 0-1; exact scores are trigram cosines', async () => {
    const store = new EmbeddedTestCaseStore(temps.open().db);
    await store.upsertTestCases(
      Array.from({ length: 150 }, (_, i) => sampleTestCase(`c-${String(i).padStart(3, '0')}`, { nl_query: 'refund my last order' })),
    );
    expect(await store.findSimilarTestCases('refund my last order', { limit: 500 })).toHaveLength(100);
    const one = await store.findSimilarTestCases('refund my last order', { limit: 0, minScore: 7 });
    expect(one).toEqual([{ id: 'c-000', nl_query: 'refund my last order', score: 1 }]);
    expect(await store.findSimilarTestCases('refund my order', { limit: 1, minScore: -1 })).toEqual([
      { id: 'c-000', nl_query: 'refund my last order', score: textSimilarity('refund my order', 'refund my last order') },
    ]);
  });
});
