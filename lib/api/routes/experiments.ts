import { z } from 'zod';
import { ExperimentCreateSchema, ExperimentResultsSchema, ExperimentSchema, type Experiment } from '../../domain/index.js';
import { checkRunConfig, concludeExperiment, createExperiment, experimentResultsOf, startExperiment } from '../../runs/index.js';
import { NotFoundError, type WithEtag } from '../../ports/index.js';
import { requireAllowedOutboundUrls } from '../outboundUrls.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { pageSchemaOf } from '../schemas.js';
import { PagingQuery } from './entityRoutes.js';

const IdParams = z.object({ id: z.string().min(1) });
const withoutEtag = ({ _etag, ...rest }: WithEtag<Experiment>): Experiment => rest;

export const createExperimentRoute = defineRoute({
  name: 'experiments-create',
  method: 'POST',
  path: 'v1/experiments',
  role: 'runner',
  tag: 'experiments',
  summary:
    'Create a draft experiment: hypothesis, primary metric, guardrails, variants (one control), method (frequentist, bayesian, sequential), alpha; the minimum sample size comes from the power calculation',
  body: ExperimentCreateSchema,
  response: ExperimentSchema,
  responses: {
    201: 'the draft experiment',
    400: 'invalid body, each problem naming its field',
    422: 'unknown suite, target or suite version, or a base_url the outbound policy refuses',
  },
  handler: async ({ services, body, principal, url }) => {
    // a variant's execution base_url is checked against the outbound policy as a run's is
    await requireAllowedOutboundUrls(
      services,
      body.variants.map((v, i) => ({ path: `body.variants.${i}.config.execution.base_url`, url: v.config?.execution?.base_url })),
    );
    const experiment = await createExperiment(body, { ...services, createdBy: principal?.name ?? 'anonymous' });
    return { status: 201, headers: { location: `${url.origin}/api/v1/experiments/${experiment.id}` }, body: experiment };
  },
});

export const listExperimentsRoute = defineRoute({
  name: 'experiments-list',
  method: 'GET',
  path: 'v1/experiments',
  role: 'reader',
  tag: 'experiments',
  summary: 'List experiments by id, paged',
  query: PagingQuery,
  response: pageSchemaOf(ExperimentSchema),
  responses: { 200: 'a page of experiments' },
  handler: async ({ services, query }) => {
    const page = await services.stores.experiments.list({ limit: query.limit, offset: query.offset });
    return { status: 200, body: { ...page, items: page.items.map(withoutEtag) } };
  },
});

export const getExperimentRoute = defineRoute({
  name: 'experiments-get',
  method: 'GET',
  path: 'v1/experiments/{id}',
  role: 'reader',
  tag: 'experiments',
  summary: 'One experiment: settings, status, pinned suite version, variant runs, and the conclusion once concluded',
  params: IdParams,
  response: ExperimentSchema,
  responses: { 200: 'the experiment', 404: 'no such experiment' },
  handler: async ({ services, params }) => {
    const experiment = await services.stores.experiments.get(params.id);
    if (!experiment) throw new NotFoundError('experiment', params.id);
    return { status: 200, body: withoutEtag(experiment) };
  },
});

export const startExperimentRoute = defineRoute({
  name: 'experiments-start',
  method: 'POST',
  path: 'v1/experiments/{id}/start',
  role: 'runner',
  tag: 'experiments',
  summary:
    "Start a draft experiment: pin the suite version and start one run per variant on it (each with the variant's target and config)",
  params: IdParams,
  response: ExperimentSchema,
  responses: {
    202: 'the running experiment with its run ids',
    404: 'no such experiment',
    409: 'not a draft',
    422: 'a variant configuration that cannot work, naming its field',
  },
  handler: async (ctx) => {
    const { services } = ctx;
    const experiment = await startExperiment(ctx.params.id, {
      ...services,
      check: (run, target) => checkRunConfig(run, target, services),
      startRun: async (run) => {
        try {
          await ctx.orchestrations.start(run.id);
        } catch (err) {
          await services.stores.runs.updateRun(run.id, {
            status: 'failed',
            error: `could not start the orchestration: ${(err as Error).message}`,
          });
          throw err;
        }
      },
    });
    return { status: 202, headers: { location: `${ctx.url.origin}/api/v1/experiments/${experiment.id}` }, body: experiment };
  },
});

export const experimentResultsRoute = defineRoute({
  name: 'experiments-results',
  method: 'GET',
  path: 'v1/experiments/{id}/results',
  role: 'reader',
  tag: 'experiments',
  summary:
    'Per-variant metrics with intervals, each variant against the control by the experiment method, guardrails passed or failed, the winner or "no winner yet", and a recommendation',
  params: IdParams,
  response: ExperimentResultsSchema,
  responses: { 200: 'the results (frozen once concluded)', 404: 'no such experiment' },
  handler: async ({ services, params }) => ({ status: 200, body: await experimentResultsOf(params.id, services) }),
});

export const concludeExperimentRoute = defineRoute({
  name: 'experiments-conclude',
  method: 'POST',
  path: 'v1/experiments/{id}/conclude',
  role: 'runner',
  tag: 'experiments',
  summary: 'Conclude a running experiment: freeze its results as they stand',
  params: IdParams,
  response: ExperimentSchema,
  responses: { 200: 'the concluded experiment with its conclusion', 404: 'no such experiment', 409: 'not running' },
  handler: async ({ services, params }) => ({ status: 200, body: await concludeExperiment(params.id, services) }),
});

/** Experiments: create, list, read, start, results, conclude (runner writes, reader reads, as runs). */
export const EXPERIMENT_ROUTES: readonly RouteDefinition[] = [
  createExperimentRoute,
  listExperimentsRoute,
  getExperimentRoute,
  startExperimentRoute,
  experimentResultsRoute,
  concludeExperimentRoute,
];
