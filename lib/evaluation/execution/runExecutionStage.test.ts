import { describe, expect, it } from 'vitest';
import type { JsonValue, TestCaseInput, ToolCall } from '../../domain/index.js';
import { runExecutionStage, type CallAssignment, type ExecutionStageOptions } from './runExecutionStage.js';
import { RecordedApiProvider } from './recordedApiProvider.js';
import { ExpectedDataProvider } from './expectedDataProvider.js';
import { cassetteEntryFor, InMemoryCassette } from '../../ports/cassette.js';
import type { ApiProvider, ApiResponse } from '../../ports/apiProvider.js';
import { makeCase } from './__fixtures__/testCase.js';

const weather: ToolCall = { tool_name: 'get_weather', arguments: { city: 'Paris' } };
const stock: ToolCall = { tool_name: 'get_stock', arguments: { symbol: 'ACME' } };
const both: CallAssignment[] = [
  { expected_index: 0, actual_index: 0 },
  { expected_index: 1, actual_index: 1 },
];
const duration = expect.any(Number) as number;

/** The gold case: a weather call and a stock call with their expected data. */
function goldCase(overrides: Partial<TestCaseInput> = {}) {
  return makeCase({
    expected_tool_calls: [
      { tool_name: 'get_weather', arguments: { city: 'Paris' } },
      { tool_name: 'get_stock', arguments: { symbol: 'ACME' } },
    ],
    expected_raw_data: [{ city: 'Paris', temp: { $range: { min: 15, max: 25 } }, ts: '2024-05-01T10:00:00Z' }, { price: 100 }],
    ...overrides,
  });
}

/** A replay provider whose cassette answers the two calls with the given data. */
function replaying(weatherData: JsonValue, stockData: JsonValue): RecordedApiProvider {
  const at = new Date(0);
  const cassette = new InMemoryCassette([cassetteEntryFor(weather, 200, weatherData, at), cassetteEntryFor(stock, 200, stockData, at)]);
  return new RecordedApiProvider({ cassette, mode: 'replay' });
}

const goodWeather = { city: 'Paris', temp: 20, ts: '2024-05-01T10:00:00Z' };

async function run(
  provider: ApiProvider,
  options: Partial<ExecutionStageOptions> = {},
  overrides: Partial<TestCaseInput> = {},
  assignment = both,
) {
  return runExecutionStage([weather, stock], goldCase(overrides), assignment, { provider, ...options });
}

