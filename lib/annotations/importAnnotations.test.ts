import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scorecard } from '../domain/index.js';
import { startTestApi, type TestApi } from '../api/routes/apiTestPlatform.test-helpers.js';
import { runCliInProcess } from '../cli/commands/cliRunner.test-helpers.js';
import { sampleRun, sampleScorecard } from '../ports/contracts/fixtures.js';

let api: TestApi;
let dir: string;

/** 8 judged answers: the judge passes c0-c4 and fails c5-c7 (G-Eval judge gpt-test, rubric r1). */
function judged(i: number): Scorecard {
  const card = sampleScorecard('import-run', `c${i}`);
  const pass = i < 5;
  card.stages.semantics = {
    stage: 'semantics',
    status: pass ? 'passed' : 'failed',
    passed: pass,
    score: pass ? 0.9 : 0.3,
    details: { judge: 'geval:gpt-test', method: 'llm', model: 'gpt-test', rubric_id: 'r1', reasoning: 'r', confidence: 1, cached: false },
    duration_ms: 1,
  };
  return card;
}

const task = (id: string, perItem = 1) =>
  api.call('POST', 'v1/annotation-tasks', {
    key: api.keys['test-admin'],
    body: {
      id,
      name: id,
      instructions: 'labels generated from a mistake catalogue, not human raters',
      source: { kind: 'run', run_id: 'import-run' },
      label_schema: { kind: 'pass_fail' },
      annotators_per_item: perItem,
    },
  });

const PROVENANCE = 'generated from the test fixture, not human raters';

