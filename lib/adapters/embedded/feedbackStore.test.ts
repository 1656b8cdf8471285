import { afterEach, describe, expect, it } from 'vitest';
import { feedbackStoreContract, sampleCandidate, sampleInteraction } from '../../ports/contracts/feedbackStore.contract.js';
import { FIXED_TIME } from '../../ports/contracts/fixtures.js';
import { EmbeddedFeedbackStore } from './feedbackStore.js';
import { TempDatabases } from './tempDatabase.test-helpers.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

feedbackStoreContract('EmbeddedFeedbackStore', () => new EmbeddedFeedbackStore(temps.open().db));

describe('EmbeddedFeedbackStore (embedded specifics)', () => {
  it('keeps interactions and candidates across a restart', async () => {
    const temp = temps.open();
    const store = new EmbeddedFeedbackStore(temp.db);
    await store.addInteraction(sampleInteraction('i1'), FIXED_TIME);
    await store.createCandidate(sampleCandidate('i1'));
    const again = new EmbeddedFeedbackStore(temps.reopen(temp).db);
    expect((await again.addInteraction(sampleInteraction('i1'), FIXED_TIME)).created).toBe(false);
    expect((await again.listCandidates({ status: 'pending' })).map((c) => c.id)).toEqual(['i1']);
  });
});
