import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from './packageRoot.js';

const root = packageRoot();
const children: ChildProcess[] = [];
const ROWS = 20_000;
/** A generated gold file of ROWS cases whose ids start with `prefix` (one prefix per trial, so each starts from nothing). */
const bodyOf = (prefix: string): string =>
  Array.from({ length: ROWS }, (_, i) =>
    JSON.stringify({ id: `${prefix}${i}`, nl_query: `generated question ${i}`, expected_tool_calls: [] }),
  ).join('\n');

async function startPlatform(dataDir: string): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'lib/app/__fixtures__/importServer.ts'), '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, EVALP_DEMO: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the platform did not start: ${stderr.slice(-2000)}`)), 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"event":"ready"')) {
        clearTimeout(timer);
        resolve(line);
      }
    });
  });
  const { url, key } = JSON.parse(ready) as { url: string; key: string };
  return { child, url, key };
}

const importCases = (url: string, key: string, body: string): Promise<Response> =>
  fetch(`${url}/api/v1/test-cases/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
    body,
  });

/** Cases stored, read from the database file the way the platform stores them (a separate read-only connection). */
function storedCount(dataDir: string, prefix: string): number {
  const db = new Database(join(dataDir, 'evalplatform.db'), { readonly: true, fileMustExist: true });
  try {
    const exists = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'st_test_cases'").get() as { n: number };
    return exists.n === 0
      ? 0
      : (db.prepare('SELECT count(*) AS n FROM st_test_cases WHERE substr(id, 1, ?) = ?').get(prefix.length, prefix) as { n: number }).n;
  } finally {
    db.close();
  }
}

const kill = async (child: ChildProcess): Promise<void> => {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
};

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('crash-atomic import (a real child process, SIGKILL mid-import)', () => {
  it(`leaves nothing or all ${ROWS} rows after a SIGKILL at any point, and re-sending gives the same result`, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'evalp-import-crash-'));
    const outcomes: number[] = [];
    try {
      // kill points: as soon as a first row is visible to another connection (the old per-5,000 batches showed
      // 5,000 here), and at fixed delays after the request went out (before, during and around the write)
      const killPoints: Array<'first-row' | number> = ['first-row', 300, 700, 'first-row'];
      let platform = await startPlatform(dataDir);
      for (const [trial, point] of killPoints.entries()) {
        const prefix = `crash-t${trial}-`;
        const request = importCases(platform.url, platform.key, bodyOf(prefix)).catch(() => undefined);
        if (point === 'first-row') {
          const deadline = Date.now() + 30_000;
          while (storedCount(dataDir, prefix) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
        } else await new Promise((r) => setTimeout(r, point));
        await kill(platform.child);
        await request;
        const count = storedCount(dataDir, prefix);
        outcomes.push(count);
        expect([0, ROWS], `after a SIGKILL at ${point}: ${count} rows`).toContain(count);
        platform = await startPlatform(dataDir);
        // the restarted platform sees the same: the import is there whole or not at all
        const listed = await fetch(`${platform.url}/api/v1/test-cases/${prefix}${ROWS - 1}`, {
          headers: { authorization: `Bearer ${platform.key}` },
        });
        expect(listed.status).toBe(count === ROWS ? 200 : 404);
      }
      // re-sending each import after its crash: everything, once, whether the crash kept it or not
      for (const trial of killPoints.keys()) {
        const answer = await importCases(platform.url, platform.key, bodyOf(`crash-t${trial}-`));
        expect(answer.status).toBe(200);
        expect(((await answer.json()) as { imported: number }).imported).toBe(ROWS);
        expect(storedCount(dataDir, `crash-t${trial}-`)).toBe(ROWS);
      }
      const one = await fetch(`${platform.url}/api/v1/test-cases/crash-t0-19999`, { headers: { authorization: `Bearer ${platform.key}` } });
      expect(((await one.json()) as { nl_query: string }).nl_query).toBe('generated question 19999');
      await kill(platform.child);
      console.log(`import crash trials: rows after each SIGKILL ${outcomes.join(', ')}`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
