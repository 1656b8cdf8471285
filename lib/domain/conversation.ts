import { z } from 'zod';
import { ExpectedToolCallSchema, ExpectedValueSchema } from './expected.js';
import { FactImportanceSchema } from './factImportance.js';
import { StageNameSchema, ErrorCodeSchema, StageResultSchema } from './stageResult.js';
import { ToolCallSchema } from './toolCall.js';
import { TrajectorySchema } from './trajectory.js';

/**
 * One turn of a conversation case: what the user says, and what the agent should do in answer, with the same
 * expectations (and matchers) as a single-question case. `expect_clarification: true` means the right answer is to
 * ask the user for what is missing instead of calling (no expected calls then).
 */
export const ConversationTurnSchema = z
  .object({
    /** the user's message of this turn */
    user: z.string().min(1),
    /** the calls the agent should make in answer to this turn (in its tool loop); [] = no call */
    expected_tool_calls: z.array(ExpectedToolCallSchema).default([]),
    alternative_tool_calls: z.array(z.array(ExpectedToolCallSchema)).default([]),
    call_order: z.enum(['any', 'strict', 'dependency']).default('any'),
    /** what each expected call of this turn should return, aligned by index with its expected_tool_calls */
    expected_raw_data: z.array(ExpectedValueSchema).optional(),
    expected_nl_response: z.string().optional(),
    expected_facts: z.array(z.string()).default([]),
    fact_importance: z.array(FactImportanceSchema).optional(),
    /** the agent should ask the user for missing information instead of calling (stage 2 checks it) */
    expect_clarification: z.boolean().default(false),
  })
  .strict()
  .superRefine((turn, ctx) => {
    if (turn.expect_clarification && turn.expected_tool_calls.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['expect_clarification'],
        message: `is true but the turn expects ${turn.expected_tool_calls.length} call(s); a turn that should be answered with a question expects no call`,
      });
    }
    for (const [name, length] of [
      ['expected_raw_data', turn.expected_raw_data?.length],
      ['fact_importance', turn.fact_importance?.length],
    ] as const) {
      const other = name === 'expected_raw_data' ? turn.expected_tool_calls.length : turn.expected_facts.length;
      if (length !== undefined && length !== other) {
        const of = name === 'expected_raw_data' ? 'expected_tool_calls' : 'expected_facts';
        ctx.addIssue({ code: 'custom', path: [name], message: `has ${length} entries but ${of} has ${other}; they are aligned by index` });
      }
    }
  });
export type ConversationTurn = z.infer<typeof ConversationTurnSchema>;
export type ConversationTurnInput = z.input<typeof ConversationTurnSchema>;

/** The result of one turn of a conversation case on its scorecard: the turn's four stages and what the agent did. */
export const TurnResultSchema = z
  .object({
    /** 0-based index of the turn in the case's `turns` (reports say "turn index+1") */
    index: z.number().int().nonnegative(),
    passed: z.boolean(),
    score: z.number().min(0).max(1),
    failing_stage: StageNameSchema.optional(),
    error_code: ErrorCodeSchema.optional(),
    stages: z.object({
      syntax: StageResultSchema,
      logic: StageResultSchema,
      execution: StageResultSchema,
      semantics: StageResultSchema,
    }),
    generated_tool_calls: z.array(ToolCallSchema),
    generated_nl_response: z.string().nullable(),
    /** the agent's tool loop in this turn, when it ran one */
    trajectory: TrajectorySchema.optional(),
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
  })
  .strict();
export type TurnResult = z.infer<typeof TurnResultSchema>;

/** The fields of a test case a turn may carry (what `turnCaseOf` copies from the turn). */
interface TurnHolder {
  id: string;
  nl_query: string;
  turns?: ConversationTurn[] | undefined;
}

/**
 * The single-question case that one turn of a conversation is scored as: the turn's question and expectations,
 * the case's id, catalog, coercion and execution settings. Stages 1-4 score each turn with it; the expected-data
 * provider serves the turn's expected_raw_data through it.
 */
export function turnCaseOf<T extends TurnHolder>(testCase: T, index: number): T {
  const turn = testCase.turns?.[index];
  if (!turn) throw new RangeError(`test case ${testCase.id} has no turn ${index}`);
  const {
    turns: _turns,
    expected_raw_data: _data,
    expected_nl_response: _answer,
    fact_importance: _importance,
    ...rest
  } = testCase as TurnHolder & { expected_raw_data?: unknown; expected_nl_response?: unknown; fact_importance?: unknown };
  return {
    ...rest,
    nl_query: turn.user,
    expected_tool_calls: turn.expected_tool_calls,
    alternative_tool_calls: turn.alternative_tool_calls,
    call_order: turn.call_order,
    ...(turn.expected_raw_data ? { expected_raw_data: turn.expected_raw_data } : {}),
    ...(turn.expected_nl_response !== undefined ? { expected_nl_response: turn.expected_nl_response } : {}),
    expected_facts: turn.expected_facts,
    ...(turn.fact_importance ? { fact_importance: turn.fact_importance } : {}),
  } as unknown as T;
}

/** Whether a case is a conversation (has turns). */
export function isConversation(testCase: { turns?: readonly unknown[] | undefined }): boolean {
  return (testCase.turns?.length ?? 0) > 0;
}
