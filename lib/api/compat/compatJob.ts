import { createHash, randomUUID } from 'node:crypto';
import {
  DEFAULT_JUDGE_CRITERIA,
  TargetSystemSchema,
  type Run,
  type Scorecard,
  type TargetSystem,
  type TestCase,
} from '../../domain/index.js';
import { ConflictError, type Clock, type Stores } from '../../ports/index.js';
import { importCases } from '../../goldset/index.js';
import { createRun } from '../../runs/index.js';
import type { RunOrchestrations } from '../route.js';
import {
  aggregateScorers,
  COMPAT_SCORERS,
  DATA_METHODOLOGY_CRITERION,
  scoreQuestion,
  weightedMean,
  type RequiredScorers,
} from './compatScorers.js';
import { DEFAULT_REQUIRED_SCORERS } from './compatScorerNames.js';
import type { CompatEvaluateRequest, CompatJob, CompatJobStatus, CompatQuestionResult } from './compatSchemas.js';

/** Marks the runs the compatibility routes started (`trigger_metadata.source`). */
export const COMPAT_SOURCE = 'evaluate-compat';
/** Tag of every test case a job imports (list the gold set with a filter that leaves them out). */
export const COMPAT_TAG = 'evaluate-compat';

interface Deps {
  stores: Stores;
  clock: Clock;
  orchestrations: RunOrchestrations;
}

/**
 * Starts an evaluation job on the run machinery: the http target for `target_url` (reused by a hash of the URL
 * and request template), one test case per question (`<job>-q<n>`: expected answer, agent and reason, tagged
 * `evaluate-compat` and `job:<job>`, category = the expected agent), a static suite `<job>`, and a run `<job>`
 * (stage 3 off, stage 4 on with the job's judge and threshold) started like any other.
 */
export async function startCompatJob(request: CompatEvaluateRequest, deps: Deps): Promise<Run> {
  const { stores, clock } = deps;
  const now = clock.now().toISOString();
  const jobId = `job-${randomUUID()}`;
  const target = await ensureTarget(stores, request, now, jobId);
  const cases = request.questions.map((q, i): TestCase => ({
    id: `${jobId}-q${i + 1}`,
    nl_query: q.question,
    expected_tool_calls: [],
    alternative_tool_calls: [],
    call_order: 'any',
    expected_nl_response: q.expected_outcome.response,
    expected_facts: [],
    ...(q.expected_outcome.agent ? { expected_agent: q.expected_outcome.agent } : {}),
    ...(q.expected_outcome.reason ? { expected_routing_reason: q.expected_outcome.reason } : {}),
    metadata: {
      complexity_level: 1,
      tags: [COMPAT_TAG, `job:${jobId}`],
      ...(q.expected_outcome.agent ? { category: q.expected_outcome.agent } : {}),
      source: COMPAT_SOURCE,
      created_at: now,
      updated_at: now,
    },
  }));
  await importCases(stores, { cases });
  await stores.suites.create({
    id: jobId,
    name: `evaluation job ${jobId}`,
    description: `POST /api/evaluate against ${target.id}`,
    kind: 'static',
    test_case_ids: cases.map((c) => c.id),
    // hidden from GET /v1/test-suites (include_owned=true shows it), deleted with the job
    owner: { kind: 'evaluate-job', id: jobId },
    created_at: now,
    updated_at: now,
  });
  const run = await createRun(
    {
      run_id: jobId,
      suite_id: jobId,
      target_id: target.id,
      triggered_by: 'api',
      trigger_metadata: { source: COMPAT_SOURCE, required_scorers: request.required_scorers.join(',') },
      config: {
        execution: { enabled: false },
        semantics: {
          enabled: true,
          judge: request.judge,
          pass_threshold: request.pass_threshold,
          // the LLM judge also rates the data source and method (the data_methodology scorer)
          ...(request.judge === 'openai' ? { criteria: [...DEFAULT_JUDGE_CRITERIA, DATA_METHODOLOGY_CRITERION] } : {}),
        },
      },
    },
    { stores, clock },
  );
  try {
    await deps.orchestrations.start(run.id);
  } catch (err) {
    await stores.runs.updateRun(run.id, { status: 'failed', error: `could not start the orchestration: ${(err as Error).message}` });
    throw err;
  }
  return run;
}

