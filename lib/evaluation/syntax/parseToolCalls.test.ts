import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../domain/toolCall.js';
import type { OutputFormat, ParseOutcome } from './outcome.js';
import { parseToolCalls } from './parseToolCalls.js';

const ok = (format: OutputFormat, calls: ToolCall[], answer: string | null = null): ParseOutcome => ({ ok: true, format, calls, answer });
const args = '{"city": "Paris", "days": 3}';
const parsedArgs = { city: 'Paris', days: 3 };
const chatMessage = {
  role: 'assistant',
  content: null,
  tool_calls: [
    { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: args } },
    { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
  ],
};
const chatCalls: ToolCall[] = [
  { tool_name: 'get_weather', arguments: parsedArgs, call_id: 'call_1', raw_arguments: args },
  { tool_name: 'get_time', arguments: {}, call_id: 'call_2', raw_arguments: '{}' },
];

describe('parseToolCalls: OpenAI chat completions', () => {
  const completion = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: chatMessage, finish_reason: 'tool_calls' }],
  };
  it.each<[string, unknown, ParseOutcome]>([
    ['a completion object', completion, ok('openai_chat', chatCalls)],
    ['a completion as JSON text', JSON.stringify(completion), ok('openai_chat', chatCalls)],
    ['an assistant message', chatMessage, ok('openai_chat', chatCalls)],
    ['an assistant message as text with surrounding whitespace', `\n  ${JSON.stringify(chatMessage)}  \n`, ok('openai_chat', chatCalls)],
    ['a message with content and calls', { ...chatMessage, content: 'Looking it up.' }, ok('openai_chat', chatCalls, 'Looking it up.')],
    ['content only (an answer)', { role: 'assistant', content: 'It is sunny.' }, ok('openai_chat', [], 'It is sunny.')],
    [
      'content as text parts',
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      ok('anthropic', [], 'a\nb'),
    ],
    ['a refusal', { role: 'assistant', content: null, refusal: 'I cannot help.' }, ok('openai_chat', [], 'I cannot help.')],
    [
      'the legacy function_call',
      { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: args } },
      ok('openai_chat', [{ tool_name: 'get_weather', arguments: parsedArgs, raw_arguments: args }]),
    ],
    [
      'arguments already an object (a proxy parsed them)',
      { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: { a: [1, { b: null }] } } }] },
      ok('openai_chat', [{ tool_name: 'f', arguments: { a: [1, { b: null }] }, call_id: 'c' }]),
    ],
    [
      'empty arguments text (a no-parameter tool)',
      { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] },
      ok('openai_chat', [{ tool_name: 'f', arguments: {}, call_id: 'c', raw_arguments: '' }]),
    ],
    [
      'a tool call without the function wrapper',
      { role: 'assistant', tool_calls: [{ id: 'c', name: 'f', arguments: '{"x":1}' }] },
      ok('openai_chat', [{ tool_name: 'f', arguments: { x: 1 }, call_id: 'c', raw_arguments: '{"x":1}' }]),
    ],
    ['an empty tool_calls list with content', { role: 'assistant', content: 'no call', tool_calls: [] }, ok('openai_chat', [], 'no call')],
  ])('%s', (_name, raw, expected) => {
    expect(parseToolCalls(raw)).toEqual(expected);
  });

  it.each<[string, unknown, Partial<ParseOutcome>]>([
    [
      'no choices',
      { choices: [] },
      { ok: false, format: 'openai_chat', error_code: 'empty_output', message: 'The chat completion has no choices.' },
    ],
    [
      'a choice without a message',
      { choices: [{ text: 'legacy' }] },
      {
        ok: false,
        format: 'openai_chat',
        error_code: 'unparseable_output',
        message: 'choices[0] of the chat completion has no message object.',
      },
    ],
    [
      'a message with neither calls nor content',
      { role: 'assistant', content: null },
      { ok: false, format: 'openai_chat', error_code: 'empty_output', message: 'The openai_chat output has neither tool calls nor text.' },
    ],
    [
      'tool_calls that is not a list',
      { role: 'assistant', tool_calls: 'get_weather' },
      { ok: false, format: 'openai_chat', error_code: 'unparseable_output', message: 'The message has tool_calls that is not an array.' },
    ],
    [
      'a call without a name',
      { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { arguments: '{}' } }] },
      { ok: false, format: 'openai_chat', error_code: 'unparseable_output', message: 'tool_calls[0] has no tool name (got nothing)' },
    ],
  ])('fails on %s', (_name, raw, expected) => {
    expect(parseToolCalls(raw)).toMatchObject(expected);
  });

  it('names the tool and the position of bad argument JSON, keeps the good calls, and mentions truncation', () => {
    const raw = {
      choices: [
        {
          finish_reason: 'length',
          message: {
            role: 'assistant',
            tool_calls: [
              { id: 'a', type: 'function', function: { name: 'ok_tool', arguments: '{"a": 1}' } },
              { id: 'b', type: 'function', function: { name: 'get_orders', arguments: '{"limit": 5, "status": "op' } },
            ],
          },
        },
      ],
    };
    expect(parseToolCalls(raw)).toEqual({
      ok: false,
      format: 'openai_chat',
      error_code: 'invalid_arguments_json',
      message:
        'get_orders (tool_calls[1]): arguments are not valid JSON: Unterminated string at the end of the text (position 26); is it truncated?; ' +
        'finish_reason is "length": the output hit the token limit (raise max_tokens)',
      calls: [{ tool_name: 'ok_tool', arguments: { a: 1 }, call_id: 'a', raw_arguments: '{"a": 1}' }],
      answer: null,
    });
  });

  it.each<[string, string, string]>([
    [
      'a missing comma',
      '{"a": 1 "b": 2}',
      'f (tool_calls[0]): arguments are not valid JSON: Expected \',\' or \'}\' after property value at position 8, before "\\"b\\": 2}"',
    ],
    [
      'a trailing comma',
      '{"a": 1,}',
      'f (tool_calls[0]): arguments are not valid JSON: Expected double-quoted property name at position 8, before "}"',
    ],
    [
      'single quotes',
      "{'a': 1}",
      "f (tool_calls[0]): arguments are not valid JSON: Expected property name or '}' at position 1, before \"'a': 1}\"",
    ],
    ['an array', '[1, 2]', 'f (tool_calls[0]): arguments must be a JSON object, got an array of 2'],
    ['a string', '"x"', 'f (tool_calls[0]): arguments must be a JSON object, got string "x"'],
    ['null', 'null', 'f (tool_calls[0]): arguments must be a JSON object, got null'],
  ])('reports argument text with %s as invalid_arguments_json', (_name, text, message) => {
    const raw = { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f', arguments: text } }] };
    expect(parseToolCalls(raw)).toEqual({
      ok: false,
      format: 'openai_chat',
      error_code: 'invalid_arguments_json',
      message,
      calls: [],
      answer: null,
    });
  });
});

