import { z } from 'zod';

/**
 * What BFCL's own checker reads for one question, kept as BFCL wrote it so that `compat: "bfcl"` can reproduce its
 * verdict: the category (it picks the checker and the language), the function docs of the question file and the
 * possible answer (`ground_truth`). JSON cannot tell `5.0` from `5`, and BFCL's type checks can, so the JSON pointers
 * (into `ground_truth`) of numbers written in float form with an integral value are kept beside it.
 */
export const BfclReferenceSchema = z
  .object({
    category: z.string().min(1),
    function: z.array(z.json()),
    ground_truth: z.array(z.json()),
    float_literal_paths: z.array(z.string()).optional(),
  })
  .strict();
export type BfclReference = z.infer<typeof BfclReferenceSchema>;

/** Compatibility modes a run can ask for: reproduce another scorer's verdicts (today BFCL's AST checker). */
export const CompatModeSchema = z.enum(['bfcl']);
export type CompatMode = z.infer<typeof CompatModeSchema>;

/**
 * A scorecard's verdict under a compatibility mode, beside the platform's own: `passed` is BFCL's verdict (then the
 * card's `overall_passed`), `rule` BFCL's `error_type` that decided it (`valid` when it passed), `default_passed` the
 * platform's own verdict. `greedy_only_failure`: a parallel case BFCL's greedy matcher fails although a one-to-one
 * pairing of the calls passes; this mode passes it (the one BFCL behaviour it does not copy) and says so here.
 */
export const CompatVerdictSchema = z
  .object({
    mode: CompatModeSchema,
    passed: z.boolean(),
    rule: z.string().min(1),
    message: z.string(),
    default_passed: z.boolean(),
    /** what failed the platform's own verdict: `<stage> <error_code>` and the stage's message (absent when it passed) */
    default_rule: z.string().optional(),
    default_message: z.string().optional(),
    greedy_only_failure: z.boolean().optional(),
  })
  .strict();
export type CompatVerdict = z.infer<typeof CompatVerdictSchema>;
