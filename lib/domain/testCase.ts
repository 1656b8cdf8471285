import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';
import { IdSchema } from './id.js';
import { FactImportanceSchema } from './factImportance.js';
import { ExpectedToolCallSchema, ExpectedValueSchema } from './expected.js';
import { CoercionPolicySpecSchema } from './coercionPolicy.js';
import { AbstentionSchema, CaseEnvironmentSchema } from './caseEnvironment.js';
import { dataFlowProblems } from './dataFlow.js';
import { BfclReferenceSchema } from './bfclReference.js';
import { ConversationTurnSchema } from './conversation.js';
import { FeedbackProvenanceSchema } from './feedbackProvenance.js';

export const TestCaseMetadataSchema = z
  .object({
    api_version: z.string().optional(),
    complexity_level: z.number().int().min(1).max(5).default(1),
    tags: z.array(z.string().min(1)).default([]),
    category: z.string().optional(),
    author: z.string().optional(),
    /** Where the case came from: `native`, `csv`, `bfcl:<file>`, ... */
    source: z.string().optional(),
    created_at: z.iso.datetime({ offset: true }).optional(),
    updated_at: z.iso.datetime({ offset: true }).optional(),
    /** BFCL imports: the question's function docs and possible answer as BFCL has them (for `compat: "bfcl"`) */
    bfcl: BfclReferenceSchema.optional(),
    /** cases approved from production feedback (source `production_feedback`): the interaction and the approval */
    feedback: FeedbackProvenanceSchema.optional(),
  })
  .strict();
export type TestCaseMetadata = z.infer<typeof TestCaseMetadataSchema>;

/** Stage 3 settings of one case: how to compare the data the calls return. */
export const ExecutionExpectationSchema = z
  .object({
    /** JSON pointers (RFC 6901) in the returned data to ignore (volatile values: timestamps, request ids). */
    ignore_paths: z
      .array(z.string().regex(/^(\/([^~]|~[01])*)*$/, 'a JSON pointer (RFC 6901), e.g. "/items/0/updated_at" or "/items/*/id"'))
      .default([]),
    /** Relative numeric tolerance for this case's data (default: the run's, 0.0001 = 0.01%). */
    relative_tolerance: z.number().nonnegative().optional(),
  })
  .strict();

/** A reference to a tool catalog by name and version. */
export const ToolCatalogRefSchema = z.object({ name: z.string().min(1), version: z.string().min(1) }).strict();

