/**
 * BFCL differential harness: generated correct and perturbed outputs for BFCL's own single-turn questions, judged by
 * BFCL's AST checker (the outside oracle, run with python3 from $BFCL_CHECKER_DIR) and by this platform in its
 * default mode and in `compat: "bfcl"`; prints how often each mode agrees with BFCL and where they differ.
 *
 *   BFCL_CHECKER_DIR=/path/to/gorilla/berkeley-function-call-leaderboard npm run bfcl:differential
 *     [-- --fixture lib/evaluation/bfclCompat/__fixtures__/differential.jsonl] [--limit N] [--show N]
 *
 * GENERATED DATA: the outputs are perturbations of BFCL's questions (github.com/ShishirPatil/gorilla, Apache-2.0).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { resolveEvaluationConfig, type Scorecard, type TestCase, type ToolCatalog } from '../../lib/domain/index.js';
import { evaluateCase } from '../../lib/evaluation/index.js';
import { importBfcl } from '../../lib/goldset/index.js';
import { fromJson } from '../../lib/evaluation/bfclCompat/pyValue.js';
import { pyJson, variantsFor } from './perturb.js';

const CATEGORIES = [
  'simple_python',
  'simple_java',
  'simple_javascript',
  'multiple',
  'parallel',
  'parallel_multiple',
  'irrelevance',
  'live_simple',
  'live_multiple',
  'live_parallel',
  'live_parallel_multiple',
  'live_irrelevance',
];

interface Item {
  key: string;
  caseId: string;
  kind: string;
  category: string;
  output: string | null;
  raw: string;
}
interface OracleVerdict {
  valid?: boolean;
  error_type?: string;
  exception?: string;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const root = process.env['BFCL_CHECKER_DIR'];
  if (!root) throw new Error('set BFCL_CHECKER_DIR to the berkeley-function-call-leaderboard folder of github.com/ShishirPatil/gorilla');
  const data = join(root, 'bfcl_eval', 'data');
  const limit = Number(arg('limit') ?? Infinity);
  const cases = new Map<string, TestCase>();
  const catalogs = new Map<string, ToolCatalog>();
  const items: Item[] = [];
  let notImported = 0;
  for (const category of CATEGORIES) {
    const file = ['v4', 'v3'].map((v) => join(data, `BFCL_${v}_${category}.json`)).find((f) => existsSync(f));
    if (!file) continue;
    const answers = join(data, 'possible_answer', file.split('/').pop()!);
    const result = await importBfcl(
      { questions: await readFile(file, 'utf8'), ...(existsSync(answers) ? { answers: await readFile(answers, 'utf8') } : {}) },
      { partial: true },
    );
    notImported += result.total_rows - result.cases.length;
    for (const c of result.catalogs) catalogs.set(`${c.name}@${c.tool_schema_version}`, c);
    for (const tc of result.cases.slice(0, limit)) {
      cases.set(tc.id, tc);
      const irrelevance = category.includes('irrelevance');
      variantsFor(tc.metadata.bfcl!).forEach((v, n) =>
        items.push({
          key: `${tc.id}#${v.kind}#${n}`,
          caseId: tc.id,
          kind: v.kind,
          category: tc.metadata.bfcl!.category,
          output: v.output,
          raw: v.output ?? (irrelevance ? 'I cannot help with that request.' : '[{"name": "broken", "arguments": {"a": '),
        }),
      );
    }
  }
  const oracle = await runOracle(root, cases, items);
  const defaultConfig = resolveEvaluationConfig({});
  const compatConfig = resolveEvaluationConfig({ compat: 'bfcl' });
  const catalogFor = (tc: TestCase) => (tc.tool_catalog ? catalogs.get(`${tc.tool_catalog.name}@${tc.tool_catalog.version}`) : undefined);
  let agreeDefault = 0;
  let agreeCompat = 0;
  let greedy = 0;
  let exceptions = 0;
  const compatMisses: Array<{ item: Item; oracle: OracleVerdict; card: Scorecard }> = [];
  const defaultByKind = new Map<string, number>();
  const fixture: string[] = [];
  const defaultMisses: string[] = [];
  const perKind = new Map<string, number>();
  for (const item of items) {
    const verdict = oracle.get(item.key) ?? { exception: 'no verdict' };
    const tc = cases.get(item.caseId)!;
    const input = {
      runId: 'bfcl-differential',
      testCase: tc,
      output: item.raw,
      evalMode: 'offline' as const,
      timestamp: '2026-01-01T00:00:00.000Z',
    };
    const own = await evaluateCase(input, defaultConfig, { catalogFor });
    const compat = await evaluateCase(input, compatConfig, { catalogFor });
    if (verdict.exception !== undefined) exceptions++;
    const expected = verdict.exception !== undefined ? false : verdict.valid === true;
    const bfclAgrees = verdict.exception !== undefined ? compat.compat?.rule === 'checker_error' : compat.overall_passed === expected;
    if (compat.compat?.greedy_only_failure) greedy++;
    if (bfclAgrees) agreeCompat++;
    else compatMisses.push({ item, oracle: verdict, card: compat });
    if (own.overall_passed === expected) agreeDefault++;
    else {
      const kind = `${item.kind}: ours ${own.overall_passed ? 'pass' : `fail (${own.error_code ?? '?'})`}, BFCL ${expected ? 'pass' : `fail (${verdict.error_type ?? verdict.exception})`}`;
      defaultByKind.set(kind, (defaultByKind.get(kind) ?? 0) + 1);
      defaultMisses.push(
        JSON.stringify({ key: item.key, kind, message: own.stages[own.failing_stage ?? 'logic'].message, output: item.raw }),
      );
    }
    const bucket = `${item.category}/${item.kind}`;
    const taken = perKind.get(bucket) ?? 0;
    const ref = tc.metadata.bfcl!;
    if ((!bfclAgrees || taken < 1) && JSON.stringify(ref.function).length < 1200) {
      perKind.set(bucket, taken + 1);
      fixture.push(
        JSON.stringify({ key: item.key, kind: item.kind, ...ref, output: item.raw, decoded: item.output !== null, bfcl: verdict }),
      );
    }
  }
  const n = items.length;
  const pct = (k: number) => `${((100 * k) / n).toFixed(3)}%`;
  console.log(
    `BFCL differential: ${n} generated outputs over ${cases.size} questions (${notImported} question rows not importable), oracle = BFCL's ast_checker`,
  );
  console.log(
    `  compat "bfcl": ${agreeCompat}/${n} agree (${pct(agreeCompat)}); ${greedy} pass where BFCL's greedy parallel matcher fails (counted as disagreements unless BFCL passes)`,
  );
  console.log(`  default mode : ${agreeDefault}/${n} agree (${pct(agreeDefault)})`);
  console.log(`  BFCL's checker raised on ${exceptions} outputs`);
  const show = Number(arg('show') ?? 25);
  if (compatMisses.length > 0) {
    console.log(`compat disagreements (first ${Math.min(show, compatMisses.length)} of ${compatMisses.length}):`);
    for (const m of compatMisses.slice(0, show))
      console.log(
        `  ${m.item.key}: BFCL ${m.oracle.exception ?? `${m.oracle.valid} ${m.oracle.error_type}`}, compat ${m.card.overall_passed} ${m.card.compat?.rule} ${m.card.compat?.message.slice(0, 160)}  output=${m.item.raw.slice(0, 200)}`,
      );
  }
  console.log('default-mode disagreements by kind:');
  for (const [kind, count] of [...defaultByKind].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(6)}  ${kind}`);
  const dumpPath = arg('dump-default');
  if (dumpPath) await writeFile(dumpPath, defaultMisses.join('\n') + '\n');
  const fixturePath = arg('fixture');
  if (fixturePath) {
    await writeFile(fixturePath, fixture.join('\n') + '\n');
    console.log(`wrote ${fixture.length} fixture items to ${fixturePath}`);
  }
}

/** BFCL's verdict per item key, from bfclOracle.py (questions sent once, then the items). */
async function runOracle(root: string, cases: Map<string, TestCase>, items: Item[]): Promise<Map<string, OracleVerdict>> {
  const child = spawn('python3', [join(import.meta.dirname, 'bfclOracle.py')], {
    env: { ...process.env, BFCL_CHECKER_DIR: root },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const verdicts = new Map<string, OracleVerdict>();
  const lines = createInterface({ input: child.stdout });
  const done = (async () => {
    for await (const line of lines) {
      const v = JSON.parse(line) as OracleVerdict & { key: string };
      verdicts.set(v.key, v);
    }
  })();
  const write = async (text: string) => {
    if (!child.stdin.write(text)) await new Promise((r) => child.stdin.once('drain', r));
  };
  for (const [id, tc] of cases) {
    const ref = tc.metadata.bfcl!;
    // the possible answer with its float literals written as floats again (JSON.stringify would write 1.0 as 1)
    const groundTruth = pyJson(fromJson(ref.ground_truth, new Set(ref.float_literal_paths ?? [])));
    await write(
      `{"case": ${JSON.stringify(id)}, "category": ${JSON.stringify(ref.category)}, "function": ${JSON.stringify(ref.function)}, "ground_truth": ${groundTruth}}\n`,
    );
  }
  for (const item of items) await write(JSON.stringify({ key: item.key, case: item.caseId, output: item.output }) + '\n');
  child.stdin.end();
  await done;
  const code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', r)));
  if (code !== 0) throw new Error(`bfclOracle.py exited with ${code}`);
  return verdicts;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
