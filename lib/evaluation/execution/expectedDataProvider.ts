import { representativeValue, type ToolCall } from '../../domain/index.js';
import { type ApiProvider, type ApiResponse, elapsedMs, type ExecuteContext } from '../../ports/index.js';

/**
 * Serves the case's own `expected_raw_data[expectedIndex]` (matchers resolved to a representative value, see
 * representativeValue.ts) with status 200. `no_recording` when the call is unmatched or the case has no data
 * for that index. A dry run of stage 3: no network, and every matched call should pass the comparison.
 */
export class ExpectedDataProvider implements ApiProvider {
  readonly kind = 'expected' as const;

  async execute(call: ToolCall, context: ExecuteContext): Promise<ApiResponse> {
    context.abortSignal?.throwIfAborted();
    const started = performance.now();
    const { testCase, expectedIndex } = context;
    const expected = expectedIndex === null ? undefined : testCase.expected_raw_data?.[expectedIndex];
    if (expected === undefined) {
      const why =
        expectedIndex === null ? 'it is not matched to an expected call' : `case ${testCase.id} has no expected_raw_data[${expectedIndex}]`;
      return {
        ok: false,
        errorCode: 'no_recording',
        message: `no expected data to serve for ${call.tool_name}: ${why}`,
        durationMs: elapsedMs(started),
      };
    }
    return { ok: true, status: 200, data: representativeValue(expected), durationMs: elapsedMs(started) };
  }
}
