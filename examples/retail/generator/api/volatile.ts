import type { ExpectedValue, JsonValue } from '../../../../lib/domain/index.js';
import { keyedUnit, round2 } from '../prng.js';
import type { ApiResult, Volatile } from './types.js';

/**
 * A time-sensitive number: the authoring value stays in the data, the recorded value drifts from it by up to 60%
 * of the allowed spread (so it always lies inside the gold's `$range`).
 */
export function timeSensitive(
  key: string,
  path: string,
  value: number,
  spread: number,
  options: { integer?: boolean; absolute?: boolean } = {},
): Volatile {
  const integer = options.integer ?? Number.isInteger(value);
  const width = options.absolute ? spread : Math.abs(value) * spread;
  const drift = (keyedUnit(`${key}${path}`) * 2 - 1) * 0.6 * width;
  const raw = Math.max(0, value + drift);
  return { path, kind: 'range', spread, absolute: options.absolute ?? false, integer, recorded: integer ? Math.round(raw) : round2(raw) };
}

export function volatileField(path: string, recorded: JsonValue): Volatile {
  return { path, kind: 'any', recorded };
}

/** The response as the cassette holds it: every volatile part at its recording-time value. */
export function recordedData(result: ApiResult): JsonValue {
  let data = structuredClone(result.data);
  for (const v of result.volatile) data = setAt(data, v.path, v.recorded);
  return data;
}

/** The response as the gold expects it: `$range` for time-sensitive numbers, `$any` for volatile fields. */
export function expectedData(result: ApiResult): ExpectedValue {
  let data = structuredClone(result.data) as ExpectedValue;
  for (const v of result.volatile) if (v.kind !== 'ignored') data = setAt(data, v.path, matcherFor(v, getAt(result.data, v.path)));
  return data;
}

/** The JSON pointers the gold should list in `execution.ignore_paths`. */
export function ignoredPaths(result: ApiResult): string[] {
  return result.volatile.filter((v) => v.kind === 'ignored').map((v) => v.path);
}

function matcherFor(v: Volatile, authored: JsonValue | undefined): ExpectedValue {
  if (v.kind !== 'range') return { $any: true };
  const value = typeof authored === 'number' ? authored : v.recorded;
  const width = v.absolute ? v.spread : Math.abs(value) * v.spread;
  const lo = Math.max(0, value - width);
  const hi = value + width;
  return { $range: v.integer ? { min: Math.floor(lo), max: Math.ceil(hi) } : { min: round2(lo - 0.005), max: round2(hi + 0.005) } };
}

function segments(path: string): string[] {
  return path === ''
    ? []
    : path
        .slice(1)
        .split('/')
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function getAt(data: JsonValue, path: string): JsonValue | undefined {
  let node: JsonValue | undefined = data;
  for (const seg of segments(path)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(seg)] : node[seg];
  }
  return node;
}

function setAt<T extends JsonValue | ExpectedValue>(data: T, path: string, value: T): T {
  const segs = segments(path);
  if (segs.length === 0) return value;
  let node: unknown = data;
  for (const seg of segs.slice(0, -1)) node = (node as Record<string, unknown>)[seg];
  if (node === null || typeof node !== 'object') throw new Error(`volatile path ${path} does not exist in the response`);
  (node as Record<string, unknown>)[segs[segs.length - 1]!] = value;
  return data;
}
