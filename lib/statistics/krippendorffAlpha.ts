/**
 * Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", sections A-E):
 * alpha = 1 - D_o / D_e from the coincidence matrix of pairable values. Any number of coders, missing values
 * allowed (a unit coded by fewer than two coders is not pairable and drops out), nominal, ordinal, interval or
 * ratio metric.
 */

export type MeasurementLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';
export const MEASUREMENT_LEVELS: readonly MeasurementLevel[] = ['nominal', 'ordinal', 'interval', 'ratio'];

/** One label one annotator gave one item. */
export interface Rating {
  item: string;
  annotator: string;
  label: string | number | boolean;
}

export interface AlphaOptions {
  level: MeasurementLevel;
  /** ordinal with string labels: the ranked values, lowest first (numbers are ranked numerically without it) */
  order?: readonly (string | number | boolean)[];
}

export interface AlphaResult {
  level: MeasurementLevel;
  /** null when undefined: fewer than two pairable values, or every pairable value identical (D_e = 0) */
  alpha: number | null;
  observedDisagreement: number;
  expectedDisagreement: number;
  /** n in the paper: pairable values (labels in units with at least two labels) */
  pairableValues: number;
  /** units with at least two labels */
  pairableUnits: number;
  /** the distinct values in rank order, and the coincidence matrix over them (rows and columns in that order) */
  values: (string | number | boolean)[];
  coincidences: number[][];
}

const keyOf = (v: string | number | boolean): string => `${typeof v}:${String(v)}`;

function rankValues(values: (string | number | boolean)[], options: AlphaOptions): (string | number | boolean)[] {
  const { level, order } = options;
  if (level === 'interval' || level === 'ratio') {
    for (const v of values) {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new RangeError(`label: ${level} alpha needs numeric labels, got ${JSON.stringify(v)}`);
      }
      if (level === 'ratio' && v < 0) throw new RangeError(`label: ratio alpha needs labels >= 0, got ${v}`);
    }
    return [...values].sort((a, b) => (a as number) - (b as number));
  }
  if (level === 'ordinal') {
    if (order && order.length > 0) {
      const rank = new Map(order.map((v, i) => [keyOf(v), i]));
      for (const v of values) {
        if (!rank.has(keyOf(v))) throw new RangeError(`label: ${JSON.stringify(v)} is not in the ordinal order`);
      }
      return [...values].sort((a, b) => rank.get(keyOf(a))! - rank.get(keyOf(b))!);
    }
    if (values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      return [...values].sort((a, b) => (a as number) - (b as number));
    }
    throw new RangeError('label: ordinal alpha with non-numeric labels needs an order (lowest first)');
  }
  return values;
}

/** Krippendorff's alpha over ratings; a repeated (item, annotator) pair is an error. */
export function krippendorffAlpha(ratings: readonly Rating[], options: AlphaOptions): AlphaResult {
  const units = new Map<string, Map<string, string | number | boolean>>();
  for (const r of ratings) {
    let unit = units.get(r.item);
    if (!unit) units.set(r.item, (unit = new Map()));
    if (unit.has(r.annotator)) {
      throw new RangeError(`annotator ${JSON.stringify(r.annotator)} labelled item ${JSON.stringify(r.item)} twice`);
    }
    unit.set(r.annotator, r.label);
  }
  const seen = new Map<string, string | number | boolean>();
  for (const unit of units.values()) {
    if (unit.size < 2) continue;
    for (const v of unit.values()) seen.set(keyOf(v), v);
  }
  const values = rankValues([...seen.values()], options);
  const index = new Map(values.map((v, i) => [keyOf(v), i]));
  const k = values.length;
  const o: number[][] = values.map(() => new Array<number>(k).fill(0));
  let pairableUnits = 0;
  for (const unit of units.values()) {
    const m = unit.size;
    if (m < 2) continue;
    pairableUnits++;
    const counts = new Array<number>(k).fill(0);
    for (const v of unit.values()) counts[index.get(keyOf(v))!]!++;
    // o_ck += n_uc * (n_uk - [c = k]) / (m_u - 1): pairs of different coders within the unit
    for (let c = 0; c < k; c++) {
      if (counts[c] === 0) continue;
      for (let d = 0; d < k; d++) {
        const pairs = counts[c]! * (counts[d]! - (c === d ? 1 : 0));
        if (pairs > 0) o[c]![d]! += pairs / (m - 1);
      }
    }
  }
  const nc = o.map((row) => row.reduce((s, x) => s + x, 0));
  const n = nc.reduce((s, x) => s + x, 0);
  const delta = distance(values, nc, options.level);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      const dd = delta(c, d);
      observed += o[c]![d]! * dd;
      expected += nc[c]! * nc[d]! * dd;
    }
  }
  const Do = n > 0 ? observed / n : 0;
  const De = n > 1 ? expected / (n * (n - 1)) : 0;
  return {
    level: options.level,
    alpha: n > 1 && De > 0 ? 1 - Do / De : null,
    observedDisagreement: Do,
    expectedDisagreement: De,
    pairableValues: n,
    pairableUnits,
    values,
    coincidences: o,
  };
}

/** Squared difference function delta^2(c, k) of the paper, over value indexes in rank order. */
function distance(values: (string | number | boolean)[], nc: number[], level: MeasurementLevel): (c: number, k: number) => number {
  switch (level) {
    case 'nominal':
      return (c, k) => (c === k ? 0 : 1);
    case 'ordinal': {
      const cumulative = [0];
      for (const x of nc) cumulative.push(cumulative[cumulative.length - 1]! + x);
      return (c, k) => {
        if (c === k) return 0;
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        const between = cumulative[hi + 1]! - cumulative[lo]! - (nc[lo]! + nc[hi]!) / 2;
        return between * between;
      };
    }
    case 'interval':
      return (c, k) => ((values[c] as number) - (values[k] as number)) ** 2;
    case 'ratio':
      return (c, k) => {
        const a = values[c] as number;
        const b = values[k] as number;
        return a + b === 0 ? 0 : ((a - b) / (a + b)) ** 2;
      };
  }
}
