import type { JsonValue } from '../../lib/domain/index.js';

/**
 * One call a scripted (simulated) model makes. An argument `{"$from": {"call": i, "path": "a.b"}}` is filled in from
 * the result the platform sent back for call i of the same trial (dot path into its JSON).
 */
export interface ScriptedCall {
  name: string;
  /** an object, or text when the generated output had unreadable arguments (sent as is) */
  arguments: JsonValue;
  /** the call's position among all calls of the trial */
  index?: number;
}

/** The model's part in one user turn: its calls model turn by model turn, then its answer. */
export interface ScriptedReply {
  turns: ScriptedCall[][];
  answer: string;
}

/**
 * One way the simulated model works a case: its calls turn by turn, then its answer. A conversation case's trial has
 * `conversation`, the reply to each user turn in order (`$from` indices count the calls of that user turn).
 * `continue_after_error`: an error result does not stop the script (it scripts its own retry, or its own wording).
 */
export interface Trial extends ScriptedReply {
  conversation?: ScriptedReply[];
  continue_after_error?: boolean;
}

/** decisions.jsonl, one line per (simulated model, case). GENERATED (generateDecisions.ts), labelled so. */
export interface Decision {
  generated: true;
  /** the model name the server answers to: `simulated-model-a` | `simulated-model-b` */
  model: string;
  label: string;
  test_case_id: string;
  nl_query: string;
  /** trial n (1-based, counted per model and case) follows trials[(n - 1) % trials.length] */
  trials: Trial[];
  /** the answer when the request offers no tools (the baseline) */
  no_tools_answer: string;
}
