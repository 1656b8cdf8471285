import { calibrationId, type Annotation, type AnnotationTask, type JudgeCalibration, type Scorecard } from '../domain/index.js';
import { cohenKappa, consensusByItem } from '../statistics/index.js';

/** Which judge (model and rubric) scored a scorecard, from its semantics details; undefined when none did. */
export function judgeOf(card: Scorecard): { model: string; rubric_id: string; method: string } | undefined {
  const s = card.stages.semantics;
  const d = s.details as { model?: unknown; rubric_id?: unknown; method?: unknown; judge?: unknown } | undefined;
  if (!d || typeof d.model !== 'string') return undefined;
  const method = typeof d.method === 'string' ? d.method : 'llm';
  const rubric = typeof d.rubric_id === 'string' ? d.rubric_id : method === 'heuristic' ? 'heuristic' : 'holistic';
  return { model: d.model, rubric_id: rubric, method };
}

/** The judge's label for a card in the task's label kind: pass/fail from the stage verdict, 1-5 from the score. */
function judgeLabel(card: Scorecard, kind: 'pass_fail' | 'scale'): string | undefined {
  const s = card.stages.semantics;
  if (s.status !== 'passed' && s.status !== 'failed') return undefined;
  if (s.score === null) return undefined;
  return kind === 'pass_fail' ? (s.passed ? 'pass' : 'fail') : String(Math.min(5, Math.max(1, Math.round(1 + 4 * s.score))));
}

/**
 * Judge-vs-human agreement on a task over a run: for each item, the human consensus (majority; the median on a
 * 1-5 scale, rounded) against the judge's label from the run's scorecard. Items where the people tied or the judge
 * could not score are skipped (counted). Cohen's kappa and raw agreement over the rest, and the confusion table.
 */
export function calibrateJudge(
  task: AnnotationTask,
  annotations: readonly Annotation[],
  cards: ReadonlyMap<string, Scorecard>,
  options: { now: string; provenance?: string },
): JudgeCalibration {
  if (task.source.kind !== 'run') throw new RangeError('source: calibration needs a task over a run (its items were judged)');
  const kind = task.label_schema.kind;
  if (kind !== 'pass_fail' && kind !== 'scale')
    throw new RangeError(`label_schema: calibration compares pass_fail or scale labels, not ${kind}`);
  const consensus = consensusByItem(
    annotations.map((a) => ({ item: a.item_id, annotator: a.annotator, label: a.label })),
    { numeric: kind === 'scale' },
  );
  const pairs: Array<[string, string]> = [];
  let skipped = 0;
  let judge: ReturnType<typeof judgeOf>;
  for (const c of consensus) {
    const card = cards.get(c.item);
    const j = card ? judgeLabel(card, kind) : undefined;
    judge ??= card ? judgeOf(card) : undefined;
    if (c.consensus === null || j === undefined) {
      skipped++;
      continue;
    }
    const human = kind === 'scale' ? String(Math.round(Number(c.consensus))) : String(c.consensus);
    pairs.push([human, j]);
  }
  if (!judge) throw new RangeError('run: no scorecard of the task has a judge verdict to calibrate');
  const order = kind === 'scale' ? ['1', '2', '3', '4', '5'] : ['pass', 'fail'];
  const k = pairs.length ? cohenKappa(pairs, order) : undefined;
  const labels = k ? k.labels : order;
  return {
    id: calibrationId(judge.model, judge.rubric_id),
    judge_model: judge.model,
    rubric_id: judge.rubric_id,
    task_id: task.id,
    run_id: task.source.run_id,
    label_kind: kind,
    items: pairs.length,
    skipped,
    raw_agreement: k ? k.observedAgreement : null,
    kappa: k ? k.kappa : null,
    labels,
    confusion: k ? k.table : labels.map(() => labels.map(() => 0)),
    provenance: options.provenance ?? defaultProvenance(task, annotations),
    created_at: options.now,
  };
}

/**
 * What the labels are, when the caller does not say: human labels only when every label was submitted by an
 * annotator; imported labels are named as imported, with the provenance their import gave.
 */
function defaultProvenance(task: AnnotationTask, annotations: readonly Annotation[]): string {
  const consensus = `consensus by ${task.label_schema.kind === 'scale' ? 'median' : 'majority'}`;
  const imported = [...new Set(annotations.flatMap((a) => (a.imported ? [a.imported.provenance] : [])))];
  if (imported.length === 0)
    return `human labels from annotation task ${task.id} (${task.annotators_per_item} annotators per item, ${consensus})`;
  const submitted = annotations.filter((a) => !a.imported).length;
  return `labels imported into annotation task ${task.id}: ${imported.join('; ')}${submitted ? ` (plus ${submitted} labels submitted by annotators)` : ''} (${consensus})`;
}
