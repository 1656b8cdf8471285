import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const hostCli = join(projectRoot, 'lib/host/cli-entry.ts');
const COUNT = 40;
const INSTANCE = 'crash-fan-out';
const WEBHOOK = '/runtime/webhooks/durabletask';
/** the durable webhooks need the host's system key, as in Azure */
const DURABLE_KEY = 'crash-test-durable-key';
const KEYED = { 'x-functions-key': DURABLE_KEY };
const dirs: string[] = [];

afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface Child {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

function run(args: string[], dataDir: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: projectRoot,
    env: { ...process.env, EVALP_DATA_DIR: dataDir, EVALP_DURABLE_TASK_KEY: DURABLE_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) process.stderr.write(stderr);
      resolve(code);
    }),
  );
  return { child, lines, exited };
}

async function until<T>(check: () => T | undefined | false, what: string, timeoutInMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutInMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const progress = (child: Child) => child.lines.filter((line) => line.startsWith('progress')).length;

/** Starts a first process, SIGKILLs it after some activities ran, then lets `finish` drive a second one to the end. */
async function crashAndRecover(start: (dir: string) => Promise<Child>, finish: (dir: string) => Promise<string>) {
  const dir = mkdtempSync(join(tmpdir(), 'evalp-durable-crash-'));
  dirs.push(dir);
  const first = await start(dir);
  await until(() => progress(first) >= 10, 'ten activities to start');
  first.child.kill('SIGKILL');
  expect(await first.exited).toBeNull();
  const killedAfter = progress(first);
  expect(killedAfter).toBeLessThan(COUNT);
  const outcome = await finish(dir);

  const db = new Database(join(dir, 'evalplatform.db'), { readonly: true });
  const effects = db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT key) AS keys FROM fx_effects').get();
  const executions = (db.prepare('SELECT COUNT(*) AS n FROM fx_executions').get() as { n: number }).n;
  const leftovers = db.prepare('SELECT (SELECT COUNT(*) FROM dt_work) + (SELECT COUNT(*) FROM dt_inbox) AS n').get();
  db.close();
  expect(effects).toEqual({ n: COUNT, keys: COUNT });
  expect(executions).toBeGreaterThanOrEqual(COUNT);
  expect(leftovers).toEqual({ n: 0 });
  return { outcome, killedAfter, executions };
}

const report = (label: string, r: { killedAfter: number; executions: number }) =>
  process.stdout.write(
    `[crash test, ${label}] killed after ${r.killedAfter} activity starts; ${r.executions} executions for ${COUNT} ` +
      `activities (${r.executions - COUNT} re-executed after restart: at-least-once); every effect applied once\n`,
  );

describe('crash safety: a host process SIGKILLed between activities', () => {
  it('a TaskHub worker completes the fan-out after restart, each effect applied once', async () => {
    const worker = (dir: string) => run([fixture('crashWorker.ts'), dir, String(COUNT)], dir);
    const result = await crashAndRecover(
      async (dir) => worker(dir),
      async (dir) => {
        const second = worker(dir);
        const line = await until(() => second.lines.find((l) => l.startsWith('completed')), 'completion');
        expect(await second.exited).toBe(0);
        return line;
      },
    );
    expect(result.outcome).toBe(`completed Completed ${(COUNT * (COUNT - 1)) / 2}`);
    report('TaskHub worker', result);
  }, 40_000);

  it('the host CLI (lib/host/cli-entry.ts) resumes the orchestration on restart and completes it', async () => {
    const host = async (dir: string) => {
      const child = run([hostCli, '--entry', fixture('crashApp.ts'), '--data-dir', dir, '--port', '0', '--log-level', 'error'], dir);
      const ready = await until(() => child.lines.find((l) => l.startsWith('{"event":"ready"')), 'the host to be ready');
      return { child, url: (JSON.parse(ready) as { url: string }).url };
    };
    const result = await crashAndRecover(
      async (dir) => {
        const { child, url } = await host(dir);
        const started = await fetch(`${url}${WEBHOOK}/orchestrators/crashFanOut/${INSTANCE}`, {
          method: 'POST',
          headers: KEYED,
          body: JSON.stringify({ count: COUNT }),
        });
        expect(started.status).toBe(202);
        return child;
      },
      async (dir) => {
        const { child, url } = await host(dir);
        let status: { runtimeStatus?: string; output?: unknown } = {};
        const deadline = Date.now() + 15_000;
        while (status.runtimeStatus !== 'Completed' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          status = (await (await fetch(`${url}${WEBHOOK}/instances/${INSTANCE}`, { headers: KEYED })).json()) as typeof status;
        }
        child.child.kill('SIGTERM');
        expect(await child.exited).toBe(0);
        return JSON.stringify(status);
      },
    );
    expect(JSON.parse(result.outcome)).toMatchObject({ runtimeStatus: 'Completed', output: (COUNT * (COUNT - 1)) / 2 });
    report('host CLI', result);
  }, 40_000);
});
