import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/packageRoot.js';

const root = packageRoot();
const run = promisify(execFile);

describe('evalp start (the demo) and evalp submit/status against it', () => {
  it('prints the key once, runs both recorded models to completion, shows the refunds regression, then serves the CLI', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'evalp-start-'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'lib/cli/main.ts'), 'start', '--data-dir', dataDir, '--port', '0'],
      {
        cwd: root,
        env: { ...process.env, EVALP_DEMO: 'on' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines: string[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "Serving at" line; got:\n${lines.join('\n')}`)), 150_000);
        createInterface({ input: child.stdout! }).on('line', (l) => {
          lines.push(l);
          if (l.startsWith('Serving at')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`evalp start exited with ${code}:\n${lines.join('\n')}`)));
      });
      const out = lines.join('\n');
      const keys = lines.filter((l) => /^evalp_[0-9a-f]{12}_[A-Za-z0-9_-]{32}$/.test(l));
      expect(keys).toHaveLength(1);
      expect(out).toMatch(/Demo: loaded 327 retail gold cases/);
      expect(lines.filter((l) => /^simulated-model-[ab]: completed 327\/327/.test(l))).toHaveLength(2);
      expect(out).toMatch(/pass rate\s+│ 87\.8% of 327 scored\s+│ 83\.2% of 327 scored/);
      expect(out).toMatch(/refunds\s+│ 89\.4% of 47\s+│ 59\.6% of 47/);
      // the closing comparison: the planted refunds regression is significant after Holm, no other category is
      expect(out).toMatch(/Comparison of the two models \(evalp compare [0-9a-f-]{36} [0-9a-f-]{36}\)/);
      expect(out).toMatch(
        /^Verdict: B is worse than A on refunds by 29\.8 points \(89\.4% → 59\.6%\), p = 0\.0\d+ \(Holm-adjusted over 8\)/m,
      );
      const categoryRows = lines.filter((l) =>
        /^│ {3}(abstention|analytics|inventory|orders|products|refunds|shipping|support) +│ \d+ /.test(l),
      );
      expect(categoryRows).toHaveLength(8);
      expect(categoryRows.filter((l) => /│ \*+ +│$/.test(l)).map((l) => l.split('│')[1]!.trim())).toEqual(['refunds']);
      // model B ran against model A as its baseline: the refunds drop is a high-severity, significant accuracy alert (past twice the critical threshold, p above alpha/10: README "Alert severities")
      expect(out).toMatch(/Regression alerts of [0-9a-f-]{36} against [0-9a-f-]{36}/);
      expect(out).toMatch(/^ {2}HIGH +.*refunds/m);

      const url = /running at (http:\/\/[^ ]+)\/api/.exec(out)![1]!;
      const env = { ...process.env, EVALP_URL: url, EVALP_API_KEY: keys[0]! };
      const cli = (args: string[], extraEnv: Record<string, string> = {}) =>
        run(process.execPath, ['--import', 'tsx', join(root, 'lib/cli/main.ts'), ...args], { cwd: root, env: { ...env, ...extraEnv } });
      const submitted = await cli([
        'submit',
        '--suite',
        'retail-demo',
        '--target',
        'simulated-model-b',
        '--profile',
        'ci',
        '--commit-sha',
        'abc1234',
        '--pr',
        '42',
        '--wait',
      ]);
      const runId = submitted.stdout.trim();
      expect(runId).toMatch(/^[0-9a-f-]{36}$/);
      const status = JSON.parse((await cli(['status', runId, '--json'])).stdout) as {
        status: string;
        trigger_metadata: unknown;
        stats: { completed: number };
      };
      expect([status.status, status.stats.completed, status.trigger_metadata]).toEqual([
        'completed',
        327,
        { commit_sha: 'abc1234', pr_number: 42 },
      ]);
      // a wrong key (from the environment, which wins over --key: README "Configuration file") is a 401, exit 2
      await expect(cli(['status', runId], { EVALP_API_KEY: 'evalp_000000000000_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('401'),
      });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 200_000);
});
