import type { NumericTolerance } from '../../domain/index.js';

const NUMERIC_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const FLOAT_MARK = /[.eE]/;

/** The number a numeric string spells (`"5"`, `" -2.5e3 "`), or undefined. No hex, no `Infinity`, no empty string. */
export function parseNumericString(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMERIC_TEXT.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/** Whether numeric text is written in float form (`5.0`, `1e3`). */
export function isFloatText(text: string): boolean {
  return FLOAT_MARK.test(text);
}

/**
 * `actual` is within tolerance of `expected`: |actual - expected| <= max(absolute, relative * |expected|).
 * A `$tolerance` given by the case replaces the defaults entirely (an unset side counts as 0).
 */
export function withinTolerance(
  expected: number,
  actual: number,
  override: NumericTolerance | undefined,
  defaultRelative: number,
  defaultAbsolute: number,
): boolean {
  const relative = override ? (override.relative ?? 0) : defaultRelative;
  const absolute = override ? (override.absolute ?? 0) : defaultAbsolute;
  if (relative === 0 && absolute === 0) return false;
  return Math.abs(actual - expected) <= Math.max(absolute, relative * Math.abs(expected));
}
