import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ClientSchema,
  RunSchema,
  ScorecardSchema,
  TargetSystemSchema,
  TestCaseSchema,
  TestSuiteSchema,
  ToolCatalogSchema,
} from '../../domain/index.js';
import { sampleCatalog, sampleClient, sampleRun, sampleScorecard, sampleSuite, sampleTarget, sampleTestCase } from './fixtures.js';
import { FILTER_CASES } from './testCaseStore.contract.js';

describe('contract fixtures are valid domain objects (an adapter that validates must accept them unchanged)', () => {
  it.each<[string, z.ZodType, unknown]>([
    [
      'test case',
      TestCaseSchema,
      sampleTestCase('c', { tags: ['a'], category: 'x', complexity: 3, api_version: 'v1', expected_nl_response: 'ok' }),
    ],
    ...FILTER_CASES.map((testCase): [string, z.ZodType, unknown] => [`filter case ${testCase.id}`, TestCaseSchema, testCase]),
    ['suite', TestSuiteSchema, sampleSuite('s')],
    ['catalog (without its store id)', ToolCatalogSchema, (({ id: _id, ...catalog }) => catalog)(sampleCatalog('weather'))],
    ['target', TargetSystemSchema, sampleTarget('t')],
    ['client', ClientSchema, sampleClient('c')],
    ['run', RunSchema, sampleRun('r')],
    ['passing scorecard', ScorecardSchema, sampleScorecard('r', 'a')],
    [
      'failing scorecard',
      ScorecardSchema,
      sampleScorecard('r', 'b', { passed: false, failing_stage: 'execution', error_code: 'data_mismatch', category: null }),
    ],
  ])('%s', (_label, schema, value) => {
    expect(schema.parse(value)).toEqual(value);
  });
});
