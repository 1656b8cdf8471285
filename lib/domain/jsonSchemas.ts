import { z } from 'zod';
import { ToolCallSchema } from './toolCall.js';
import { TestCaseSchema } from './testCase.js';
import { ToolCatalogSchema } from './toolCatalog.js';
import { StageResultSchema } from './stageResult.js';
import { ScorecardSchema } from './scorecard.js';
import { EvaluationConfigSchema } from './evaluationConfig.js';

/** The domain schemas that are exported as JSON Schema (for OpenAPI, editors and other languages). */
export const DOMAIN_SCHEMAS = {
  ToolCall: ToolCallSchema,
  TestCase: TestCaseSchema,
  ToolCatalog: ToolCatalogSchema,
  StageResult: StageResultSchema,
  Scorecard: ScorecardSchema,
  EvaluationConfig: EvaluationConfigSchema,
} as const;
export type DomainSchemaName = keyof typeof DOMAIN_SCHEMAS;

/** JSON Schema (draft 2020-12) of one domain schema, describing the input shape (defaults optional). */
export function toJsonSchema(name: DomainSchemaName): Record<string, unknown> {
  const schema = z.toJSONSchema(DOMAIN_SCHEMAS[name], { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  // a case is a question with expected calls, or a conversation (turns): a rule zod's refinement holds, stated here
  return name === 'TestCase' ? { ...schema, anyOf: [{ required: ['nl_query', 'expected_tool_calls'] }, { required: ['turns'] }] } : schema;
}
