import { z } from 'zod';
import {
  ExpectedToolCallSchema,
  FeedbackCandidateSchema,
  TestCaseSchema,
  type CandidateCaseDraft,
  type FeedbackCandidate,
  type TestCase,
  type TestSuite,
} from '../domain/index.js';
import { ConflictError, NotFoundError, PreconditionFailedError, type Clock, type Stores, type WithEtag } from '../ports/index.js';
import { FEEDBACK_SOURCE } from './candidateDraft.js';

/** A review input the API answers with 400 naming `field` (relative to the request body). */
export class FeedbackInputError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'FeedbackInputError';
  }
}

/** A decision that contradicts an earlier one (approving a rejected candidate, rejecting an approved one): 409. */
export class FeedbackDecisionConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedbackDecisionConflict';
  }
}

/**
 * A reviewer's edits to the proposed case before approving. For a conversation, `expected_tool_calls` and
 * `expected_nl_response` apply to its last turn (the one the correction is about).
 */
export const CandidateEditsSchema = z
  .object({
    nl_query: z.string().min(1).optional(),
    expected_tool_calls: z.array(ExpectedToolCallSchema).optional(),
    call_order: z.enum(['any', 'strict', 'dependency']).optional(),
    expected_nl_response: z.string().min(1).optional(),
    expected_facts: z.array(z.string().min(1)).optional(),
    category: z.string().min(1).optional(),
    tags: z.array(z.string().min(1)).optional(),
    complexity_level: z.number().int().min(1).max(5).optional(),
  })
  .strict();
export type CandidateEdits = z.infer<typeof CandidateEditsSchema>;

export const ApproveCandidateSchema = z
  .object({
    /** the suite the case joins (default: the one the interaction named) */
    suite_id: z.string().min(1).optional(),
    edits: CandidateEditsSchema.optional(),
  })
  .strict();
export type ApproveCandidate = z.infer<typeof ApproveCandidateSchema>;

export const RejectCandidateSchema = z.object({ reason: z.string().trim().min(1).max(4_000) }).strict();

export const ApprovalResultSchema = z.object({
  candidate: FeedbackCandidateSchema,
  test_case_id: z.string(),
  suite_id: z.string(),
  /** true when the candidate had been approved before: nothing was added again */
  already_approved: z.boolean(),
});
export type ApprovalResult = z.infer<typeof ApprovalResultSchema>;

const MAX_RACES = 20;

interface Deps {
  stores: Stores;
  clock: Clock;
}

async function requireCandidate(stores: Stores, id: string): Promise<WithEtag<FeedbackCandidate>> {
  const candidate = await stores.feedback.getCandidate(id);
  if (!candidate) throw new NotFoundError('feedback candidate', id);
  return candidate;
}

/** The draft with the reviewer's edits applied. */
function edited(candidate: FeedbackCandidate, edits: CandidateEdits): CandidateCaseDraft {
  const draft = candidate.draft;
  const metadata = {
    ...draft.metadata,
    ...(edits.category ? { category: edits.category } : {}),
    ...(edits.tags ? { tags: [...new Set([...draft.metadata.tags, ...edits.tags])] } : {}),
    ...(edits.complexity_level ? { complexity_level: edits.complexity_level } : {}),
  };
  if (draft.turns) {
    for (const field of ['call_order', 'expected_facts'] as const)
      if (edits[field] !== undefined)
        throw new FeedbackInputError(
          `edits.${field}`,
          'not for a conversation candidate (edit the last turn with expected_tool_calls / expected_nl_response)',
        );
    const last = draft.turns.length - 1;
    const turns = draft.turns.map((turn, i) =>
      i === last
        ? {
            ...turn,
            ...(edits.expected_tool_calls ? { expected_tool_calls: edits.expected_tool_calls } : {}),
            ...(edits.expected_nl_response ? { expected_nl_response: edits.expected_nl_response } : {}),
          }
        : turn,
    );
    return { ...draft, ...(edits.nl_query ? { nl_query: edits.nl_query } : {}), turns, metadata };
  }
  return {
    ...draft,
    ...(edits.nl_query ? { nl_query: edits.nl_query } : {}),
    ...(edits.expected_tool_calls ? { expected_tool_calls: edits.expected_tool_calls } : {}),
    ...(edits.call_order ? { call_order: edits.call_order } : {}),
    ...(edits.expected_nl_response ? { expected_nl_response: edits.expected_nl_response } : {}),
    ...(edits.expected_facts ? { expected_facts: edits.expected_facts } : {}),
    metadata,
  };
}

