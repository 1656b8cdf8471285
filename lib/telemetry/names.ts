/** Span and metric names of DESIGN §8, declared once (dashboards, alerts and tests use these strings). */
export const SPANS = {
  run: 'eval.run',
  invokeTarget: 'eval.invoke_target_system',
  stage: {
    syntax: 'eval.stage.syntax',
    logic: 'eval.stage.logic',
    execution: 'eval.stage.execution',
    semantics: 'eval.stage.semantics',
  },
  writeScorecard: 'eval.write_scorecard',
} as const;

export const METRICS = {
  /** counter: queue messages a stage worker finished (scorecard written or forwarded); attribute `eval.queue` */
  tasksProcessed: 'eval.tasks.processed',
  /** counter: messages that could not be processed (malformed, a stage that could not score, a batch that threw); `eval.queue`, `eval.reason` */
  tasksFailed: 'eval.tasks.failed',
  /** histogram (ms): one stage of one case; attribute `eval.stage` */
  stageDuration: 'eval.stage.duration_ms',
  /** observable gauge: active messages per queue; attribute `eval.queue` */
  queueDepth: 'eval.queue.depth',
  /** gauge: 0 closed, 1 half-open, 2 open; attribute `eval.target_id` */
  circuitState: 'eval.circuit.state',
  /** counter: LLM tokens; attributes `eval.component` (judge | target), `gen_ai.request.model`, `gen_ai.token.type` (input | output) */
  llmTokens: 'eval.llm.tokens',
  /** histogram (ms): one LLM request; attributes `eval.component`, `gen_ai.request.model` */
  llmLatency: 'eval.llm.latency_ms',
  /** counter: runs planned (started); attribute `eval.trigger` (api | schedule | github | cli | demo | retry) */
  runsStarted: 'eval.runs.started',
  /** counter: runs finalized; attributes `eval.status` (completed | timed_out | cancelled | failed), `eval.trigger` */
  runsFinished: 'eval.runs.finished',
} as const;

/** Attribute keys used on spans and metrics. */
export const ATTRIBUTES = {
  runId: 'eval.run_id',
  testCaseId: 'eval.test_case_id',
  targetId: 'eval.target_id',
  stage: 'eval.stage',
  queue: 'eval.queue',
  reason: 'eval.reason',
  component: 'eval.component',
  status: 'eval.status',
  trigger: 'eval.trigger',
  errorCode: 'eval.error_code',
  scorecards: 'eval.scorecards',
  model: 'gen_ai.request.model',
  tokenType: 'gen_ai.token.type',
} as const;

export type StageSpanKey = keyof typeof SPANS.stage;
