import { describe, expect, it } from 'vitest';
import { resolveEvaluationConfig } from '../../domain/index.js';
import { comparisonWarnings } from './compareWarnings.js';

const run = (id: string, config: Parameters<typeof resolveEvaluationConfig>[0], suite = 'retail-demo') => ({
  id,
  suite_id: suite,
  config: resolveEvaluationConfig(config),
});

describe('comparisonWarnings', () => {
  it('says nothing for like-for-like runs', () => {
    expect(comparisonWarnings([run('a', { profile: 'nightly' }), run('b', { profile: 'nightly' })])).toEqual([]);
  });

  it("names each difference with every run's value: profile, coercion, stages enabled in only some runs, suite", () => {
    expect(comparisonWarnings([run('a', { profile: 'nightly', coercion: 'bfcl' }), run('b', { profile: 'ci' }, 'smoke')])).toEqual([
      'the runs differ in stage profile (A nightly, B ci): stage switches and thresholds may not match',
      'the runs differ in coercion (A bfcl, B default): the same output can pass in one run and fail in another',
      'stage execution ran only in A: it is not compared, and pass rates that include it are not like for like',
      'stage semantics ran only in A: it is not compared, and pass rates that include it are not like for like',
      'the runs differ in suite (A retail-demo, B smoke): only the cases both runs scored are paired',
    ]);
  });
});
