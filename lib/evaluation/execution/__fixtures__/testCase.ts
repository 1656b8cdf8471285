import { TestCaseSchema, type TestCase, type TestCaseInput } from '../../../domain/index.js';

/** A valid test case with one expected get_weather call; override any field. */
export function makeCase(overrides: Partial<TestCaseInput> = {}): TestCase {
  return TestCaseSchema.parse({
    id: 'case-1',
    nl_query: 'What is the weather in Paris?',
    expected_tool_calls: [{ tool_name: 'get_weather', arguments: { city: 'Paris' } }],
    ...overrides,
  });
}
