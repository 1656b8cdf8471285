/**
 * Scores both models' outputs with the real pipeline and prints pass rates by stage and by category, plus every
 * case whose verdict differs from annotations.jsonl. Usage: `npx tsx examples/retail/report.ts [dir]`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scorecard } from '../../lib/domain/index.js';
import { passRates, SAMPLE_MODELS, scoreSample, type RateRow, type SampleModel } from './scoreSample.js';

interface Annotation {
  test_case_id: string;
  model: SampleModel;
  label: string;
  intended: { overall_passed: boolean; failing_stage?: string; error_code?: string };
}

const pct = (x: number | null): string => (x === null ? '    -' : `${(100 * x).toFixed(1).padStart(5)}`);
const row = (r: RateRow): string =>
  `${r.key.padEnd(12)} ${String(r.cases).padStart(5)}  ${pct(r.pass_rate)}   ${pct(r.stages.syntax)} ${pct(r.stages.logic)} ${pct(r.stages.execution)} ${pct(r.stages.semantics)}`;

async function main(dir: string): Promise<void> {
  const annotations = readFileSync(join(dir, 'annotations.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Annotation);
  for (const model of Object.keys(SAMPLE_MODELS) as SampleModel[]) {
    const cards = await scoreSample(dir, model);
    const lines = [`\n${model}`, 'group        cases   pass%   syntax logic  exec   judge'];
    lines.push(...passRates(cards, () => 'all').map(row));
    lines.push(...passRates(cards, (c) => c.category ?? '-').map(row));
    lines.push(
      ...passRates(cards, (c) => `complexity ${c.complexity_level}`)
        .sort((a, b) => (a.key < b.key ? -1 : 1))
        .map(row),
    );
    const codes = new Map<string, number>();
    for (const c of cards)
      if (!c.overall_passed) codes.set(`${c.failing_stage}/${c.error_code}`, (codes.get(`${c.failing_stage}/${c.error_code}`) ?? 0) + 1);
    lines.push(
      `failures: ${[...codes.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    const latency = cards.map((c) => c.latency_ms).sort((a, b) => a - b);
    const cost = cards.reduce((s, c) => s + c.estimated_cost_usd, 0);
    lines.push(
      `latency p50 ${latency[Math.floor(latency.length / 2)]} ms, p95 ${latency[Math.floor(latency.length * 0.95)]} ms; cost $${cost.toFixed(2)}`,
    );
    lines.push(
      ...differences(
        cards,
        annotations.filter((a) => a.model === model),
      ),
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

function differences(cards: readonly Scorecard[], annotations: readonly Annotation[]): string[] {
  const byId = new Map(annotations.map((a) => [a.test_case_id, a]));
  const out: string[] = [];
  for (const card of cards) {
    const a = byId.get(card.test_case_id);
    if (!a) continue;
    const same =
      a.intended.overall_passed === card.overall_passed &&
      a.intended.failing_stage === card.failing_stage &&
      a.intended.error_code === card.error_code;
    if (!same) {
      const why = card.failing_stage ? card.stages[card.failing_stage].message : '';
      out.push(
        `  DIFF ${card.test_case_id} ${a.label}: intended ${a.intended.failing_stage ?? 'pass'}/${a.intended.error_code ?? '-'}, got ${card.failing_stage ?? 'pass'}/${card.error_code ?? '-'}: ${why}`,
      );
    }
  }
  return out;
}

await main(process.argv[2] ?? dirname(fileURLToPath(import.meta.url)));
