import { z } from 'zod';

/**
 * One rubric dimension the judge scores on its own (G-Eval: Liu et al. 2023): a description and a 1-5 rubric, one
 * anchor sentence per score, lowest first. `weight` sets its share of the semantic score (default 1).
 */
export const JudgeCriterionSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'lower-case letters, digits and _, starting with a letter (at most 40)'),
    description: z.string().min(1),
    rubric: z.array(z.string().min(1)).length(5, 'the rubric has one anchor for each score 1, 2, 3, 4, 5'),
    weight: z.number().positive().default(1),
  })
  .strict();
export type JudgeCriterion = z.infer<typeof JudgeCriterionSchema>;
export type JudgeCriterionInput = z.input<typeof JudgeCriterionSchema>;

export const JudgeCriteriaSchema = z
  .array(JudgeCriterionSchema)
  .min(1)
  .max(12)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((c, i) => {
      if (seen.has(c.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `criterion "${c.name}" is named twice` });
      seen.add(c.name);
    });
  });

/** The default rubric: correctness, completeness, faithfulness, relevance, clarity. */
export const DEFAULT_JUDGE_CRITERIA: JudgeCriterion[] = [
  {
    name: 'correctness',
    description:
      'Are the facts and numbers the answer states right, measured against the reference answer, the key facts and the API data?',
    rubric: [
      'A key fact or number is wrong, or the answer contradicts the reference.',
      'Several statements are wrong; some are right.',
      'Mostly right, with one clear factual or numeric error.',
      'Right, with a minor imprecision (rounding, a vague figure) that changes nothing.',
      'Every fact and number stated is right.',
    ],
    weight: 1,
  },
  {
    name: 'completeness',
    description: 'Does the answer state every key fact the question needs (the reference answer and key facts)?',
    rubric: [
      'Almost none of the key facts are stated.',
      'Fewer than half of the key facts are stated.',
      'About half of the key facts are stated.',
      'All but a minor key fact are stated.',
      'Every key fact is stated.',
    ],
    weight: 1,
  },
  {
    name: 'faithfulness',
    description:
      'Is every claim supported by the API data the agent actually received (the <api_data> and <tool_calls> sections)? Invented details, numbers not in the data, and claims about calls that were not made are unfaithful. Without API data, judge against the reference.',
    rubric: [
      'Most claims are not supported by the data, or central details are invented.',
      'Several claims are unsupported or invented.',
      'One important claim is unsupported.',
      'All important claims are supported; a small detail is not.',
      'Every claim is supported by the data the agent received.',
    ],
    weight: 1,
  },
  {
    name: 'relevance',
    description: 'Does the answer address the question asked, without drifting to other topics?',
    rubric: [
      'Off-topic or a refusal.',
      'Mostly about something else.',
      'Addresses the question but with much irrelevant content.',
      'Addresses the question with a little irrelevant content.',
      'Fully focused on the question.',
    ],
    weight: 1,
  },
  {
    name: 'clarity',
    description: 'Is the answer clear and easy for the user to act on (structure, wording, units)?',
    rubric: [
      'Confusing or unreadable.',
      'Hard to follow; key information is buried.',
      'Understandable with effort.',
      'Clear, with small lapses.',
      'Clear, concise and well organised.',
    ],
    weight: 1,
  },
];
