import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BfclReferenceSchema } from '../../domain/index.js';
import { parseToolCalls } from '../syntax/parseToolCalls.js';
import { bfclVerdict } from './bfclVerdict.js';

/**
 * CI holds compat "bfcl" to BFCL's own verdicts without Python: __fixtures__/differential.jsonl holds generated
 * outputs (perturbations of BFCL's questions, see its README) with the verdict BFCL's ast_checker recorded for each
 * (`npm run bfcl:differential -- --fixture ...` writes it).
 */
interface FixtureItem {
  key: string;
  kind: string;
  category: string;
  function: unknown[];
  ground_truth: unknown[];
  float_literal_paths?: string[];
  output: string;
  decoded: boolean;
  bfcl: { valid?: boolean; error_type?: string; exception?: string };
}

const items = readFileSync(new URL('./__fixtures__/differential.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as FixtureItem);

describe('compat "bfcl" on recorded BFCL verdicts (generated outputs, BFCL\'s ast_checker as the oracle)', () => {
  it('the fixture covers every single-turn category and many kinds of mistakes, with both verdicts', () => {
    expect(items.length).toBeGreaterThanOrEqual(250);
    expect(new Set(items.map((i) => i.category.replace(/_\d+$/, '')))).toEqual(
      new Set([
        'simple_python',
        'simple_java',
        'simple_javascript',
        'multiple',
        'parallel',
        'parallel_multiple',
        'irrelevance',
        'live_simple',
        'live_multiple',
        'live_parallel',
        'live_parallel_multiple',
        'live_irrelevance',
      ]),
    );
    expect(new Set(items.map((i) => i.kind)).size).toBeGreaterThanOrEqual(40);
    expect(items.filter((i) => i.bfcl.valid === true).length).toBeGreaterThan(50);
    expect(items.filter((i) => i.bfcl.valid === false).length).toBeGreaterThan(50);
  });

  it('agrees with BFCL on every item; the only exception is a greedy-only parallel failure, which it flags', () => {
    const disagreements: string[] = [];
    let greedy = 0;
    for (const item of items) {
      const { bfcl, output, decoded, key, kind: _kind, ...question } = item;
      const reference = BfclReferenceSchema.parse(question);
      const parsed = parseToolCalls(output);
      const ours = bfclVerdict(
        reference,
        decoded && parsed.ok ? { decoded: true, calls: parsed.calls } : { decoded: false, reason: parsed.ok ? 'no calls' : parsed.message },
      );
      if (ours.greedy_only_failure && bfcl.valid === false) {
        greedy++;
        continue;
      }
      if (ours.valid !== (bfcl.valid === true))
        disagreements.push(`${key}: BFCL ${bfcl.error_type ?? bfcl.exception}, ours ${ours.error_type}`);
    }
    expect(disagreements).toEqual([]);
    expect(greedy).toBeLessThanOrEqual(2);
  });
});
