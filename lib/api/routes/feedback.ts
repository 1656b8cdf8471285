import { z } from 'zod';
import { CandidateStatusSchema, FeedbackCandidateSchema, FeedbackInteractionSchema, type FeedbackCandidate } from '../../domain/index.js';
import {
  ApprovalResultSchema,
  ApproveCandidateSchema,
  approveCandidate,
  FeedbackBatchSchema,
  FeedbackDecisionConflict,
  FeedbackInputError,
  ingestFeedback,
  IngestResultSchema,
  rejectCandidate,
  RejectCandidateSchema,
} from '../../feedback/index.js';
import { NotFoundError } from '../../ports/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const IdParams = z.object({ id: z.string().min(1) });

/** FeedbackInputError -> 400 naming the body field; FeedbackDecisionConflict -> 409. */
async function reviewErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FeedbackInputError)
      throw new ApiError(400, 'Bad Request', error.message, [
        { path: `body.${error.field}`, message: error.message.slice(error.field.length + 2) },
      ]);
    if (error instanceof FeedbackDecisionConflict) throw new ApiError(409, 'Conflict', error.message);
    throw error;
  }
}

/** A candidate as the API shows it (without the store's ETag). */
const view = (c: FeedbackCandidate & { _etag?: string }): FeedbackCandidate => {
  const { _etag: _ignored, ...rest } = c;
  return rest;
};

const decider = (principal: { name: string } | undefined): string => principal?.name ?? 'unknown';

export const postFeedbackRoute = defineRoute({
  name: 'feedback-post',
  method: 'POST',
  path: 'v1/feedback',
  role: 'test-admin',
  tag: 'feedback',
  summary:
    'Log production interactions (at most 1,000): each stored once by its id; a failed, thumbs-down or corrected one becomes a candidate case in the review queue, grouped with near-duplicates and with the nearest existing case named',
  body: FeedbackBatchSchema,
  responses: {
    200: 'nothing new was stored (every interaction was posted before)',
    201: 'interactions stored',
    400: 'an invalid interaction (the field named)',
  },
  response: IngestResultSchema,
  handler: async ({ services, body }) => {
    const result = await ingestFeedback(body, services);
    return { status: result.stored > 0 ? 201 : 200, body: result };
  },
});

export const getInteractionRoute = defineRoute({
  name: 'feedback-interaction-get',
  method: 'GET',
  path: 'v1/feedback/interactions/{id}',
  role: 'reader',
  tag: 'feedback',
  summary: 'One logged interaction as first stored',
  params: IdParams,
  responses: { 200: 'the interaction', 404: 'no such interaction' },
  response: FeedbackInteractionSchema,
  handler: async ({ services, params }) => {
    const interaction = await services.stores.feedback.getInteraction(params.id);
    if (!interaction) throw new NotFoundError('feedback interaction', params.id);
    return { status: 200, body: interaction };
  },
});

export const listCandidatesRoute = defineRoute({
  name: 'feedback-candidates-list',
  method: 'GET',
  path: 'v1/feedback/candidates',
  role: 'reader',
  tag: 'feedback',
  summary: 'The review queue: candidate cases oldest first, by status (default pending; `all` for every one) and near-duplicate group',
  query: z
    .object({
      status: z.union([CandidateStatusSchema, z.literal('all')]).default('pending'),
      group_id: z.string().min(1).optional(),
    })
    .strict(),
  responses: { 200: 'the candidates', 400: 'invalid filter' },
  response: z.object({ items: z.array(FeedbackCandidateSchema) }),
  handler: async ({ services, query }) => {
    const items = await services.stores.feedback.listCandidates({
      ...(query.status === 'all' ? {} : { status: query.status }),
      ...(query.group_id ? { group_id: query.group_id } : {}),
    });
    return { status: 200, body: { items: items.map(view) } };
  },
});

export const getCandidateRoute = defineRoute({
  name: 'feedback-candidate-get',
  method: 'GET',
  path: 'v1/feedback/candidates/{id}',
  role: 'reader',
  tag: 'feedback',
  summary: 'One candidate case: the proposed case, what it still needs, its group, near-duplicates and nearest existing case',
  params: IdParams,
  responses: { 200: 'the candidate', 404: 'no such candidate' },
  response: FeedbackCandidateSchema,
  handler: async ({ services, params }) => {
    const candidate = await services.stores.feedback.getCandidate(params.id);
    if (!candidate) throw new NotFoundError('feedback candidate', params.id);
    return { status: 200, body: view(candidate) };
  },
});

export const approveCandidateRoute = defineRoute({
  name: 'feedback-candidate-approve',
  method: 'POST',
  path: 'v1/feedback/candidates/{id}/approve',
  role: 'suite-admin',
  tag: 'feedback',
  summary:
    'Approve a candidate, optionally with edits: its case (id fb-<interaction id>, metadata.source production_feedback) is added to the suite exactly once; approving again adds nothing',
  params: IdParams,
  body: ApproveCandidateSchema,
  responses: {
    200: 'approved (already_approved: true when it was before)',
    400: 'no suite, expected calls missing, or edits that make an invalid case (the field named)',
    404: 'no such candidate or suite',
    409: 'the candidate was rejected, the suite is dynamic, or the case id is taken by another case',
  },
  response: ApprovalResultSchema,
  handler: async ({ services, params, body, principal }) => {
    const result = await reviewErrors(() => approveCandidate(params.id, body, decider(principal), services));
    return { status: 200, body: { ...result, candidate: view(result.candidate) } };
  },
});

export const rejectCandidateRoute = defineRoute({
  name: 'feedback-candidate-reject',
  method: 'POST',
  path: 'v1/feedback/candidates/{id}/reject',
  role: 'suite-admin',
  tag: 'feedback',
  summary: 'Reject a candidate with a reason (rejecting it again changes nothing)',
  params: IdParams,
  body: RejectCandidateSchema,
  responses: { 200: 'the rejected candidate', 400: 'no reason', 404: 'no such candidate', 409: 'it was approved' },
  response: FeedbackCandidateSchema,
  handler: async ({ services, params, body, principal }) => {
    const candidate = await reviewErrors(() => rejectCandidate(params.id, body.reason, decider(principal), services));
    return { status: 200, body: view(candidate) };
  },
});

/** Production feedback: logging interactions and reviewing the candidate cases made from them. */
export const FEEDBACK_ROUTES: readonly RouteDefinition[] = [
  postFeedbackRoute,
  getInteractionRoute,
  listCandidatesRoute,
  getCandidateRoute,
  approveCandidateRoute,
  rejectCandidateRoute,
];
