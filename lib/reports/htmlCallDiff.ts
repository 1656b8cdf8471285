import { escapeHtml as h } from './escape.js';
import type { ReportCase } from './reportModel.js';

/** Key-sorted two-space JSON lines, so equal calls print equally. */
function lines(value: unknown): string[] {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as object)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sorted(value), null, 2).split('\n');
}

/**
 * Expected vs actual calls of a failed case, side by side: each line present on only one side is marked (class
 * `only`, and a `+`/`−` sign for readers who cannot see the colour). Empty when the case carries no calls.
 */
export function callDiffHtml(c: ReportCase): string {
  if (!c.expected_calls || !c.actual_calls) return '';
  const expected = lines(c.expected_calls);
  const actual = lines(c.actual_calls);
  const inExpected = new Set(expected);
  const inActual = new Set(actual);
  const side = (text: string[], other: Set<string>, sign: string): string =>
    text.map((l) => (other.has(l) ? `<span>  ${h(l)}</span>` : `<span class="only">${sign} ${h(l)}</span>`)).join('\n');
  const differing = expected.filter((l) => !inActual.has(l)).length + actual.filter((l) => !inExpected.has(l)).length;
  return `<details class="calls"><summary>expected vs actual calls (${differing} line${differing === 1 ? '' : 's'} differ)</summary><div class="sbs"><div><b>expected</b><pre>${side(expected, inActual, '−')}</pre></div><div><b>actual</b><pre>${side(actual, inExpected, '+')}</pre></div></div></details>`;
}
