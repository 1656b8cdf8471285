import type { JsonObject, JsonValue } from '../../../../lib/domain/index.js';
import type { World } from '../world/types.js';

/** A call as a model makes it: tool name plus arguments exactly as sent. */
export interface ApiCall {
  tool_name: string;
  arguments: JsonObject;
}

/**
 * A value that changes between when the gold was written and when the API was recorded.
 * - `range`: a time-sensitive number (stock, ages, settling revenue); gold gets `$range` of ±`spread` around the
 *   authoring value (absolute when `absolute`, else relative), the cassette gets `recorded`.
 * - `any`: a volatile field (timestamps, generated ids); gold gets `$any`, the cassette gets `recorded`.
 * - `ignored`: a volatile field the gold keeps at its authoring value and lists in `execution.ignore_paths`.
 */
export type Volatile =
  | { path: string; kind: 'range'; spread: number; absolute?: boolean; integer: boolean; recorded: number }
  | { path: string; kind: 'any' | 'ignored'; recorded: JsonValue };

/** What the simulated API answers: HTTP status, the body at authoring time, and which parts of it drift. */
export interface ApiResult {
  status: number;
  data: JsonValue;
  volatile: Volatile[];
}

/** The arguments after the API's own normalisation (defaults applied, "25.50" read as 25.5, email resolved). */
export type NormalizedArgs = Readonly<Record<string, JsonValue | undefined>>;

export type ToolHandler = (world: World, args: NormalizedArgs, key: string) => ApiResult;

export function ok(data: JsonValue, volatile: Volatile[] = [], status = 200): ApiResult {
  return { status, data, volatile };
}

export function apiError(status: number, code: string, message: string): ApiResult {
  return { status, data: { error: { code, message } }, volatile: [] };
}

export function str(args: NormalizedArgs, key: string): string | undefined {
  const v = args[key];
  return typeof v === 'string' ? v : undefined;
}

export function num(args: NormalizedArgs, key: string): number | undefined {
  const v = args[key];
  return typeof v === 'number' ? v : undefined;
}
