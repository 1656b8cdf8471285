import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../app/packageRoot.js';
import { launchTsProcess, startPlatformProcess, type LaunchedProcess } from './platformProcess.js';

const root = packageRoot();
const children: LaunchedProcess[] = [];

afterAll(async () => {
  for (const c of children) await c.kill();
});

describe('crash safety of a run (a real child process, SIGKILL mid-run)', () => {
  it('completes after restart with exactly one scorecard per case and statistics equal to a recount', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'evalp-crash-'));
    try {
      const first = launchTsProcess([join(root, 'lib/app/__fixtures__/crashRun.ts'), '--data-dir', dataDir, '--cases', '6000']);
      children.push(first);
      const started = JSON.parse(await first.line(/"event":"run"/, 180_000)) as { url: string; id: string; key: string };
      const get = async (base: string, path: string): Promise<any> =>
        (await fetch(`${base}/api/${path}`, { headers: { authorization: `Bearer ${started.key}` } })).json();
      // kill between 10% and 90% of the run
      let before = 0;
      for (let i = 0; i < 2000; i++) {
        const view = await get(started.url, `v1/runs/${started.id}`);
        before = view.stats?.completed ?? 0;
        if (before >= 600) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await first.kill();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(6000);

      const second = await startPlatformProcess(dataDir);
      children.push(second);
      const url = second.url;
      let view: any;
      for (let i = 0; i < 600; i++) {
        view = await get(url, `v1/runs/${started.id}`);
        if (view.status !== 'running' && view.status !== 'pending') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect([view.status, view.total_cases, view.stats.completed]).toEqual(['completed', 6000, 6000]);
      const all = await get(url, `v1/runs/${started.id}/scorecards?limit=1`);
      const passed = await get(url, `v1/runs/${started.id}/scorecards?limit=1&passed=true`);
      expect(all.total).toBe(6000);
      expect(view.stats.passed).toBe(passed.total);
      // by-category counts of the live fold add up to the scorecards
      const byCategory = Object.values(view.stats.by_category as Record<string, { completed: number }>).reduce(
        (a, b) => a + b.completed,
        0,
      );
      expect(byCategory).toBe(6000);
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 360_000);
});
