import type { CandidateStatus, FeedbackCandidate, FeedbackInteraction } from '../domain/index.js';
import type { WithEtag } from './paging.js';

export interface CandidateFilter {
  status?: CandidateStatus;
  /** only this near-duplicate group */
  group_id?: string;
}

/**
 * Production feedback: logged interactions (idempotent by their id) and the candidate cases made from them (one per
 * interaction, same id). `addInteraction` stores an interaction unless its id exists (then `created: false` and the
 * stored one: a re-posted log changes nothing). Candidates: `createCandidate` fails with ConflictError when the id
 * exists; `replaceCandidate` checks the ETag when given (PreconditionFailedError), which is how a review decision
 * is taken exactly once; `listCandidates` is oldest first (ties by id).
 */
export interface FeedbackStore {
  addInteraction(interaction: FeedbackInteraction, receivedAt: string): Promise<{ created: boolean; interaction: FeedbackInteraction }>;
  getInteraction(id: string): Promise<FeedbackInteraction | undefined>;
  createCandidate(candidate: FeedbackCandidate): Promise<WithEtag<FeedbackCandidate>>;
  getCandidate(id: string): Promise<WithEtag<FeedbackCandidate> | undefined>;
  replaceCandidate(candidate: FeedbackCandidate, options?: { ifMatch?: string }): Promise<WithEtag<FeedbackCandidate>>;
  listCandidates(filter?: CandidateFilter): Promise<Array<WithEtag<FeedbackCandidate>>>;
}
