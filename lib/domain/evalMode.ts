import { z } from 'zod';

/**
 * How a client's agent is evaluated (`eval_mode` on its target system):
 * - `orchestrator`: an agent endpoint or a model with tools; besides its calls and answer, the agent it routed the
 *   question to and the entities it resolved are scored when the case expects them (`expected_agent`,
 *   `expected_routing_reason`, `expected_entities`), as part of stage 2;
 * - `tool`: no model: the tools themselves are called with the case's expected arguments and their data checked;
 * - `mcp`: a model driving an MCP server, its trajectory captured.
 * Absent: the target's calls and answer are scored as they are.
 */
export const EvalModeSchema = z.enum(['tool', 'orchestrator', 'mcp']);
export type EvalMode = z.infer<typeof EvalModeSchema>;

/** How the routing of one case was scored (orchestrator mode); kept in the logic stage's details as `routing`. */
export const RoutingScoreSchema = z
  .object({
    passed: z.boolean(),
    /** mean of the parts that were scored */
    score: z.number().min(0).max(1),
    agent: z.object({ expected: z.string(), actual: z.string().nullable(), passed: z.boolean() }).strict().optional(),
    reason: z
      .object({ expected: z.string(), actual: z.string().nullable(), score: z.number().min(0).max(1), passed: z.boolean() })
      .strict()
      .optional(),
    entities: z
      .object({ score: z.number().min(0).max(1), passed: z.boolean(), problems: z.array(z.string()) })
      .strict()
      .optional(),
    /** one line a person can act on; empty when everything passed */
    message: z.string(),
  })
  .strict();
export type RoutingScore = z.infer<typeof RoutingScoreSchema>;
