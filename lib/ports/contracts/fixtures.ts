/** Valid sample entities for the contract suites (deterministic; override what a test is about). */
import {
  type Client,
  type Benchmark,
  type BenchmarkRun,
  type Experiment,
  resolveEvaluationConfig,
  type Run,
  RunSchema,
  type Scorecard,
  type StageName,
  type StageResult,
  type StoredToolCatalog,
  type TargetSystem,
  type TestCase,
  type TestSuite,
} from '../../domain/index.js';

export const FIXED_TIME = '2026-03-01T12:00:00.000Z';

export interface TestCaseTraits {
  nl_query?: string;
  expected_nl_response?: string;
  tags?: string[];
  category?: string;
  complexity?: number;
  api_version?: string;
}

export function sampleTestCase(id: string, traits: TestCaseTraits = {}): TestCase {
  const metadata: TestCase['metadata'] = { complexity_level: traits.complexity ?? 1, tags: traits.tags ?? [] };
  if (traits.category !== undefined) metadata.category = traits.category;
  if (traits.api_version !== undefined) metadata.api_version = traits.api_version;
  const testCase: TestCase = {
    id,
    nl_query: traits.nl_query ?? `What is the weather in city ${id}?`,
    expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: id, unit: { $one_of: ['C', 'celsius'] } } }],
    alternative_tool_calls: [],
    call_order: 'any',
    expected_facts: [],
    metadata,
  };
  if (traits.expected_nl_response !== undefined) testCase.expected_nl_response = traits.expected_nl_response;
  return testCase;
}

export function sampleSuite(id: string, name = `Suite ${id}`): TestSuite {
  return { id, name, kind: 'static', test_case_ids: ['case-1', 'case-2'], created_at: FIXED_TIME, updated_at: FIXED_TIME };
}

