import { z } from 'zod';
import { NotFoundError } from '../../ports/index.js';
import { compatJobView, startCompatJob } from '../compat/compatJob.js';
import { COMPAT_SCORERS } from '../compat/compatScorers.js';
import { CompatEvaluateRequestSchema, CompatJobAcceptedSchema, CompatJobSchema } from '../compat/compatSchemas.js';
import { requireAllowedOutboundUrls } from '../outboundUrls.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { compatSecretIssues, refusingLiteralSecrets } from './targetSecrets.js';

const statusUrl = (origin: string, jobId: string): string => `${origin}/api/evaluate/${encodeURIComponent(jobId)}`;

export const startEvaluationRoute = defineRoute({
  name: 'evaluate-start',
  method: 'POST',
  path: 'evaluate',
  role: 'runner',
  tag: 'evaluate (compatibility)',
  summary:
    'Evaluate an endpoint answering {response, agent, reason} on a list of questions (evaluation-as-a-service shape); runs as a platform run',
  body: refusingLiteralSecrets(CompatEvaluateRequestSchema, compatSecretIssues),
  responses: { 202: 'the job, accepted and started', 400: 'invalid body, a literal secret, or a target_url the outbound policy refuses' },
  response: CompatJobAcceptedSchema,
  handler: async ({ services, orchestrations, body, url }) => {
    await requireAllowedOutboundUrls(services, [{ path: 'body.target_url', url: body.target_url }]);
    const run = await startCompatJob(body, { stores: services.stores, clock: services.clock, orchestrations });
    const status_url = statusUrl(url.origin, run.id);
    return {
      status: 202,
      headers: { location: status_url },
      body: { job_id: run.id, status: 'queued', status_url, total_questions: body.questions.length, submitted_at: run.created_at },
    };
  },
});

export const getEvaluationRoute = defineRoute({
  name: 'evaluate-status',
  method: 'GET',
  path: 'evaluate/{job_id}',
  role: 'reader',
  tag: 'evaluate (compatibility)',
  summary:
    'An evaluation job: status (queued, running, completed, failed), timing and progress by question and scorer; once finished passed, overall_score, scorer_results, required_passed/required_failed, critical_issues, summary, per-question results and report URLs',
  params: z.object({ job_id: z.string().min(1) }).strict(),
  responses: { 200: 'the job', 404: 'no such job', 410: 'the job was cleaned up (EVALP_EVALUATE_JOB_RETENTION_DAYS after it finished)' },
  response: CompatJobSchema,
  handler: async ({ services, params, url }) => {
    const run = await services.stores.runs.getRun(params.job_id);
    const view = run && (await compatJobView(run, services.stores, statusUrl(url.origin, run.id), url.origin, services.clock.now()));
    if (!view) {
      const cleaned = await services.stores.cleanedJobs.get(params.job_id);
      if (cleaned)
        throw new ApiError(
          410,
          'Gone',
          `evaluation job "${cleaned.id}" was cleaned up on ${cleaned.cleaned_at}: finished jobs are deleted (run, scorecards, questions, suite, target) ${cleaned.retention_days} days after they finish; submit it again to re-evaluate`,
        );
      throw new NotFoundError('evaluation job', params.job_id);
    }
    return { status: 200, body: view };
  },
});

export const listScorersRoute = defineRoute({
  name: 'scorers-list',
  method: 'GET',
  path: 'scorers',
  role: 'reader',
  tag: 'evaluate (compatibility)',
  summary: 'The scorers of evaluation jobs with their weights in the overall score',
  responses: { 200: 'the scorers' },
  response: z.object({ scorers: z.array(z.object({ name: z.string(), weight: z.number(), source: z.string(), description: z.string() })) }),
  handler: async () => ({ status: 200, body: { scorers: COMPAT_SCORERS } }),
});

/** Evaluation-as-a-service compatibility routes, under /api (not /api/v1): POST /evaluate, GET /evaluate/{job_id}, GET /scorers. */
export const EVALUATE_COMPAT_ROUTES: readonly RouteDefinition[] = [startEvaluationRoute, getEvaluationRoute, listScorersRoute];
