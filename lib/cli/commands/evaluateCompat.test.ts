import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './cliRunner.test-helpers.js';

const fn = (name: string, properties: Record<string, unknown>, required: string[]) => ({
  name,
  description: 'd',
  parameters: { type: 'dict', properties, required },
});
const weather = fn('get_weather', { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, ['city']);
const pick = fn('pick', { x: { type: 'integer' } }, ['x']);
const time = fn('get_time', { city: { type: 'string' }, zone: { type: 'string' } }, ['city']);
const questions = [
  { id: 'simple_0', question: [[{ role: 'user', content: 'Weather in Paris in celsius?' }]], function: [weather] },
  { id: 'simple_1', question: [[{ role: 'user', content: 'Time in Rome?' }]], function: [time] },
  { id: 'simple_2', question: [[{ role: 'user', content: 'Weather in Oslo?' }]], function: [weather] },
  { id: 'parallel_0', question: [[{ role: 'user', content: 'Pick 1 or 2, and pick 1.' }]], function: [pick] },
  { id: 'simple_3', question: [[{ role: 'user', content: 'Weather in Bern, with an unit?' }]], function: [weather] },
];
const answers = [
  { id: 'simple_0', ground_truth: [{ get_weather: { city: ['Paris'], unit: ['celsius', ''] } }] },
  { id: 'simple_1', ground_truth: [{ get_time: { city: ['Rome'], zone: ['CET', ''] } }] },
  { id: 'simple_2', ground_truth: [{ get_weather: { city: ['Oslo'], unit: ['', 'celsius'] } }] },
  { id: 'parallel_0', ground_truth: [{ pick: { x: [1, 2] } }, { pick: { x: [1] } }] },
  { id: 'simple_3', ground_truth: [{ get_weather: { city: ['Bern'], unit: ['celsius'] } }] },
];
const call = (name: string, args: unknown) => ({ name, arguments: args });
const outputs = [
  // an enum value in another case: stage 1 fails it by default, BFCL (no enum check, normalised) passes it
  { test_case_id: 'simple_0', output: [call('get_weather', { city: 'Paris', unit: 'Celsius' })] },
  // an explicit "" for an optional parameter: BFCL passes it, the default mode fails it
  { test_case_id: 'simple_1', output: [call('get_time', { city: 'Rome', zone: '' })] },
  { test_case_id: 'simple_2', output: [call('get_weather', { city: 'Oslo' })] },
  // greedy pairing fails (the first expected call takes x=1), a one-to-one pairing passes
  { test_case_id: 'parallel_0', output: [call('pick', { x: 1 }), call('pick', { x: 2 })] },
  // a listed parameter without "" omitted: both fail
  { test_case_id: 'simple_3', output: [call('get_weather', { city: 'Bern' })] },
];

async function files(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'evalp-bfcl-compat-'));
  const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const paths = ['questions.json', 'answers.json', 'outputs.jsonl', 'cards.jsonl'].map((f) => join(dir, f));
  await writeFile(paths[0]!, jsonl(questions));
  await writeFile(paths[1]!, jsonl(answers));
  await writeFile(paths[2]!, jsonl(outputs));
  return paths;
}

type Card = {
  test_case_id: string;
  overall_passed: boolean;
  compat?: { passed: boolean; rule: string; default_passed: boolean; greedy_only_failure?: boolean };
};
const readCards = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Card);

describe('evalp evaluate --format bfcl: default versus BFCL verdicts', () => {
  it('default mode: prints how many verdicts differ from BFCL by kind; --explain lists each case with its rule', async () => {
    const [q, a, o, out] = await files();
    const r = await runCliInProcess(['evaluate', '--gold', q!, '--answers', a!, '--outputs', o!, '--out', out!, '--explain']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("BFCL compatibility: 2 of 5 case(s) get another verdict from BFCL's AST checker");
    expect(r.stderr).toMatch(/ 1 {2}default fails \(syntax enum_violation\), BFCL passes/);
    expect(r.stderr).toMatch(/ 1 {2}default fails \(logic argument_mismatch\), BFCL passes/);
    expect(r.stderr).toContain("1 parallel case(s) fail BFCL's greedy call matching although a one-to-one pairing passes");
    expect(r.stderr).toMatch(/simple_0 {2}fail syntax enum_violation \| pass: /);
    expect(r.stderr).toMatch(/simple_1 {2}fail logic argument_mismatch \| pass/);
    const cards = await readCards(out!);
    expect(cards.map((c) => [c.test_case_id, c.overall_passed, c.compat])).toEqual([
      ['simple_0', false, undefined],
      ['simple_1', false, undefined],
      ['simple_2', true, undefined],
      ['parallel_0', true, undefined],
      ['simple_3', false, undefined],
    ]);
  }, 60_000);

  it('--compat bfcl: the scorecards carry BFCL verdicts (the default one beside), the JSON summary the gap', async () => {
    const [q, a, o, out] = await files();
    const r = await runCliInProcess([
      'evaluate',
      '--gold',
      q!,
      '--answers',
      a!,
      '--outputs',
      o!,
      '--out',
      out!,
      '--compat',
      'bfcl',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const cards = await readCards(out!);
    expect(
      cards.map((c) => [
        c.test_case_id,
        c.overall_passed,
        c.compat?.rule,
        c.compat?.default_passed,
        c.compat?.greedy_only_failure ?? false,
      ]),
    ).toEqual([
      ['simple_0', true, 'valid', false, false],
      ['simple_1', true, 'valid', false, false],
      ['simple_2', true, 'valid', true, false],
      ['parallel_0', true, 'valid', true, true],
      ['simple_3', false, 'simple_function_checker:missing_optional', false, false],
    ]);
    const summary = JSON.parse(r.stderr.slice(r.stderr.indexOf('{'))) as {
      passed: number;
      bfcl_compat: { differ: number; greedy_only_failures: number; by_kind: Record<string, number> };
    };
    expect(summary.passed).toBe(4);
    expect(summary.bfcl_compat).toMatchObject({ differ: 2, greedy_only_failures: 1 });
    expect(summary.bfcl_compat.by_kind).toEqual({
      'default fails (logic argument_mismatch), BFCL passes': 1,
      'default fails (syntax enum_violation), BFCL passes': 1,
    });
  }, 60_000);

  it('--compat bfcl on cases without a BFCL reference says that it changed nothing', async () => {
    const root = new URL('../../../', import.meta.url).pathname;
    const example = (f: string) => join(root, 'examples/quickstart', f);
    const r = await runCliInProcess([
      'evaluate',
      '--gold',
      example('gold.jsonl'),
      '--outputs',
      example('outputs.jsonl'),
      '--catalog',
      example('catalog.json'),
      '--out',
      join(await mkdtemp(join(tmpdir(), 'evalp-')), 'c.jsonl'),
      '--compat',
      'bfcl',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: --compat bfcl: no case carries a BFCL reference');
  }, 60_000);
});
