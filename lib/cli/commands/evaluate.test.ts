import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../../', import.meta.url).pathname;
const example = (f: string): string => join(root, 'examples/quickstart', f);

async function evalp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', join(root, 'lib/cli/main.ts'), ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('evalp evaluate', () => {
  it('scores the quickstart example: one scorecard per output line and a summary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalp-'));
    const out = join(dir, 'scorecards.jsonl');
    const r = await evalp([
      'evaluate',
      '--gold',
      example('gold.jsonl'),
      '--outputs',
      example('outputs.jsonl'),
      '--catalog',
      example('catalog.json'),
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const cards = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { test_case_id: string; overall_passed: boolean; error_code?: string });
    expect(cards.map((c) => [c.test_case_id, c.overall_passed, c.error_code ?? null])).toEqual([
      ['order-status-1', true, null],
      ['cheap-headphones', true, null],
      ['two-orders', true, null],
      ['refund-damaged', false, 'argument_mismatch'],
      ['ticket-lookup', true, null],
      ['smalltalk', true, null],
      ['weather-offtopic', false, 'unexpected_call'],
      ['laptops-default-sort', true, null],
    ]);
    const summary = JSON.parse(r.stderr.slice(r.stderr.indexOf('{'))) as {
      cases: number;
      passed: number;
      stages: { logic: { ran: number } };
    };
    expect([summary.cases, summary.passed, summary.stages.logic.ran]).toEqual([8, 6, 8]);
  }, 30_000);

  it('--fail-under exits 1 when the pass rate is below the bar', async () => {
    const r = await evalp(['evaluate', '--gold', example('gold.jsonl'), '--outputs', example('outputs.jsonl'), '--fail-under', '0.9']);
    expect(r.code).toBe(1);
    // without the catalog the default sort=relevance is not known to be the default, so it counts as extra
    expect(r.stderr).toMatch(/pass rate 62\.5%/);
    expect(r.stderr).toContain('extra_argument (1)');
  }, 30_000);

  it('a bad gold row stops everything with its row, field and reason (exit 2)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalp-'));
    const gold = join(dir, 'gold.jsonl');
    await writeFile(gold, '{"id":"a","nl_query":"q","expected_tool_calls":[]}\n{"id":"b","nl_query":"","expected_tool_calls":[]}\n');
    const r = await evalp(['evaluate', '--gold', gold, '--outputs', example('outputs.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('row 2 (b): nl_query');
    expect(r.stdout).toBe('');
  }, 30_000);

  it('warns about outputs for unknown cases and keeps going', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalp-'));
    const outputs = join(dir, 'outputs.jsonl');
    await writeFile(outputs, '{"test_case_id":"smalltalk","output":"Bye!"}\n{"test_case_id":"nope","output":"x"}\n');
    const r = await evalp(['evaluate', '--gold', example('gold.jsonl'), '--outputs', outputs]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('line 2: test_case_id "nope" is not in the gold set');
    expect(r.stderr).toContain('7 gold case(s) had no output');
  }, 30_000);

  it('an outputs file with lines that are not outputs is an error naming the file and lines (exit 2), after scoring the rest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalp-'));
    const outputs = join(dir, 'outputs.jsonl');
    await writeFile(outputs, '{"test_case_id":"smalltalk","output":"Bye!"}\nnot json\n{"output":"x"}\n');
    const r = await evalp(['evaluate', '--gold', example('gold.jsonl'), '--outputs', outputs]);
    expect(r.code).toBe(2);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`evalp: --outputs ${outputs}: 2 line(s) are not outputs`);
    expect(r.stderr).toContain('line 2: not valid JSON');
    expect(r.stderr).toContain('line 3: test_case_id must be a non-empty string');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it.each<[string, (dir: string) => Promise<string[]>, RegExp]>([
    [
      'a missing outputs file',
      async (dir) => ['--outputs', join(dir, 'missing.jsonl')],
      /^evalp: --outputs \S+missing\.jsonl: cannot read it \(ENOENT\)\n$/,
    ],
    [
      'a catalog that is not JSON',
      async (dir) => {
        await writeFile(join(dir, 'bad.json'), '{"tools": [');
        return ['--outputs', example('outputs.jsonl'), '--catalog', join(dir, 'bad.json')];
      },
      /^evalp: --catalog \S+bad\.json: not valid JSON \(.+\)\n$/,
    ],
    [
      'a catalog of the wrong shape',
      async (dir) => {
        await writeFile(join(dir, 'shape.json'), '{"hello": 1}');
        return ['--outputs', example('outputs.jsonl'), '--catalog', join(dir, 'shape.json')];
      },
      /^evalp: --catalog \S+shape\.json: not a tool catalog/,
    ],
    [
      'a gold file whose format cannot be told',
      async (dir) => {
        await writeFile(join(dir, 'gold.txt'), '');
        return ['--outputs', example('outputs.jsonl'), '--gold', join(dir, 'gold.txt')];
      },
      /^evalp: cannot tell the format of \S+gold\.txt from its extension; pass --format json\|jsonl\|csv\|bfcl\n$/,
    ],
    ['an unknown flag', async () => ['--outputs', example('outputs.jsonl'), '--colour'], /^evalp: unknown option '--colour'\n$/],
    [
      'a bad --top',
      async () => ['--outputs', example('outputs.jsonl'), '--top', 'many'],
      /^evalp: --top must be a whole number \(got "many"\)\n$/,
    ],
  ])(
    '%s: exit 2 with a message naming it, no stack trace',
    async (_label, argsOf, message) => {
      const dir = await mkdtemp(join(tmpdir(), 'evalp-'));
      const args = await argsOf(dir);
      const gold = args.includes('--gold') ? [] : ['--gold', example('gold.jsonl')];
      const r = await evalp(['evaluate', ...gold, ...args]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(message);
    },
    30_000,
  );

  it('lists the top failures with their stage, error code and message; the format comes from the extension', async () => {
    const r = await evalp([
      'evaluate',
      '--gold',
      example('gold.jsonl'),
      '--outputs',
      example('outputs.jsonl'),
      '--catalog',
      example('catalog.json'),
      '--top',
      '1',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Failed cases \(first 1 of 2\):\n  refund-damaged  logic argument_mismatch: .+/);
  }, 30_000);

  it('names the missing settings when --judge openai has none (exit 2, no stack trace)', async () => {
    const saved = { ...process.env };
    for (const k of Object.keys(process.env)) if (k.startsWith('OPENAI_') || k.startsWith('AZURE_OPENAI_')) delete process.env[k];
    try {
      const r = await evalp(['evaluate', '--gold', example('gold.jsonl'), '--outputs', example('outputs.jsonl'), '--judge', 'openai']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('the openai judge needs OPENAI_API_KEY');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      process.env = saved;
    }
  }, 30_000);

  it('--execution expected and --judge local run stages 3 and 4', async () => {
    const r = await evalp([
      'evaluate',
      '--gold',
      example('gold.jsonl'),
      '--outputs',
      example('outputs.jsonl'),
      '--catalog',
      example('catalog.json'),
      '--execution',
      'expected',
      '--judge',
      'local',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stderr.slice(r.stderr.indexOf('{'))) as { stages: Record<string, { ran: number; passed: number }> };
    expect(summary.stages.execution).toEqual({ ran: 1, passed: 1, pass_rate: 1 });
    expect(summary.stages.semantics?.ran).toBe(3);
  }, 30_000);
});
