import { OpenAI } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { JudgeError } from '../../ports/judgeError.js';
import {
  apiError,
  chatCompletion,
  startChatCompletionsServer,
  type ChatCompletionsServer,
  type RecordedRequest,
  type ScriptedResponse,
} from '../testing/chatCompletionsServer.test-helpers.js';
import { PairwiseJudge, toPass } from './pairwiseJudge.js';

const RIGHT = 'ACME has 42 open orders.';
const WRONG = 'ACME has 7 open orders.';

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Which answer the request shows in position 1 and 2. */
function positions(request: RecordedRequest): { first: string; second: string } {
  const user = (request.body as { messages: { content: string }[] }).messages[1]!.content;
  const section = (tag: string) => user.split(`<${tag}>\n`)[1]!.split(`\n</${tag}>`)[0]!;
  return { first: section('answer_1'), second: section('answer_2') };
}

const reply = (winner: '1' | '2' | 'tie', score_1: number, score_2: number, reasoning = `winner ${winner}`): ScriptedResponse =>
  chatCompletion(JSON.stringify({ reasoning, score_1, score_2, winner }), { model: 'gpt-4o-2024-08-06' });

async function compareWith(responder: (request: RecordedRequest) => ScriptedResponse, answerA = RIGHT, answerB = WRONG) {
  server = await startChatCompletionsServer((request) => responder(request));
  const judge = new PairwiseJudge({
    client: new OpenAI({ apiKey: 'k', baseURL: server.baseURL }),
    model: 'gpt-4o',
    retryDelayInMs: 1,
    maxRetries: 0,
  });
  return judge.compare({ question: 'How many open orders does ACME have?', reference: 'There are 42.', answerA, answerB });
}

describe('PairwiseJudge', () => {
  it('asks twice with the positions swapped and reports a consistent winner', async () => {
    // a fair model: the answer saying 42 wins wherever it is shown
    const result = await compareWith((request) => {
      const { first } = positions(request);
      return first === RIGHT ? reply('1', 1, 0.2) : reply('2', 0.1, 0.9);
    });
    expect(server!.requests.map((r) => positions(r))).toEqual(
      expect.arrayContaining([
        { first: RIGHT, second: WRONG },
        { first: WRONG, second: RIGHT },
      ]),
    );
    expect(result).toEqual({
      winner: 'A',
      scoreA: (1 + 0.9) / 2,
      scoreB: (0.2 + 0.1) / 2,
      consistent: true,
      reasoning: 'A shown first: winner 1\nB shown first: winner 2',
      passes: [
        { order: 'AB', winner: 'A', scoreA: 1, scoreB: 0.2, reasoning: 'winner 1' },
        { order: 'BA', winner: 'A', scoreA: 0.9, scoreB: 0.1, reasoning: 'winner 2' },
      ],
      model: 'gpt-4o-2024-08-06',
      input_tokens: 200,
      output_tokens: 40,
      cost_usd: 2 * ((100 * 2.5 + 20 * 10) / 1e6),
    });
  });

  it('turns a position-biased verdict (first answer always wins) into an inconsistent tie', async () => {
    const result = await compareWith(() => reply('1', 0.8, 0.6));
    expect([result.winner, result.consistent, result.scoreA, result.scoreB]).toEqual(['tie', false, 0.7, 0.7]);
  });

  it('reports B when B wins in both orders, and a consistent tie when both passes say tie', async () => {
    const bWins = await compareWith((request) => (positions(request).first === RIGHT ? reply('1', 1, 0) : reply('2', 0, 1)), WRONG, RIGHT);
    expect([bWins.winner, bWins.consistent]).toEqual(['B', true]);
    await server!.close();
    const tie = await compareWith(() => reply('tie', 0.5, 0.5));
    expect([tie.winner, tie.consistent]).toEqual(['tie', true]);
  });

  it('fails with a JudgeError carrying the tokens of both passes when one pass fails', async () => {
    const error = (await compareWith((request) =>
      positions(request).first === RIGHT ? reply('1', 1, 0) : apiError(400, 'bad request'),
    ).catch((e: unknown) => e)) as JudgeError;
    expect(error).toBeInstanceOf(JudgeError);
    expect([error.reason, error.status, error.attempts, error.input_tokens, error.output_tokens]).toEqual(['http_error', 400, 2, 100, 20]);
  });

  it.each([
    ['AB', '1', 'A', 0.9, 0.1],
    ['AB', '2', 'B', 0.9, 0.1],
    ['BA', '1', 'B', 0.1, 0.9],
    ['BA', '2', 'A', 0.1, 0.9],
    ['BA', 'tie', 'tie', 0.1, 0.9],
  ] as const)('maps a %s reply naming %s back to %s', (order, winner, expected, scoreA, scoreB) => {
    expect(toPass(order, { reasoning: 'r', score_1: 0.9, score_2: 0.1, winner })).toEqual({
      order,
      winner: expected,
      scoreA,
      scoreB,
      reasoning: 'r',
    });
  });
});
