// Production feedback: logged interactions, candidate cases and their review. Other folders import it from here.
export { candidateReason, caseIdFor, draftOf, FEEDBACK_SOURCE, FEEDBACK_TAG, questionOf } from './candidateDraft.js';
export { CandidateSummarySchema, FeedbackBatchSchema, ingestFeedback, IngestResultSchema, MAX_FEEDBACK_BATCH } from './ingestFeedback.js';
export type { CandidateSummary, FeedbackBatch, IngestResult } from './ingestFeedback.js';
export { nearestExistingCase, similarCandidates } from './nearDuplicates.js';
export { LISTED_SIMILARITY, NEAR_DUPLICATE_SIMILARITY, questionSimilarity, sameTools, toolSet } from './questionSimilarity.js';
export {
  ApprovalResultSchema,
  ApproveCandidateSchema,
  approveCandidate,
  approvedCaseOf,
  CandidateEditsSchema,
  FeedbackDecisionConflict,
  FeedbackInputError,
  rejectCandidate,
  RejectCandidateSchema,
} from './reviewCandidates.js';
export type { ApprovalResult, ApproveCandidate, CandidateEdits } from './reviewCandidates.js';
