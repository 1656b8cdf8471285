import { describe, expect, it } from 'vitest';
import {
  FeedbackCandidateSchema,
  FeedbackInteractionSchema,
  type FeedbackCandidate,
  type FeedbackInteraction,
} from '../../domain/index.js';
import type { FeedbackStore } from '../feedbackStore.js';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../errors.js';
import { FIXED_TIME, type StoreFactory } from './fixtures.js';

export function sampleInteraction(id: string, overrides: Partial<FeedbackInteraction> = {}): FeedbackInteraction {
  return FeedbackInteractionSchema.parse({
    id,
    client_id: 'client-1',
    question: `where is order ${id}?`,
    tool_calls: [{ tool_name: 'get_order', arguments: { id }, result: { status: 'shipped' } }],
    answer: 'It shipped.',
    started_at: FIXED_TIME,
    flag: 'failed',
    ...overrides,
  });
}

export function sampleCandidate(id: string, overrides: Partial<FeedbackCandidate> = {}): FeedbackCandidate {
  return FeedbackCandidateSchema.parse({
    id,
    interaction_id: id,
    client_id: 'client-1',
    reason: 'failed',
    status: 'pending',
    needs: ['expected_tool_calls'],
    draft: {
      id: `fb-${id}`,
      nl_query: `where is order ${id}?`,
      metadata: { complexity_level: 1, tags: [], source: 'production_feedback' },
    },
    tools: ['get_order'],
    group_id: id,
    nearest_case: null,
    created_at: FIXED_TIME,
    ...overrides,
  });
}

/**
 * The FeedbackStore contract: an interaction is stored once by id (a second add keeps the first and says so),
 * candidates are created once, replaced under an ETag check, listed oldest first by status and group.
 */
export function feedbackStoreContract(name: string, createStore: StoreFactory<FeedbackStore>): void {
  describe(`${name}: FeedbackStore contract`, () => {
    it('stores an interaction once: a re-post with the same id keeps the first', async () => {
      const store = await createStore();
      expect(await store.addInteraction(sampleInteraction('i/1'), FIXED_TIME)).toEqual({
        created: true,
        interaction: sampleInteraction('i/1'),
      });
      const again = await store.addInteraction(sampleInteraction('i/1', { answer: 'changed' }), FIXED_TIME);
      expect(again).toEqual({ created: false, interaction: sampleInteraction('i/1') });
      expect(await store.getInteraction('i/1')).toEqual(sampleInteraction('i/1'));
      expect(await store.getInteraction('nope')).toBeUndefined();
    });

    it('creates a candidate once, then gets it with an ETag', async () => {
      const store = await createStore();
      const created = await store.createCandidate(sampleCandidate('c1'));
      expect(created).toEqual({ ...sampleCandidate('c1'), _etag: expect.any(String) });
      expect(await store.getCandidate('c1')).toEqual(created);
      await expect(store.createCandidate(sampleCandidate('c1', { reason: 'corrected' }))).rejects.toBeInstanceOf(ConflictError);
      expect(await store.getCandidate('missing')).toBeUndefined();
    });

    it('replaces a candidate only under its current ETag: one of two decisions wins', async () => {
      const store = await createStore();
      const created = await store.createCandidate(sampleCandidate('c1'));
      const approved = await store.replaceCandidate({ ...created, status: 'approved', decided_by: 'a' }, { ifMatch: created._etag });
      expect(approved._etag).not.toBe(created._etag);
      await expect(store.replaceCandidate({ ...created, status: 'rejected' }, { ifMatch: created._etag })).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
      expect((await store.getCandidate('c1'))!.status).toBe('approved');
      await expect(store.replaceCandidate(sampleCandidate('ghost'))).rejects.toBeInstanceOf(NotFoundError);
    });

    it('lists candidates oldest first, by status and by group', async () => {
      const store = await createStore();
      await store.createCandidate(sampleCandidate('b', { created_at: '2026-03-01T12:00:02.000Z', group_id: 'a' }));
      await store.createCandidate(sampleCandidate('a', { created_at: '2026-03-01T12:00:01.000Z' }));
      const c = await store.createCandidate(sampleCandidate('c', { created_at: '2026-03-01T12:00:03.000Z' }));
      await store.replaceCandidate({ ...c, status: 'rejected', rejection_reason: 'noise' });
      expect((await store.listCandidates()).map((x) => x.id)).toEqual(['a', 'b', 'c']);
      expect((await store.listCandidates({ status: 'pending' })).map((x) => x.id)).toEqual(['a', 'b']);
      expect((await store.listCandidates({ status: 'rejected' })).map((x) => [x.id, x.rejection_reason])).toEqual([['c', 'noise']]);
      expect((await store.listCandidates({ group_id: 'a' })).map((x) => x.id)).toEqual(['a', 'b']);
      expect((await store.listCandidates({ status: 'pending', group_id: 'c' })).map((x) => x.id)).toEqual([]);
    });

    it('refuses an invalid candidate', async () => {
      const store = await createStore();
      await expect(store.createCandidate({ ...sampleCandidate('x'), status: 'maybe' } as unknown as FeedbackCandidate)).rejects.toThrow();
      expect(await store.getCandidate('x')).toBeUndefined();
    });
  });
}
