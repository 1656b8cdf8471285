import { z } from 'zod';
import { comparePair } from '../../compare/index.js';
import { isJudgeError, NotFoundError, type PairwiseJudgePort } from '../../ports/index.js';
import {
  EvaluationConfigOverridesSchema,
  type Run,
  RunPairComparisonSchema,
  type Scorecard,
  type TargetSystem,
  TERMINAL_RUN_STATUSES,
  TriggerMetadataSchema,
} from '../../domain/index.js';
import { JudgeConfigurationError } from '../../judges/index.js';
import { checkRunConfig, createRun } from '../../runs/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const PAIR_ID = /^[A-Za-z0-9_:-]{1,80}$/;

export const CreateRunPairRequestSchema = z
  .object({
    suite_id: z.string().min(1),
    /** the model without tools */
    baseline_target_id: z.string().min(1),
    /** the same model (or another) with tools, e.g. a target naming MCP servers */
    enhanced_target_id: z.string().min(1),
    config: EvaluationConfigOverridesSchema.optional(),
    trigger_metadata: TriggerMetadataSchema.default({}),
    /** names the pair (runs `<pair_id>.baseline` and `<pair_id>.enhanced`); default a generated id */
    pair_id: z.string().regex(PAIR_ID, '1-80 letters, digits, _ : -').optional(),
    deadline_minutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .default(24 * 60),
  })
  .strict();

const RunPairSchema = z.object({ pair_id: z.string(), baseline_run_id: z.string(), enhanced_run_id: z.string() });

export function pairRunIds(pairId: string): { baseline: string; enhanced: string } {
  return { baseline: `${pairId}.baseline`, enhanced: `${pairId}.enhanced` };
}

export const createRunPairRoute = defineRoute({
  name: 'run-pairs-create',
  method: 'POST',
  path: 'v1/run-pairs',
  role: 'runner',
  tag: 'compare',
  summary: 'Start one suite on a baseline target (a model without tools) and an enhanced target (with MCP tools) as a pair of runs',
  body: CreateRunPairRequestSchema,
  response: RunPairSchema,
  responses: {
    202: 'both runs accepted and started',
    400: 'invalid body',
    409: 'a run of this pair id exists',
    422: 'unknown suite or target, or a configuration that cannot work (each error naming its field); neither run starts',
  },
  handler: async (ctx) => {
    const { services, body } = ctx;
    const pairId =
      body.pair_id ??
      `pair-${services.clock
        .now()
        .toISOString()
        .replace(/[^0-9]/g, '')
        .slice(0, 14)}-${Math.random().toString(36).slice(2, 8)}`;
    const ids = pairRunIds(pairId);
    const deps = {
      stores: services.stores,
      clock: services.clock,
      check: (r: Run, target: TargetSystem) => checkRunConfig(r, target, services),
    };
    const request = (targetId: string, runId: string, role: 'baseline' | 'enhanced') => ({
      suite_id: body.suite_id,
      target_id: targetId,
      ...(body.config ? { config: body.config } : {}),
      trigger_metadata: { ...body.trigger_metadata, pair_id: pairId, pair_role: role },
      deadline_minutes: body.deadline_minutes,
      run_id: runId,
    });
    // both sides are resolved and checked before anything is stored (422 naming the field; nothing created), then both
    // are created, then both started
    await checkOnly(request(body.baseline_target_id, ids.baseline, 'baseline'), deps);
    await checkOnly(request(body.enhanced_target_id, ids.enhanced, 'enhanced'), deps);
    const baseline = await createRun(request(body.baseline_target_id, ids.baseline, 'baseline'), deps);
    try {
      await createRun(request(body.enhanced_target_id, ids.enhanced, 'enhanced'), deps);
    } catch (error) {
      await services.stores.runs.updateRun(baseline.id, {
        status: 'failed',
        error: `the enhanced run of pair ${pairId} could not be created: ${(error as Error).message}`,
        completed_at: services.clock.now().toISOString(),
      });
      throw error;
    }
    for (const id of [ids.baseline, ids.enhanced]) await ctx.orchestrations.start(id);
    return {
      status: 202,
      headers: { location: `${ctx.url.origin}/api/v1/run-pairs/${pairId}` },
      body: { pair_id: pairId, baseline_run_id: ids.baseline, enhanced_run_id: ids.enhanced },
    };
  },
});