describe('parseToolCalls: OpenAI Responses', () => {
  const output = [
    { type: 'reasoning', id: 'rs_1', summary: [] },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: args, status: 'completed' },
    { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
  ];
  const calls: ToolCall[] = [{ tool_name: 'get_weather', arguments: parsedArgs, call_id: 'call_1', raw_arguments: args }];
  it.each<[string, unknown, ParseOutcome]>([
    ['a response', { id: 'resp_1', object: 'response', status: 'completed', output }, ok('openai_responses', calls, 'Checking.')],
    ['a response as text', JSON.stringify({ object: 'response', output }), ok('openai_responses', calls, 'Checking.')],
    ['a bare list of items', output, ok('openai_responses', calls, 'Checking.')],
    ['a single function_call item', output[1], ok('openai_responses', calls)],
    ['a single message item', output[2], ok('openai_responses', [], 'Checking.')],
    [
      'a function_call with only an id',
      { type: 'function_call', id: 'fc_9', name: 'f', arguments: '{}' },
      ok('openai_responses', [{ tool_name: 'f', arguments: {}, call_id: 'fc_9', raw_arguments: '{}' }]),
    ],
    [
      'a refusal part',
      [{ type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] }],
      ok('openai_responses', [], 'No.'),
    ],
  ])('%s', (_name, raw, expected) => {
    expect(parseToolCalls(raw)).toEqual(expected);
  });

  it('fails on an empty, incomplete response and says why', () => {
    expect(
      parseToolCalls({ object: 'response', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] }),
    ).toEqual({
      ok: false,
      format: 'openai_responses',
      error_code: 'empty_output',
      message: 'The openai_responses output has neither tool calls nor text (the response is incomplete (reason: max_output_tokens)).',
      calls: [],
      answer: null,
    });
  });

  it('fails on an item that is not an object', () => {
    expect(parseToolCalls({ output: [output[1], 'junk'] })).toMatchObject({
      ok: false,
      error_code: 'unparseable_output',
      message: 'output[1] of the Responses output is not an object.',
    });
  });
});

