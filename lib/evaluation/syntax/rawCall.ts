import type { OutputFormat } from './outcome.js';

/** The formats that arrive as JSON (parsed from text or given as objects). */
export type StructuredFormat = Exclude<OutputFormat, 'python_calls' | 'text'>;

/** A call as a format extractor found it, before its name and arguments are checked. */
export interface RawCall {
  name: unknown;
  /** the arguments as given: JSON text, an object, or absent */
  args: unknown;
  callId: unknown;
  /** position of the call's item in its container (see CallLocation) */
  index: number;
  /** JSON pointer of the arguments inside the item: `/function/arguments`, `/input`, `/parameters` */
  argsPath: string;
}

/**
 * Where an extraction's calls sit, computed only when needed (messages, float literals of object arguments),
 * so the hot path builds no strings.
 */
export interface CallLocation {
  /** for messages: `tool_calls`, `output`, `content`, `list`; with `single`, the whole label (`function_call`) */
  label: string;
  single?: boolean;
  /** JSON pointer of item `index` inside the parsed document */
  itemPointer: (index: number) => string;
}

/** What a format extractor recognised in a parsed output. */
export interface Extraction {
  format: StructuredFormat;
  calls: RawCall[];
  location: CallLocation;
  answer: string | null;
  /** why the output may be cut short (finish_reason `length`, `max_tokens`), added to failure messages */
  truncation?: string;
  /** an explicit empty list of calls is a deliberate "no call", not an empty output */
  emptyIsAbstention?: boolean;
}

/** `tool_calls[1]`, or the label of a single call. */
export function whereIs(location: CallLocation, index: number): string {
  return location.single ? location.label : `${location.label}[${index}]`;
}
