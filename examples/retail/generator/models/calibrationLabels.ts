import type { Annotation } from './outputs.js';

/** The annotator id of every calibration label: they come from the generator's mistake catalogue, not from people. */
export const CATALOGUE_ANNOTATOR = 'catalogue-derived';

/** What every calibration file's labels are (stored on them by `evalp annotations import --provenance`). */
export const CALIBRATION_PROVENANCE =
  "generated from the retail sample's mistake catalogue (examples/retail/annotations.jsonl): what the generator made each simulated model's answer be, not judged by human raters";

/** One line of calibration-model-*.jsonl: the `evalp agreement --file` / `evalp annotations import --file` format. */
export interface CalibrationLabel {
  item: string;
  annotator: typeof CATALOGUE_ANNOTATOR;
  label: 'pass' | 'fail';
  comment: string;
}

type Kind = Annotation['label'];

/**
 * What the mistake catalogue fixes about the final answer, per kind of behaviour (null: nothing, so no label).
 * The answer is written from the data of the calls the model made (generator/models/answers.ts), so:
 * - right calls, or an equivalent the pipeline accepts (clean, benign, tolerated), and the call mistakes that add a
 *   call but keep every right one (a duplicated or extra call: its data does not enter the answer) -> the answer is
 *   written from the right data: pass;
 * - answer mistakes (numbers misread from the data, an off-topic answer) and answers that replace the data with text
 *   (a clarifying question instead of the call, a tempting answer on an abstention case) -> fail;
 * - every other call mistake changes the data the answer is written from, and the catalogue does not say whether
 *   the answer still states the expected facts (a missing optional filter often leaves them intact), and the syntax
 *   mistakes stop the waterfall before stage 4: no label.
 */
const ANSWER_VERDICT: Record<Kind, { label: 'pass' | 'fail'; why: string } | null> = {
  clean: { label: 'pass', why: 'right calls, answer written from their data' },
  parallel_order_swapped: { label: 'pass', why: 'right calls in another order, answer written from their data' },
  explicit_default: { label: 'pass', why: 'right calls (a default given explicitly), answer written from their data' },
  alternative_call_set: { label: 'pass', why: 'an accepted alternative call set, answer written from its data' },
  one_of_value: { label: 'pass', why: 'right calls (the other accepted value), answer written from their data' },
  array_reordered: { label: 'pass', why: 'right calls (an order-free array reordered), answer written from their data' },
  optional_included: { label: 'pass', why: 'right calls (an optional argument given), answer written from their data' },
  optional_omitted: { label: 'pass', why: 'right calls (an optional argument left out), answer written from their data' },
  enum_case: { label: 'pass', why: 'right calls (enum in another case, tolerated), answer written from their data' },
  numeric_string: { label: 'pass', why: 'right calls (a numeric string, tolerated), answer written from their data' },
  float_literal_integer: { label: 'pass', why: 'right calls (5.0 for an integer, tolerated), answer written from their data' },
  duplicated_call: { label: 'pass', why: 'every right call plus a duplicate; the answer is written from the right data' },
  hallucinated_extra_call: { label: 'pass', why: 'every right call plus an unasked-for one; the answer is written from the right data' },
  wrong_numbers_in_answer: { label: 'fail', why: 'right calls, numbers misread in the answer' },
  answers_out_of_scope: { label: 'fail', why: 'answers an off-topic question or claims an action it cannot do' },
  text_instead_of_call: { label: 'fail', why: 'answers with text instead of looking the data up' },
  call_on_abstention: { label: 'fail', why: 'acts and answers on a question it should have declined' },
  wrong_enum_value: null,
  invalid_enum_value: null,
  missing_optional_filter: null,
  missing_required_argument: null,
  wrong_date_format: null,
  off_by_one_date: null,
  wrong_id: null,
  wrong_refund_amount: null,
  wrong_tool: null,
  dropped_parallel_call: null,
};

/** The calibration labels of one simulated model: one per case whose answer the catalogue fixes, in case order. */
export function calibrationLabels(annotations: readonly Annotation[], model: Annotation['model']): CalibrationLabel[] {
  return annotations.flatMap((a) => {
    if (a.model !== model) return [];
    const verdict = ANSWER_VERDICT[a.label];
    if (!verdict) return [];
    return [
      {
        item: a.test_case_id,
        annotator: CATALOGUE_ANNOTATOR,
        label: verdict.label,
        comment: `generated from the mistake catalogue: ${a.label} (${verdict.why})`,
      },
    ];
  });
}
