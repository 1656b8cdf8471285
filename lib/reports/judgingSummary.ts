import { z } from 'zod';
import { calibrationId, type JudgeCalibration, type Scorecard } from '../domain/index.js';
import { judgeOf } from '../annotations/index.js';

/** What a run's report says about judging: the semantic score, each rubric criterion and each reference metric. */
export const JudgingSummarySchema = z.object({
  /** cases the judge scored (status passed or failed with a score) and their mean semantic score (0-1) */
  semantic: z.object({ scored: z.number().int().nonnegative(), mean: z.number().nullable() }),
  /** per rubric criterion: cases scored, mean score on the 1-5 rubric */
  criteria: z.array(z.object({ name: z.string(), scored: z.number().int().nonnegative(), mean: z.number().nullable() })),
  /** per reference metric: cases scored, cases skipped (with the most common reason), mean score */
  /** the LLM judge(s) the run used (model and rubric) with their stored calibration, or a warning without one */
  judges: z
    .array(
      z.object({
        judge_model: z.string(),
        rubric_id: z.string(),
        calibration: z
          .object({
            kappa: z.number().nullable(),
            raw_agreement: z.number().nullable(),
            items: z.number(),
            task_id: z.string(),
            provenance: z.string(),
          })
          .nullable(),
        warning: z.string().nullable(),
      }),
    )
    .default([]),
  reference_metrics: z.array(
    z.object({
      name: z.string(),
      scored: z.number().int().nonnegative(),
      skipped: z.number().int().nonnegative(),
      skipped_reason: z.string().nullable(),
      mean: z.number().nullable(),
    }),
  ),
});
export type JudgingSummary = z.infer<typeof JudgingSummarySchema>;

interface Tally {
  n: number;
  sum: number;
}

/** The shape of a rubric criterion result in semantics `details.criteria` (see lib/judges rubric). */
interface CriterionDetail {
  name: string;
  score: number;
}

function criteriaOf(details: unknown): CriterionDetail[] {
  if (typeof details !== 'object' || details === null) return [];
  const list = (details as { criteria?: unknown }).criteria;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (c): c is CriterionDetail =>
      typeof c === 'object' &&
      c !== null &&
      typeof (c as CriterionDetail).name === 'string' &&
      typeof (c as CriterionDetail).score === 'number',
  );
}

/** Folds scorecards (one pass, constant memory per criterion and metric) into a JudgingSummary. */
export class JudgingSummaryBuilder {
  private readonly semantic: Tally = { n: 0, sum: 0 };
  private readonly judges = new Map<string, { judge_model: string; rubric_id: string }>();
  private readonly criteria = new Map<string, Tally>();
  private readonly metrics = new Map<string, Tally & { skipped: number; reasons: Map<string, number> }>();

  add(card: Scorecard): void {
    const s = card.stages.semantics;
    if ((s.status === 'passed' || s.status === 'failed') && s.score !== null && s.error_code !== 'no_answer') {
      this.semantic.n++;
      this.semantic.sum += s.score;
    }
    const judge = judgeOf(card);
    if (judge && judge.method === 'llm')
      this.judges.set(`${judge.model}~${judge.rubric_id}`, { judge_model: judge.model, rubric_id: judge.rubric_id });
    for (const c of criteriaOf(s.details)) {
      const t = this.criteria.get(c.name) ?? { n: 0, sum: 0 };
      t.n++;
      t.sum += c.score;
      this.criteria.set(c.name, t);
    }
    for (const m of card.reference_metrics ?? []) {
      const t = this.metrics.get(m.name) ?? { n: 0, sum: 0, skipped: 0, reasons: new Map<string, number>() };
      if (m.score === null) {
        t.skipped++;
        const reason = m.skipped_reason ?? 'no score';
        t.reasons.set(reason, (t.reasons.get(reason) ?? 0) + 1);
      } else {
        t.n++;
        t.sum += m.score;
      }
      this.metrics.set(m.name, t);
    }
  }

  result(): JudgingSummary {
    const mean = (t: Tally) => (t.n > 0 ? t.sum / t.n : null);
    return {
      semantic: { scored: this.semantic.n, mean: mean(this.semantic) },
      judges: [...this.judges.values()].map((j) => ({ ...j, calibration: null, warning: null })),
      criteria: [...this.criteria].map(([name, t]) => ({ name, scored: t.n, mean: mean(t) })),
      reference_metrics: [...this.metrics].map(([name, t]) => ({
        name,
        scored: t.n,
        skipped: t.skipped,
        skipped_reason: [...t.reasons].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
        mean: mean(t),
      })),
    };
  }
}

/** Attaches each judge's stored calibration, or the warning that it has none (a changed model or rubric has none). */
export async function withCalibrations(
  summary: JudgingSummary,
  lookup: (id: string) => Promise<JudgeCalibration | undefined>,
): Promise<JudgingSummary> {
  const judges = await Promise.all(
    summary.judges.map(async (j) => {
      const c = await lookup(calibrationId(j.judge_model, j.rubric_id));
      return c
        ? {
            ...j,
            calibration: { kappa: c.kappa, raw_agreement: c.raw_agreement, items: c.items, task_id: c.task_id, provenance: c.provenance },
            warning: null,
          }
        : {
            ...j,
            calibration: null,
            warning: `judge ${j.judge_model} with rubric ${j.rubric_id} has no calibration against human labels: its semantic scores are unchecked (evalp annotations, then POST /api/v1/annotation-tasks/{id}/calibrate)`,
          };
    }),
  );
  return { ...summary, judges };
}
