import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHostCliArgs } from './cli.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'host-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('parseHostCliArgs', () => {
  it.each([
    [
      ['--entry', 'app.js', '--data-dir', '/d', '--port', '0'],
      {},
      { entry: 'app.js', dataDir: '/d', port: 0, hostname: '127.0.0.1', logLevel: 'information' },
    ],
    [
      ['--entry', 'app.js', '--poll-interval-ms', '10', '--max-delivery-count', '2', '--lock-duration-ms', '500', '--log-level', 'debug'],
      { EVALP_DATA_DIR: '/env-dir', EVALP_PORT: '8080' },
      {
        entry: 'app.js',
        dataDir: '/env-dir',
        port: 8080,
        hostname: '127.0.0.1',
        logLevel: 'debug',
        pollIntervalMs: 10,
        maxDeliveryCount: 2,
        lockDurationMs: 500,
      },
    ],
  ])('%j', (argv, env, expected) => {
    expect(parseHostCliArgs(argv, env)).toEqual(expected);
  });

  it.each([
    [['--data-dir', '/d'], {}, /required option '--entry <module>' not specified/],
    [['--entry', 'a.js'], {}, /--data-dir or EVALP_DATA_DIR is required/],
    [['--entry', 'a.js', '--data-dir', '/d', '--port', 'x'], {}, /expected a whole number/],
    [['--entry', 'a.js', '--data-dir', '/d', '--log-level', 'loud'], {}, /--log-level must be one of/],
  ])('rejects %j', (argv, env, message) => {
    expect(() => parseHostCliArgs(argv, env, () => undefined)).toThrow(message);
  });
});

function spawnHost() {
  // node itself, not the tsx wrapper: SIGKILL must hit the host process (the wrapper cannot forward it, and an
  // orphaned first host kept working on the same data directory while the restarted one ran)
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'lib/host/cli-entry.ts',
      '--entry',
      'lib/host/testapp/index.ts',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--log-level',
      'error',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const nextEvent = async () => JSON.parse(String((await lines.next()).value)) as Record<string, unknown>;
  return { child, exited, nextEvent };
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body) });

describe('cli-entry (real child process)', () => {
  it('prints a ready line, serves the app, and stops gracefully on SIGTERM', async () => {
    const { child, exited, nextEvent } = spawnHost();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const ready = (await nextEvent()) as { event: string; url: string; functions: string[] };
      expect({ event: ready.event, url: ready.url, functions: ready.functions.length }).toEqual({
        event: 'ready',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        functions: 16,
      });
      const response = await fetch(`${ready.url}/api/items/5`);
      expect(await response.json()).toEqual({ id: '5', tags: [] });
      child.kill('SIGTERM');
      expect(await nextEvent()).toEqual({ event: 'stopped' });
      expect(await exited).toBe(0);
      expect(stderr).toBe('');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('resumes an orchestration whose host was killed with SIGKILL during its durable timer', async () => {
    const first = spawnHost();
    let second: ReturnType<typeof spawnHost> | undefined;
    try {
      const { url } = (await first.nextEvent()) as { url: string };
      const started = (await (await post(`${url}/api/orchestrations/fanout`, { count: 3, delayMs: 1500 })).json()) as {
        instanceId: string;
      };
      for (let stage = ''; stage !== 'timer'; await new Promise((r) => setTimeout(r, 20))) {
        const status = (await (await fetch(`${url}/api/orchestrations/${started.instanceId}`)).json()) as {
          customStatus?: { stage?: string };
        };
        stage = status.customStatus?.stage ?? '';
      }
      first.child.kill('SIGKILL');
      await first.exited;

      second = spawnHost();
      const { url: url2 } = (await second.nextEvent()) as { url: string };
      await post(`${url2}/api/orchestrations/${started.instanceId}/approve`, { by: 'after-crash' });
      let final: { runtimeStatus?: string; output?: unknown } = {};
      for (
        const deadline = Date.now() + 30_000;
        final.runtimeStatus !== 'Completed' && Date.now() < deadline;
        await new Promise((r) => setTimeout(r, 50))
      ) {
        final = (await (await fetch(`${url2}/api/orchestrations/${started.instanceId}`)).json()) as typeof final;
      }
      expect(final).toMatchObject({ runtimeStatus: 'Completed', output: { sum: 14, approvedBy: 'after-crash' } });
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGKILL');
    }
  }, 120_000); // two tsx child processes: starting them takes seconds when the whole suite loads both cores
});
