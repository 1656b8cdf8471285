import { describe, expect, it } from 'vitest';
import type { JudgeInput } from '../../ports/judge.js';
import { JudgeError } from '../../ports/judgeError.js';
import { LocalReferenceJudge } from './localReferenceJudge.js';
import { scoreAgainstReference } from '../../metrics/index.js';

const REFERENCE = 'ACME has 42 open orders worth $1,234.50 in total.';
const FACTS = ['42 open orders', '$1,234.50 in total'];
const input = (actual_answer: string, over: Partial<JudgeInput> = {}): JudgeInput => ({
  question: 'How many open orders does ACME have?',
  expected_answer: REFERENCE,
  expected_facts: FACTS,
  actual_answer,
  ...over,
});

describe('LocalReferenceJudge', () => {
  const judge = new LocalReferenceJudge();

  it('is named honestly as a heuristic', () => {
    expect([judge.name, judge.method]).toEqual(['local-reference-heuristic', 'heuristic']);
  });

  it('returns a verdict combining numbers, facts and ROUGE-L', async () => {
    // numbers 2/2; facts 1/2 ("total" is not said: "totalling" is another word); ROUGE-L: LCS 4 of 10 and 9 tokens -> F1 0.42105
    const verdict = await judge.judge(input('There are 42 open orders for ACME, totalling 1234.5 dollars.'));
    expect(verdict).toEqual({
      score: 0.6842,
      reasoning:
        'Heuristic, not an LLM: numbers 2/2 found; key facts 1/2 present (missing: "$1,234.50 in total"); ROUGE-L F1 0.42 against the reference answer. Score 0.68 = weighted mean of these (numbers 0.4, facts 0.4, ROUGE-L 0.2).',
      confidence: 0.6,
      model: 'local-reference-heuristic',
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      cached: false,
      method: 'heuristic',
    });
  });

  it.each([
    ['the reference itself', input(REFERENCE), 1, 0.6],
    ['a correct paraphrase stating the facts', input('ACME: 42 open orders, total value 1234.5.'), 0.4 + 0.4 + 0.2 * 0.625, 0.6], // ROUGE-L: LCS 5 of 7 and 9 tokens,
    ['a wrong number', input('ACME has 41 open orders worth $1,234.50 in total.'), 0.4 * 0.5 + 0.4 * 0.5 + 0.2 * (8 / 9), 0.6],
    ['an empty answer', input(''), 0, 0.6],
    ['facts only (no ROUGE-L part)', input('42 open orders, total value 1234.5', { expected_answer: undefined }), 1, 0.5],
    [
      'facts without numbers',
      input('It shipped to Berlin.', { expected_answer: undefined, expected_facts: ['shipped to Berlin', 'arrives Monday'] }),
      0.5,
      0.3,
    ],
    [
      'a reference without numbers or facts (ROUGE-L only)',
      input('The order shipped.', { expected_answer: 'The order has shipped.', expected_facts: [] }),
      (2 * 1 * 0.75) / 1.75,
      0.2,
    ],
  ])('scores %s', async (_name, judgeInput, score, confidence) => {
    const verdict = await judge.judge(judgeInput);
    expect(verdict.score).toBeCloseTo(score, 4);
    expect(verdict.confidence).toBe(confidence);
  });

  it('caps confidence at 0.9', async () => {
    const facts = ['1 a', '2 b', '3 c', '4 d', '5 e', '6 f', '7 g', '8 h', '9 i'];
    expect((await judge.judge(input('x', { expected_facts: facts }))).confidence).toBe(0.9);
  });

  it('reports what it checked, numbers missing included', () => {
    const result = scoreAgainstReference(input('ACME has 41 open orders.'));
    expect(result).toMatchObject({
      numbers: { found: [], missing: [{ text: '42' }, { text: '$1,234.50' }] },
      facts: [
        { fact: '42 open orders', present: false },
        { fact: '$1,234.50 in total', present: false },
      ],
    });
    expect(result?.reasoning).toContain('numbers 0/2 found (missing: 42, $1,234.50)');
  });

  it('is deterministic', async () => {
    const a = await judge.judge(input('There are 42 open orders.'));
    const b = await judge.judge(input('There are 42 open orders.'));
    expect(a).toEqual(b);
  });

  it.each([
    ['no reference at all', input('anything', { expected_answer: undefined, expected_facts: [] }), 'no_reference'],
    ['a blank reference', input('anything', { expected_answer: '  ', expected_facts: [' '] }), 'no_reference'],
    ['a punctuation-only reference', input('anything', { expected_answer: '...', expected_facts: ['-'] }), 'no_reference'],
  ])('throws a JudgeError for %s', async (_name, judgeInput, reason) => {
    const error = (await judge.judge(judgeInput).catch((e: unknown) => e)) as JudgeError;
    expect(error).toBeInstanceOf(JudgeError);
    expect([error.code, error.reason]).toEqual(['judge_failed', reason]);
  });

  it('honours an aborted signal', async () => {
    const error = (await judge.judge(input('x'), { abortSignal: AbortSignal.abort() }).catch((e: unknown) => e)) as JudgeError;
    expect(error.reason).toBe('aborted');
  });
});
