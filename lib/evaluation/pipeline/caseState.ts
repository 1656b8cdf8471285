import type {
  Efficiency,
  JsonObject,
  ReferenceMetricResult,
  Scorecard,
  StageName,
  StageResult,
  ToolCall,
  Trajectory,
} from '../../domain/index.js';

/**
 * A case part-way through the waterfall. Plain JSON, so a stage worker can hand it to the next stage's queue
 * (execute, judge) in the message body: stages 3 and 4 need the parsed calls, the answer and stage 2's pairing,
 * and nothing needs the target to be invoked again.
 */
export interface CaseState {
  run_id: string;
  test_case_id: string;
  /** the trial (runs with `trials: k`); absent = 1 */
  trial?: number;
  stages: Record<StageName, StageResult>;
  calls: ToolCall[];
  answer: string | null;
  /** stage 2's pairing of expected and actual calls, and which call set matched (-1 = expected_tool_calls) */
  assignment: Array<{ expected_index: number; actual_index: number }>;
  call_set: number;
  /** the invocation's cost, carried to the scorecard */
  invocation: {
    latency_ms: number;
    input_tokens: number;
    output_tokens: number;
    cost_usd: number;
    client_type: string;
    client_version: string | null;
    eval_mode: Scorecard['eval_mode'];
    /** what a multi-agent target reported, carried to the scorecard */
    agent?: string;
    routing_reason?: string;
    /** the agent's tool loop, step by step */
    trajectory?: Trajectory;
    /** tool calls the target executed in its own loop */
    api_calls_made?: number;
    /** the entities a multi-agent endpoint says it resolved */
    entities?: JsonObject;
  };
  /** tokens, cost and API calls spent by stages 3-4 */
  evaluation: { api_calls_made: number; input_tokens: number; output_tokens: number; cost_usd: number; ms: number };
  worker_id: string;
  attempt: number;
  /** reference metrics computed beside the judge in stage 4 (absent when the run enabled none) */
  reference_metrics?: ReferenceMetricResult[];
  /** what stage 3's calls returned (tool and data, or the failure), shown to the judge for faithfulness */
  api_data?: unknown;
  /** calls made vs needed, redundant calls, turns and tokens (absent when the target did not answer) */
  efficiency?: Efficiency;
  /** a conversation case: each turn's own waterfall (`stages` above then aggregate them, see conversation.ts) */
  turns?: TurnState[];
}

/** One turn of a conversation case part-way through the waterfall: the fields of a CaseState that are per turn. */
export interface TurnState {
  stages: Record<StageName, StageResult>;
  calls: ToolCall[];
  answer: string | null;
  assignment: Array<{ expected_index: number; actual_index: number }>;
  call_set: number;
  trajectory?: Trajectory;
  input_tokens: number;
  output_tokens: number;
  api_data?: unknown;
}

/** Which stage the waterfall runs next for this state, or 'done'. */
export function nextStage(state: CaseState, enabled: { execution: boolean; semantics: boolean }): 'execution' | 'semantics' | 'done' {
  if (state.stages.syntax.status !== 'passed') return 'done';
  if (enabled.execution && isPending(state.stages.execution)) return 'execution';
  if (enabled.semantics && isPending(state.stages.semantics)) return 'semantics';
  return 'done';
}

function isPending(stage: StageResult): boolean {
  return stage.status === 'skipped' && stage.message === PENDING;
}

/** The message on a stage that is enabled and has not run yet. */
export const PENDING = 'pending: not run yet';