export const TestCaseSchema = z
  .object({
    /** Unique in its gold set; kept from the source, a UUID only when generated. The one id rule (IdSchema). */
    id: IdSchema,
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    /**
     * The question. Required unless the case is a conversation (`turns`), where it is a summary shown in lists
     * (default: the first user message).
     */
    nl_query: z.string().min(1).optional(),
    /**
     * The calls the target should make. An empty list means the right answer is to make no call (abstain).
     * Required unless the case is a conversation (`turns`), whose turns hold their own expected calls.
     */
    expected_tool_calls: z.array(ExpectedToolCallSchema).optional(),
    /**
     * A conversation (lib/domain/conversation.ts): each turn a user message and what the agent should do in answer
     * (expected calls, answer, facts, or a clarification question). The target gets the whole conversation so far at
     * each turn; the case passes when every turn passes.
     */
    turns: z.array(ConversationTurnSchema).min(1).optional(),
    /** Other call sets that are equally acceptable; the best-scoring set is used. */
    alternative_tool_calls: z.array(z.array(ExpectedToolCallSchema)).default([]),
    /**
     * The trajectory rule of stage 2. `any`: parallel calls, order-independent (default). `strict`: the calls must
     * come in this order. `dependency`: each call must come after the calls it `depends_on` (the calls whose
     * results it uses); other calls may come in any order.
     */
    call_order: z.enum(['any', 'strict', 'dependency']).default('any'),
    /** What each expected call should return, aligned by index with expected_tool_calls. Matchers allowed. */
    expected_raw_data: z.array(ExpectedValueSchema).optional(),
    expected_nl_response: z.string().optional(),
    /** Key facts the answer must state (used by the judges), in addition to expected_nl_response. */
    expected_facts: z.array(z.string()).default([]),
    /**
     * How much each expected fact matters, aligned by index with expected_facts (absent: all `important`).
     * Fact coverage weights critical 3, important 2, minor 1; a missing critical fact fails stage 4.
     */
    fact_importance: z.array(FactImportanceSchema).optional(),
    /** For multi-agent endpoints: the agent that should answer and why the question should be routed to it
     * (not part of the waterfall; scored by the evaluation-as-a-service routes, lib/api/compat). */
    expected_agent: z.string().min(1).optional(),
    expected_routing_reason: z.string().min(1).optional(),
    /** For orchestrator evaluation: the entities the agent should resolve (e.g. `{"customer_id": "C-42"}`); matchers allowed. */
    expected_entities: z.record(z.string(), ExpectedValueSchema).optional(),
    tool_catalog: ToolCatalogRefSchema.optional(),
    /** Per-case override of the run's coercion policy (importers use it, e.g. BFCL semantics). */
    coercion: CoercionPolicySpecSchema.optional(),
    execution: ExecutionExpectationSchema.optional(),
    /** A stateful case: the environment and initial state its calls run against (stage 3 compares final states). */
    environment: CaseEnvironmentSchema.optional(),
    /** Why no call is the right answer (`expected_tool_calls` empty): ask for a missing parameter, or an irrelevant request. */
    abstention: AbstentionSchema.optional(),
    metadata: TestCaseMetadataSchema.default({ complexity_level: 1, tags: [] }),
  })
  .strict()
  .superRefine((tc, ctx) => {
    if (tc.turns) {
      for (const [field, set] of [
        ['expected_tool_calls', (tc.expected_tool_calls?.length ?? 0) > 0],
        ['alternative_tool_calls', tc.alternative_tool_calls.length > 0],
        ['expected_raw_data', tc.expected_raw_data !== undefined],
        ['expected_nl_response', tc.expected_nl_response !== undefined],
        ['expected_facts', tc.expected_facts.length > 0],
        ['fact_importance', tc.fact_importance !== undefined],
      ] as const) {
        if (set) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `a conversation case (with turns) states ${field} per turn (turns[i].${field}), not for the whole case`,
          });
        }
      }
      return;
    }
    if (tc.nl_query === undefined) {
      ctx.addIssue({ code: 'custom', path: ['nl_query'], message: 'required: a case has a question (nl_query) or a conversation (turns)' });
    }
    if (tc.expected_tool_calls === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['expected_tool_calls'],
        message:
          'required for a single-question case ([] means: make no call); a conversation case puts them in turns[i].expected_tool_calls',
      });
    }
    const sets: Array<[readonly (string | number)[], readonly { depends_on?: number[] | undefined }[]]> = [
      [['expected_tool_calls'], tc.expected_tool_calls ?? []],
      ...tc.alternative_tool_calls.map((set, i): [(string | number)[], typeof set] => [['alternative_tool_calls', i], set]),
    ];
    for (const [path, calls] of sets) {
      for (const problem of dataFlowProblems(calls as readonly { tool_name: string; arguments?: Record<string, unknown> }[])) {
        ctx.addIssue({ code: 'custom', path: [...path, ...problem.path], message: problem.message });
      }
      calls.forEach((call, i) => {
        for (const [j, dep] of (call.depends_on ?? []).entries()) {
          if (dep >= calls.length || dep === i) {
            ctx.addIssue({
              code: 'custom',
              path: [...path, i, 'depends_on', j],
              message: `${dep} is not another call of this list (0..${calls.length - 1}, not ${i})`,
            });
          }
        }
      });
    }
    const expectedCount = tc.expected_tool_calls?.length ?? 0;
    if (tc.abstention && expectedCount > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['abstention'],
        message: `says no call is the right answer (${tc.abstention.reason}) but expected_tool_calls has ${expectedCount}`,
      });
    }
    if (tc.fact_importance && tc.fact_importance.length !== tc.expected_facts.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['fact_importance'],
        message: `has ${tc.fact_importance.length} entries but expected_facts has ${tc.expected_facts.length}; they are aligned by index`,
      });
    }
    const expectedCalls = tc.expected_tool_calls?.length ?? 0;
    if (tc.expected_raw_data && tc.expected_raw_data.length !== expectedCalls) {
      ctx.addIssue({
        code: 'custom',
        path: ['expected_raw_data'],
        message: `has ${tc.expected_raw_data.length} entries but expected_tool_calls has ${expectedCalls}; they are aligned by index`,
      });
    }
  })
  // a conversation's nl_query defaults to its first user message, its case-level expected calls to none
  .transform((tc) => ({
    ...tc,
    nl_query: tc.nl_query ?? tc.turns?.[0]?.user ?? '',
    expected_tool_calls: tc.expected_tool_calls ?? [],
  }));
export type TestCase = z.infer<typeof TestCaseSchema>;
export type TestCaseInput = z.input<typeof TestCaseSchema>;
