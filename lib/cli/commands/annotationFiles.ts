import { z } from 'zod';
import type { JudgeCalibration } from '../../domain/index.js';
import { CliError } from '../cliError.js';

const labelLine = z
  .object({
    item: z.union([z.string().min(1), z.number()]).transform(String),
    annotator: z.union([z.string().min(1), z.number()]).transform(String),
    label: z.union([z.string().min(1), z.number().finite()]),
    comment: z.string().optional(),
  })
  .loose();

export interface LabelRow {
  item_id: string;
  annotator: string;
  label: string | number;
  comment?: string;
}

/**
 * JSON Lines of {item, annotator, label, comment?} (the `evalp agreement --file` format; other keys are ignored) as
 * rows for the import route; blank lines skipped; a bad line is a CliError naming the line and the field.
 */
export function parseLabelsJsonl(text: string, file: string): LabelRow[] {
  const rows: LabelRow[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw new CliError(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = labelLine.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new CliError(`${file}:${i + 1}: ${issue.path.join('.') || '(line)'}: ${issue.message}`);
    }
    const { item, annotator, label, comment } = parsed.data;
    rows.push({ item_id: item, annotator, label, ...(comment ? { comment } : {}) });
  });
  if (rows.length === 0) throw new CliError(`${file}: no labels`);
  return rows;
}

const fmt = (x: number | null): string => (x === null ? 'undefined' : x.toFixed(3));

/** A stored calibration as text: kappa, raw agreement, the confusion table (rows: labels, columns: judge). */
export function formatCalibration(c: JudgeCalibration): string {
  const width = Math.max(12, ...c.labels.map((l) => l.length + 7));
  const lines = [
    `judge ${c.judge_model} (rubric ${c.rubric_id}) against task ${c.task_id} on run ${c.run_id}: ${c.items} items compared, ${c.skipped} skipped (tied labels or not judged)`,
    `Cohen's kappa ${fmt(c.kappa)}, raw agreement ${fmt(c.raw_agreement)}`,
    `${'labels \\ judge'.padEnd(width)}${c.labels.map((l) => l.padStart(8)).join('')}`,
    ...c.labels.map((l, i) => `${l.padEnd(width)}${c.confusion[i]!.map((n) => String(n).padStart(8)).join('')}`),
  ];
  if (c.position_swap)
    lines.push(
      `position-swap consistency as a pairwise judge: ${c.position_swap.consistent}/${c.position_swap.pairs} (${fmt(c.position_swap.rate)})`,
    );
  lines.push(`labels: ${c.provenance}`);
  return `${lines.join('\n')}\n`;
}
