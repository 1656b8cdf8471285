import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './cliRunner.test-helpers.js';

// Krippendorff (2011) section C reliability data as JSON Lines (unit 12 has one label: not pairable)
const K2011: Record<string, (number | null)[]> = {
  A: [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  B: [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  C: [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  D: [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
};
const jsonl = Object.entries(K2011)
  .flatMap(([annotator, row]) =>
    row.flatMap((label, u) => (label === null ? [] : [JSON.stringify({ item: `u${u + 1}`, annotator, label })])),
  )
  .join('\n');

async function file(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evalp-agreement-'));
  const f = join(dir, 'labels.jsonl');
  await writeFile(f, text);
  return f;
}

describe('evalp agreement', () => {
  it('prints alpha at each level (Krippendorff 2011 values) and skips Fleiss when label counts differ', async () => {
    const f = await file(jsonl);
    for (const [level, alpha] of [
      ['nominal', '0.743'],
      ['ordinal', '0.815'],
      ['interval', '0.849'],
      ['ratio', '0.797'],
    ]) {
      const r = await runCliInProcess(['agreement', '--file', f, '--level', level!]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Krippendorff's alpha (${level}): ${alpha}`);
      expect(r.stdout).toMatch(/Fleiss' kappa: not computed/);
    }
  });

  it("prints Fleiss' kappa when every item has the same number of labels, and --json", async () => {
    const f = await file(
      ['a', 'b', 'c']
        .flatMap((annotator, j) =>
          ['x', 'y', 'z', 'w'].map((item, i) =>
            JSON.stringify({ item, annotator, label: i === 3 && j === 2 ? 'fail' : i % 2 ? 'pass' : 'fail' }),
          ),
        )
        .join('\n'),
    );
    const r = await runCliInProcess(['agreement', '--file', f]);
    expect(r.stdout).toMatch(/Fleiss' kappa \(3 labels per item\): 0\.\d{3}/);
    const j = await runCliInProcess(['agreement', '--file', f, '--json']);
    const parsed = JSON.parse(j.stdout) as { fleiss: { kappa: number }; items: number };
    expect(parsed.items).toBe(4);
    expect(parsed.fleiss.kappa).toBeGreaterThan(0);
  });

  it('exit 2 naming line and field for bad input, and for a bad level', async () => {
    const f = await file(`${JSON.stringify({ item: 'x', annotator: 'a', label: 1 })}\n${JSON.stringify({ item: 'x', label: 2 })}\n`);
    const r = await runCliInProcess(['agreement', '--file', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/labels\.jsonl:2: annotator/);
    const l = await runCliInProcess(['agreement', '--file', f, '--level', 'cardinal']);
    expect(l.code).toBe(2);
    expect(l.stderr).toMatch(/--level must be one of nominal/);
    const s = await file(
      `${JSON.stringify({ item: 'x', annotator: 'a', label: 'hi' })}\n${JSON.stringify({ item: 'x', annotator: 'b', label: 'lo' })}\n`,
    );
    const o = await runCliInProcess(['agreement', '--file', s, '--level', 'interval']);
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/numeric labels/);
  });
});
