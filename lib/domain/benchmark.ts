import { OrganizationFieldSchema } from './organization.js';
import { z } from 'zod';
import { EvaluationConfigOverridesSchema } from './evaluationConfig.js';
import { RunStatusSchema } from './run.js';
import { SuiteVersionRefSchema } from './suiteVersion.js';
import { findCycle } from './benchmarkGraph.js';

const TASK_ID = /^[A-Za-z0-9_-]{1,60}$/;

/**
 * When a finished task counts as failed although its run completed (its dependents are then skipped): a pass rate
 * (fraction of scored cases) below `min_pass_rate`.
 */
export const BenchmarkGateSchema = z
  .object({
    min_pass_rate: z.number().min(0).max(1),
  })
  .strict();
export type BenchmarkGate = z.infer<typeof BenchmarkGateSchema>;

/** One task: a suite (version) evaluated against a target or a client, with run config overrides. */
export const BenchmarkTaskSchema = z
  .object({
    id: z.string().regex(TASK_ID, 'letters, digits, "_" or "-", at most 60'),
    /** required unless client_id is given (the client's first suite) */
    suite_id: z.string().min(1).optional(),
    /** the version the task's run pins: a published number, `latest` (default) or `live` */
    suite_version: SuiteVersionRefSchema.default('latest'),
    /** required unless client_id is given */
    target_id: z.string().min(1).optional(),
    /** a client supplies suite, target and config overrides; explicit fields win (as for runs) */
    client_id: z.string().min(1).optional(),
    config: EvaluationConfigOverridesSchema.optional(),
    /** ids of tasks that must finish successfully (run completed, gate met) before this one starts */
    depends_on: z.array(z.string().min(1)).max(100).default([]),
    gate: BenchmarkGateSchema.optional(),
  })
  .strict();
export type BenchmarkTask = z.infer<typeof BenchmarkTaskSchema>;

/** Problems of a task list as zod issues: duplicate ids, missing suite/target, unknown or self dependencies, a cycle. */
function checkTasks(tasks: readonly BenchmarkTask[], ctx: z.RefinementCtx): void {
  const ids = new Set<string>();
  tasks.forEach((t, i) => {
    if (ids.has(t.id)) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'id'], message: `duplicate task id "${t.id}"` });
    ids.add(t.id);
    if (!t.client_id && !t.suite_id)
      ctx.addIssue({ code: 'custom', path: ['tasks', i, 'suite_id'], message: 'required unless client_id is given' });
    if (!t.client_id && !t.target_id)
      ctx.addIssue({ code: 'custom', path: ['tasks', i, 'target_id'], message: 'required unless client_id is given' });
  });
  tasks.forEach((t, i) =>
    t.depends_on.forEach((dep, j) => {
      if (!ids.has(dep)) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'depends_on', j], message: `unknown task id "${dep}"` });
      else if (dep === t.id)
        ctx.addIssue({ code: 'custom', path: ['tasks', i, 'depends_on', j], message: `task "${dep}" depends on itself` });
    }),
  );
  const cycle = findCycle(tasks.map((t) => ({ id: t.id, depends_on: t.depends_on.filter((d) => d !== t.id) })));
  if (cycle) ctx.addIssue({ code: 'custom', path: ['tasks'], message: `cycle ${cycle.join(' -> ')}` });
}

/** What a caller sends to create a benchmark. */
export const BenchmarkCreateSchema = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(2_000).optional(),
    tasks: z.array(BenchmarkTaskSchema).min(1).max(100),
    /** at most this many task runs at once */
    parallelism: z.number().int().min(1).max(32).default(2),
  })
  .strict()
  .superRefine((b, ctx) => checkTasks(b.tasks, ctx));
export type BenchmarkCreate = z.input<typeof BenchmarkCreateSchema>;
export type BenchmarkSettings = z.output<typeof BenchmarkCreateSchema>;

/** A stored benchmark definition. */
export const BenchmarkSchema = z
  .object({
    id: z.string().min(1),
    /** the organization that owns it (lib/tenancy; absent: `default`) */
    organization: OrganizationFieldSchema,
    name: z.string(),
    description: z.string().optional(),
    tasks: z.array(BenchmarkTaskSchema),
    parallelism: z.number().int().positive(),
    created_by: z.string(),
    created_at: z.iso.datetime({ offset: true }),
  })
  .strict();
export type Benchmark = z.infer<typeof BenchmarkSchema>;

