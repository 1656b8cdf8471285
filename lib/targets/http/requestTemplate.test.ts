import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTemplate } from './requestTemplate.js';

const NASTY = 'He said "hi"\nthen \\left\ttab, {{question}} } { and \u2028 ünïcödé 😀';

describe('compileTemplate: JSON bodies', () => {
  it.each([
    ['{"question": {{question}}}', { question: NASTY }],
    ['{"question": "{{question}}"}', { question: NASTY }],
    ['{"question": "Q: {{ question }} (asked)"}', { question: `Q: ${NASTY} (asked)` }],
    [
      '{"id": {{test_case_id}}, "messages": [{"role": "user", "content": {{question}}}]}',
      { id: 'tc "7"', messages: [{ role: 'user', content: NASTY }] },
    ],
    ['{"a": "\\"{{question}}\\"", "b": {{question}}}', { a: `"${NASTY}"`, b: NASTY }],
  ])('%s renders valid JSON with the values intact', (template, expected) => {
    const rendered = compileTemplate(template).renderJson({ question: NASTY, test_case_id: 'tc "7"' });
    expect(JSON.parse(rendered)).toEqual(expected);
  });

  it('any question survives in and out of a JSON string (property)', () => {
    const outside = compileTemplate('{"q": {{question}}, "n": 1}');
    const inside = compileTemplate('{"q": "<{{question}}>"}');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (question) => {
        const values = { question, test_case_id: 'x' };
        return JSON.parse(outside.renderJson(values)).q === question && JSON.parse(inside.renderJson(values)).q === `<${question}>`;
      }),
    );
  });

  it('lists the placeholders it uses and leaves other braces alone', () => {
    const template = compileTemplate('[{{"literal": 1}}, {{question}}]');
    expect(template.placeholders).toEqual(['question']);
    expect(template.renderJson({ question: 'q', test_case_id: 'x' })).toBe('[{{"literal": 1}}, "q"]');
  });

  it('rejects unknown placeholders', () => {
    expect(() => compileTemplate('{"q": {{query}}}')).toThrow(
      'uses {{query}}; only {{question}}, {{test_case_id}}, {{messages}} are substituted',
    );
  });
});

describe('compileTemplate: URLs', () => {
  it('percent-encodes every placeholder', () => {
    const url = compileTemplate('https://agent.example/ask?q={{question}}&case={{test_case_id}}');
    expect(url.renderUrl({ question: 'a&b c/"d"', test_case_id: 'tc 1' })).toBe(
      'https://agent.example/ask?q=a%26b%20c%2F%22d%22&case=tc%201',
    );
  });
});