/**
 * The target of a job: an http target answering `{response, agent, reason}`, one per URL and request template,
 * owned by the job that created it (hidden from ordinary lists; clean-up deletes it once no job uses it).
 */
async function ensureTarget(stores: Stores, request: CompatEvaluateRequest, now: string, jobId: string): Promise<TargetSystem> {
  const hash = createHash('sha256').update(`${request.target_url}\n${request.request_template}`).digest('hex').slice(0, 16);
  const id = `compat-${hash}`;
  const existing = await stores.targets.get(id);
  if (existing) return existing;
  const target = TargetSystemSchema.parse({
    id,
    name: `evaluate: ${new URL(request.target_url).host}`,
    settings: {
      kind: 'http',
      url: request.target_url,
      method: 'POST',
      request_template: request.request_template,
      response: { answer_path: '$.response', agent_path: '$.agent', reason_path: '$.reason' },
    },
    client_type: COMPAT_SOURCE,
    owner: { kind: 'evaluate-job', id: jobId },
    created_at: now,
    updated_at: now,
  });
  try {
    return await stores.targets.create(target);
  } catch (err) {
    if (err instanceof ConflictError) return (await stores.targets.get(id)) ?? target; // created meanwhile
    throw err;
  }
}

/** The contract's four statuses: a cancelled or timed-out run is a failed job (its error says which). */
const STATUS: Record<Run['status'], CompatJobStatus> = {
  pending: 'queued',
  running: 'running',
  stalled: 'running',
  completed: 'completed',
  degraded: 'completed',
  failed: 'failed',
  cancelled: 'failed',
  timed_out: 'failed',
};

/** The required scorers the job was started with (older jobs: the default). */
const requiredOf = (run: Run): RequiredScorers => {
  const stored = run.trigger_metadata.required_scorers;
  return new Set(typeof stored === 'string' && stored ? stored.split(',') : DEFAULT_REQUIRED_SCORERS);
};

const seconds = (from: string, to: number): number => Math.max(0, Math.round((to - Date.parse(from)) / 100) / 10);

/**
 * A job as `GET /api/evaluate/{job_id}` shows it; undefined when the run is not one the compatibility routes started.
 * `origin` is where the platform answers (the report and dashboard links).
 */
export async function compatJobView(
  run: Run,
  stores: Stores,
  statusUrl: string,
  origin: string,
  now: Date,
): Promise<CompatJob | undefined> {
  if (run.trigger_metadata.source !== COMPAT_SOURCE) return undefined;
  const suite = await stores.suites.get(run.suite_id);
  const ids = suite?.test_case_ids ?? [];
  const total = ids.length;
  const required = requiredOf(run);
  const cases = await stores.testCases.getTestCases(ids);
  const cards = new Map<string, Scorecard>();
  for await (const card of stores.scorecards.iterateScorecards(run.id)) cards.set(card.test_case_id, card);
  const threshold = run.config.semantics.pass_threshold;
  const scored = cases.map((tc) => ({ tc, card: cards.get(tc.id), score: scoreQuestion(cards.get(tc.id), tc, threshold, required) }));
  const answered = scored.filter((q) => q.card);
  const completed = answered.length;
  const finished = !['pending', 'running', 'stalled'].includes(run.status);
  const endMs = run.completed_at ? Date.parse(run.completed_at) : now.getTime();
  const elapsed = run.started_at ? seconds(run.started_at, endMs) : null;
  const report = `${origin}/api/v1/runs/${encodeURIComponent(run.id)}/report`;
  const view: CompatJob = {
    job_id: run.id,
    status: STATUS[run.status],
    status_url: statusUrl,
    total_questions: total,
    progress: {
      completed,
      total,
      percent: total ? Math.round((completed / total) * 1000) / 10 : 0,
      questions: { completed, total },
      scorers: COMPAT_SCORERS.map((spec, i) => ({
        name: spec.name,
        completed,
        scored: answered.filter((q) => q.score.scorers[i]!.score !== null).length,
        total,
      })),
    },
    submitted_at: run.created_at,
    created_at: run.created_at,
    started_at: run.started_at,
    completed_at: run.completed_at,
    duration_seconds: elapsed,
    estimated_completion_seconds: finished
      ? 0
      : elapsed !== null && completed > 0
        ? Math.round(((total - completed) * elapsed) / completed)
        : null,
    error:
      run.status === 'timed_out'
        ? `the job timed out with ${completed} of ${total} questions answered`
        : run.status === 'cancelled'
          ? `the job was cancelled with ${completed} of ${total} questions answered${run.error ? `: ${run.error}` : ''}`
          : run.error,
    report_urls: {
      json: report,
      markdown: `${report}?format=markdown`,
      html: `${report}?format=html`,
      dashboard: `${origin}/#/runs/${encodeURIComponent(run.id)}`,
    },
    required_scorers: COMPAT_SCORERS.map((s) => s.name).filter((name) => required.has(name)),
    run_id: run.id,
    target_id: run.target_id,
  };
  if (!finished) return view;
  return { ...view, ...verdict(scored, threshold, required) };
}

