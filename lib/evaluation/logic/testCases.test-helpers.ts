import { TestCaseSchema, type TestCase, type TestCaseInput } from '../../domain/testCase.js';
import type { ToolCall } from '../../domain/toolCall.js';
import { ToolCatalogSchema, type ToolCatalog } from '../../domain/toolCatalog.js';

/** A test case parsed by the real schema, with only the fields a test cares about. */
export function testCase(fields: Omit<TestCaseInput, 'id' | 'nl_query'>): TestCase {
  return TestCaseSchema.parse({ id: 'case-1', nl_query: 'what is the weather?', ...fields });
}

export function call(tool_name: string, args: Record<string, unknown> = {}, floatLiteralPaths?: string[]): ToolCall {
  return { tool_name, arguments: args as ToolCall['arguments'], ...(floatLiteralPaths ? { float_literal_paths: floatLiteralPaths } : {}) };
}

export const WEATHER_CATALOG: ToolCatalog = ToolCatalogSchema.parse({
  name: 'weather',
  tool_schema_version: '1',
  tools: [
    {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
          days: { type: 'integer', default: 1 },
        },
        required: ['city'],
      },
    },
    {
      name: 'get_forecast',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, tags: { type: 'array', items: { type: 'string' }, 'x-unordered': true } },
      },
    },
  ],
});
