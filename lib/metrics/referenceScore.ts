/** Scoring an answer against its reference with no model: numbers, facts (weighted) and ROUGE-L (the local reference judge and the routing-reason check use it). */
import { FACT_WEIGHTS, importanceOf, type FactImportance } from '../domain/index.js';
import type { JudgeInput } from '../ports/index.js';
import { analyseFact, checkAnalysedFact, indexAnswer, type AnalysedFact, type FactCheck } from './facts.js';
import { distinctNumbers, extractNumbers, findNumbers, type NumberMention } from './numbers.js';
import { rougeL } from './rougeL.js';
import { tokenize } from './tokens.js';

/** Weights of the parts; a part the reference cannot supply is left out and the rest are renormalised. */
export const LOCAL_REFERENCE_WEIGHTS = { numbers: 0.4, facts: 0.4, rouge_l: 0.2 } as const;

/** Confidence is capped here: a heuristic is never sure. */
export const MAX_HEURISTIC_CONFIDENCE = 0.9;

export interface LocalReferenceScore {
  score: number;
  confidence: number;
  reasoning: string;
  numbers: { found: NumberMention[]; missing: NumberMention[] };
  facts: FactCheck[];
  /** ROUGE-L F1 against expected_answer; null without one */
  rouge_l: number | null;
}

/**
 * Scores an answer against the reference with no model: numbers of the reference and facts found in the answer,
 * key facts present, and ROUGE-L F1 against the reference answer. Pure and deterministic.
 * Undefined when there is no reference material at all (expected answer and facts blank or punctuation only).
 */
export function scoreAgainstReference(input: JudgeInput): LocalReferenceScore | undefined {
  const referenceTokens = input.expected_answer ? tokenize(input.expected_answer) : [];
  const reference = referenceTokens.length ? input.expected_answer : undefined;
  const analysed = input.expected_facts
    .map((fact, i) => {
      const a = analyseFact(fact);
      return a && { ...a, importance: importanceOf(input.fact_importance, i) };
    })
    .filter((f): f is AnalysedFact & { importance: FactImportance } => f !== undefined);
  if (!reference && analysed.length === 0) return undefined;

  const answerTokens = tokenize(input.actual_answer);
  const answer = indexAnswer(input.actual_answer, answerTokens);
  const referenceNumbers = distinctNumbers([...(reference ? extractNumbers(reference) : []), ...analysed.flatMap((f) => f.numbers)]);
  const numbers = findNumbers(referenceNumbers, answer.numbers);
  const factChecks = analysed.map((f) => ({ ...checkAnalysedFact(f, answer), importance: f.importance }));
  const rouge = reference ? rougeL(answerTokens, referenceTokens).f1 : null;

  const parts: { weight: number; value: number }[] = [];
  if (referenceNumbers.length) {
    parts.push({ weight: LOCAL_REFERENCE_WEIGHTS.numbers, value: numbers.found.length / referenceNumbers.length });
  }
  if (factChecks.length) {
    // fact coverage weighted by importance: critical 3, important 2, minor 1
    const weights = factChecks.map((c) => FACT_WEIGHTS[c.importance ?? 'important']);
    const total = weights.reduce((a, b) => a + b, 0);
    parts.push({
      weight: LOCAL_REFERENCE_WEIGHTS.facts,
      value: factChecks.reduce((s, c, i) => s + (c.present ? weights[i]! : 0), 0) / total,
    });
  }
  if (rouge !== null) parts.push({ weight: LOCAL_REFERENCE_WEIGHTS.rouge_l, value: rouge });
  const totalWeight = parts.reduce((sum, p) => sum + p.weight, 0);
  const score = totalWeight ? parts.reduce((sum, p) => sum + p.weight * p.value, 0) / totalWeight : 0;

  // 0.2 for a reference answer (0.1 without), +0.1 per reference number and per key fact, capped
  const evidence = (reference ? 0.2 : 0.1) + 0.1 * (referenceNumbers.length + factChecks.length);
  const confidence = Math.min(MAX_HEURISTIC_CONFIDENCE, evidence);

  return {
    score: round(score, 4),
    confidence: round(confidence, 2),
    reasoning: describe(numbers, referenceNumbers.length, factChecks, rouge, score),
    numbers,
    facts: factChecks,
    rouge_l: rouge === null ? null : round(rouge, 4),
  };
}

function describe(
  numbers: { found: NumberMention[]; missing: NumberMention[] },
  numberCount: number,
  facts: FactCheck[],
  rouge: number | null,
  score: number,
): string {
  const parts: string[] = [];
  if (numberCount) parts.push(`numbers ${numbers.found.length}/${numberCount} found${listMissing(numbers.missing.map((n) => n.text))}`);
  if (facts.length) {
    const missing = facts.filter((f) => !f.present).map((f) => JSON.stringify(f.fact));
    parts.push(`key facts ${facts.length - missing.length}/${facts.length} present${listMissing(missing)}`);
  }
  if (rouge !== null) parts.push(`ROUGE-L F1 ${rouge.toFixed(2)} against the reference answer`);
  const { numbers: wn, facts: wf, rouge_l: wr } = LOCAL_REFERENCE_WEIGHTS;
  return `Heuristic, not an LLM: ${parts.join('; ')}. Score ${score.toFixed(2)} = weighted mean of these (numbers ${wn}, facts ${wf}, ROUGE-L ${wr}).`;
}

function listMissing(items: string[]): string {
  if (!items.length) return '';
  const shown = items.slice(0, 5).join(', ');
  return ` (missing: ${shown}${items.length > 5 ? `, and ${items.length - 5} more` : ''})`;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
