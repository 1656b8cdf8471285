import type { GroupDelta, PassRateDelta } from '../domain/index.js';
import { holmAdjust } from '../statistics/index.js';
import { passRateDelta, type Counts } from './passRateDelta.js';

/**
 * One family of groups (categories, tags or complexity levels): a paired delta per group, with the exact McNemar
 * p-values Holm-adjusted across the family, sorted by key (complexity numerically).
 */
export function groupDeltas(tables: ReadonlyMap<string, Counts>, options: { confidence: number; alpha: number }): GroupDelta[] {
  const keys = [...tables.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const raw = keys.map((key) => passRateDelta(tables.get(key) as Counts, options));
  const adjusted = holmAdjust(raw.map((d) => d.p_value));
  return keys.map((key, i) => {
    const p_value_adjusted = adjusted[i] as number;
    return { key, ...(raw[i] as PassRateDelta), p_value_adjusted, significant: p_value_adjusted < options.alpha };
  });
}
