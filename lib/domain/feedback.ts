import { OrganizationFieldSchema } from './organization.js';
import { z } from 'zod';
import { IdSchema } from './id.js';
import { ExpectedToolCallSchema } from './expected.js';
import { ConversationTurnSchema } from './conversation.js';
import { TestCaseMetadataSchema } from './testCase.js';

/** A call the agent made in production, with what it returned (when logged). */
export const LoggedToolCallSchema = z
  .object({
    tool_name: z.string().min(1),
    arguments: z.record(z.string(), z.json()).default({}),
    /** what the call returned (any JSON), when it was logged */
    result: z.json().optional(),
    /** an error the call ended with, when it failed */
    error: z.string().optional(),
  })
  .strict();
export type LoggedToolCall = z.infer<typeof LoggedToolCallSchema>;

/** One turn of a logged conversation: the user's message, the calls the agent made in answer, its answer. */
export const LoggedTurnSchema = z
  .object({
    user: z.string().min(1),
    tool_calls: z.array(LoggedToolCallSchema).default([]),
    answer: z.string().optional(),
  })
  .strict();
export type LoggedTurn = z.infer<typeof LoggedTurnSchema>;

/**
 * A user's or reviewer's correction of an interaction: the calls the agent should have made (for a conversation:
 * in its last turn) and/or the answer it should have given. At least one of the two.
 */
export const FeedbackCorrectionSchema = z
  .object({
    tool_calls: z.array(ExpectedToolCallSchema).optional(),
    answer: z.string().min(1).optional(),
    /** who corrected it (a user, a reviewer) */
    by: z.string().min(1).optional(),
    note: z.string().max(4_000).optional(),
  })
  .strict()
  .refine((c) => c.tool_calls !== undefined || c.answer !== undefined, {
    message: 'a correction gives tool_calls (the calls the agent should have made) or answer (or both)',
    path: ['tool_calls'],
  });
export type FeedbackCorrection = z.infer<typeof FeedbackCorrectionSchema>;

export const FeedbackFlagSchema = z.enum(['failed', 'thumbs_down', 'thumbs_up']);

/**
 * One logged production interaction as `POST /api/v1/feedback` and `evalp feedback import` take it: a question (or
 * a conversation's turns), the calls the agent made and their results, its answer, who served it, when, and
 * optionally a flag and a correction. Its `id` is the caller's (the log's) id: posting it again stores nothing new.
 */
