import { OpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModelServer, SIMULATED_JUDGE, type ScriptedModelServer } from '../../examples/retail-mcp/scriptedModelServer.js';
import { TestCaseSchema, type Scorecard } from '../domain/index.js';
import { PairwiseJudge } from '../judges/index.js';
import { type PairwiseInput, type PairwiseJudgePort, type PairwiseResult, type PairwiseWinner } from '../ports/index.js';
import { sampleScorecard } from '../ports/contracts/fixtures.js';
import { wilsonInterval } from '../statistics/index.js';
import { comparePair } from './comparePair.js';

function card(run: string, id: string, passed: boolean, answer: string, extra: Partial<Scorecard> = {}): Scorecard {
  return { ...sampleScorecard(run, id, { passed }), generated_nl_response: answer, ...extra };
}

/** A judge whose verdict is written in the answers: "win", "lose" or anything else (tie); "flip" disagrees with itself. */
const scripted: PairwiseJudgePort = {
  model: 'scripted',
  async compare(input: PairwiseInput): Promise<PairwiseResult> {
    if (input.answerA === 'boom') throw new Error('judge down');
    const winner: PairwiseWinner = input.answerA === 'win' ? 'A' : input.answerA === 'lose' ? 'B' : 'tie';
    const consistent = input.answerA !== 'flip';
    const pass = { order: 'AB' as const, winner, scoreA: 1, scoreB: 0, reasoning: '' };
    return {
      winner: consistent ? winner : 'tie',
      scoreA: 1,
      scoreB: 0,
      consistent,
      reasoning: '',
      passes: [pass, { ...pass, order: 'BA' }],
      model: 'scripted',
      input_tokens: 1,
      output_tokens: 1,
      cost_usd: 0.001,
    };
  },
};

