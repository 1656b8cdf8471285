import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  CatalogPinsSchema,
  CaseQueryError,
  parseCaseQuery,
  EvaluationConfigOverridesSchema,
  RunPrioritySchema,
  SuiteVersionRefSchema,
  TriggerMetadataSchema,
  resolveEvaluationConfig,
  toolCatalogId,
  type EvaluationConfigInput,
  type Run,
  type TargetSystem,
} from '../domain/index.js';
import { RunConfigurationError, type ConfigProblem } from './checkRunConfig.js';
import type { Clock, Stores } from '../ports/index.js';
import { ensureQuerySuite } from './adhocSuites.js';

/** What a caller asks for when triggering a run (API, CLI, timer, GitHub Actions). */
export const CreateRunRequestSchema = z
  .object({
    suite_id: z.string().min(1).optional(),
    /**
     * instead of suite_id: a query over the gold set (lib/domain/caseQuery.ts grammar, e.g. `complexity_level>=4 AND
     * tags:search`): the run evaluates a dynamic ad-hoc suite of that query, resolved when the run starts (its case
     * list is frozen then); the query is recorded on the run as `trigger_metadata.query`
     */
    query: z.string().min(1).max(4000).optional(),
    target_id: z.string().min(1).optional(),
    /** a client supplies its suite, target and config overrides; explicit fields win */
    client_id: z.string().min(1).optional(),
    triggered_by: z.enum(['api', 'schedule', 'github', 'cli', 'demo', 'retry', 'trigger']).default('api'),
    trigger_metadata: TriggerMetadataSchema.default({}),
    config: EvaluationConfigOverridesSchema.optional(),
    /** the run's queue priority (high | normal | low; wins over `config.priority`; default: the client's, else normal) */
    priority: RunPrioritySchema.optional(),
    baseline_run_id: z.string().min(1).optional(),
    /**
     * the suite version to evaluate: a published number, `latest` (default: the newest published version, the live
     * suite when none is published) or `live` (the suite as it resolves when the run is planned)
     */
    suite_version: SuiteVersionRefSchema.default('latest'),
    /** tool-catalog versions to pin by catalog name (default: the suite's `tool_catalogs`); each must exist */
    tool_catalogs: CatalogPinsSchema.optional(),
    /** the run is finalized as timed_out when not complete by then (default 24 h) */
    deadline_minutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .default(24 * 60),
    /** an explicit id (schedules use a deterministic one so a timer firing twice starts one run) */
    run_id: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,100}$/)
      .optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (!r.client_id && !r.suite_id && !r.query)
      ctx.addIssue({ code: 'custom', path: ['suite_id'], message: 'required unless client_id or query is given' });
    if (r.suite_id && r.query) ctx.addIssue({ code: 'custom', path: ['query'], message: 'give suite_id or query, not both' });
    if (r.query) {
      try {
        parseCaseQuery(r.query);
      } catch (err) {
        if (!(err instanceof CaseQueryError)) throw err;
        ctx.addIssue({ code: 'custom', path: ['query'], message: `${err.reason} at position ${err.position + 1}` });
      }
    }
    if (!r.client_id && !r.target_id) ctx.addIssue({ code: 'custom', path: ['target_id'], message: 'required unless client_id is given' });
  });
export type CreateRunRequest = z.input<typeof CreateRunRequestSchema>;

/** A reference in the request that does not exist: the API answers 422 naming the field. */
export class UnknownReferenceError extends Error {
  constructor(
    readonly field: string,
    readonly id: string,
  ) {
    super(`${field}: "${id}" does not exist`);
    this.name = 'UnknownReferenceError';
  }
}

/**
 * Validates references and stores a `pending` Run with its config frozen (defaults < client overrides <
 * request). With `check` (lib/runs/checkRunConfig), the effective configuration is resolved first and a run that
 * cannot work is refused with RunConfigurationError (nothing stored). The caller then starts orchestration
 * `runEvaluation` with instance id = run id.
 */