export const FeedbackInteractionSchema = z
  .object({
    id: IdSchema,
    /** the organization that owns it (lib/tenancy; absent: `default`) */
    organization: OrganizationFieldSchema,
    /** the platform client (or your own client/tenant id) the interaction belongs to */
    client_id: z.string().min(1).optional(),
    /** the agent/target that answered */
    target_id: z.string().min(1).optional(),
    /** the question; for a conversation give `turns` instead (the question is then the first user message) */
    question: z.string().min(1).optional(),
    turns: z.array(LoggedTurnSchema).min(1).optional(),
    /** the calls the agent made (single question); a conversation puts them in turns[i].tool_calls */
    tool_calls: z.array(LoggedToolCallSchema).default([]),
    answer: z.string().optional(),
    /** when the interaction started; `ended_at` when it ended */
    started_at: z.iso.datetime({ offset: true }),
    ended_at: z.iso.datetime({ offset: true }).optional(),
    flag: FeedbackFlagSchema.optional(),
    correction: FeedbackCorrectionSchema.optional(),
    /** the suite an approved candidate goes to (the reviewer may name another) */
    suite_id: z.string().min(1).optional(),
    category: z.string().min(1).optional(),
    tags: z.array(z.string().min(1)).max(50).default([]),
    api_version: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((i, ctx) => {
    if (!i.client_id && !i.target_id)
      ctx.addIssue({ code: 'custom', path: ['client_id'], message: 'required: client_id or target_id (who served the interaction)' });
    if ((i.question === undefined) === (i.turns === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['question'],
        message: 'give exactly one of question (a single question) or turns (a conversation)',
      });
    if (i.turns && i.tool_calls.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['tool_calls'],
        message: 'a conversation (turns) logs its calls per turn (turns[i].tool_calls)',
      });
    if (i.ended_at && Date.parse(i.ended_at) < Date.parse(i.started_at))
      ctx.addIssue({ code: 'custom', path: ['ended_at'], message: 'is before started_at' });
  });
export type FeedbackInteraction = z.infer<typeof FeedbackInteractionSchema>;
export type FeedbackInteractionInput = z.input<typeof FeedbackInteractionSchema>;

/**
 * The test case a candidate proposes: a test case body whose expected calls may still be missing (a flagged
 * interaction without a correction: the reviewer supplies them when approving).
 */
export const CandidateCaseDraftSchema = z
  .object({
    id: IdSchema,
    nl_query: z.string().min(1).optional(),
    turns: z.array(ConversationTurnSchema).min(1).optional(),
    expected_tool_calls: z.array(ExpectedToolCallSchema).optional(),
    call_order: z.enum(['any', 'strict', 'dependency']).optional(),
    expected_nl_response: z.string().optional(),
    expected_facts: z.array(z.string()).optional(),
    metadata: TestCaseMetadataSchema,
  })
  .strict();
export type CandidateCaseDraft = z.infer<typeof CandidateCaseDraftSchema>;

/** A near neighbour of a candidate: an existing case or another candidate. */
export const FeedbackNeighbourSchema = z
  .object({
    id: z.string(),
    question: z.string(),
    /** token similarity of the normalised questions (lib/feedback/questionSimilarity.ts), 0-1 */
    similarity: z.number().min(0).max(1),
    /** the two expect (or made) calls to the same set of tools */
    same_tools: z.boolean(),
    /** similarity >= the threshold and the same tools */
    near_duplicate: z.boolean(),
  })
  .strict();
export type FeedbackNeighbour = z.infer<typeof FeedbackNeighbourSchema>;

export const CandidateStatusSchema = z.enum(['pending', 'approved', 'rejected']);
export type CandidateStatus = z.infer<typeof CandidateStatusSchema>;

/**
 * A candidate case made from a failed or corrected interaction (one per interaction; its id is the interaction's).
 * It waits as `pending` until a reviewer approves it (the case is added to a suite, once) or rejects it.
 */
export const FeedbackCandidateSchema = z
  .object({
    id: z.string().min(1),
    /** the organization that owns it (lib/tenancy; absent: `default`) */
    organization: OrganizationFieldSchema,
    interaction_id: z.string().min(1),
    client_id: z.string().optional(),
    target_id: z.string().optional(),
    reason: z.enum(['corrected', 'failed', 'thumbs_down']),
    status: CandidateStatusSchema,
    /** what the reviewer must add before approving (`expected_tool_calls` when no correction gave them) */
    needs: z.array(z.enum(['expected_tool_calls'])).default([]),
    draft: CandidateCaseDraftSchema,
    /** the tools of the draft's expected calls, else of the calls the agent made (sorted, unique) */
    tools: z.array(z.string()),
    /** the id of the first candidate of its near-duplicate group (its own id when it starts one) */
    group_id: z.string().min(1),
    /** the most similar other candidates (best first) */
    similar_candidates: z.array(FeedbackNeighbourSchema).default([]),
    /** the most similar existing test case, when any is similar at all */
    nearest_case: FeedbackNeighbourSchema.nullable(),
    suite_id: z.string().min(1).optional(),
    created_at: z.iso.datetime({ offset: true }),
    decided_at: z.iso.datetime({ offset: true }).optional(),
    decided_by: z.string().optional(),
    rejection_reason: z.string().optional(),
    /** approved: the case as it was added (its id is `fb-<interaction id>` unless the reviewer named one) */
    approved_case_id: z.string().optional(),
    approved_suite_id: z.string().optional(),
  })
  .strict();
export type FeedbackCandidate = z.infer<typeof FeedbackCandidateSchema>;