describe('comparePair', () => {
  it('pass rates with Wilson intervals, cost and calls per case per side, and win/tie/loss on the (case, trial) pairs both answered', async () => {
    const baseline = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id) =>
      card('b', id, id === 'c5', 'baseline answer', { generated_tool_calls: [] }),
    );
    const answers = ['win', 'win', 'lose', 'flip', 'boom'];
    const enhanced = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id, i) =>
      card('e', id, i < 4, answers[i]!, {
        api_calls_made: 7,
        estimated_cost_usd: 0.01,
        generated_tool_calls: [],
        trajectory: {
          turns: 2,
          stop: 'answered',
          steps: [
            { kind: 'tool_call', turn: 1, call_id: 'a', tool_name: 'f', arguments: {}, executed: true, ok: true, latency_ms: 1 },
            { kind: 'tool_call', turn: 1, call_id: 'b', tool_name: 'g', arguments: {}, executed: true, ok: true, latency_ms: 1 },
          ],
        },
      }),
    );
    enhanced.push(card('e', 'c1', true, 'win', { trial: 2, generated_tool_calls: [] })); // no baseline trial 2: not judged
    const result = await comparePair(
      'p1',
      { run: { id: 'b', target_id: 'tb', status: 'completed' }, cards: baseline },
      { run: { id: 'e', target_id: 'te', status: 'completed' }, cards: enhanced },
      { judge: scripted, concurrency: 2 },
    );
    expect(result.baseline).toMatchObject({ scorecards: 5, passed: 1, calls_per_case: 0 });
    expect(result.enhanced).toMatchObject({ scorecards: 6, passed: 5, calls_per_case: 1.667 });
    const w = wilsonInterval(1, 5);
    expect(result.baseline.pass_rate).toEqual({
      estimate: 0.2,
      lower: Math.round(w.lower * 1e6) / 1e6,
      upper: Math.round(w.upper * 1e6) / 1e6,
      n: 5,
    });
    // per-case trial means: c1's two passing trials count as one case that passed (4 of 5 cases), not 5 of 6 cards
    expect(result.enhanced).toMatchObject({ cases: 5, not_scored: 0, pass_rate: expect.objectContaining({ estimate: 0.8, n: 5 }) });
    expect(result.pass_rate_delta_pts).toBeCloseTo((0.8 - 0.2) * 100, 2);
    // paired on the 5 shared cases: c1-c4 fail -> pass, c5 pass -> fail: exact McNemar(1, 4)
    expect(result.paired).toMatchObject({ paired_cases: 5, test: 'exact McNemar', newly_passing: 4, newly_failing: 1 });
    expect(result.paired?.p_value).toBeCloseTo(0.375, 12);
    expect(result.pairwise).toMatchObject({
      judged: 4,
      enhanced_wins: 2,
      baseline_wins: 1,
      ties: 1,
      inconsistent: 1,
      errors: 1,
      judge_cost_usd: 0.004,
    });
    const wr = wilsonInterval(2, 3);
    expect(result.pairwise?.win_rate.estimate).toBeCloseTo(2 / 3, 6);
    expect(result.pairwise?.win_rate.lower).toBeCloseTo(wr.lower, 6);
    expect(result.pairwise?.cases.map((c) => c.winner)).toEqual(['enhanced', 'enhanced', 'baseline', 'tie']);
  });

  it('with trials: pass@1 on per-case trial means over the scored trials, and the paired t-test on the shared cases', async () => {
    // baseline: c1 P P P, c2 P F F, c3 F F F; enhanced: c1 P P F, c2 P P X (target error: not scored), c3 P F F
    const trials = (run: string, id: string, outcomes: string) =>
      [...outcomes].map((o, t) =>
        o === 'X'
          ? { ...sampleScorecard(run, id, { passed: false, failing_stage: 'execution', error_code: 'target_error' }), trial: t + 1 }
          : card(run, id, o === 'P', 'answer', { trial: t + 1 }),
      );
    const result = await comparePair(
      'p3',
      {
        run: { id: 'b', target_id: 'tb', status: 'completed' },
        cards: [...trials('b', 'c1', 'PPP'), ...trials('b', 'c2', 'PFF'), ...trials('b', 'c3', 'FFF')],
      },
      {
        run: { id: 'e', target_id: 'te', status: 'completed' },
        cards: [...trials('e', 'c1', 'PPF'), ...trials('e', 'c2', 'PPX'), ...trials('e', 'c3', 'PFF')],
      },
    );
    expect(result.baseline).toMatchObject({ scorecards: 9, passed: 4, cases: 3, not_scored: 0 });
    expect(result.enhanced).toMatchObject({ scorecards: 9, passed: 5, cases: 3, not_scored: 1 });
    // pass@1: baseline (1 + 1/3 + 0) / 3 = 4/9; enhanced (2/3 + 2/2 + 1/3) / 3 = 2/3
    expect(result.baseline.pass_rate.estimate).toBeCloseTo(4 / 9, 6);
    expect(result.enhanced.pass_rate.estimate).toBeCloseTo(2 / 3, 6);
    expect(result.pass_rate_delta_pts).toBeCloseTo((2 / 3 - 4 / 9) * 100, 2);
    // differences -1/3, +2/3, +1/3: mean 2/9, sd 0.509175, t = 0.755929 on 2 df, p = 0.528595 (scipy.stats.ttest_1samp)
    expect(result.paired).toMatchObject({ paired_cases: 3, test: 'paired t on per-case trial means', newly_failing: 1, newly_passing: 2 });
    expect(result.paired?.difference).toBeCloseTo(2 / 9, 12);
    expect(result.paired?.p_value).toBeCloseTo(0.528595, 5);
  });

  it('without a judge: pass rates only; empty runs give null estimates', async () => {
    const result = await comparePair(
      'p2',
      { run: { id: 'b', target_id: 'tb', status: 'running' }, cards: [] },
      { run: { id: 'e', target_id: 'te', status: 'running' }, cards: [] },
    );
    expect(result.pairwise).toBeNull();
    expect(result.pass_rate_delta_pts).toBeNull();
    expect(result.baseline.pass_rate).toEqual({ estimate: null, lower: 0, upper: 1, n: 0 });
    expect(result.paired).toBeNull();
  });

  describe('with the real PairwiseJudge (openai client) against the simulated judge', () => {
    let server: ScriptedModelServer;
    beforeAll(async () => {
      server = await startScriptedModelServer();
    });
    afterAll(async () => server.close());

    it('asks both orders; a clear winner survives the swap, a near tie with a position bias becomes an inconsistent tie', async () => {
      const judge = new PairwiseJudge({
        client: new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: 'none' }),
        model: SIMULATED_JUDGE,
        maxRetries: 0,
      });
      const tc = TestCaseSchema.parse({
        id: 'c1',
        nl_query: 'Is ORD-1 shipped?',
        expected_tool_calls: [],
        expected_nl_response: 'Order ORD-1 is delivered with DHL tracking 123 total 89 USD and more words here',
      });
      const cases = new Map([[tc.id, tc]]);
      const clear = await comparePair(
        'p3',
        { run: { id: 'b', target_id: 'tb', status: 'completed' }, cards: [card('b', 'c1', false, "I can't look that up.")] },
        {
          run: { id: 'e', target_id: 'te', status: 'completed' },
          cards: [card('e', 'c1', true, 'Order ORD-1 is delivered with DHL, tracking 123, total 89 USD.')],
        },
        { judge, cases },
      );
      expect(clear.pairwise).toMatchObject({ judged: 1, enhanced_wins: 1, inconsistent: 0 });
      expect(server.requests.openai).toBe(2); // both orders
      // reference has 16 words; answers differ by one word (gap 1/16 = 0.0625): the judge favours position 1 both times
      const near = await comparePair(
        'p4',
        {
          run: { id: 'b', target_id: 'tb', status: 'completed' },
          cards: [card('b', 'c1', true, 'Order ORD-1 is delivered with DHL tracking 123 total 89 USD and more words')],
        },
        {
          run: { id: 'e', target_id: 'te', status: 'completed' },
          cards: [card('e', 'c1', true, 'Order ORD-1 is delivered with DHL tracking 123 total 89 USD and more words here')],
        },
        { judge, cases },
      );
      expect(near.pairwise).toMatchObject({ judged: 1, ties: 1, inconsistent: 1, enhanced_wins: 0, baseline_wins: 0 });
    });
  });
});
