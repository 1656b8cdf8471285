import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { app, output } from '@azure/functions';
import { afterAll, describe, expect, it } from 'vitest';
import type { HostLogLevel } from './logger.js';
import { captureApp, captureRegistrations } from './capture.js';

const hostDir = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = join(hostDir, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'capture-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const noop = () => undefined;

describe('captureRegistrations', () => {
  it('captures the sample app with every trigger kind, in registration order', async () => {
    const registrations = await captureRegistrations(() => import('./testapp/index.js'));
    expect(registrations.map((r) => [r.name, r.kind])).toEqual([
      ['getItem', 'httpTrigger'],
      ['putItem', 'httpTrigger'],
      ['purgeItems', 'httpTrigger'],
      ['echo', 'httpTrigger'],
      ['submitOrders', 'httpTrigger'],
      ['processOrder', 'serviceBusTrigger'],
      ['shipBatch', 'serviceBusTrigger'],
      ['poisonWorker', 'serviceBusTrigger'],
      ['shipmentsFeed', 'cosmosDBTrigger'],
      ['heartbeat', 'timerTrigger'],
      ['startupTask', 'timerTrigger'],
      ['square', 'activityTrigger'],
      ['fanOut', 'orchestrationTrigger'],
      ['startFanOut', 'httpTrigger'],
      ['approveOrchestration', 'httpTrigger'],
      ['orchestrationStatus', 'httpTrigger'],
    ]);
    const again = await captureRegistrations(() => import('./testapp/index.js'));
    expect(again.map((r) => r.name)).toEqual(registrations.map((r) => r.name));
    expect(again[0]?.callback).toBe(registrations[0]?.callback);
  });

  it('picks out the trigger binding and keeps the full metadata and the raw callback', async () => {
    const handler = () => ({ status: 204 });
    const out = output.serviceBusQueue({ connection: 'SB', queueName: 'q-out' });
    const [registration] = await captureRegistrations(async () => {
      app.http('captureHttp', { route: 'x/{id}', methods: ['GET'], authLevel: 'function', extraOutputs: [out], handler });
    });
    expect(registration?.trigger).toMatchObject({
      type: 'httpTrigger',
      direction: 'in',
      route: 'x/{id}',
      methods: ['GET'],
      authLevel: 'function',
    });
    expect(registration?.metadata.bindings[out.name]).toMatchObject({ type: 'serviceBus', direction: 'out', queueName: 'q-out' });
    expect(registration?.metadata.bindings.$return).toMatchObject({ type: 'http', direction: 'out' });
    expect(registration?.callback).toBe(handler);
  });

  it('rejects, or with onUnsupportedTrigger skip skips, triggers the host does not serve', async () => {
    const entry = async () => {
      app.storageQueue('captureStorage', { connection: 'S', queueName: 'q', handler: noop });
      app.timer('captureTimerA', { schedule: '0 0 * * * *', handler: noop });
    };
    await expect(captureRegistrations(entry)).rejects.toThrow(/"captureStorage" uses trigger type "queueTrigger"/);
    const messages: string[] = [];
    const logger = { log: (_: string, message: string) => void messages.push(message) };
    const skipped = await captureRegistrations(
      async () => {
        app.storageQueue('captureStorage2', { connection: 'S', queueName: 'q', handler: noop });
        app.timer('captureTimerB', { schedule: '0 0 * * * *', handler: noop });
      },
      { onUnsupportedTrigger: 'skip', logger },
    );
    expect(skipped.map((r) => r.name)).toEqual(['captureTimerB']);
    expect(messages).toEqual([expect.stringMatching(/Skipping function "captureStorage2"/)]);
  });

  it.each([
    [
      'a repeated function name',
      async () => {
        app.timer('captureTwice', { schedule: '0 0 * * * *', handler: noop });
        app.timer('captureTwice', { schedule: '0 0 * * * *', handler: noop });
      },
      /"captureTwice" is registered twice/,
    ],
    ['an entry that registers nothing', async () => ({ nothing: true }), /No function registrations were captured/],
    [
      'an entry that throws',
      async () => {
        throw new Error('entry exploded');
      },
      /entry exploded/,
    ],
  ])('rejects %s', async (_, entry, message) => {
    await expect(captureRegistrations(entry)).rejects.toThrow(message);
  });

  it('runs concurrent captures one at a time, each getting its own registrations', async () => {
    const slow = captureRegistrations(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      app.timer('captureSlow', { schedule: '0 0 * * * *', handler: noop });
    });
    const fast = captureRegistrations(async () => {
      app.timer('captureFast', { schedule: '0 0 * * * *', handler: noop });
    });
    expect([(await slow).map((r) => r.name), (await fast).map((r) => r.name)]).toEqual([['captureSlow'], ['captureFast']]);
  });

  it.each([
    ['no app.setup call', () => undefined, { enableHttpStream: false, capabilities: {} }],
    [
      'app.setup({ enableHttpStream: true, capabilities })',
      () => {
        app.setup({ enableHttpStream: true, capabilities: { Custom: true, Other: 'x' } });
      },
      { enableHttpStream: true, capabilities: { Custom: 'true', Other: 'x' } },
    ],
  ])('records %s as the app setup, logged at debug level only (no warning)', async (_label, setup, expected) => {
    const logged: Array<[HostLogLevel, string]> = [];
    const logger = { log: (level: HostLogLevel, message: string) => void logged.push([level, message]) };
    const captured = await captureApp(
      async () => {
        setup();
        app.timer(`captureSetup${expected.enableHttpStream ? 'On' : 'Off'}`, { schedule: '0 0 * * * *', handler: noop });
      },
      { logger },
    );
    expect(captured.setup).toEqual(expected);
    expect(logged.filter(([level]) => level !== 'debug' && level !== 'trace')).toEqual([]);
  });

  it("captures functions/index.ts with HTTP streaming on, and a second capture of it keeps the app's setup", async () => {
    const first = await captureApp(() => import('../../functions/index.js'));
    const again = await captureApp(() => import('../../functions/index.js'));
    expect([first.setup.enableHttpStream, again.setup, again.registrations.length]).toEqual([
      true,
      first.setup,
      first.registrations.length,
    ]);
    expect(first.registrations.filter((r) => r.trigger.route === 'api/v1/test-cases/export').map((r) => r.kind)).toEqual(['httpTrigger']);
  });

  it('works in a tsx child process (real ESM loader, durable-functions included)', async () => {
    const script = join(scratch, 'capture-script.mts');
    const captureUrl = new URL('./capture.js', import.meta.url).href.replace(/\.js$/, '.ts');
    const appUrl = new URL('./testapp/index.js', import.meta.url).href.replace(/\.js$/, '.ts');
    writeFileSync(
      script,
      `import { captureRegistrations } from ${JSON.stringify(captureUrl)};
       const registrations = await captureRegistrations(() => import(${JSON.stringify(appUrl)}));
       process.stdout.write(JSON.stringify(registrations.map((r) => r.kind)));`,
    );
    const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
    const { stdout } = await promisify(execFile)(tsx, [script], { cwd: repoRoot, timeout: 15_000 });
    expect(new Set(JSON.parse(stdout) as string[])).toEqual(
      new Set(['httpTrigger', 'serviceBusTrigger', 'cosmosDBTrigger', 'timerTrigger', 'activityTrigger', 'orchestrationTrigger']),
    );
  });
});
