import { type FactImportance, importanceOf, type StageResult, type TestCase } from '../../domain/index.js';
import { type CriterionVerdict, type Judge, JudgeError, type JudgeMethod, type JudgeVerdict } from '../../ports/index.js';
import { analyseFact, checkAnalysedFact, indexAnswer } from '../../metrics/index.js';

export interface SemanticsStageOptions {
  judge: Judge;
  /** a score at or above this passes (SemanticsConfig.pass_threshold) */
  passThreshold: number;
  abortSignal?: AbortSignal;
  /** the calls the target made (context for LLM judges) */
  toolCalls?: unknown;
  /** the data those calls returned, e.g. stage 3's responses (context for LLM judges) */
  rawData?: unknown;
}

export interface SemanticsStageOutput {
  result: StageResult;
  /** judge tokens and cost, failed attempts included (0 for the heuristic and for cache hits) */
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

/** StageResult.details of a judged answer. */
export interface SemanticsDetails {
  judge: string;
  method: JudgeMethod;
  model: string;
  reasoning: string;
  confidence: number;
  cached: boolean;
  notes?: string[];
  /** critical facts the deterministic fact check did not find in the answer (then the stage fails) */
  missing_critical_facts?: string[];
  /** per rubric criterion (G-Eval judges): score 1-5, method, analysis, tokens and cost */
  criteria?: CriterionVerdict[];
  /** the rubric the criteria came from (content hash), for judge calibration */
  rubric_id?: string;
}

const REASONING_IN_MESSAGE = 300;

/**
 * Stage 4: has the judge grade the target's natural-language answer against the case's expected answer and facts.
 * - no expected_nl_response and no expected_facts: `skipped`, no_reference, score null;
 * - no answer (null or blank): `failed`, no_answer, score 0;
 * - the judge gave up (JudgeError): `error`, judge_failed, score null ("could not score" is not 0); not called because
 *   the organization's budget is spent (reason budget_exhausted): `error`, budget_exhausted (not scored either);
 * - otherwise passed = score >= passThreshold, error_code low_semantic_score when it fails.
 * Throws only for a bad threshold, when the abortSignal fires, and for non-judge failures (bugs, broken cache).
 */
export async function runSemanticsStage(
  testCase: TestCase,
  answer: string | null,
  options: SemanticsStageOptions,
): Promise<SemanticsStageOutput> {
  const { judge, passThreshold } = options;
  if (!(passThreshold >= 0 && passThreshold <= 1)) {
    throw new RangeError(`semantics stage: passThreshold must be within [0, 1], got ${passThreshold}`);
  }
  const started = performance.now();
  const base = (): Pick<StageResult, 'stage' | 'duration_ms'> => ({ stage: 'semantics', duration_ms: elapsedMs(started) });
  const who = { judge: judge.name, method: judge.method };

  const expectedAnswer = testCase.expected_nl_response?.trim() ? testCase.expected_nl_response : undefined;
  const kept = testCase.expected_facts
    .map((fact, i) => ({ fact, importance: importanceOf(testCase.fact_importance, i) }))
    .filter((f) => f.fact.trim());
  const facts = kept.map((f) => f.fact);
  if (!expectedAnswer && facts.length === 0) {
    return free({ ...base(), ...noReference(testCase.id), details: who });
  }
  if (answer === null || !answer.trim()) {
    const message = 'The target gave no natural-language answer to judge; stage 4 needs the final text reply.';
    return free({ ...base(), status: 'failed', passed: false, score: 0, error_code: 'no_answer', message, details: who });
  }

  let verdict: JudgeVerdict;
  try {
    verdict = await judge.judge(
      {
        question: testCase.nl_query,
        ...(expectedAnswer ? { expected_answer: expectedAnswer } : {}),
        expected_facts: facts,
        ...(testCase.fact_importance ? { fact_importance: kept.map((f) => f.importance) } : {}),
        actual_answer: answer,
        ...(options.toolCalls === undefined ? {} : { tool_calls: options.toolCalls }),
        ...(options.rawData === undefined ? {} : { raw_data: options.rawData }),
      },
      options.abortSignal ? { abortSignal: options.abortSignal } : {},
    );
  } catch (error) {
    if (!(error instanceof JudgeError) || error.reason === 'aborted') throw error;
    if (error.reason === 'no_reference') return free({ ...base(), ...noReference(testCase.id), details: who });
    const details = {
      ...who,
      reason: error.reason,
      attempts: error.attempts,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
    const budget = error.reason === 'budget_exhausted';
    const message = budget ? `Stage 4 skipped: ${error.message}` : `Judge ${judge.name} could not score the answer: ${error.message}`;
    return {
      result: {
        ...base(),
        status: 'error',
        passed: false,
        score: null,
        error_code: budget ? 'budget_exhausted' : 'judge_failed',
        message,
        details,
      },
      input_tokens: error.input_tokens,
      output_tokens: error.output_tokens,
      cost_usd: error.cost_usd,
    };
  }
  const spent = { input_tokens: verdict.input_tokens, output_tokens: verdict.output_tokens, cost_usd: verdict.cost_usd };
  if (!(verdict.score >= 0 && verdict.score <= 1)) {
    const message = `Judge ${judge.name} returned an invalid score ${String(verdict.score)}; scores must be within [0, 1].`;
    const result: StageResult = {
      ...base(),
      status: 'error',
      passed: false,
      score: null,
      error_code: 'judge_failed',
      message,
      details: who,
    };
    return { result, ...spent };
  }

  const details: SemanticsDetails = {
    ...who,
    model: verdict.model,
    reasoning: verdict.reasoning,
    confidence: verdict.confidence,
    cached: verdict.cached,
    ...(verdict.notes?.length ? { notes: verdict.notes } : {}),
    ...(verdict.criteria?.length ? { criteria: verdict.criteria } : {}),
    ...(verdict.rubric_id ? { rubric_id: verdict.rubric_id } : {}),
  };
  const missingCritical = missingCriticalFacts(kept, answer);
  if (missingCritical.length) {
    const list = missingCritical.map((f) => JSON.stringify(f)).join(', ');
    const message = `The answer leaves out ${missingCritical.length === 1 ? 'a critical fact' : `${missingCritical.length} critical facts`}: ${list} (semantic score ${verdict.score.toFixed(2)}, judge ${judge.name}); a missing critical fact fails stage 4 whatever the score.`;
    return {
      result: {
        ...base(),
        status: 'failed',
        passed: false,
        score: verdict.score,
        error_code: 'missing_critical_fact',
        message,
        details: { ...details, missing_critical_facts: missingCritical },
      },
      ...spent,
    };
  }
  const passed = verdict.score >= passThreshold;
  const comparison = passed ? 'meets' : 'is below';
  const grade = `Semantic score ${verdict.score.toFixed(2)} ${comparison} the pass threshold ${passThreshold.toFixed(2)} (judge ${judge.name})`;
  const result: StageResult = passed
    ? { ...base(), status: 'passed', passed: true, score: verdict.score, message: `${grade}.`, details }
    : {
        ...base(),
        status: 'failed',
        passed: false,
        score: verdict.score,
        error_code: 'low_semantic_score',
        message: `${grade}: ${clip(verdict.reasoning)}`,
        details,
      };
  return { result, ...spent };
}

function noReference(caseId: string): Pick<StageResult, 'status' | 'passed' | 'score' | 'error_code' | 'message'> {
  return {
    status: 'skipped',
    passed: false,
    score: null,
    error_code: 'no_reference',
    message: `Case ${caseId} has no expected_nl_response or expected_facts to judge against; add one to enable stage 4 for it.`,
  };
}

function free(result: StageResult): SemanticsStageOutput {
  return { result, input_tokens: 0, output_tokens: 0, cost_usd: 0 };
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= REASONING_IN_MESSAGE ? flat : `${flat.slice(0, REASONING_IN_MESSAGE)}...`;
}

function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/**
 * Critical facts the answer does not state, by the deterministic fact check of lib/judges/localReference (every
 * number of the fact, and at least 80% of its content words). The same check for every judge, so "critical fact
 * missing" does not depend on a model; a critical fact written only in other words is reported missing.
 */
function missingCriticalFacts(facts: ReadonlyArray<{ fact: string; importance: FactImportance }>, answer: string): string[] {
  const critical = facts.filter((f) => f.importance === 'critical');
  if (critical.length === 0) return [];
  const index = indexAnswer(answer);
  return critical
    .filter((f) => {
      const analysed = analyseFact(f.fact);
      return analysed !== undefined && !checkAnalysedFact(analysed, index).present;
    })
    .map((f) => f.fact);
}
