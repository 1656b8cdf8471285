import { z } from 'zod';

/**
 * One tool call as the platform sees it after stage 1 parsing.
 *
 * `arguments` is the parsed JSON object. JSON.parse maps `5.0` and `5` to the same number, so the parser
 * records the JSON-pointer paths of number literals that were written in float form with an integral value
 * (`5.0`, `1e3`) in `float_literal_paths`; the comparator uses them when the coercion policy forbids int/float mixing.
 */
export const ToolCallSchema = z.object({
  tool_name: z.string().min(1),
  arguments: z.record(z.string(), z.json()),
  /** Provider call id (OpenAI `call_…`, Anthropic `toolu_…`), when the target gave one. */
  call_id: z.string().optional(),
  /** The argument text exactly as the target produced it (JSON text or Python-style call text). */
  raw_arguments: z.string().optional(),
  /** JSON pointers (RFC 6901) of numbers written as floats with an integral value, e.g. `/limit` for `"limit": 5.0`. */
  float_literal_paths: z.array(z.string()).optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;
