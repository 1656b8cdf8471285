import type { GroupDelta, PassRateDelta } from '../domain/index.js';
import { holmAdjust } from '../statistics/index.js';
import type { PairedMeans } from './pairedMeans.js';

/**
 * One family of groups (categories, tags or complexity levels): a paired delta per group (exact McNemar, or the
 * paired t on per-case trial means: PairedMeans), with the p-values Holm-adjusted across the family, sorted by key
 * (complexity numerically).
 */
export function groupDeltas(tables: ReadonlyMap<string, PairedMeans>, options: { confidence: number; alpha: number }): GroupDelta[] {
  const keys = [...tables.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const raw = keys.map((key) => (tables.get(key) as PairedMeans).delta(options));
  const adjusted = holmAdjust(raw.map((d) => d.p_value));
  return keys.map((key, i) => {
    const p_value_adjusted = adjusted[i] as number;
    return { key, ...(raw[i] as PassRateDelta), p_value_adjusted, significant: p_value_adjusted < options.alpha };
  });
}
