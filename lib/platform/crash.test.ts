import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../app/packageRoot.js';

const root = packageRoot();
const children: ChildProcess[] = [];

function launch(args: string[]): { child: ChildProcess; line: (match: RegExp, timeoutMs?: number) => Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, EVALP_DEMO: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout! }).on('line', (l) => {
    lines.push(l);
    waiters.splice(0).forEach((w) => w());
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const line = (match: RegExp, timeoutMs = 60_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no line matching ${match} within ${timeoutMs} ms; stdout: ${lines.join('\n')}\nstderr: ${stderr.slice(-2000)}`),
          ),
        timeoutMs,
      );
      const check = (): void => {
        const hit = lines.find((l) => match.test(l));
        if (hit) {
          clearTimeout(timer);
          resolve(hit);
        } else waiters.push(check);
      };
      check();
    });
  return { child, line };
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('crash safety of a run (a real child process, SIGKILL mid-run)', () => {
  it('completes after restart with exactly one scorecard per case and statistics equal to a recount', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'evalp-crash-'));
    try {
      const first = launch([join(root, 'lib/app/__fixtures__/crashRun.ts'), '--data-dir', dataDir, '--cases', '6000']);
      const started = JSON.parse(await first.line(/"event":"run"/)) as { url: string; id: string; key: string };
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
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(6000);

      const second = launch([join(root, 'lib/cli/main.ts'), 'start', '--no-demo', '--data-dir', dataDir, '--port', '0']);
      const url = /running at (http:\/\/[^ ]+)\/api/.exec(await second.line(/running at http/))![1]!;
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
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