beforeAll(async () => {
  api = await startTestApi();
  const { stores } = api.platform.services;
  await stores.runs.createRun(sampleRun('import-run', { status: 'completed' }));
  await stores.scorecards.upsertScorecards(Array.from({ length: 8 }, (_, i) => judged(i)));
  dir = mkdtempSync(join(tmpdir(), 'evalp-import-'));
}, 60_000);
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /api/v1/annotation-tasks/{id}/import', () => {
  it('stores the labels as the named annotators, marked imported; export and calibration say so', async () => {
    expect((await task('imp')).status).toBe(201);
    // known agreement: labels pass on c0-c3 and c5, fail on c4, c6, c7 -> judge agrees on 6 of 8
    const labels = ['pass', 'pass', 'pass', 'pass', 'fail', 'pass', 'fail', 'fail'].map((label, i) => ({
      item_id: `c${i}`,
      annotator: 'catalogue-derived',
      label,
      comment: `fixture row ${i}`,
    }));
    const res = await api.call('POST', 'v1/annotation-tasks/imp/import', {
      key: api.keys['test-admin'],
      body: { provenance: PROVENANCE, labels },
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ task_id: 'imp', imported: 8, annotators: [{ annotator: 'catalogue-derived', labels: 8 }] });

    const exported = await api.call('GET', 'v1/annotation-tasks/imp/export', { key: api.keys.reader });
    const rows = exported.json.items as Array<{ item_id: string; consensus: string; labels: Array<Record<string, unknown>> }>;
    expect(rows.map((r) => r.consensus)).toEqual(labels.map((l) => l.label));
    expect(rows[0]!.labels[0]).toEqual({
      annotator: 'catalogue-derived',
      label: 'pass',
      comment: 'fixture row 0',
      imported: { by: 'test-admin-key', provenance: PROVENANCE },
    });
    // the task is complete: nobody is handed an item any more
    expect((await api.call('GET', 'v1/annotation-tasks/imp/next', { key: api.keys.annotator })).status).toBe(204);

    const calibration = await api.call('POST', 'v1/annotation-tasks/imp/calibrate', { key: api.keys['test-admin'] });
    expect(calibration.status).toBe(200);
    // rows labels, columns judge: pass/pass 4 (c0-c3), pass/fail 1 (c5), fail/pass 1 (c4), fail/fail 2 (c6, c7)
    expect(calibration.json).toMatchObject({
      items: 8,
      raw_agreement: 0.75,
      labels: ['pass', 'fail'],
      confusion: [
        [4, 1],
        [1, 2],
      ],
    });
    // kappa = (0.75 - (5/8 * 5/8 + 3/8 * 3/8)) / (1 - 0.53125) = 0.2187.../0.46875 = 0.4667
    expect(calibration.json.kappa as number).toBeCloseTo(0.46667, 4);
    // never called human labels: the default provenance names the import
    expect(calibration.json.provenance).toBe(`labels imported into annotation task imp: ${PROVENANCE} (consensus by majority)`);
  });

  it('checks the whole request before storing anything: unknown item, bad label, repeats, too many labels, roles', async () => {
    expect((await task('imp2', 2)).status).toBe(201);
    const post = (labels: unknown[], key = api.keys['test-admin']) =>
      api.call('POST', 'v1/annotation-tasks/imp2/import', { key, body: { provenance: PROVENANCE, labels } });
    const ok = { item_id: 'c0', annotator: 'x', label: 'pass' };

    const unknown = await post([ok, { item_id: 'nope', annotator: 'x', label: 'pass' }]);
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).toContain('body.labels[1].item_id');
    const bad = await post([ok, { item_id: 'c1', annotator: 'x', label: 'maybe' }]);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('body.labels[1].label');
    expect((await post([ok, ok])).status).toBe(409);
    const three = ['x', 'y', 'z'].map((annotator) => ({ item_id: 'c0', annotator, label: 'pass' }));
    expect((await post(three)).status).toBe(409);
    expect((await post([{ item_id: 'c0', annotator: 'has space', label: 'pass' }])).status).toBe(400);
    expect((await post([ok], api.keys.reader)).status).toBe(403);
    const noProvenance = await api.call('POST', 'v1/annotation-tasks/imp2/import', { key: api.keys['test-admin'], body: { labels: [ok] } });
    expect(noProvenance.status).toBe(400);
    expect(
      (
        await api.call('POST', 'v1/annotation-tasks/missing/import', {
          key: api.keys['test-admin'],
          body: { provenance: 'p', labels: [ok] },
        })
      ).status,
    ).toBe(404);
    // nothing of the refused requests was stored
    expect((await api.call('GET', 'v1/annotation-tasks/imp2/progress', { key: api.keys.reader })).json.labels).toBe(0);
    // a label already there (from the import) conflicts the second time
    expect((await post([ok])).status).toBe(201);
    expect((await post([ok])).status).toBe(409);
  });

  it('evalp annotations import and calibrate: a JSON Lines file in, the calibration table out', async () => {
    expect((await task('cli-imp')).status).toBe(201);
    const file = join(dir, 'labels.jsonl');
    const rows = ['pass', 'pass', 'pass', 'pass', 'pass', 'fail', 'fail', 'pass'].map((label, i) =>
      JSON.stringify({ item: `c${i}`, annotator: 'catalogue-derived', label, comment: 'fixture' }),
    );
    writeFileSync(file, `${rows.join('\n')}\n`);
    const conn = ['--url', api.platform.url, '--key', api.keys['test-admin']];
    const imported = await runCliInProcess(['annotations', 'import', 'cli-imp', '--file', file, '--provenance', PROVENANCE, ...conn]);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toBe('imported 8 labels into cli-imp (catalogue-derived 8)\n');
    const calibrated = await runCliInProcess(['annotations', 'calibrate', 'cli-imp', ...conn]);
    expect(calibrated.code).toBe(0);
    // judge passes c0-c4, fails c5-c7; labels pass except c5, c6: 7 of 8 agree
    expect(calibrated.stdout).toContain('judge gpt-test (rubric r1) against task cli-imp on run import-run: 8 items compared, 0 skipped');
    expect(calibrated.stdout).toContain('raw agreement 0.875');
    expect(calibrated.stdout).toMatch(/^pass\s+5\s+1$/m);
    expect(calibrated.stdout).toMatch(/^fail\s+0\s+2$/m);
    expect(calibrated.stdout).toContain(`labels: labels imported into annotation task cli-imp: ${PROVENANCE}`);

    const badFile = join(dir, 'bad.jsonl');
    writeFileSync(badFile, '{"item":"c0","annotator":"a"}\n');
    const bad = await runCliInProcess(['annotations', 'import', 'cli-imp', '--file', badFile, '--provenance', 'p', ...conn]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.jsonl:1: label');
  });
});
