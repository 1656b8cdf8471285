/**
 * Graceful stop under a slow target: invocations wait behind the target's rate limiter and on answers that never
 * come, yet `stop()` returns within its 10 s budget (it waited ~30 s and more before); the unfinished work is given
 * back to the queue, not lost.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createApiKey } from '../api/index.js';
import { ROLES } from '../domain/index.js';
import { silentLogger } from '../host/index.js';
import { startEmbeddedPlatform } from '../platform/embedded.js';

it('stops within 10 s while a slow target holds invocations (rate limiter and unanswered requests)', async () => {
  const hanging: ServerResponse[] = [];
  let received = 0;
  const target = createServer((_req: IncomingMessage, res) => {
    received++;
    hanging.push(res); // never answers
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const dataDir = await mkdtemp(join(tmpdir(), 'evalp-shutdown-'));
  const platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
  try {
    const { key } = await createApiKey(platform.services.apiKeys, { name: 'shutdown', roles: [...ROLES] }, platform.services.clock);
    const questions = Array.from({ length: 20 }, (_, i) => ({ question: `generated question ${i}`, expected_outcome: { response: 'ok' } }));
    const started = await fetch(`${platform.url}/api/evaluate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target_url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/ask`, questions }),
    });
    expect(started.status).toBe(202);
    const deadline = Date.now() + 15_000;
    while (received === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(received).toBeGreaterThan(0);
    const stopping = Date.now();
    await platform.stop();
    const took = Date.now() - stopping;
    console.log(`graceful stop with a hanging target: ${took} ms`);
    expect(took).toBeLessThan(11_000); // the 10 s budget, plus closing the listener and the database
  } finally {
    for (const res of hanging) res.destroy();
    await new Promise<void>((resolve) => target.close(() => resolve()));
    await platform.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}, 40_000);
