import { z } from 'zod';

const POINTER = z.string().regex(/^(\/([^~]|~[01])*)*$/, 'a JSON pointer (RFC 6901), e.g. "/customers/C-1/updated" or "/tickets/*/id"');

/** How the agent may recover from a scripted failure: call the same tool again, use another tool, or tell the user. */
export const RecoveryKindSchema = z.enum(['retry', 'other_tool', 'tell_user', 'any']);
export type RecoveryKind = z.infer<typeof RecoveryKindSchema>;

/**
 * A scripted API failure (issue 12): the `occurrence`-th call (1-based) of `tool` (of any tool when absent) fails with
 * `kind` instead of running: `error` (an HTTP error status, default 503), `timeout` (504, "timed out"), `empty` (a 200
 * with an empty result, `data` or `[]`). The failure is part of the case, so what the agent does next is its score:
 * `expect_recovery` says what counts as recovering (default `any`: a retry, another tool, or telling the user).
 */
export const ScriptedFaultSchema = z
  .object({
    tool: z.string().min(1).optional(),
    occurrence: z.number().int().positive().default(1),
    kind: z.enum(['error', 'timeout', 'empty']),
    status: z.number().int().min(400).max(599).optional(),
    message: z.string().min(1).optional(),
    /** `empty` only: the result served (default `[]`) */
    data: z.json().optional(),
    expect_recovery: RecoveryKindSchema.default('any'),
    /** `tell_user`/`any`: words one of which the final answer must contain when the agent tells the user (case-insensitive) */
    mentions: z.array(z.string().min(1)).optional(),
  })
  .strict();
export type ScriptedFault = z.infer<typeof ScriptedFaultSchema>;

/**
 * A stateful case (issue 12): the agent's calls run against an in-process environment (lib/environments) started
 * from `initial_state`; stage 3 compares the final state with the one the gold calls produce from the same start.
 */
export const CaseEnvironmentSchema = z
  .object({
    name: z.string().min(1),
    initial_state: z.string().min(1).default('default'),
    /** JSON pointers in the state not compared (`*` matches one segment) */
    ignore_paths: z.array(POINTER).default([]),
    /** compare the results of the calls the gold expects (by expected index) as well as the final state; default true */
    compare_results: z.boolean().default(true),
    faults: z.array(ScriptedFaultSchema).default([]),
  })
  .strict();
export type CaseEnvironment = z.infer<typeof CaseEnvironmentSchema>;

/**
 * Why the right answer is to make no call (issue 12): `missing_parameter`, the question lacks a required parameter,
 * so the agent should ask for it (`asks_for`: words one of which the question back should contain); `irrelevant`, the
 * request is outside what the tools are for.
 */
export const AbstentionSchema = z
  .object({
    reason: z.enum(['missing_parameter', 'irrelevant']),
    asks_for: z.array(z.string().min(1)).optional(),
  })
  .strict();
export type Abstention = z.infer<typeof AbstentionSchema>;
