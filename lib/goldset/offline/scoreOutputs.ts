import type { EvaluationConfig, Scorecard, TestCase, ToolCatalog } from '../../domain/index.js';
import { evaluateCase, type PipelineDeps } from '../../evaluation/index.js';
import type { OutputLine } from './outputsFile.js';
import { catalogKey, type GoldSet } from './goldSet.js';

/** An error entry is `malformed` when the line is not an output at all (not JSON, wrong shape); else it names an unknown or repeated case. */
export type ScoredLine = { kind: 'scorecard'; scorecard: Scorecard } | { kind: 'error'; line: number; message: string; malformed: boolean };

export interface ScoreOutputsOptions {
  gold: GoldSet;
  config: EvaluationConfig;
  runId: string;
  /** the catalog for cases that name none (e.g. `--catalog`) */
  defaultCatalog?: ToolCatalog;
  deps?: Omit<PipelineDeps, 'catalogFor'>;
  clientType?: string;
}

/**
 * Scores recorded outputs offline: one scorecard per output line, in input order, streamed. Lines that name an
 * unknown case or are malformed yield an error entry and scoring goes on.
 */
export async function* scoreOutputs(lines: AsyncIterable<OutputLine>, options: ScoreOutputsOptions): AsyncGenerator<ScoredLine> {
  const catalogFor = (tc: TestCase): ToolCatalog | undefined =>
    tc.tool_catalog ? (options.gold.catalogs.get(catalogKey(tc.tool_catalog)) ?? options.defaultCatalog) : options.defaultCatalog;
  const deps: PipelineDeps = { ...options.deps, catalogFor };
  const seen = new Set<string>();
  for await (const line of lines) {
    if ('error' in line) {
      yield { kind: 'error', line: line.line, message: line.error, malformed: true };
      continue;
    }
    const testCase = options.gold.cases.get(line.test_case_id);
    if (!testCase) {
      yield {
        kind: 'error',
        line: line.line,
        message: `line ${line.line}: test_case_id "${line.test_case_id}" is not in the gold set`,
        malformed: false,
      };
      continue;
    }
    if (seen.has(line.test_case_id)) {
      yield {
        kind: 'error',
        line: line.line,
        message: `line ${line.line}: a second output for test case "${line.test_case_id}" (ignored)`,
        malformed: false,
      };
      continue;
    }
    seen.add(line.test_case_id);
    const scorecard = await evaluateCase(
      {
        runId: options.runId,
        testCase,
        output: line.output,
        evalMode: 'offline',
        clientType: options.clientType ?? 'recorded',
        ...(line.latency_ms !== undefined ? { latencyMs: line.latency_ms } : {}),
        ...(line.input_tokens !== undefined ? { inputTokens: line.input_tokens } : {}),
        ...(line.output_tokens !== undefined ? { outputTokens: line.output_tokens } : {}),
        ...(line.cost_usd !== undefined ? { costUsd: line.cost_usd } : {}),
        ...(line.turns !== undefined ? { turns: line.turns } : {}),
      },
      options.config,
      deps,
    );
    yield { kind: 'scorecard', scorecard };
  }
}
