import { z } from 'zod';

/** One model request of an agent's loop: the text it wrote (between calls, or its final answer) and what it cost. */
export const TrajectoryModelStepSchema = z
  .object({
    kind: z.literal('model'),
    /** 1-based model request number */
    turn: z.number().int().positive(),
    /** the text the model wrote in this turn (null when it only called tools) */
    text: z.string().nullable(),
    /** how many tool calls the model asked for in this turn */
    calls: z.number().int().nonnegative(),
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    latency_ms: z.number().nonnegative(),
    model: z.string().nullable(),
  })
  .strict();

/** One tool call the model made, with its outcome: executed (result or error) or refused (arguments unreadable, turn cap). */
export const TrajectoryCallStepSchema = z
  .object({
    kind: z.literal('tool_call'),
    /** the model request that asked for the call */
    turn: z.number().int().positive(),
    call_id: z.string(),
    tool_name: z.string(),
    /** the parsed arguments; null when the model's argument text is not a JSON object */
    arguments: z.record(z.string(), z.json()).nullable(),
    /** the argument text as the model wrote it, when it was text */
    raw_arguments: z.string().optional(),
    /** false when the call was not executed: unreadable arguments, or the turn cap was reached */
    executed: z.boolean(),
    /** the tool answered (false for errors and for calls not executed) */
    ok: z.boolean(),
    result: z.json().optional(),
    error: z.string().optional(),
    /** the HTTP status the tool's API answered with, when it has one */
    status: z.number().int().optional(),
    /** the failure was scripted by the case (a stateful case's `environment.faults`), not a real fault */
    scripted: z.boolean().optional(),
    latency_ms: z.number().nonnegative(),
  })
  .strict();

export const TrajectoryStepSchema = z.discriminatedUnion('kind', [TrajectoryModelStepSchema, TrajectoryCallStepSchema]);
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;
export type TrajectoryModelStep = z.infer<typeof TrajectoryModelStepSchema>;
export type TrajectoryCallStep = z.infer<typeof TrajectoryCallStepSchema>;

/**
 * Every step an agent took for one case, in order (DESIGN §12): each model request (its text and tokens) followed
 * by the calls it made and what each returned. `stop` says why the loop ended: the model answered without calls,
 * or the turn cap was reached (the last turn's calls are then recorded but not executed).
 */
export const TrajectorySchema = z
  .object({
    steps: z.array(TrajectoryStepSchema),
    turns: z.number().int().nonnegative(),
    stop: z.enum(['answered', 'turn_cap', 'failed']),
  })
  .strict();
export type Trajectory = z.infer<typeof TrajectorySchema>;
