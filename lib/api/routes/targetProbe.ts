import { z } from 'zod';
import { SecretResolutionError, type Services, type TargetInvoker } from '../../ports/index.js';
import { TestCaseSchema, type TargetSystem, type TestCase, type ToolCall, type ToolCatalog } from '../../domain/index.js';
import { parseToolCalls } from '../../evaluation/index.js';
import { TargetConfigurationError } from '../../targets/index.js';
import { ApiError } from '../problem.js';
import { defineRoute } from '../route.js';
import { catalogId } from './toolCatalogs.js';

export const DEFAULT_PROBE_QUESTION = 'Which tools can you call? Answer in one sentence.';
const DEFAULT_PROBE_TIMEOUT_MS = 60_000;

export const ProbeRequestSchema = z
  .object({
    /** the question to send (default: the test case's, else a generic one) */
    question: z.string().min(1).max(10_000).optional(),
    /** a stored test case to send (a replay target answers only for recorded case ids) */
    test_case_id: z.string().min(1).optional(),
    /** give up after this long (default 60 s); the target's own timeout and retries apply inside it */
    timeout_ms: z.number().int().min(100).max(300_000).optional(),
  })
  .strict();

/** What a probe reports: the target worked or not (`ok`), and what stage 1 reads in its answer. */
export interface ProbeResult {
  target_id: string;
  question: string;
  ok: boolean;
  /** `ok`, or why not: the target failed (`target_error`, `target_timeout`) or its answer cannot be read (`unparseable_output`) */
  status: 'ok' | 'target_error' | 'target_timeout' | 'unparseable_output';
  /** the target's HTTP status when a failure carried one */
  http_status: number | null;
  latency_ms: number;
  attempts: number;
  /** the tool calls and answer stage 1 parses from the output (null when the target gave no output) */
  parsed: { calls: ToolCall[]; answer: string | null; format: string } | null;
  /** the raw output (null when the target failed) */
  output: unknown;
  error: string | null;
}

/**
 * Sends one test case through an invoker and reports the outcome as data: a failing target is `ok: false` with its
 * error, never a throw. Throws TargetConfigurationError (broken settings, a missing secret) as the invoker does.
 */
export async function probeTarget(
  invoker: TargetInvoker,
  testCase: TestCase,
  options: { timeoutInMs: number },
): Promise<Omit<ProbeResult, 'target_id' | 'question'>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('probe timeout')), options.timeoutInMs);
  const started = performance.now();
  try {
    const result = await invoker.invoke(testCase, { abortSignal: controller.signal });
    if (!result.ok) {
      return {
        ok: false,
        status: result.error_code,
        http_status: result.http_status ?? null,
        latency_ms: result.latency_ms,
        attempts: result.attempts,
        parsed: null,
        output: null,
        error: result.message,
      };
    }
    const parsed = parseToolCalls(result.output);
    return {
      ok: parsed.ok,
      status: parsed.ok ? 'ok' : 'unparseable_output',
      http_status: null,
      latency_ms: result.latency_ms,
      attempts: result.attempts,
      parsed: { calls: parsed.calls, answer: parsed.answer, format: parsed.format },
      output: result.output,
      error: parsed.ok ? null : `${parsed.error_code}: ${parsed.message}`,
    };
  } catch (err) {
    if (!controller.signal.aborted || err instanceof TargetConfigurationError) throw err;
    const elapsed = Math.round(performance.now() - started);
    return {
      ok: false,
      status: 'target_timeout',
      http_status: null,
      latency_ms: elapsed,
      attempts: 0,
      parsed: null,
      output: null,
      error: `no answer within ${options.timeoutInMs} ms (the probe's limit; send timeout_ms to wait longer)`,
    };
  } finally {
    clearTimeout(timer);
  }
}

async function catalogOf(services: Services, target: TargetSystem): Promise<ToolCatalog | undefined> {
  if (!target.tool_catalog) return undefined;
  const id = catalogId(target.tool_catalog.name, target.tool_catalog.version);
  const catalog = await services.stores.catalogs.get(id);
  if (!catalog)
    throw new ApiError(422, 'Unprocessable Content', `target system "${target.id}" uses tool catalog "${id}", which does not exist`, [
      { path: 'target.tool_catalog', message: `tool catalog "${id}" does not exist` },
    ]);
  return catalog;
}

async function probeCase(services: Services, body: z.infer<typeof ProbeRequestSchema>): Promise<TestCase> {
  if (body.test_case_id) {
    const stored = await services.stores.testCases.getTestCase(body.test_case_id);
    if (!stored)
      throw new ApiError(422, 'Unprocessable Content', `test case "${body.test_case_id}" does not exist`, [
        { path: 'body.test_case_id', message: 'does not exist' },
      ]);
    const { _etag, ...testCase } = stored;
    return body.question ? { ...testCase, nl_query: body.question } : testCase;
  }
  return TestCaseSchema.parse({ id: 'probe', nl_query: body.question ?? DEFAULT_PROBE_QUESTION, expected_tool_calls: [] });
}

export const targetProbeRoute = defineRoute({
  name: 'target-systems-test',
  method: 'POST',
  path: 'v1/target-systems/{id}/test',
  role: 'platform-admin',
  tag: 'target-systems',
  summary: 'Send one probe request to a target system and report what came back (ok, latency, parsed calls and answer, error)',
  params: z.object({ id: z.string().min(1) }),
  body: ProbeRequestSchema,
  responses: {
    200: "the probe ran: ok true, or ok false with the target's error",
    404: 'no such target system',
    422: 'the target cannot be built: a missing secret (named), a missing outputs file or catalog, an unknown test_case_id',
  },
  handler: async ({ services, params, body }) => {
    const target = await services.stores.targets.get(params.id);
    if (!target) throw new ApiError(404, 'Not Found', `target system "${params.id}" does not exist`);
    const testCase = await probeCase(services, body);
    const invoker = services.invokerFor(target, await catalogOf(services, target));
    try {
      const result = await probeTarget(invoker, testCase, { timeoutInMs: body.timeout_ms ?? DEFAULT_PROBE_TIMEOUT_MS });
      return { status: 200, body: { target_id: target.id, question: testCase.nl_query, ...result } satisfies ProbeResult };
    } catch (err) {
      if (err instanceof TargetConfigurationError) {
        const reason = err.cause instanceof SecretResolutionError ? err.cause.message : err.message;
        throw new ApiError(422, 'Unprocessable Content', err.message, [{ path: `target.${err.setting}`, message: reason }]);
      }
      throw err;
    }
  },
});
