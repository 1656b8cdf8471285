import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLabelsJsonl } from '../../lib/cli/commands/annotationFiles.js';
import { parseRatingsJsonl } from '../../lib/cli/commands/agreement.js';
import { CATALOGUE_ANNOTATOR, type CalibrationLabel } from './generator/models/calibrationLabels.js';
import type { Annotation } from './generator/models/outputs.js';

const DIR = dirname(fileURLToPath(import.meta.url));
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');
const rows = <T>(name: string): T[] =>
  read(name)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);

const ANSWER_MISTAKES = ['wrong_numbers_in_answer', 'answers_out_of_scope', 'text_instead_of_call', 'call_on_abstention'];
const RIGHT_DATA_MISTAKES = ['duplicated_call', 'hallucinated_extra_call'];

describe('the bundled calibration set (calibration-model-a/b.jsonl)', () => {
  const annotations = rows<Annotation>('annotations.jsonl');
  for (const model of ['model-a', 'model-b'] as const) {
    it(`${model}: labels follow the mistake catalogue and say so`, () => {
      const labels = rows<CalibrationLabel>(`calibration-model-${model.slice(-1)}.jsonl`);
      const byCase = new Map(annotations.filter((a) => a.model === model).map((a) => [a.test_case_id, a]));
      expect(new Set(labels.map((l) => l.item)).size).toBe(labels.length);
      for (const l of labels) {
        const a = byCase.get(l.item)!;
        expect(l.annotator).toBe(CATALOGUE_ANNOTATOR);
        expect(l.comment).toMatch(new RegExp(`^generated from the mistake catalogue: ${a.label} \\(`));
        // fail exactly for answer mistakes; pass for right calls (and extra calls next to every right one)
        if (ANSWER_MISTAKES.includes(a.label)) expect(l.label, l.item).toBe('fail');
        else {
          expect(l.label, l.item).toBe('pass');
          expect(a.outcome !== 'mistake' || RIGHT_DATA_MISTAKES.includes(a.label), l.item).toBe(true);
        }
      }
      // every case the catalogue fixes is labelled; the call mistakes that change the answer's data are not
      const labelled = new Set(labels.map((l) => l.item));
      for (const a of byCase.values()) {
        const fixed = a.outcome !== 'mistake' || ANSWER_MISTAKES.includes(a.label) || RIGHT_DATA_MISTAKES.includes(a.label);
        expect(labelled.has(a.test_case_id), `${a.test_case_id} ${a.label}`).toBe(fixed);
      }
      expect(labels.filter((l) => l.label === 'fail').length).toBe(
        [...byCase.values()].filter((a) => ANSWER_MISTAKES.includes(a.label)).length,
      );
      // the files read as `evalp annotations import --file` and `evalp agreement --file` input
      expect(parseLabelsJsonl(read(`calibration-model-${model.slice(-1)}.jsonl`), 'f')).toHaveLength(labels.length);
      expect(parseRatingsJsonl(read(`calibration-model-${model.slice(-1)}.jsonl`), 'f')).toHaveLength(labels.length);
    });
  }

  it('sample.json names the files and how they were made', () => {
    const manifest = JSON.parse(read('sample.json')) as { calibration: { files: Record<string, string>; made_by: string } };
    expect(manifest.calibration.files).toEqual({
      'simulated-model-a': 'calibration-model-a.jsonl',
      'simulated-model-b': 'calibration-model-b.jsonl',
    });
    expect(manifest.calibration.made_by).toMatch(/not human raters/);
  });
});
