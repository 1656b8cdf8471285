import { z } from 'zod';
import {
  FeedbackCandidateSchema,
  FeedbackInteractionSchema,
  FeedbackNeighbourSchema,
  type FeedbackCandidate,
  type FeedbackInteraction,
} from '../domain/index.js';
import { ConflictError, type Clock, type Stores } from '../ports/index.js';
import { candidateReason, draftOf, questionOf } from './candidateDraft.js';
import { nearestExistingCase, similarCandidates } from './nearDuplicates.js';

export const MAX_FEEDBACK_BATCH = 1_000;

/** `POST /api/v1/feedback`: a batch of logged interactions and, optionally, the suite their candidates go to. */
export const FeedbackBatchSchema = z
  .object({
    interactions: z.array(FeedbackInteractionSchema).min(1).max(MAX_FEEDBACK_BATCH),
    /** the suite approved candidates go to when an interaction names none (the reviewer may name another) */
    suite_id: z.string().min(1).optional(),
  })
  .strict();
export type FeedbackBatch = z.infer<typeof FeedbackBatchSchema>;

export const CandidateSummarySchema = z.object({
  interaction_id: z.string(),
  candidate_id: z.string(),
  /** false when the candidate existed already (the interaction was posted before) */
  new: z.boolean(),
  reason: FeedbackCandidateSchema.shape.reason,
  status: FeedbackCandidateSchema.shape.status,
  group_id: z.string(),
  needs: FeedbackCandidateSchema.shape.needs,
  nearest_case: FeedbackNeighbourSchema.nullable(),
});
export type CandidateSummary = z.infer<typeof CandidateSummarySchema>;

export const IngestResultSchema = z.object({
  received: z.number().int(),
  /** interactions stored now */
  stored: z.number().int(),
  /** interactions whose id was stored before (nothing changed) */
  duplicates: z.number().int(),
  /** stored interactions that are no candidate (not flagged failed/thumbs down, no correction) */
  not_candidates: z.number().int(),
  candidates: z.array(CandidateSummarySchema),
});
export type IngestResult = z.infer<typeof IngestResultSchema>;

const summaryOf = (c: FeedbackCandidate, isNew: boolean): CandidateSummary => ({
  interaction_id: c.interaction_id,
  candidate_id: c.id,
  new: isNew,
  reason: c.reason,
  status: c.status,
  group_id: c.group_id,
  needs: c.needs,
  nearest_case: c.nearest_case,
});

/**
 * Stores a batch of interactions (each once by id) and makes a candidate of every failed, thumbs-down or corrected
 * one that has none yet, in order, so a later interaction of the batch is grouped with an earlier one. Posting the
 * same batch again stores nothing and returns the same candidates (`new: false`). An interaction posted before
 * keeps its first stored version (its candidate is made from that one).
 */
export async function ingestFeedback(batch: FeedbackBatch, deps: { stores: Stores; clock: Clock }): Promise<IngestResult> {
  const store = deps.stores.feedback;
  const now = deps.clock.now().toISOString();
  const pending = await store.listCandidates({ status: 'pending' });
  const result: IngestResult = { received: batch.interactions.length, stored: 0, duplicates: 0, not_candidates: 0, candidates: [] };
  for (const posted of batch.interactions) {
    const { created, interaction } = await store.addInteraction(posted, now);
    if (created) result.stored++;
    else result.duplicates++;
    const reason = candidateReason(interaction);
    if (!reason) {
      result.not_candidates++;
      continue;
    }
    const existing = await store.getCandidate(interaction.id);
    if (existing) {
      result.candidates.push(summaryOf(existing, false));
      continue;
    }
    const candidate = await candidateFor(interaction, reason, batch.suite_id, pending, deps.stores, now);
    try {
      pending.push(await store.createCandidate(candidate));
      result.candidates.push(summaryOf(candidate, true));
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // the same interaction posted concurrently: the other request made the candidate
      result.candidates.push(summaryOf((await store.getCandidate(interaction.id))!, false));
    }
  }
  return result;
}

async function candidateFor(
  interaction: FeedbackInteraction,
  reason: NonNullable<ReturnType<typeof candidateReason>>,
  batchSuite: string | undefined,
  pending: readonly FeedbackCandidate[],
  stores: Stores,
  now: string,
): Promise<FeedbackCandidate> {
  const question = questionOf(interaction);
  const first = draftOf(interaction, reason, now);
  const nearest = await nearestExistingCase(question, first.tools, stores.testCases);
  const { draft, needs, tools } = nearest.category && !interaction.category ? draftOf(interaction, reason, now, nearest.category) : first;
  const neighbours = similarCandidates(question, tools, pending);
  const suite = interaction.suite_id ?? batchSuite;
  return FeedbackCandidateSchema.parse({
    id: interaction.id,
    interaction_id: interaction.id,
    ...(interaction.client_id ? { client_id: interaction.client_id } : {}),
    ...(interaction.target_id ? { target_id: interaction.target_id } : {}),
    reason,
    status: 'pending',
    needs,
    draft,
    tools,
    group_id: neighbours.group_id ?? interaction.id,
    similar_candidates: neighbours.similar,
    nearest_case: nearest.nearest,
    ...(suite ? { suite_id: suite } : {}),
    created_at: now,
  });
}
