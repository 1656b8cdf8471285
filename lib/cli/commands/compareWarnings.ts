import type { Run } from '../../domain/index.js';

type RunLike = Pick<Run, 'id' | 'suite_id' | 'config'>;

/** The runs' labels as the comparison names them: A for the reference, then B, C, ... */
const label = (i: number): string => String.fromCharCode(65 + i);

/**
 * What makes two runs not like for like, one warning line per difference: the stage profile, the coercion policy,
 * the enabled stages (a stage enabled in only some runs is compared only over the cases where it ran in both, so
 * its row says nothing about the others), the suite (only the shared cases are paired). Empty when they match.
 */
export function comparisonWarnings(runs: readonly RunLike[]): string[] {
  const warnings: string[] = [];
  const differ = (what: string, valueOf: (r: RunLike) => string, consequence: string): void => {
    const values = runs.map(valueOf);
    if (new Set(values).size > 1)
      warnings.push(`the runs differ in ${what} (${values.map((v, i) => `${label(i)} ${v}`).join(', ')}): ${consequence}`);
  };
  differ('stage profile', (r) => r.config.profile ?? 'none', 'stage switches and thresholds may not match');
  differ(
    'coercion',
    (r) => (typeof r.config.coercion === 'string' ? r.config.coercion : JSON.stringify(r.config.coercion)),
    'the same output can pass in one run and fail in another',
  );
  for (const stage of ['execution', 'semantics'] as const) {
    const enabled = runs.map((r) => r.config[stage].enabled);
    if (new Set(enabled).size > 1) {
      const on = enabled.flatMap((e, i) => (e ? [label(i)] : [])).join(', ');
      warnings.push(`stage ${stage} ran only in ${on}: it is not compared, and pass rates that include it are not like for like`);
    }
  }
  differ('suite', (r) => r.suite_id, 'only the cases both runs scored are paired');
  return warnings;
}