function verdict(
  scored: ReadonlyArray<{ tc: TestCase; card: Scorecard | undefined; score: ReturnType<typeof scoreQuestion> }>,
  threshold: number,
  required: RequiredScorers,
): Pick<
  CompatJob,
  'passed' | 'overall_score' | 'scorer_results' | 'summary' | 'results' | 'required_passed' | 'required_failed' | 'critical_issues'
> {
  const cases = scored.map((q) => q.tc);
  const scorerResults = aggregateScorers(
    scored.map((q) => q.score),
    threshold,
    required,
  );
  const overall = weightedMean(scorerResults);
  const requiredResults = scorerResults.filter((s) => s.required);
  const requiredFailed = requiredResults.filter((s) => s.passed === false);
  // optional scorers inform the overall score; only required ones can fail the job on their own
  const passed = overall !== null && overall >= threshold && requiredFailed.length === 0;
  const passedQuestions = scored.filter((q) => q.score.passed).length;
  const results: CompatQuestionResult[] = scored.map(({ tc, card, score }) => ({
    question_id: tc.id,
    question: tc.nl_query,
    passed: score.passed,
    score: score.score,
    response: card?.generated_nl_response ?? null,
    agent: card?.agent ?? null,
    reason: card?.routing_reason ?? null,
    expected_outcome: {
      response: tc.expected_nl_response ?? null,
      agent: tc.expected_agent ?? null,
      reason: tc.expected_routing_reason ?? null,
    },
    error:
      card && card.stages.syntax.status !== 'passed' && (card.error_code === 'target_error' || card.error_code === 'target_timeout')
        ? (card.stages.syntax.message ?? card.error_code)
        : null,
    scorer_results: score.scorers,
  }));
  const pct = cases.length ? ((100 * passedQuestions) / cases.length).toFixed(1) : '0.0';
  const parts = scorerResults.filter((s) => s.score !== null && s.weight > 0).map((s) => `${s.name} ${s.score!.toFixed(3)}`);
  const summary =
    `${passedQuestions} of ${cases.length} questions passed (${pct}%); overall score ${overall === null ? 'n/a' : overall.toFixed(3)} ` +
    `(pass at ${threshold}): ${passed ? 'passed' : 'failed'}. ${parts.join(', ')}.`;
  return {
    passed,
    overall_score: overall,
    scorer_results: scorerResults,
    required_passed: requiredResults.filter((s) => s.passed === true).map((s) => s.name),
    required_failed: requiredFailed.map((s) => s.name),
    critical_issues: requiredFailed.map((s) => ({ scorer: s.name, rationale: s.rationale })),
    summary,
    results,
  };
}
