/** How the CLI's result tables print measured values: `n/a` where nothing was measured. */

/** A rate as a percentage with one decimal (0.725 -> `72.5%`). */
export const pctText = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);

/** A number with `digits` decimals. */
export const fixedText = (x: number | null | undefined, digits: number): string =>
  x === null || x === undefined ? 'n/a' : x.toFixed(digits);

/** An estimate with its interval, each printed by `f`: `72.5% [57.2%, 83.9%]`; `n/a` without an interval. */
export const intervalText = (
  i: { estimate: number | null; lower: number | null; upper: number | null } | null,
  f: (x: number | null) => string,
): string => (i ? `${f(i.estimate)} [${f(i.lower)}, ${f(i.upper)}]` : 'n/a');
