import { escapeMarkdown as md } from './escape.js';
import { sampleSentence, type SampleBreakdown } from './sampleBreakdown.js';

const pct = (x: number | null): string => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

/** The report's sample section: what was sampled, and the pass rate per stratum beside its population share. */
export function sampleMarkdown(b: SampleBreakdown): string[] {
  const lines = [
    '### Sample',
    '',
    md(sampleSentence(b)),
    '',
    '| stratum | population | sampled | scored | pass rate (95% CI, on the sample) |',
    '|---|---:|---:|---:|---|',
  ];
  for (const s of b.strata)
    lines.push(
      `| ${md(s.stratum)} | ${s.population} | ${s.sample} | ${s.rate.n} | ${s.rate.rate === null ? '-' : `${pct(s.rate.rate)} (${pct(s.rate.lower)}–${pct(s.rate.upper)})`} |`,
    );
  return lines;
}