describe('parseToolCalls: Anthropic', () => {
  const content = [
    { type: 'thinking', thinking: '…', signature: 's' },
    { type: 'text', text: 'Let me check.' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', days: 3 } },
    { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: {} },
    { type: 'text', text: 'Done.' },
  ];
  const calls: ToolCall[] = [
    { tool_name: 'get_weather', arguments: parsedArgs, call_id: 'toolu_1' },
    { tool_name: 'get_time', arguments: {}, call_id: 'toolu_2' },
  ];
  const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content, stop_reason: 'tool_use' };
  it.each<[string, unknown, ParseOutcome]>([
    ['a message', message, ok('anthropic', calls, 'Let me check.\nDone.')],
    ['a message as text', JSON.stringify(message), ok('anthropic', calls, 'Let me check.\nDone.')],
    ['a message without type', { role: 'assistant', content }, ok('anthropic', calls, 'Let me check.\nDone.')],
    ['a bare content array', content, ok('anthropic', calls, 'Let me check.\nDone.')],
    ['a single tool_use block', content[2], ok('anthropic', [calls[0] as ToolCall])],
    [
      'a tool_use without input',
      [{ type: 'tool_use', id: 't', name: 'ping' }],
      ok('anthropic', [{ tool_name: 'ping', arguments: {}, call_id: 't' }]),
    ],
    [
      'input given as JSON text',
      [{ type: 'tool_use', id: 't', name: 'f', input: '{"n": 2}' }],
      ok('anthropic', [{ tool_name: 'f', arguments: { n: 2 }, call_id: 't', raw_arguments: '{"n": 2}' }]),
    ],
  ])('%s', (_name, raw, expected) => {
    expect(parseToolCalls(raw)).toEqual(expected);
  });

  it('fails on an empty message cut by max_tokens, and on non-JSON input values', () => {
    expect(parseToolCalls({ type: 'message', content: [], stop_reason: 'max_tokens' })).toMatchObject({
      ok: false,
      error_code: 'empty_output',
      message:
        'The anthropic output has neither tool calls nor text (stop_reason is "max_tokens": the output hit the token limit (raise max_tokens)).',
    });
    expect(parseToolCalls([{ type: 'tool_use', id: 't', name: 'f', input: { when: new Date(0) } }])).toMatchObject({
      ok: false,
      error_code: 'invalid_arguments_json',
      message: 'f (content[0]): arguments are not plain JSON: /when is a Date',
    });
    expect(parseToolCalls([{ type: 'tool_use', id: 't', name: 'f', input: [1] }])).toMatchObject({
      ok: false,
      error_code: 'invalid_arguments_json',
      message: 'f (content[0]): arguments must be a JSON object, got an array of 1',
    });
  });
});

