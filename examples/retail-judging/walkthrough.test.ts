import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RETAIL, runJudgingWalkthrough } from './walkthrough.js';

const CASES = 30;

describe('npm run example:judging (the first 30 retail cases)', () => {
  it('G-Eval criteria and reference metrics, pairwise win/tie/loss, three annotators, export, calibration, the bundled set', async () => {
    const printed: string[] = [];
    const r = await runJudgingWalkthrough({ cases: CASES, log: (line) => printed.push(line) });
    const text = printed.join('\n');
    expect(text).toContain('SIMULATED judge "simulated-judge"');
    expect(text).toContain('SIMULATED models');
    expect(r.statuses).toEqual(['completed', 'completed']);

    // per-criterion semantic scores and reference metrics of run B, from its report
    for (const name of ['correctness', 'completeness', 'faithfulness', 'relevance', 'clarity'])
      expect(r.judgingBefore).toMatch(new RegExp(`^\\| ${name} \\| \\d+ \\| [1-5]\\.\\d\\d \\|$`, 'm'));
    for (const name of ['bleu', 'rouge1', 'rouge2', 'rougeL', 'chrf'])
      expect(r.judgingBefore).toMatch(new RegExp(`^\\| ${name} \\| \\d+ \\| [01]\\.\\d{3} \\| 0 \\|$`, 'm'));
    expect(r.judgingBefore).toMatch(/^\| embedding\\_cosine \| 0 \| - \| \d+ \(no embedder configured/m);
    expect(r.judgingBefore).toContain('has no calibration against human labels');

    // G-Eval's probability weighting ran on the judge's log-probabilities
    expect(r.exampleCriteria.map((c) => c.name)).toEqual(['correctness', 'completeness', 'faithfulness', 'relevance', 'clarity']);
    for (const c of r.exampleCriteria) {
      expect(c.method).toBe('logprobs');
      const p = c.probabilities!;
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      expect(c.score).toBeCloseTo(
        p.reduce((s, x, i) => s + (i + 1) * x, 0),
        9,
      );
      expect(c.integer_score).toBe(p.indexOf(Math.max(...p)) + 1);
    }
    // the lowest-scored answer shown: not every criterion at the top, and weights that are not a plain integer
    expect(r.exampleCriteria.some((c) => c.integer_score < 5)).toBe(true);
    expect(r.exampleCriteria.some((c) => !Number.isInteger(c.score))).toBe(true);

    // pairwise: every shared case is a win, a tie or a loss
    const overall = /^overall\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(r.pairwise);
    expect(overall, r.pairwise).not.toBeNull();
    expect(r.pairwise).toContain(`on ${CASES} shared cases`);
    expect(Number(overall![1]) + Number(overall![2]) + Number(overall![3])).toBe(CASES);

    // three annotators through next/label: every item with a catalogue label got its three labels
    const labelsB = readFileSync(join(RETAIL, 'calibration-model-b.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item: string; label: string });
    const firstCases = new Set(Array.from({ length: CASES }, (_, i) => `retail-${String(i + 1).padStart(4, '0')}`));
    const labelledB = labelsB.filter((l) => firstCases.has(l.item));
    expect(r.task.progress).toMatch(
      new RegExp(`^${3 * labelledB.length}/${3 * CASES} labels, ${labelledB.length}/${CASES} items complete`),
    );
    // the noisy third annotator is outvoted: the consensus is the catalogue's label on every labelled item
    expect(r.task.consensus).toEqual(
      Object.fromEntries(
        [
          ['pass', labelledB.filter((l) => l.label === 'pass').length],
          ['fail', labelledB.filter((l) => l.label === 'fail').length],
          ['no labels', CASES - labelledB.length],
        ].filter(([, n]) => n !== 0),
      ),
    );
    const alpha = Number(/Krippendorff's alpha \(nominal\): (-?[\d.]+)/.exec(r.task.agreement)![1]);
    expect(alpha).toBeLessThan(1);
    expect(r.task.agreement).toMatch(/Cohen's kappa \w+ vs \w+ \(\d+ shared items\): 1\.000/);
    expect(r.task.calibration).toContain(`${labelledB.length} items compared`);
    expect(r.task.calibration).toContain('labels: three SIMULATED annotators');

    // the bundled calibration set: imported as catalogue-derived labels, the stored calibration says so
    const labelsA = readFileSync(join(RETAIL, 'calibration-model-a.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter((l) => firstCases.has((JSON.parse(l) as { item: string }).item));
    expect(r.bundled.imported).toBe(`imported ${labelsA.length} labels into ${r.bundled.id} (catalogue-derived ${labelsA.length})\n`);
    expect(r.stored.items).toBe(labelsA.length);
    expect(r.stored.confusion.flat().reduce((a, b) => a + b, 0)).toBe(r.stored.items);
    expect(r.stored.provenance).toMatch(
      /^labels imported into annotation task retail-calibration-model-a: generated from the retail sample's mistake catalogue/,
    );
    expect(r.stored.provenance).toContain('not judged by human raters');
    expect(r.judgingAfter).toContain(`calibrated on ${labelsA.length} items of task ${r.bundled.id}`);
    expect(r.judgingAfter).not.toContain('has no calibration');
  }, 120_000);
});