describe('runExecutionStage', () => {
  it('passes when every expected call returns the expected data', async () => {
    const output = await run(replaying(goodWeather, { price: 100 }));
    expect(output).toEqual({
      result: {
        stage: 'execution',
        status: 'passed',
        passed: true,
        score: 1,
        message: 'All 2 expected calls returned the expected data (relative tolerance 0.01%).',
        details: {
          relative_tolerance: 0.0001,
          ignore_paths: [],
          calls: [
            {
              expected_index: 0,
              actual_index: 0,
              tool_name: 'get_weather',
              status: 'matched',
              score: 1,
              entries: expect.any(Array) as unknown[],
              duration_ms: duration,
            },
            {
              expected_index: 1,
              actual_index: 1,
              tool_name: 'get_stock',
              status: 'matched',
              score: 1,
              entries: expect.any(Array) as unknown[],
              duration_ms: duration,
            },
          ],
        },
        duration_ms: duration,
      },
      api_calls_made: 2,
      responses: [
        {
          expected_index: 0,
          actual_index: 0,
          tool_name: 'get_weather',
          response: { ok: true, status: 200, data: goodWeather, durationMs: duration },
        },
        {
          expected_index: 1,
          actual_index: 1,
          tool_name: 'get_stock',
          response: { ok: true, status: 200, data: { price: 100 }, durationMs: duration },
        },
      ],
    });
  });

  it.each<[string, number, Partial<ExecutionStageOptions>, Partial<TestCaseInput>, boolean]>([
    ['0.0099% off passes at the default 0.01%', 100.0099, {}, {}, true],
    ['0.0099% below passes at the default 0.01%', 99.9901, {}, {}, true],
    ['0.0101% off fails at the default 0.01%', 100.0101, {}, {}, false],
    ['0.0101% below fails at the default 0.01%', 99.9899, {}, {}, false],
    ["0.5% off passes at the run's 1%", 100.5, { relativeTolerance: 0.01 }, {}, true],
    [
      "0.05% off passes at the case's 0.1%, which overrides the run's",
      100.05,
      { relativeTolerance: 0.0001 },
      { execution: { relative_tolerance: 0.001 } },
      true,
    ],
    [
      "0.5% off fails at the case's 0.1%, even when the run allows 1%",
      100.5,
      { relativeTolerance: 0.01 },
      { execution: { relative_tolerance: 0.001 } },
      false,
    ],
  ])('numeric tolerance: %s', async (_, price, options, overrides, passed) => {
    const { result } = await run(replaying(goodWeather, { price }), options, overrides);
    expect({ status: result.status, passed: result.passed, error_code: result.error_code }).toEqual(
      passed ? { status: 'passed', passed: true, error_code: undefined } : { status: 'failed', passed: false, error_code: 'data_mismatch' },
    );
    if (!passed) {
      expect(result.details).toMatchObject({
        calls: [{ status: 'matched' }, { status: 'mismatch', entries: [expect.objectContaining({ path: '/price' })] }],
      });
      expect(result.message).toMatch(/^1 of 2 expected calls did not return the expected data: #1 get_stock: 1 difference at \/price: /);
      expect(result.score).toBeGreaterThanOrEqual(0.5);
      expect(result.score).toBeLessThan(1);
    }
  });

  it.each([
    [15, true],
    [25, true],
    [14.9, false],
    [30, false],
  ])('a $range accepts time-sensitive values within it: temp %d', async (temp, passed) => {
    const { result } = await run(replaying({ ...goodWeather, temp }, { price: 100 }));
    expect(result.passed).toBe(passed);
    if (!passed)
      expect(result.details).toMatchObject({
        calls: [{ status: 'mismatch', entries: [expect.objectContaining({ path: '/temp' })] }, { status: 'matched' }],
      });
  });

  it("ignores the case's volatile paths", async () => {
    const volatile = { ...goodWeather, ts: '2031-01-01T00:00:00Z' };
    expect((await run(replaying(volatile, { price: 100 }))).result.passed).toBe(false);
    const { result } = await run(replaying(volatile, { price: 100 }), {}, { execution: { ignore_paths: ['/ts'] } });
    expect({ passed: result.passed, details: result.details }).toMatchObject({ passed: true, details: { ignore_paths: ['/ts'] } });
  });

  it('compares nested structures and reports where they differ', async () => {
    const nested = {
      rows: [
        { id: 1, tags: ['a', 'b'] },
        { id: 2, tags: [] },
      ],
    };
    const { result } = await run(
      replaying(goodWeather, {
        rows: [
          { id: 1, tags: ['a', 'x'] },
          { id: 2, tags: [] },
        ],
      }),
      {},
      { expected_raw_data: [goodWeather, nested] },
    );
    expect(result).toMatchObject({
      status: 'failed',
      error_code: 'data_mismatch',
      details: { calls: [{ status: 'matched' }, { status: 'mismatch', entries: [expect.objectContaining({ path: '/rows/0/tags/1' })] }] },
    });
  });

  it('counts an expected call with no matched actual call as missing, and executes only matched calls', async () => {
    const extra: ToolCall = { tool_name: 'get_weather', arguments: { city: 'Rome' } };
    const output = await runExecutionStage(
      [extra, weather],
      goldCase(),
      [
        { expected_index: 0, actual_index: 1 },
        { expected_index: null, actual_index: 0 },
      ],
      { provider: replaying(goodWeather, { price: 100 }) },
    );
    expect(output).toMatchObject({ api_calls_made: 1, responses: [{ expected_index: 0, actual_index: 1, tool_name: 'get_weather' }] });
    expect(output.result).toEqual({
      stage: 'execution',
      status: 'failed',
      passed: false,
      score: 0.5,
      error_code: 'data_mismatch',
      message: '1 of 2 expected calls did not return the expected data: #1 get_stock: the call was not made, so it returned no data',
      details: {
        relative_tolerance: 0.0001,
        ignore_paths: [],
        calls: [
          {
            expected_index: 0,
            actual_index: 1,
            tool_name: 'get_weather',
            status: 'matched',
            score: 1,
            entries: expect.any(Array) as unknown[],
            duration_ms: duration,
          },
          {
            expected_index: 1,
            actual_index: null,
            tool_name: 'get_stock',
            status: 'missing',
            score: 0,
            entries: [{ path: '', kind: 'missing', message: 'expected call #1 (get_stock) was not made, so it returned no data' }],
            duration_ms: 0,
          },
        ],
      },
      duration_ms: duration,
    });
  });

  it('fails with execution_failed and scores the call 0 when the API rejects it (4xx)', async () => {
    const provider = scripted(
      {
        get_stock: {
          ok: false,
          errorCode: 'execution_failed',
          status: 404,
          message: 'GET /stock/ACME returned HTTP 404: unknown symbol',
          durationMs: 3,
        },
      },
      goodWeather,
    );
    const { result } = await run(provider);
    expect(result).toMatchObject({
      status: 'failed',
      passed: false,
      score: 0.5,
      error_code: 'execution_failed',
      message: '1 of 2 expected calls did not return the expected data: #1 get_stock: GET /stock/ACME returned HTTP 404: unknown symbol',
    });
    expect(result.details).toMatchObject({
      calls: [
        { status: 'matched' },
        {
          expected_index: 1,
          actual_index: 1,
          tool_name: 'get_stock',
          status: 'failed',
          score: 0,
          entries: [],
          duration_ms: 3,
          error_code: 'execution_failed',
          http_status: 404,
          message: 'GET /stock/ACME returned HTTP 404: unknown symbol',
        },
      ],
    });
  });

  it.each<[string, ApiResponse]>([
    ['a 5xx', { ok: false, errorCode: 'execution_failed', status: 503, message: 'GET /stock/ACME returned HTTP 503: busy', durationMs: 1 }],
    [
      'a timeout',
      { ok: false, errorCode: 'execution_failed', message: 'GET /stock/ACME did not answer within 30000 ms', durationMs: 30000 },
    ],
    [
      'a 429',
      { ok: false, errorCode: 'execution_failed', status: 429, message: 'GET /stock/ACME returned HTTP 429: slow down', durationMs: 1 },
    ],
  ])('is an error (could not score, score null) when the provider fails with %s', async (_, failure) => {
    const { result } = await run(scripted({ get_stock: failure }, goodWeather));
    expect(result).toMatchObject({
      status: 'error',
      passed: false,
      score: null,
      error_code: 'execution_failed',
      message: `Could not score 1 of 2 expected calls: #1 get_stock: ${failure.ok ? '' : failure.message}`,
    });
    expect(result.details).toMatchObject({
      calls: [
        { status: 'matched', score: 1 },
        { status: 'failed', score: null },
      ],
    });
  });

  it('is an error with no_recording when the cassette has no response for a call', async () => {
    const cassette = new InMemoryCassette([cassetteEntryFor(weather, 200, goodWeather, new Date(0))]);
    const { result } = await run(new RecordedApiProvider({ cassette, mode: 'replay' }));
    expect(result).toMatchObject({ status: 'error', passed: false, score: null, error_code: 'no_recording' });
    expect(result.message).toBe(
      'Could not score 1 of 2 expected calls: #1 get_stock: no recorded response for get_stock{"symbol":"ACME"}; record it (execution.mode "record") or check the call\'s arguments',
    );
  });

  it.each<[string, Partial<TestCaseInput>, Partial<ExecutionStageOptions>, string]>([
    ['no expected_raw_data', { expected_raw_data: undefined }, {}, 'case case-1 has no expected_raw_data to compare with'],
    ['an abstain case', { expected_tool_calls: [], expected_raw_data: [] }, {}, 'case case-1 has no expected_raw_data to compare with'],
    [
      'an alternative call set matched',
      {},
      { callSet: 0 },
      'stage 2 matched alternative call set 0; expected_raw_data is aligned with expected_tool_calls only',
    ],
  ])('is skipped with no_expected_data for %s, calling nothing', async (_, overrides, options, message) => {
    const output = await run(scripted({}, null), options, overrides);
    expect(output).toEqual({
      result: {
        stage: 'execution',
        status: 'skipped',
        passed: false,
        score: null,
        error_code: 'no_expected_data',
        message,
        duration_ms: duration,
      },
      api_calls_made: 0,
      responses: [],
    });
  });

  it('passes a dry run with the expected-data provider, matchers included', async () => {
    const { result } = await run(
      new ExpectedDataProvider(),
      {},
      {
        expected_raw_data: [
          { temp: { $range: { min: 1, max: 3 } }, ts: { $any: true } },
          { price: { $value: 100, $tolerance: { relative: 0.1 } } },
        ],
      },
    );
    expect(result).toMatchObject({ status: 'passed', score: 1 });
  });

  it('hands the signal and timeout to the provider, and rethrows an abort', async () => {
    const seen: unknown[] = [];
    const provider: ApiProvider = {
      kind: 'http',
      execute: async (call, context) => {
        seen.push({
          tool: call.tool_name,
          expectedIndex: context.expectedIndex,
          timeoutInMs: context.timeoutInMs,
          signal: context.abortSignal !== undefined,
        });
        context.abortSignal?.throwIfAborted();
        return { ok: true, status: 200, data: null, durationMs: 0 };
      },
    };
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(run(provider, { abortSignal: controller.signal, timeoutInMs: 500, maxConcurrency: 1 })).rejects.toThrow('cancelled');
    expect(seen).toEqual([{ tool: 'get_weather', expectedIndex: 0, timeoutInMs: 500, signal: true }]);
  });

  it('rejects a maxConcurrency that is not a positive integer', async () => {
    await expect(run(scripted({}, null), { maxConcurrency: 0 })).rejects.toThrow('maxConcurrency must be a positive integer, got 0');
  });
});

/** A provider answering per tool name: a given response, or 200 with `data`. */
function scripted(byTool: Record<string, ApiResponse>, data: JsonValue): ApiProvider {
  return {
    kind: 'http',
    execute: async (call) => byTool[call.tool_name] ?? { ok: true, status: 200, data, durationMs: 1 },
  };
}