/**
 * A task's state in a benchmark run: `pending` (waiting for its dependencies or a free slot), `running` (its run
 * exists), `completed` (run completed, gate met), `failed` (run failed, cancelled, timed out or degraded, or the
 * gate not met: `reason` says which), `skipped` (a dependency did not succeed: `reason` names it).
 */
export const BenchmarkTaskStatusSchema = z.enum(['pending', 'running', 'completed', 'failed', 'skipped']);
export type BenchmarkTaskStatus = z.infer<typeof BenchmarkTaskStatusSchema>;

export const BenchmarkTaskStateSchema = z
  .object({
    task_id: z.string(),
    status: BenchmarkTaskStatusSchema,
    run_id: z.string().nullable(),
    run_status: RunStatusSchema.nullable(),
    /** scored cases and passes of the task's run (null before it finishes) */
    scored: z.number().int().nonnegative().nullable(),
    passed: z.number().int().nonnegative().nullable(),
    pass_rate: z.number().min(0).max(1).nullable(),
    reason: z.string().nullable(),
    started_at: z.iso.datetime({ offset: true }).nullable(),
    finished_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .strict();
export type BenchmarkTaskState = z.infer<typeof BenchmarkTaskStateSchema>;

const IntervalSchema = z.object({ estimate: z.number().nullable(), lower: z.number(), upper: z.number() }).strict();

export const LeaderboardBadgeSchema = z.enum(['best_accuracy', 'best_latency', 'best_cost_efficiency']);
export type LeaderboardBadge = z.infer<typeof LeaderboardBadgeSchema>;

/**
 * One participant (a client, or a target when the tasks name no client) over all its finished task runs, each case
 * counted once (a case several of its runs scored counts the most complete run's outcome: lib/compare benchmarkLeaderboard).
 */
export const LeaderboardEntrySchema = z
  .object({
    participant: z.string(),
    kind: z.enum(['client', 'target']),
    target_id: z.string(),
    task_ids: z.array(z.string()),
    run_ids: z.array(z.string()),
    /** distinct cases scored over the participant's runs */
    scored: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
    /** passed / scored with a 95% Wilson interval (estimate null with nothing scored) */
    pass_rate: IntervalSchema,
    /** the platform's latency percentiles (lib/domain/stats latencyPercentile) over the scored cases; null without latencies */
    latency_p50_ms: z.number().nullable(),
    latency_p95_ms: z.number().nullable(),
    /** money spent: summed estimated cost of every scored evaluation of every run (a case scored twice costs twice); null when none reported a cost */
    cost_usd: z.number().nullable(),
    /** cost_usd over the evaluations that reported a cost */
    cost_per_case_usd: z.number().nullable(),
    /** passes per dollar spent (distinct cases passed / cost_usd); null without a positive cost */
    accuracy_per_dollar: z.number().nullable(),
    badges: z.array(LeaderboardBadgeSchema),
  })
  .strict();
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

/** Entries by pass rate (best first); each badge goes to every participant tied for the best value, none without data. */
export const LeaderboardSchema = z
  .object({
    confidence: z.number(),
    entries: z.array(LeaderboardEntrySchema),
    best_accuracy: z.array(z.string()),
    best_latency: z.array(z.string()),
    best_cost_efficiency: z.array(z.string()),
  })
  .strict();
export type Leaderboard = z.infer<typeof LeaderboardSchema>;

/** `completed`: every task completed; `partially_failed`: some failed or were skipped; `failed`: none completed. */
export const BenchmarkRunStatusSchema = z.enum(['running', 'completed', 'partially_failed', 'failed']);
export type BenchmarkRunStatus = z.infer<typeof BenchmarkRunStatusSchema>;

/** One execution of a benchmark: the definition as it was at start, per-task state, the leaderboard once finished. */
export const BenchmarkRunSchema = z
  .object({
    id: z.string().min(1),
    /** the organization that owns it (lib/tenancy; absent: `default`) */
    organization: OrganizationFieldSchema,
    benchmark_id: z.string(),
    definition: BenchmarkSchema,
    status: BenchmarkRunStatusSchema,
    tasks: z.array(BenchmarkTaskStateSchema),
    created_by: z.string(),
    created_at: z.iso.datetime({ offset: true }),
    completed_at: z.iso.datetime({ offset: true }).nullable(),
    leaderboard: LeaderboardSchema.nullable(),
    error: z.string().nullable(),
  })
  .strict();
export type BenchmarkRun = z.infer<typeof BenchmarkRunSchema>;