export async function createRun(
  request: CreateRunRequest,
  deps: { stores: Stores; clock: Clock; parentRunId?: string; check?: (run: Run, target: TargetSystem) => Promise<ConfigProblem[]> },
): Promise<Run> {
  const req = CreateRunRequestSchema.parse(request);
  const { stores, clock } = deps;
  const client = req.client_id ? await stores.clients.get(req.client_id) : undefined;
  if (req.client_id && !client) throw new UnknownReferenceError('client_id', req.client_id);
  const querySuite = req.query ? await ensureQuerySuite(req.query, deps) : undefined;
  const suiteId = req.suite_id ?? querySuite?.id ?? client!.suite_ids[0]!;
  const targetId = req.target_id ?? client!.target_id;
  const suite = await stores.suites.get(suiteId);
  if (!suite) throw new UnknownReferenceError('suite_id', suiteId);
  const target = await stores.targets.get(targetId);
  if (!target) throw new UnknownReferenceError('target_id', targetId);
  if (req.baseline_run_id && !(await stores.runs.getRun(req.baseline_run_id)))
    throw new UnknownReferenceError('baseline_run_id', req.baseline_run_id);
  const toolCatalogs = await catalogPins(req.tool_catalogs, suite.tool_catalogs, stores, deps.parentRunId);
  const suiteVersion = await pinnedVersion(suiteId, req.suite_version, stores, deps.parentRunId);
  const now = clock.now();
  const config = resolveEvaluationConfig(
    mergeConfig(client?.config_overrides as EvaluationConfigInput | undefined, req.config as EvaluationConfigInput | undefined),
  );
  // criteria per suite: the suite's rubric applies when neither the client nor the request names criteria
  if (!config.semantics.criteria && suite.judge_criteria) config.semantics.criteria = suite.judge_criteria;
  if (req.priority) config.priority = req.priority;
  const run: Run = {
    id: req.run_id ?? randomUUID(),
    client_id: client?.id ?? null,
    suite_id: suiteId,
    target_id: targetId,
    status: 'pending',
    config,
    triggered_by: req.triggered_by,
    trigger_metadata: querySuite?.query ? { ...req.trigger_metadata, query: querySuite.query } : req.trigger_metadata,
    baseline_run_id: req.baseline_run_id ?? null,
    parent_run_id: deps.parentRunId ?? null,
    total_cases: 0,
    shard_count: 0,
    created_at: now.toISOString(),
    started_at: null,
    completed_at: null,
    deadline_at: new Date(now.getTime() + req.deadline_minutes * 60_000).toISOString(),
    error: null,
    notes: [],
    suite_version: suiteVersion,
    ...(toolCatalogs ? { tool_catalogs: toolCatalogs } : {}),
  };
  if (toolCatalogs) {
    const from = req.tool_catalogs ? 'requested' : deps.parentRunId ? "the parent run's pin" : `suite ${suite.id} pins it`;
    for (const [name, version] of Object.entries(toolCatalogs)) run.notes.push(`tool catalog pinned: ${name}@${version} (${from})`);
  }
  if (deps.check) {
    const problems = await deps.check(run, target);
    if (problems.length > 0) throw new RunConfigurationError(problems);
  }
  return stores.runs.createRun(run);
}

/** The catalog versions a new run pins: the request's, else the parent run's (retry), else the suite's; each must exist. */
async function catalogPins(
  requested: Record<string, string> | undefined,
  suitePins: Record<string, string> | undefined,
  stores: Stores,
  parentRunId: string | undefined,
): Promise<Record<string, string> | undefined> {
  const parentPins = parentRunId && !requested ? (await stores.runs.getRun(parentRunId))?.tool_catalogs : undefined;
  const pins = requested ?? parentPins ?? suitePins;
  if (!pins || Object.keys(pins).length === 0) return undefined;
  for (const [name, version] of Object.entries(pins)) {
    if (!(await stores.catalogs.get(toolCatalogId(name, version))))
      throw new UnknownReferenceError(`tool_catalogs.${name}`, `${name}@${version}`);
  }
  return { ...pins };
}

/** The published version a new run pins (null: live); a retry-failures run keeps its parent's. */
async function pinnedVersion(
  suiteId: string,
  ref: number | 'latest' | 'live',
  stores: Stores,
  parentRunId: string | undefined,
): Promise<number | null> {
  if (parentRunId) return (await stores.runs.getRun(parentRunId))?.suite_version ?? null;
  if (ref === 'live') return null;
  if (ref === 'latest') return (await stores.suiteVersions.listVersions(suiteId))[0]?.version ?? null;
  if (!(await stores.suiteVersions.getVersion(suiteId, ref))) throw new UnknownReferenceError('suite_version', `${suiteId}@${ref}`);
  return ref;
}

function mergeConfig(a: EvaluationConfigInput | undefined, b: EvaluationConfigInput | undefined): EvaluationConfigInput {
  if (!a) return b ?? {};
  if (!b) return a;
  return {
    ...a,
    ...b,
    ...(a.execution || b.execution ? { execution: { ...a.execution, ...b.execution } } : {}),
    ...(a.semantics || b.semantics ? { semantics: { ...a.semantics, ...b.semantics } } : {}),
    ...(a.weights || b.weights ? { weights: { ...a.weights, ...b.weights } } : {}),
  };
}
