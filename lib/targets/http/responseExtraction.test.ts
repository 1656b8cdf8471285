import { describe, expect, it } from 'vitest';
import { runSyntaxStage } from '../../evaluation/syntax/index.js';
import { extractResponse, type ResponsePaths } from './responseExtraction.js';

const PATHS: ResponsePaths = { answer_path: '$.answer', tool_calls_path: '$.calls', agent_path: '$.meta.agent', reason_path: '$.meta.why' };

describe('extractResponse', () => {
  it.each<[string, unknown, ResponsePaths, unknown]>([
    [
      'calls as {name, arguments} plus the answer, agent and reason',
      {
        answer: 'Done.',
        calls: [{ name: 'orders.search', arguments: { customer: 'ACME' } }],
        meta: { agent: 'orders', why: 'mentions orders' },
      },
      PATHS,
      {
        output: {
          role: 'assistant',
          content: 'Done.',
          tool_calls: [{ type: 'function', function: { name: 'orders.search', arguments: { customer: 'ACME' } } }],
        },
        agent: 'orders',
        routing_reason: 'mentions orders',
      },
    ],
    [
      'calls as {tool_name, parameters, id} and {function: "f", args} and OpenAI shape',
      {
        calls: [
          { tool_name: 'a', parameters: { x: 1 }, id: 'c1' },
          { function: 'b', args: '{"y":2}' },
          { id: 'c3', type: 'function', function: { name: 'c', arguments: '{}' } },
        ],
      },
      PATHS,
      {
        output: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'a', arguments: { x: 1 } } },
            { type: 'function', function: { name: 'b', arguments: '{"y":2}' } },
            { id: 'c3', type: 'function', function: { name: 'c', arguments: '{}' } },
          ],
        },
      },
    ],
    [
      'a single call object',
      { calls: { name: 'f', input: { q: 1 } } },
      PATHS,
      { output: { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f', arguments: { q: 1 } } }] } },
    ],
    [
      'calls as JSON text',
      { calls: '[{"name": "f", "arguments": {}}]' },
      PATHS,
      { output: { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f', arguments: {} } }] } },
    ],
    ['calls as Python text', { answer: 'x', calls: 'f(a=1)' }, PATHS, { output: 'f(a=1)' }],
    [
      'no calls: the answer text',
      { answer: 'I cannot do that.', calls: [] },
      { answer_path: '$.answer' },
      { output: { role: 'assistant', content: 'I cannot do that.' } },
    ],
    [
      'an empty call list: a deliberate no-call',
      { answer: 'No.', calls: [] },
      PATHS,
      { output: { role: 'assistant', content: 'No.', tool_calls: [] } },
    ],
    [
      'a structured answer is the output itself',
      { message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] } },
      { answer_path: '$.message' },
      { output: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] } },
    ],
    ['nothing matches', { other: 1 }, PATHS, { output: { role: 'assistant', content: null } }],
    [
      'non-string answer and agent as JSON text',
      { answer: 42, meta: { agent: { id: 7 } } },
      PATHS,
      { output: { role: 'assistant', content: '42' }, agent: '{"id":7}' },
    ],
    ['a garbage call item is kept for stage 1', { calls: [5] }, PATHS, { output: { role: 'assistant', content: null, tool_calls: [5] } }],
  ])('%s', (_label, json, paths, expected) => {
    expect(extractResponse(json, paths)).toEqual(expected);
  });

  it.each([
    [{ answer: 'Done.', calls: [{ tool_name: 'get_weather', parameters: { city: 'Paris' } }] }, ['get_weather'], 'Done.'],
    [{ answer: 'Sure', calls: '{"name": "f", "arguments": "{\\"n\\": 5.0}"}' }, ['f'], 'Sure'],
    [{ answer: 'No tool needed.' }, [], 'No tool needed.'],
  ])('stage 1 parses what it builds: %j', (json, toolNames, answer) => {
    const { output } = extractResponse(json, PATHS);
    const stage = runSyntaxStage(output);
    expect(stage.result.passed).toBe(true);
    expect(stage.calls.map((c) => c.tool_name)).toEqual(toolNames);
    expect(stage.answer).toBe(answer);
  });
});