/** The test case an approved candidate adds: its (edited) draft with the provenance of the interaction. */
export function approvedCaseOf(candidate: FeedbackCandidate): TestCase {
  const parsed = TestCaseSchema.safeParse({
    ...candidate.draft,
    metadata: {
      ...candidate.draft.metadata,
      source: FEEDBACK_SOURCE,
      feedback: {
        interaction_id: candidate.interaction_id,
        candidate_id: candidate.id,
        ...(candidate.client_id ? { client_id: candidate.client_id } : {}),
        ...(candidate.target_id ? { target_id: candidate.target_id } : {}),
        reason: candidate.reason,
        approved_by: candidate.decided_by ?? 'unknown',
        approved_at: candidate.decided_at ?? candidate.created_at,
      },
    },
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FeedbackInputError(`edits.${issue.path.join('.') || 'case'}`, issue.message);
  }
  return parsed.data;
}

async function requireStaticSuite(stores: Stores, suiteId: string): Promise<WithEtag<TestSuite>> {
  const suite = await stores.suites.get(suiteId);
  if (!suite) throw new NotFoundError('test suite', suiteId);
  if (suite.kind !== 'static')
    throw new FeedbackDecisionConflict(`test suite "${suiteId}" is dynamic (its cases come from its filter); approve into a static suite`);
  return suite;
}

/** Stores the case (once: an existing case of this candidate is kept) and lists it in the suite (once). */
async function addToSuite({ stores, clock }: Deps, candidate: FeedbackCandidate): Promise<void> {
  const testCase = approvedCaseOf(candidate);
  try {
    await stores.testCases.createTestCase(testCase);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
  const suiteId = candidate.approved_suite_id!;
  for (let race = 0; race < MAX_RACES; race++) {
    const suite = await requireStaticSuite(stores, suiteId);
    if (suite.test_case_ids.includes(testCase.id)) return;
    try {
      const { _etag, ...body } = suite;
      const next: TestSuite = { ...body, test_case_ids: [...suite.test_case_ids, testCase.id], updated_at: clock.now().toISOString() };
      await stores.suites.replace(next, { ifMatch: _etag });
      return;
    } catch (error) {
      if (!(error instanceof PreconditionFailedError)) throw error;
    }
  }
  throw new Error(`test suite ${suiteId}: gave up adding ${testCase.id} after ${MAX_RACES} concurrent changes`);
}

/**
 * Approves a candidate: its draft (with the reviewer's edits) becomes test case `draft.id` with provenance
 * (`metadata.source: production_feedback`, `metadata.feedback`), added to the suite. Exactly once: the decision is
 * an ETag-checked replace of the pending candidate (of two concurrent approvals one wins, the other finds it
 * approved), the case id is fixed, and the suite's member list is changed only when it lacks the case. Approving an
 * approved candidate again (a retry, a double click) adds nothing and completes an approval a crash interrupted.
 */
export async function approveCandidate(id: string, request: ApproveCandidate, approver: string, deps: Deps): Promise<ApprovalResult> {
  const { stores } = deps;
  for (let race = 0; race < MAX_RACES; race++) {
    const candidate = await requireCandidate(stores, id);
    if (candidate.status === 'rejected')
      throw new FeedbackDecisionConflict(
        `feedback candidate "${id}" was rejected (${candidate.rejection_reason ?? 'no reason'}); it cannot be approved`,
      );
    if (candidate.status === 'approved') {
      await addToSuite(deps, candidate);
      return { candidate, test_case_id: candidate.approved_case_id!, suite_id: candidate.approved_suite_id!, already_approved: true };
    }
    const suiteId = request.suite_id ?? candidate.suite_id;
    if (!suiteId) throw new FeedbackInputError('suite_id', 'required: the interaction named no suite for its candidate');
    const edits = request.edits ?? {};
    if (candidate.needs.includes('expected_tool_calls') && !edits.expected_tool_calls)
      throw new FeedbackInputError(
        'edits.expected_tool_calls',
        'required: the interaction was flagged without a correction, so give the calls the agent should have made ([] for none)',
      );
    const decided: FeedbackCandidate = {
      ...candidate,
      draft: edited(candidate, edits),
      status: 'approved',
      needs: [],
      decided_at: deps.clock.now().toISOString(),
      decided_by: approver,
      approved_case_id: candidate.draft.id,
      approved_suite_id: suiteId,
    };
    approvedCaseOf(decided); // a case the edits made invalid: 400 before anything changes
    await requireStaticSuite(stores, suiteId);
    const clash = await stores.testCases.getTestCase(decided.draft.id);
    if (clash && clash.metadata.feedback?.candidate_id !== id)
      throw new FeedbackDecisionConflict(`test case "${decided.draft.id}" exists and was not made from this candidate`);
    let stored: WithEtag<FeedbackCandidate>;
    try {
      stored = await stores.feedback.replaceCandidate(decided, { ifMatch: candidate._etag });
    } catch (error) {
      if (error instanceof PreconditionFailedError) continue; // decided concurrently: look again
      throw error;
    }
    await addToSuite(deps, stored);
    return { candidate: stored, test_case_id: decided.draft.id, suite_id: suiteId, already_approved: false };
  }
  throw new Error(`feedback candidate ${id}: gave up after ${MAX_RACES} concurrent changes`);
}

/** Rejects a pending candidate with a reason; rejecting a rejected one again changes nothing, an approved one is 409. */
export async function rejectCandidate(id: string, reason: string, reviewer: string, deps: Deps): Promise<FeedbackCandidate> {
  for (let race = 0; race < MAX_RACES; race++) {
    const candidate = await requireCandidate(deps.stores, id);
    if (candidate.status === 'rejected') return candidate;
    if (candidate.status === 'approved')
      throw new FeedbackDecisionConflict(
        `feedback candidate "${id}" was approved as test case "${candidate.approved_case_id}"; it cannot be rejected`,
      );
    try {
      return await deps.stores.feedback.replaceCandidate(
        { ...candidate, status: 'rejected', rejection_reason: reason, decided_at: deps.clock.now().toISOString(), decided_by: reviewer },
        { ifMatch: candidate._etag },
      );
    } catch (error) {
      if (!(error instanceof PreconditionFailedError)) throw error;
    }
  }
  throw new Error(`feedback candidate ${id}: gave up after ${MAX_RACES} concurrent changes`);
}
