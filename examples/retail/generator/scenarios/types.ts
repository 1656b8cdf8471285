import type { ExpectedToolCall, JsonObject, JsonValue } from '../../../../lib/domain/index.js';
import type { ToolName } from '../catalog.js';
import type { Prng } from '../prng.js';
import type { World } from '../world/types.js';

export const CASE_CATEGORIES = ['orders', 'products', 'inventory', 'shipping', 'refunds', 'support', 'analytics', 'abstention'] as const;
export type CaseCategory = (typeof CASE_CATEGORIES)[number];
export type Complexity = 1 | 2 | 3 | 4 | 5;

export interface Call {
  tool_name: ToolName;
  arguments: JsonObject;
}

/** An API answer as an agent saw it (recorded data) or as the gold author saw it (authoring data). */
export interface ResultView {
  status: number;
  data: JsonValue;
}

/**
 * Sentences of an answer and the key facts they state. With `reference` true the answer is the gold's: it leaves
 * out time-sensitive numbers, which the gold author cannot know.
 */
export interface Answer {
  sentences: string[];
  facts: string[];
}

/** A right answer in another form: still passes every stage. */
export type BenignLabel =
  | 'one_of_value'
  | 'optional_omitted'
  | 'optional_included'
  | 'explicit_default'
  | 'alternative_call_set'
  | 'array_reordered'
  | 'parallel_order_swapped';

export interface CallVariant {
  label: BenignLabel;
  calls: Call[];
}

/** One gold case before it becomes a TestCase: question, the right calls, and how to say the answer. */
export interface CaseSpec {
  kind: string;
  category: CaseCategory;
  complexity: Complexity;
  tags: string[];
  question: string;
  /** the calls a perfect agent makes (concrete values; their data becomes expected_raw_data) */
  calls: Call[];
  /** expected_tool_calls with matchers; default: `calls` as they are */
  expected?: ExpectedToolCall[];
  alternatives?: { expected: ExpectedToolCall[]; calls: Call[] }[];
  /** other right ways to call (a `$one_of` value, an `$optional` argument left out, ...) */
  variants?: CallVariant[];
  /** results aligned with `calls` (undefined: not called) -> the answer */
  answer: (results: readonly (ResultView | undefined)[], reference: boolean) => Answer;
  /** no expected answer or facts: stage 4 is skipped for this case */
  noReference?: boolean;
  /** what an agent says when it answers without calling (a plausible non-answer) */
  textOnly?: string;
  /** abstention cases: the call an over-eager agent makes anyway, and what it says after */
  tempting?: { call: Call; answer: string };
}

export interface ScenarioContext {
  world: World;
  rng: Prng;
  /** what the API answers to a call (authoring-time data): scenarios use it to pick cases with sensible results */
  probe: (call: Call) => ResultView;
}

export type Scenario = (ctx: ScenarioContext) => CaseSpec[];

/** The data of a 2xx result, or undefined. */
export function okData<T>(result: ResultView | undefined): T | undefined {
  return result && result.status < 300 ? (result.data as T) : undefined;
}

/** A sentence for a failed or missing result. */
export function failureSentence(result: ResultView | undefined, what: string): string {
  if (!result) return `I could not look up ${what}.`;
  const error = (result.data as { error?: { message?: string } } | null)?.error;
  return `I could not get ${what}: ${error?.message ?? `the API answered ${result.status}`}`;
}

export function money(x: number): string {
  return `$${x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
