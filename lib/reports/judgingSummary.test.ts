import { describe, expect, it } from 'vitest';
import type { Scorecard } from '../domain/index.js';
import { makeOutcome, scorecardOf } from '../domain/stats/outcomes.test-helpers.js';
import { JudgingSummaryBuilder } from './judgingSummary.js';
import { judgingMarkdown } from './judgingMarkdown.js';

function card(id: string, semantic: number | null, criteria: Array<[string, number]>, metrics: Scorecard['reference_metrics']): Scorecard {
  const c = scorecardOf(makeOutcome({ test_case_id: id }));
  c.stages.semantics = {
    stage: 'semantics',
    status: semantic === null ? 'error' : semantic >= 0.7 ? 'passed' : 'failed',
    passed: semantic !== null && semantic >= 0.7,
    score: semantic,
    details: { judge: 'j', criteria: criteria.map(([name, score]) => ({ name, score })) },
    duration_ms: 1,
  };
  if (metrics) c.reference_metrics = metrics;
  return c;
}

describe('JudgingSummaryBuilder', () => {
  it('averages semantic scores, criteria (1-5) and reference metrics; counts skips with their most common reason', () => {
    const b = new JudgingSummaryBuilder();
    b.add(
      card(
        'a',
        0.9,
        [
          ['correctness', 5],
          ['clarity', 4],
        ],
        [
          { name: 'bleu', score: 0.4 },
          { name: 'embedding_cosine', score: null, skipped_reason: 'no embedder configured' },
        ],
      ),
    );
    b.add(
      card(
        'b',
        0.5,
        [
          ['correctness', 2],
          ['clarity', 3.5],
        ],
        [
          { name: 'bleu', score: 0.2 },
          { name: 'embedding_cosine', score: null, skipped_reason: 'no embedder configured' },
        ],
      ),
    );
    b.add(card('c', null, [], undefined));
    const r = b.result();
    expect(r.semantic).toEqual({ scored: 2, mean: 0.7 });
    expect(r.criteria).toEqual([
      { name: 'correctness', scored: 2, mean: 3.5 },
      { name: 'clarity', scored: 2, mean: 3.75 },
    ]);
    expect(r.reference_metrics[0]).toMatchObject({ name: 'bleu', scored: 2, skipped: 0 });
    expect(r.reference_metrics[0]!.mean).toBeCloseTo(0.3, 12);
    expect(r.reference_metrics[1]).toEqual({
      name: 'embedding_cosine',
      scored: 0,
      skipped: 2,
      skipped_reason: 'no embedder configured',
      mean: null,
    });
    const md = judgingMarkdown(r).join('\n');
    expect(md).toContain('### Judging');
    expect(md).toContain('| correctness | 2 | 3.50 |');
    expect(md).toContain('| bleu | 2 | 0.300 | 0 |');
    expect(md).toContain('| embedding\\_cosine | 0 | - | 2 (no embedder configured) |');
  });

  it('says nothing when nothing was judged', () => {
    expect(judgingMarkdown(new JudgingSummaryBuilder().result())).toEqual([]);
  });
});
