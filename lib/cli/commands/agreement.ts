import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { z } from 'zod';
import { agreementSummary, MEASUREMENT_LEVELS, type AgreementSummary, type MeasurementLevel, type Rating } from '../../statistics/index.js';
import { CliError } from '../cliError.js';
import { usageErrorsExit2 } from './cliOptions.js';

const ratingLine = z.object({
  item: z.union([z.string().min(1), z.number()]).transform(String),
  annotator: z.union([z.string().min(1), z.number()]).transform(String),
  label: z.union([z.string(), z.number().finite(), z.boolean()]),
});

/** JSON Lines of {item, annotator, label}; blank lines skipped; a bad line is a CliError naming line and field. */
export function parseRatingsJsonl(text: string, file: string): Rating[] {
  const ratings: Rating[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw new CliError(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = ratingLine.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new CliError(`${file}:${i + 1}: ${issue.path.join('.') || '(line)'}: ${issue.message}`);
    }
    ratings.push(parsed.data);
  });
  if (ratings.length === 0) throw new CliError(`${file}: no labels`);
  return ratings;
}

const fmt = (x: number | null): string => (x === null ? 'undefined' : x.toFixed(3));

export function formatAgreement(s: AgreementSummary): string {
  const lines = [
    `${s.ratings} labels, ${s.items} items, ${s.annotators} annotators (${s.alpha.pairableUnits} items with two or more labels)`,
    `Krippendorff's alpha (${s.level}): ${fmt(s.alpha.alpha)}`,
    s.fleiss
      ? `Fleiss' kappa (${s.fleiss.ratersPerItem} labels per item): ${fmt(s.fleiss.kappa)}`
      : `Fleiss' kappa: not computed (${s.fleissSkipped})`,
  ];
  for (const p of s.pairs) {
    lines.push(
      `Cohen's kappa ${p.annotators[0]} vs ${p.annotators[1]} (${p.shared} shared items): ${fmt(p.kappa)}, raw agreement ${fmt(p.rawAgreement)}`,
    );
  }
  for (const a of s.perAnnotator) {
    lines.push(
      `${a.annotator} agrees with the others' majority on ${a.agreement === null ? 'no comparable item' : `${fmt(a.agreement)} of ${a.compared} items`}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function agreementCommand(): Command {
  return usageErrorsExit2(
    new Command('agreement')
      .description(
        'agreement statistics on any labels: JSON Lines of {"item", "annotator", "label"} -> Krippendorff\'s alpha, Fleiss\' kappa (same number of labels per item), Cohen\'s kappa per pair',
      )
      .requiredOption('--file <file>', 'JSON Lines of {"item": ..., "annotator": ..., "label": ...}')
      .option('--level <level>', `measurement level: ${MEASUREMENT_LEVELS.join(', ')}`, 'nominal')
      .option('--order <labels>', 'ordinal string labels, lowest first, comma-separated')
      .option('--json', 'print the full result as JSON'),
  ).action(async (opts: { file: string; level: string; order?: string; json?: boolean }) => {
    if (!(MEASUREMENT_LEVELS as readonly string[]).includes(opts.level)) {
      throw new CliError(`--level must be one of ${MEASUREMENT_LEVELS.join(', ')} (got "${opts.level}")`);
    }
    const ratings = parseRatingsJsonl(await readFile(opts.file, 'utf8'), opts.file);
    let summary: AgreementSummary;
    try {
      summary = agreementSummary(ratings, {
        level: opts.level as MeasurementLevel,
        ...(opts.order ? { order: opts.order.split(',').map((s) => s.trim()) } : {}),
      });
    } catch (err) {
      if (err instanceof RangeError) throw new CliError(`${opts.file}: ${err.message}`);
      throw err;
    }
    process.stdout.write(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : formatAgreement(summary));
  });
}
