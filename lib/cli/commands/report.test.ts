import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run, RunStats } from '../../domain/index.js';
import { REPORT_MARKER } from '../../reports/index.js';
import { retailRunsFixture, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';
import { parseXml } from '../../reports/testing/xmlTree.test-helpers.js';
import { runCliInProcess } from './cliRunner.test-helpers.js';

let retail: RetailPlatform;
let head: Run & { stats: RunStats };
let dir: string;

beforeAll(async () => {
  ({ retail, head } = await retailRunsFixture());
  dir = await mkdtemp(join(tmpdir(), 'evalp-report-cli-'));
});
afterAll(async () => {
  await retail?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const conn = (): string[] => ['--url', retail.url, '--key', retail.key];

describe('evalp report', () => {
  it('prints Markdown to stdout by default', async () => {
    const r = await runCliInProcess(['report', head.id, ...conn()]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`${REPORT_MARKER}\n## ✅ EvalPlatform: simulated-model-b on retail-demo: 83.2% passed`)).toBe(true);
  });

  it('writes every format into --out-dir, each as the API serves it', async () => {
    const out = join(dir, 'all');
    const r = await runCliInProcess([
      'report',
      head.id,
      '--format',
      'json,markdown,html,junit',
      '--out-dir',
      out,
      '--max-failures',
      '5',
      ...conn(),
    ]);
    expect(r.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['report.html', 'report.json', 'report.md', 'report.xml']);
    const json = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    expect([json.stats.passed, json.failures.total, json.failures.cases.length]).toEqual([272, 55, 5]);
    expect(parseXml(await readFile(join(out, 'report.xml'), 'utf8')).attributes).toMatchObject({ tests: '327', failures: '55' });
    expect(await readFile(join(out, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(r.stderr).toMatch(/wrote .*report\.md \(markdown, \d+ bytes\)/);
  });

  it('writes one format to --out, creating the directory', async () => {
    const file = join(dir, 'nested', 'deeper', 'junit.xml');
    expect((await runCliInProcess(['report', head.id, '--format', 'junit', '--out', file, ...conn()])).code).toBe(0);
    expect(parseXml(await readFile(file, 'utf8')).name).toBe('testsuites');
  });

  it.each([
    [['--format', 'pdf'], '--format must be json, markdown, html, junit (got "pdf")'],
    [['--format', 'json,html'], 'several formats need --out-dir'],
    [['--out', 'a', '--out-dir', 'b'], 'give --out or --out-dir, not both'],
    [['--max-failures', 'ten'], '--max-failures must be a whole number'],
  ])('exits 2 for %j', async (flags, message) => {
    const r = await runCliInProcess(['report', head.id, ...flags, ...conn()]);
    expect([r.code, r.stderr]).toEqual([2, `evalp: ${message}\n`]);
  });

  it("exits 2 with the API's problem detail for an unknown run", async () => {
    const r = await runCliInProcess(['report', 'nope', ...conn()]);
    expect([r.code, r.stderr]).toEqual([2, 'evalp: GET v1/runs/nope/report answered 404: run "nope" does not exist\n']);
  });
});
