import { describe, expect, it } from 'vitest';
import { fieldsAt, reasonWithSuggestion, suggestField } from './fieldSuggestion.js';
import { TestCaseSchema } from '../../../domain/index.js';

describe('suggestField', () => {
  it.each<[string, string | undefined]>([
    ['expected_tool_calls.0.tool', 'tool_name'],
    ['expected_tool_calls.3.args', 'arguments'],
    ['expected_tool_calls.0.argument', 'arguments'],
    ['nl_qeury', 'nl_query'],
    ['metadata.complexity', 'complexity_level'],
    ['metadata.tag', 'tags'],
    ['metadata.colour', undefined],
    ['banana', undefined],
  ])('%s -> %s', (field, expected) => {
    expect(suggestField(field)).toBe(expected);
  });

  it('reads the accepted fields at a place of the test case schema', () => {
    expect(fieldsAt(TestCaseSchema, ['expected_tool_calls', '0'])).toContain('tool_name');
    expect(fieldsAt(TestCaseSchema, ['metadata'])).toContain('complexity_level');
  });

  it('adds the suggestion to an unknown-field reason only', () => {
    expect(reasonWithSuggestion('expected_tool_calls.0.tool', 'unknown field')).toBe('unknown field; did you mean "tool_name"?');
    expect(reasonWithSuggestion('nl_query', 'required (expected string)')).toBe('required (expected string)');
  });
});
