/**
 * `npm run example:conversations`: conversations, tool chains and stateful checks end to end, offline. Runs the
 * GENERATED retail-conversations cases (cases.jsonl) on two SIMULATED models (generated decisions, decisions.jsonl,
 * served by the scripted model server of examples/retail-mcp) through the embedded platform (example.ts), and prints
 * per-turn pass rates, per-error-code counts, efficiency and the comparison of the two runs, all from the platform's API.
 * Options: --keep (keep the data dir).
 */
import { MISTAKES, type MistakeName } from './generateDecisions.js';
import { runConversationsExample } from './example.js';

const result = await runConversationsExample({ keep: process.argv.includes('--keep'), log: (line) => console.log(line) });
const pct = (passed: number, n: number) => (n === 0 ? '   -  ' : `${((passed / n) * 100).toFixed(1).padStart(5)}%`);
const table = (rows: string[][]) => {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length)));
  for (const row of rows) console.log('  ' + row.map((cell, col) => cell.padEnd(widths[col]!)).join('  '));
};
const [a, b] = result.runs;
if (!a || !b) throw new Error('expected two runs');

console.log(
  `\nSIMULATED models (generated decisions, not real models) on ${result.cases} GENERATED cases (${result.conversations} conversations)`,
);
console.log('Cases (run view stats):');
table([
  ['model', 'scored', 'passed', 'pass rate', 'not scored'],
  ...result.runs.map((r) => [
    r.model,
    String(r.stats.completed - (r.stats.not_scored ?? 0)),
    String(r.stats.passed),
    pct(r.stats.passed, r.stats.completed - (r.stats.not_scored ?? 0)),
    String(r.stats.not_scored ?? 0),
  ]),
]);
console.log('Conversation turns passed, by turn index (scorecards):');
const turns = Math.max(...result.runs.flatMap((r) => r.by_turn.map((t) => t.turn + 1)));
table([
  ['model', ...Array.from({ length: turns }, (_, i) => `turn ${i + 1}`)],
  ...result.runs.map((r) => [
    r.model,
    ...Array.from({ length: turns }, (_, i) => {
      const t = r.by_turn.find((x) => x.turn === i);
      return t ? `${pct(t.passed, t.scored).trim()} (${t.passed}/${t.scored})` : '-';
    }),
  ]),
]);
console.log('Failed cases by error code (run view stats.error_codes):');
const codes = [...new Set(result.runs.flatMap((r) => Object.keys(r.stats.error_codes ?? {})))].sort();
table([
  ['error code', ...result.runs.map((r) => r.model)],
  ...codes.map((code) => [code, ...result.runs.map((r) => String(r.stats.error_codes?.[code] ?? 0))]),
]);
console.log('Efficiency (run view):');
table([
  ['model', 'score', 'calls made', 'calls needed', 'redundant calls', 'cases with redundant', 'model turns/case'],
  ...result.runs.map((r) => {
    const e = r.efficiency;
    return e
      ? [
          r.model,
          e.mean_score?.toFixed(3) ?? '-',
          String(e.calls_made),
          String(e.calls_needed),
          String(e.redundant_calls),
          String(e.cases_with_redundant_calls),
          e.mean_model_turns?.toFixed(2) ?? '-',
        ]
      : [r.model, '-', '-', '-', '-', '-', '-'];
  }),
]);
const pair = result.comparison.pairs[0]!;
const o = pair.overall;
const rate = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);
console.log(`Comparison (POST /compare), ${a.model} = baseline, ${b.model} = candidate:`);
console.log(
  `  ${o.paired_cases} paired cases: ${rate(o.baseline.rate)} vs ${rate(o.candidate.rate)}, difference ${rate(o.difference)} [${rate(o.lower)}, ${rate(o.upper)}], ${o.newly_failing} newly failing, ${o.newly_passing} newly passing, exact McNemar p = ${o.p_value.toFixed(4)}`,
);
for (const g of pair.by_tag.filter((t) => t.key !== 'generated'))
  console.log(
    `  tag ${g.key.padEnd(18)} ${rate(g.baseline.rate).padStart(6)} -> ${rate(g.candidate.rate).padStart(6)} (${g.paired_cases} cases)`,
  );
console.log('Newly failing on the candidate (first 8):');
for (const f of pair.flipped.newly_failing.cases.slice(0, 8))
  console.log(`  ${f.test_case_id}: ${f.candidate.error_code ?? '-'}: ${(f.candidate.message ?? '').slice(0, 150)}`);
console.log(`Failures in ${b.model}'s run report (GET /runs/{id}/report), conversations failing in a later turn (first 6):`);
// a later turn is scored on the state the earlier turns left (one environment session per conversation)
for (const f of b.report_failures.filter((x) => (x.failing_turn ?? 0) > 0).slice(0, 6))
  console.log(
    `  ${f.test_case_id} [${f.error_code}] ${f.question}\n      ${(f.diff.length ? f.diff.slice(0, 2).join(' | ') : f.message).slice(0, 160)}`,
  );
console.log('Mistake catalogue of the simulated models (generateDecisions.ts) and the check meant to catch each:');
for (const name of Object.keys(MISTAKES) as MistakeName[]) {
  const m = MISTAKES[name];
  const run = result.runs.find((r) => r.model === m.model)!;
  const caught = m.cases.filter((id) => {
    const card = run.scorecards.find((c) => c.test_case_id === id);
    // a redundant repeat costs efficiency, not correctness: the case passes with redundant_calls counted
    if (m.check === 'redundant_calls') return card?.overall_passed === true && (card.efficiency?.redundant_calls ?? 0) > 0;
    return card?.error_code === m.check;
  });
  console.log(`  ${m.model} ${name} -> ${m.check}: ${caught.length} of ${m.cases.length} cases caught`);
}
console.log(`model requests served: ${result.model_requests}; ${result.seconds.toFixed(1)} s`);
