/**
 * Writes the bundled retail sample (catalog.json, gold.jsonl, cassette.jsonl, outputs-model-a.jsonl,
 * outputs-model-b.jsonl, annotations.jsonl, and the calibration-model-a/b.jsonl labels derived from the annotations) from one seed, with no network: run it again and every byte is the same.
 * Usage: `npx tsx examples/retail/generate.ts [--out <dir>]` (default: this folder).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Annotation } from './generator/models/outputs.js';
import { generateSample, SAMPLE_FILES } from './generator/sample.js';

function summary(caseCount: number, cassetteCount: number, annotations: readonly Annotation[]): string {
  const lines = [`${caseCount} cases, ${cassetteCount} recorded responses`];
  for (const model of ['model-a', 'model-b'] as const) {
    const mine = annotations.filter((x) => x.model === model);
    const pass = mine.filter((x) => x.intended.overall_passed).length;
    const labels = new Map<string, number>();
    for (const x of mine) labels.set(x.label, (labels.get(x.label) ?? 0) + 1);
    lines.push(`${model}: designed to pass ${pass}/${mine.length} (${((100 * pass) / mine.length).toFixed(1)}%)`);
    lines.push(
      `  ${[...labels.entries()]
        .sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1))
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
  }
  return lines.join('\n');
}

const outIndex = process.argv.indexOf('--out');
const outDir = outIndex > 0 && process.argv[outIndex + 1] ? process.argv[outIndex + 1]! : dirname(fileURLToPath(import.meta.url));
const sample = generateSample();
mkdirSync(outDir, { recursive: true });
for (const name of SAMPLE_FILES) writeFileSync(join(outDir, name), sample.files[name]);
process.stdout.write(
  `${summary(sample.caseCount, sample.cassetteCount, sample.annotations)}\nwrote ${SAMPLE_FILES.join(', ')} to ${outDir}\n`,
);
