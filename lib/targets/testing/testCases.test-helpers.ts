import { TestCaseSchema, type TestCase } from '../../domain/index.js';

/** A minimal valid test case for invoker tests. */
export function testCase(id: string, nl_query = `question of ${id}`): TestCase {
  return TestCaseSchema.parse({ id, nl_query, expected_tool_calls: [] });
}
