import { describe, expect, it } from 'vitest';
import type { TestCaseInput } from '../../domain/index.js';
import { ExpectedDataProvider } from './expectedDataProvider.js';
import { makeCase } from './__fixtures__/testCase.js';

const call = { tool_name: 'get_weather', arguments: { city: 'Paris' } };
const duration = expect.any(Number) as number;
const twoCalls: Partial<TestCaseInput> = {
  expected_tool_calls: [
    { tool_name: 'get_weather', arguments: { city: 'Paris' } },
    { tool_name: 'get_weather', arguments: { city: 'Rome' } },
  ],
  expected_raw_data: [{ temp: 21 }, { temp: { $range: { min: 10, max: 20 } }, ts: { $any: true } }],
};

describe('ExpectedDataProvider', () => {
  it.each([
    ['the first call', twoCalls, 0, { ok: true, status: 200, data: { temp: 21 }, durationMs: duration }],
    ['the second call, matchers resolved', twoCalls, 1, { ok: true, status: 200, data: { temp: 15, ts: null }, durationMs: duration }],
    [
      'an unmatched call',
      twoCalls,
      null,
      {
        ok: false,
        errorCode: 'no_recording',
        message: 'no expected data to serve for get_weather: it is not matched to an expected call',
        durationMs: duration,
      },
    ],
    [
      'an index past the data',
      twoCalls,
      2,
      {
        ok: false,
        errorCode: 'no_recording',
        message: 'no expected data to serve for get_weather: case case-1 has no expected_raw_data[2]',
        durationMs: duration,
      },
    ],
    [
      'a case without data',
      {},
      0,
      {
        ok: false,
        errorCode: 'no_recording',
        message: 'no expected data to serve for get_weather: case case-1 has no expected_raw_data[0]',
        durationMs: duration,
      },
    ],
  ])('serves %s', async (_, overrides, expectedIndex, response) => {
    const provider = new ExpectedDataProvider();
    expect(await provider.execute(call, { testCase: makeCase(overrides), expectedIndex })).toEqual(response);
  });
});