export const getRunPairRoute = defineRoute({
  name: 'run-pairs-get',
  method: 'GET',
  path: 'v1/run-pairs/{id}',
  role: 'reader',
  tag: 'compare',
  summary:
    "Baseline vs enhanced: each run's pass rate (Wilson interval), cost and tool calls per case, and once both finished the pairwise judge's win/tie/loss (both answer orders) with a win-rate interval",
  params: z.object({ id: z.string().regex(PAIR_ID) }),
  query: z.object({
    /** `none` skips the pairwise judge (pass rates only) */
    judge: z.enum(['pairwise', 'none']).default('pairwise'),
    /** the judge model (default: the platform's judge settings' model) */
    judge_model: z.string().min(1).optional(),
  }),
  response: RunPairComparisonSchema,
  responses: {
    200: 'the comparison (pairwise null until both runs finished)',
    404: 'no such pair',
    422: 'the pairwise judge is not configured (names the missing settings)',
  },
  handler: async (ctx) => {
    const { stores } = ctx.services;
    const ids = pairRunIds(ctx.params.id);
    const [baseline, enhanced] = await Promise.all([stores.runs.getRun(ids.baseline), stores.runs.getRun(ids.enhanced)]);
    if (!baseline || !enhanced) throw new NotFoundError('run pair', ctx.params.id);
    const [bCards, eCards] = await Promise.all([
      collect(stores.scorecards.iterateScorecards(baseline.id)),
      collect(stores.scorecards.iterateScorecards(enhanced.id)),
    ]);
    const finished = TERMINAL_RUN_STATUSES.has(baseline.status) && TERMINAL_RUN_STATUSES.has(enhanced.status);
    let judge: PairwiseJudgePort | undefined;
    if (finished && ctx.query.judge === 'pairwise') {
      try {
        judge = ctx.services.pairwiseJudge(ctx.query.judge_model);
      } catch (error) {
        if (error instanceof JudgeConfigurationError)
          throw new ApiError(
            422,
            'Unprocessable Content',
            `the pairwise judge cannot be built: ${error.message}`,
            error.missing.map((m) => ({ path: `settings.${m}`, message: 'not set' })),
          );
        throw error;
      }
    }
    const caseIds = [...new Set(eCards.map((c) => c.test_case_id))];
    const cases = judge ? new Map((await stores.testCases.getTestCases(caseIds)).map((c) => [c.id, c])) : undefined;
    try {
      const body = await comparePair(
        ctx.params.id,
        { run: baseline, cards: bCards },
        { run: enhanced, cards: eCards },
        { ...(judge ? { judge } : {}), ...(cases ? { cases } : {}) },
      );
      return { status: 200, body };
    } catch (error) {
      if (isJudgeError(error)) throw new ApiError(502, 'Bad Gateway', `the pairwise judge failed: ${(error as Error).message}`);
      throw error;
    }
  },
});

/** Passed its checks; thrown to stop createRun before it stores the run. */
class CheckedOnly extends Error {}

/** createRun's validation and configuration check without storing anything: throws what createRun would. */
async function checkOnly(request: Parameters<typeof createRun>[0], deps: Parameters<typeof createRun>[1]): Promise<void> {
  try {
    await createRun(request, {
      ...deps,
      check: async (run, target) => {
        const problems = deps.check ? await deps.check(run, target) : [];
        if (problems.length) return problems;
        throw new CheckedOnly();
      },
    });
  } catch (error) {
    if (!(error instanceof CheckedOnly)) throw error;
  }
}

async function collect(cards: AsyncIterable<Scorecard>): Promise<Scorecard[]> {
  const out: Scorecard[] = [];
  for await (const card of cards) out.push(card);
  return out;
}

/** Baseline-vs-enhanced routes. */
export const RUN_PAIR_ROUTES: readonly RouteDefinition[] = [createRunPairRoute, getRunPairRoute];
