import { failureSentence, list, money, okData, type Answer, type ResultView } from './types.js';
import type { SalesView, TopProductsView } from './views.js';

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * Sales totals (and the breakdown, if any). `settling`: the period includes days whose figures are not final, so
 * the gold states no numbers for it.
 */
export function saySales(r: ResultView | undefined, label: string, options: { reference: boolean; settling?: boolean }): Answer {
  const d = okData<SalesView>(r);
  if (!d) return { sentences: [failureSentence(r, `the sales for ${label}`)], facts: [] };
  if (options.reference && options.settling) {
    return { sentences: [`Figures for ${label} are still settling, so treat them as provisional.`], facts: [] };
  }
  const t = d.totals;
  const parts: string[] = [];
  if (t.revenue !== undefined) parts.push(`revenue ${money(t.revenue)}`);
  if (t.orders !== undefined) parts.push(`${fmt(t.orders)} orders`);
  if (t.units !== undefined) parts.push(`${fmt(t.units)} units`);
  if (t.aov !== undefined) parts.push(`average order value ${money(t.aov)}`);
  if (t.refunds !== undefined) parts.push(`refunds ${money(t.refunds)}`);
  const sentences = [`For ${label}: ${list(parts)}.`];
  if (d.series && d.series.length > 1) {
    const key = t.revenue !== undefined ? 'revenue' : 'orders';
    const shown = d.series.map((s) => `${s.period} ${key === 'revenue' ? money(s.revenue ?? 0) : fmt(s.orders ?? 0)}`);
    sentences.push(`Breakdown by period (${key}): ${shown.join('; ')}.`);
  }
  const facts: string[] = [];
  if (t.revenue !== undefined) facts.push(`revenue ${money(t.revenue)}`);
  if (t.orders !== undefined) facts.push(`${fmt(t.orders)} orders`);
  return { sentences, facts };
}

/** Which of two periods sold more, when both are known. */
export function sayChange(a: ResultView | undefined, b: ResultView | undefined, labels: [string, string], reference: boolean): Answer {
  const x = okData<SalesView>(a)?.totals.revenue;
  const y = okData<SalesView>(b)?.totals.revenue;
  if (x === undefined || y === undefined || reference) return { sentences: [], facts: [] };
  const pct = ((y - x) / x) * 100;
  return {
    sentences: [`${labels[1]} revenue was ${Math.abs(pct).toFixed(1)}% ${pct >= 0 ? 'higher' : 'lower'} than ${labels[0]}.`],
    facts: [],
  };
}

export function sayTopProducts(r: ResultView | undefined, label: string, reference: boolean, settling = false): Answer {
  const d = okData<TopProductsView>(r);
  if (!d) return { sentences: [failureSentence(r, `the best sellers for ${label}`)], facts: [] };
  if (d.products.length === 0) return { sentences: [`Nothing sold for ${label}.`], facts: [] };
  const hideNumbers = reference && settling;
  const shown = d.products.map((p) =>
    hideNumbers ? `${p.rank}. ${p.name}` : `${p.rank}. ${p.name} (${fmt(p.units)} units, ${money(p.revenue)})`,
  );
  const top = d.products[0]!;
  return {
    sentences: [`Top ${d.products.length} by ${d.metric} for ${label}: ${shown.join('; ')}.`],
    facts: hideNumbers ? [top.name] : [top.name, d.metric === 'units' ? `${fmt(top.units)} units` : money(top.revenue)],
  };
}
