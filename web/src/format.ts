export const pct = (v: number | null | undefined, digits = 1): string =>
  v === null || v === undefined || Number.isNaN(v) ? '–' : `${(v * 100).toFixed(digits)}%`;
export const ms = (v: number | null | undefined): string =>
  v === null || v === undefined ? '–' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`;
export const usd = (v: number | null | undefined): string =>
  v === null || v === undefined ? '–' : v === 0 ? '$0' : v < 0.01 ? `$${v.toFixed(5)}` : `$${v.toFixed(3)}`;
export const num = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : v.toLocaleString('en-US'));
export const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').slice(0, 19) + ' UTC' : '–');
export const interval = (lower: number | null | undefined, upper: number | null | undefined): string =>
  lower === null || lower === undefined || upper === null || upper === undefined ? '' : `${pct(lower)}–${pct(upper)}`;
