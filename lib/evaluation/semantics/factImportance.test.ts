import { describe, expect, it } from 'vitest';
import { TestCaseSchema, type TestCaseInput } from '../../domain/index.js';
import type { Judge, JudgeInput, JudgeVerdict } from '../../ports/judge.js';
import { LocalReferenceJudge } from '../../judges/index.js';
import { scoreAgainstReference } from '../../metrics/index.js';
import { buildRubricMessages } from '../../judges/openai/rubricPrompt.js';
import { runSemanticsStage } from './runSemanticsStage.js';

const testCase = (over: Partial<TestCaseInput> = {}) =>
  TestCaseSchema.parse({
    id: 'c',
    nl_query: 'What is the status and total of order A-1?',
    expected_tool_calls: [],
    expected_facts: ['order A-1 has shipped', 'total is 129.99', 'carrier is UPS'],
    fact_importance: ['critical', 'important', 'minor'],
    ...over,
  });

class FixedJudge implements Judge {
  readonly name = 'fixed';
  readonly method = 'llm' as const;
  readonly inputs: JudgeInput[] = [];
  constructor(private readonly score: number) {}
  async judge(input: JudgeInput): Promise<JudgeVerdict> {
    this.inputs.push(input);
    return {
      score: this.score,
      reasoning: 'r',
      confidence: 1,
      model: 'm',
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      cached: false,
      method: 'llm',
    };
  }
}

describe('facts with importance', () => {
  it('fact_importance must align with expected_facts', () => {
    const r = TestCaseSchema.safeParse({
      id: 'c',
      nl_query: 'q',
      expected_tool_calls: [],
      expected_facts: ['a', 'b'],
      fact_importance: ['critical'],
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['fact_importance']);
    expect(r.error!.issues[0]!.message).toMatch(/aligned by index/);
  });

  it('the heuristic weights fact coverage 3/2/1: missing the minor fact costs less than missing the important one', () => {
    const base = {
      question: 'q',
      expected_facts: ['order A-1 has shipped', 'total is 129.99', 'carrier is UPS'],
      fact_importance: ['critical', 'important', 'minor'] as const,
    };
    const noMinor = scoreAgainstReference({
      ...base,
      fact_importance: [...base.fact_importance],
      actual_answer: 'Order A-1 has shipped; the total is 129.99.',
    })!;
    const noImportant = scoreAgainstReference({
      ...base,
      fact_importance: [...base.fact_importance],
      actual_answer: 'Order A-1 has shipped with carrier UPS.',
    })!;
    // fact part: 5/6 vs 4/6 (weights 3 + 2 of 6, and 3 + 1 of 6)
    expect(noMinor.score).toBeGreaterThan(noImportant.score);
    expect(noMinor.facts.map((f) => [f.importance, f.present])).toEqual([
      ['critical', true],
      ['important', true],
      ['minor', false],
    ]);
  });

  it('a missing critical fact fails stage 4 whatever the judge scored', async () => {
    const judge = new FixedJudge(0.95);
    const out = await runSemanticsStage(testCase(), 'The total is 129.99 and the carrier is UPS.', { judge, passThreshold: 0.7 });
    expect(out.result).toMatchObject({ status: 'failed', passed: false, score: 0.95, error_code: 'missing_critical_fact' });
    expect(out.result.message).toContain('"order A-1 has shipped"');
    expect((out.result.details as { missing_critical_facts: string[] }).missing_critical_facts).toEqual(['order A-1 has shipped']);
    // the judge was told each fact's importance
    expect(judge.inputs[0]!.fact_importance).toEqual(['critical', 'important', 'minor']);
  });

  it('with the critical fact stated, the usual threshold decides; without importance nothing changes', async () => {
    const ok = await runSemanticsStage(testCase(), 'Order A-1 has shipped.', { judge: new FixedJudge(0.8), passThreshold: 0.7 });
    expect(ok.result.status).toBe('passed');
    const plain = await runSemanticsStage(testCase({ fact_importance: undefined }), 'The total is 129.99.', {
      judge: new FixedJudge(0.8),
      passThreshold: 0.7,
    });
    expect(plain.result.status).toBe('passed');
    const local = await runSemanticsStage(testCase(), 'The total is 129.99 and the carrier is UPS.', {
      judge: new LocalReferenceJudge(),
      passThreshold: 0,
    });
    expect(local.result.error_code).toBe('missing_critical_fact');
  });

  it('LLM prompts mark each fact with its importance', () => {
    const messages = buildRubricMessages({
      question: 'q',
      expected_facts: ['a', 'b'],
      fact_importance: ['critical', 'minor'],
      actual_answer: 'x',
    });
    expect(String(messages[1]!.content)).toContain('- [critical] a\n- [minor] b');
  });
});