export function sampleCatalog(name: string, version = '1'): StoredToolCatalog {
  return {
    id: `${name}@${version}`,
    name,
    tool_schema_version: version,
    tools: [
      { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    ],
  };
}

export function sampleTarget(id: string, name = `Target ${id}`): TargetSystem {
  return {
    id,
    name,
    settings: { kind: 'replay', outputs_path: 'outputs.jsonl' },
    client_type: 'custom',
    timeout_ms: 30_000,
    max_retries: 3,
    rate_limit: { requests_per_second: 50, max_in_flight: 16 },
    created_at: FIXED_TIME,
    updated_at: FIXED_TIME,
  };
}

export function sampleClient(id: string, name = `Client ${id}`): Client {
  return { id, name, suite_ids: ['suite-1'], target_id: 'target-1', notify: [], created_at: FIXED_TIME, updated_at: FIXED_TIME };
}

export function sampleExperiment(id: string): Experiment {
  return {
    id,
    name: `Experiment ${id}`,
    hypothesis: 'variant b passes more cases than a',
    suite_id: 'suite-1',
    suite_version: 'latest',
    target_id: 'target-1',
    primary_metric: 'pass_rate',
    guardrails: [{ metric: 'latency_ms', max_degradation: 0.2 }],
    variants: [
      { name: 'a', control: true },
      { name: 'b', control: false, target_id: 'target-2' },
    ],
    method: 'sequential',
    alpha: 0.05,
    power: 0.8,
    minimum_detectable_effect: 0.05,
    loss_threshold: 0.005,
    minimum_sample_size: 1565,
    status: 'draft',
    created_by: 'tester',
    created_at: FIXED_TIME,
    runs: {},
    sequential_p: {},
  };
}

export function sampleBenchmark(id: string): Benchmark {
  return {
    id,
    name: `Benchmark ${id}`,
    tasks: [
      { id: 'smoke', suite_id: 'suite-1', suite_version: 'latest', target_id: 'target-1', depends_on: [], gate: { min_pass_rate: 0.8 } },
      { id: 'full', suite_id: 'suite-1', suite_version: 2, target_id: 'target-1', depends_on: ['smoke'] },
      { id: 'other', client_id: 'client-1', suite_version: 'live', depends_on: [] },
    ],
    parallelism: 2,
    created_by: 'tester',
    created_at: FIXED_TIME,
  };
}

export function sampleBenchmarkRun(id: string): BenchmarkRun {
  const pending = (task_id: string) => ({
    task_id,
    status: 'pending' as const,
    run_id: null,
    run_status: null,
    scored: null,
    passed: null,
    pass_rate: null,
    reason: null,
    started_at: null,
    finished_at: null,
  });
  return {
    id,
    benchmark_id: 'bench-1',
    definition: sampleBenchmark('bench-1'),
    status: 'running',
    tasks: [pending('smoke'), pending('full'), pending('other')],
    created_by: 'tester',
    created_at: FIXED_TIME,
    completed_at: null,
    leaderboard: null,
    error: null,
  };
}

/**
 * The stored run inside a run as `GET /api/v1/runs/{id}` shows it: the view's read-only parts (statistics, progress,
 * health, links, efficiency, trial statistics, the ETag ...) dropped, so a test can store a copy of a real run.
 */
export function storedRunOf(view: unknown): Run {
  return RunSchema.strip().parse(view);
}

export function sampleRun(id: string, overrides: Partial<Run> = {}): Run {
  return {
    id,
    client_id: null,
    suite_id: 'suite-1',
    target_id: 'target-1',
    status: 'pending',
    config: resolveEvaluationConfig({ profile: 'ci' }),
    triggered_by: 'api',
    trigger_metadata: {},
    baseline_run_id: null,
    parent_run_id: null,
    total_cases: 10,
    shard_count: 1,
    created_at: FIXED_TIME,
    started_at: null,
    completed_at: null,
    deadline_at: '2026-03-01T18:00:00.000Z',
    error: null,
    notes: [],
    ...overrides,
  };
}

function stage(name: StageName, status: StageResult['status'], extra: Partial<StageResult> = {}): StageResult {
  const passed = status === 'passed';
  return { stage: name, status, passed, score: status === 'skipped' ? null : passed ? 1 : 0, duration_ms: 0.25, ...extra };
}

export interface ScorecardTraits {
  passed?: boolean;
  failing_stage?: StageName;
  error_code?: Scorecard['error_code'];
  attempt?: number;
  tags?: string[];
  category?: string | null;
  score?: number;
}

/** A card of a case that passed, or failed at `failing_stage` (default logic) when `passed` is false. */
export function sampleScorecard(runId: string, testCaseId: string, traits: ScorecardTraits = {}): Scorecard {
  const passed = traits.passed ?? true;
  const failing = passed ? undefined : (traits.failing_stage ?? 'logic');
  const errorCode = passed ? undefined : (traits.error_code ?? 'argument_mismatch');
  const status = (name: StageName): StageResult['status'] => {
    if (!failing) return name === 'syntax' || name === 'logic' ? 'passed' : 'skipped';
    const order = ['syntax', 'logic', 'execution', 'semantics'];
    const at = order.indexOf(failing);
    const here = order.indexOf(name);
    return here < at ? 'passed' : here === at ? 'failed' : 'skipped';
  };
  const stages = {
    syntax: stage('syntax', status('syntax')),
    logic: stage('logic', status('logic')),
    execution: stage('execution', status('execution')),
    semantics: stage('semantics', status('semantics')),
  };
  if (failing && errorCode)
    stages[failing] = { ...stages[failing], error_code: errorCode, message: 'city differs: expected "Paris", got "Lyon"' };
  const card: Scorecard = {
    run_id: runId,
    test_case_id: testCaseId,
    timestamp: FIXED_TIME,
    stages,
    generated_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
    generated_nl_response: 'It is sunny in Paris.',
    tool_results: [{ tool_name: 'get_weather', expected_calls: 1, actual_calls: 1, matched_calls: passed ? 1 : 0, passed }],
    overall_passed: passed,
    overall_score: traits.score ?? (passed ? 1 : 0.3),
    latency_ms: 120,
    evaluation_ms: 0.8,
    worker_id: 'worker-1',
    attempt_number: traits.attempt ?? 1,
    client_type: 'custom',
    client_version: null,
    eval_mode: 'replay',
    input_tokens: 100,
    output_tokens: 20,
    api_calls_made: 0,
    estimated_cost_usd: 0.0002,
    category: traits.category === undefined ? 'weather' : traits.category,
    tags: traits.tags ?? ['smoke'],
    complexity_level: 2,
  };
  if (failing) card.failing_stage = failing;
  if (errorCode) card.error_code = errorCode;
  return card;
}

/** Drains an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A store factory: a fresh, empty store for each test. */
export type StoreFactory<S> = () => S | Promise<S>;
