import { describe, expect, it } from 'vitest';
import type { TestCase } from '../domain/index.js';
import { TargetConfigurationError } from './errors.js';
import { LazyInvoker } from './lazyInvoker.js';
import type { TargetInvocation, TargetInvoker } from '../ports/target.js';
import { testCase } from './testing/testCases.test-helpers.js';

const OK: TargetInvocation = {
  ok: true,
  output: 'x',
  latency_ms: 0,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: 0,
  client_version: null,
  api_calls_made: 0,
  attempts: 1,
};
const inner: TargetInvoker = { targetId: 't', kind: 'replay', invoke: async (_tc: TestCase) => OK };

describe('LazyInvoker', () => {
  it('builds once, even under concurrent first calls, then invokes the built invoker', async () => {
    let builds = 0;
    const lazy = new LazyInvoker('t', 'replay', async () => {
      builds++;
      return inner;
    });
    expect(await Promise.all([lazy.invoke(testCase('a')), lazy.invoke(testCase('b')), lazy.ready()])).toEqual([OK, OK, inner]);
    expect(await lazy.invoke(testCase('c'))).toBe(OK);
    expect(builds).toBe(1);
  });

  it('throws a failed build from invoke and tries again next time', async () => {
    let builds = 0;
    const lazy = new LazyInvoker('t', 'replay', async () => {
      if (++builds === 1) throw new TargetConfigurationError('settings.outputs_path', 'missing');
      return inner;
    });
    await expect(lazy.invoke(testCase('a'))).rejects.toBeInstanceOf(TargetConfigurationError);
    expect(await lazy.invoke(testCase('a'))).toBe(OK);
    expect(builds).toBe(2);
  });
});