describe('parseToolCalls: plain JSON calls', () => {
  const call: ToolCall = { tool_name: 'get_weather', arguments: parsedArgs };
  it.each<[string, unknown, ParseOutcome]>([
    ['a list with name/arguments', [{ name: 'get_weather', arguments: parsedArgs }], ok('json_array', [call])],
    ['tool_name/parameters', [{ tool_name: 'get_weather', parameters: parsedArgs }], ok('json_array', [call])],
    ['function/args', [{ function: 'get_weather', args: parsedArgs }], ok('json_array', [call])],
    ['name/input', [{ name: 'get_weather', input: parsedArgs }], ok('json_array', [call])],
    ['function as an OpenAI object', [{ function: { name: 'get_weather', arguments: parsedArgs } }], ok('json_array', [call])],
    ['arguments as JSON text', [{ name: 'get_weather', arguments: args }], ok('json_array', [{ ...call, raw_arguments: args }])],
    ['a list as text', JSON.stringify([{ name: 'get_weather', arguments: parsedArgs }]), ok('json_array', [call])],
    ['{tool_calls: [...]}', { tool_calls: [{ name: 'get_weather', arguments: parsedArgs }] }, ok('json_array', [call])],
    ['a single call object', { name: 'get_weather', arguments: parsedArgs }, ok('json_array', [call])],
    ['a single call as text', JSON.stringify({ name: 'get_weather', parameters: parsedArgs }), ok('json_array', [call])],
    ['a call without arguments', [{ name: 'ping' }], ok('json_array', [{ tool_name: 'ping', arguments: {} }])],
    [
      'a call with an id',
      [{ id: 'x1', name: 'ping', arguments: {} }],
      ok('json_array', [{ tool_name: 'ping', arguments: {}, call_id: 'x1' }]),
    ],
    ['an empty list (a deliberate no-call)', [], ok('json_array', [])],
    ['an empty list as text', '[]', ok('json_array', [])],
    ['{tool_calls: []}', '{"tool_calls": []}', ok('json_array', [])],
    ['a one-line fence', '```{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}```', ok('json_array', [call])],
    [
      'a fence without its closing',
      '```json\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}',
      ok('json_array', [call]),
    ],
    ['a fenced JSON block', '```json\n[{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}]\n```', ok('json_array', [call])],
  ])('%s', (_name, raw, expected) => {
    expect(parseToolCalls(raw)).toEqual(expected);
  });

  it.each<[string, unknown, string]>([
    ['a list of numbers', [1, 2, 3], 'list[0] is number 1, not a tool call object like {"name": ..., "arguments": {...}}.'],
    [
      'a list of strings',
      '["get_weather"]',
      'list[0] is string "get_weather", not a tool call object like {"name": ..., "arguments": {...}}.',
    ],
    [
      'an object of another kind',
      { foo: 1, bar: 2 },
      'Unrecognised output object (keys: foo, bar); expected an OpenAI chat completion or message, a Responses API response, an Anthropic message, or tool calls like {"name": ..., "arguments": {...}}.',
    ],
    ['a nameless call', [{ arguments: {} }], 'list[0] has no tool name (got nothing)'],
    ['a numeric name', [{ name: 7, arguments: {} }], 'list[0] has no tool name (got number 7)'],
    [
      'broken JSON text',
      '{"name": "f", "arguments": {"a": }}',
      'The output looks like JSON but does not parse: Unexpected token \'}\' at position 33, before "}}".',
    ],
  ])('fails on %s', (_name, raw, message) => {
    expect(parseToolCalls(raw)).toMatchObject({ ok: false, error_code: 'unparseable_output', message });
  });
});

describe('parseToolCalls: text', () => {
  it.each<[string, string, ParseOutcome]>([
    ['prose', 'The weather in Paris is sunny.', ok('text', [], 'The weather in Paris is sunny.')],
    ['prose with parentheses', 'Paris (France) is the capital.', ok('text', [], 'Paris (France) is the capital.')],
    ['prose in brackets', '[Note] I cannot do that.', ok('text', [], '[Note] I cannot do that.')],
    ['a number', '42', ok('text', [], '42')],
    ['a quoted string', '"hello"', ok('text', [], '"hello"')],
    ['a fenced text block', '```\nJust text\n```', ok('text', [], '```\nJust text\n```')],
    [
      'python call text',
      'get_weather(city="Paris", days=3)',
      ok('python_calls', [{ tool_name: 'get_weather', arguments: parsedArgs, raw_arguments: 'get_weather(city="Paris", days=3)' }]),
    ],
    [
      'fenced python',
      '```python\nget_time()\n```',
      ok('python_calls', [{ tool_name: 'get_time', arguments: {}, raw_arguments: 'get_time()' }]),
    ],
  ])('%s', (_name, raw, expected) => {
    expect(parseToolCalls(raw)).toEqual(expected);
  });

  it.each<[string, unknown, string]>([
    ['an empty string', '', 'The target returned an empty string.'],
    ['whitespace', ' \n\t ', 'The target returned only whitespace.'],
    ['null', null, 'The target returned no output (null).'],
    ['undefined', undefined, 'The target returned no output (undefined).'],
    ['an empty fence', '```json\n```', 'The target returned an empty code block.'],
  ])('%s is empty_output', (_name, raw, message) => {
    expect(parseToolCalls(raw)).toMatchObject({ ok: false, error_code: 'empty_output', message });
  });
});
