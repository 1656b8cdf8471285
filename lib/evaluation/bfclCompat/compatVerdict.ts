import type { CompatMode, CompatVerdict, ErrorCode, Scorecard, StageName, TestCase } from '../../domain/index.js';
import { bfclVerdict, type DecodedOutput } from './bfclVerdict.js';

/** Our error code for a BFCL `error_type`, used when BFCL fails a case the platform passes. */
function errorCodeOf(rule: string): { stage: StageName; code: ErrorCode } {
  if (rule.startsWith('ast_decoder')) return { stage: 'syntax', code: 'unparseable_output' };
  if (rule.startsWith('irrelevance')) return { stage: 'logic', code: 'unexpected_call' };
  if (rule.endsWith('wrong_count')) return { stage: 'logic', code: 'missing_call' };
  if (rule.endsWith('wrong_func_name')) return { stage: 'logic', code: 'wrong_tool' };
  if (rule.endsWith('missing_required') || rule.endsWith('missing_optional')) return { stage: 'logic', code: 'missing_argument' };
  if (rule.endsWith('unexpected_param')) return { stage: 'logic', code: 'extra_argument' };
  if (rule.startsWith('type_error')) return { stage: 'logic', code: 'wrong_argument_type' };
  return { stage: 'logic', code: 'argument_mismatch' };
}

/**
 * What BFCL's decoder would have made of the output: a parse failure of stage 1 (status failed, no schema issue
 * listed) is a decoding failure; a stage 1 failure for schema reasons still has calls, which BFCL checks (it has no
 * schema gate).
 */
function decodedOutputOf(card: Scorecard): DecodedOutput {
  const syntax = card.stages.syntax;
  if (syntax.status !== 'failed') return { decoded: true, calls: card.generated_tool_calls };
  const issues = (syntax.details as { issues?: unknown[] } | undefined)?.issues;
  return Array.isArray(issues) && issues.length > 0
    ? { decoded: true, calls: card.generated_tool_calls }
    : { decoded: false, reason: syntax.message ?? syntax.error_code ?? 'unparseable' };
}

/**
 * A scorecard under a compatibility mode: the case's BFCL reference decides `overall_passed` (the platform's own
 * verdict stays in `compat.default_passed` and in the stages). Cards that were not scored (infrastructure), and
 * cases without a BFCL reference, are returned unchanged.
 */
export function compatVerdictOf(card: Scorecard, testCase: TestCase, mode: CompatMode): Scorecard {
  const reference = testCase.metadata.bfcl;
  if (mode !== 'bfcl' || reference === undefined || card.outcome === 'not_scored' || card.stages.syntax.status === 'error') return card;
  const check = bfclVerdict(reference, decodedOutputOf(card));
  const compat: CompatVerdict = {
    mode,
    passed: check.valid,
    rule: check.error_type,
    message: check.greedy_only_failure
      ? "BFCL's greedy matcher fails this case (it pairs each expected call with the first model call that fits), but a one-to-one pairing of the calls passes; this mode passes it"
      : check.error,
    default_passed: card.overall_passed,
    ...(card.overall_passed ? {} : defaultFailure(card)),
    ...(check.greedy_only_failure ? { greedy_only_failure: true } : {}),
  };
  const { failing_stage: _stage, error_code: _code, ...rest } = card;
  if (check.valid) return { ...rest, compat, overall_passed: true, overall_score: 1, outcome: 'passed' };
  if (!card.overall_passed) return { ...card, compat };
  const failure = errorCodeOf(check.error_type);
  return {
    ...rest,
    compat,
    overall_passed: false,
    overall_score: 0,
    failing_stage: failure.stage,
    error_code: failure.code,
    outcome: 'failed',
  };
}

function defaultFailure(card: Scorecard): { default_rule: string; default_message?: string } {
  const stage = card.failing_stage;
  const message = stage ? card.stages[stage].message : undefined;
  return {
    default_rule: `${stage ?? 'unknown'}${card.error_code ? ` ${card.error_code}` : ''}`,
    ...(message ? { default_message: message } : {}),
  };
}
