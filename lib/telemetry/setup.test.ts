import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordTasks } from './instruments.js';
import { SPANS, METRICS } from './names.js';
import { ingestionCredential, samplingRatio, startTelemetry, telemetryMode, type TelemetryHandle } from './setup.js';
import { startRunTrace, startSpan } from './spans.js';
import { isMetering, isTracing } from './state.js';
import { startTestTelemetry } from './telemetry.test-helpers.js';

let handle: TelemetryHandle | undefined;
afterEach(async () => {
  await handle?.shutdown();
  handle = undefined;
});

describe('telemetryMode', () => {
  it.each([
    ['nothing set', {}, 'off'],
    ['EVALP_OTEL=off', { EVALP_OTEL: 'off' }, 'off'],
    ['EVALP_OTEL=console', { EVALP_OTEL: 'Console' }, 'console'],
    ['a connection string', { APPLICATIONINSIGHTS_CONNECTION_STRING: 'InstrumentationKey=x', EVALP_OTEL: 'console' }, 'azure-monitor'],
    ['a blank connection string', { APPLICATIONINSIGHTS_CONNECTION_STRING: ' ' }, 'off'],
  ])('%s -> %s', (_name, settings, mode) => {
    expect(telemetryMode(settings)).toBe(mode);
  });

  it('rejects an unknown EVALP_OTEL value, naming the setting', () => {
    expect(() => telemetryMode({ EVALP_OTEL: 'otlp' })).toThrow(/EVALP_OTEL must be "console" or "off", got "otlp"/);
  });

  it.each([
    [undefined, 1],
    ['', 1],
    ['0.25', 0.25],
    ['0', 0],
  ])('sampling ratio %s -> %s', (text, ratio) => {
    expect(samplingRatio(text)).toBe(ratio);
  });

  it.each(['1.5', '-1', 'half'])('rejects sampling ratio %s', (text) => {
    expect(() => samplingRatio(text)).toThrow(/EVALP_OTEL_SAMPLING_RATIO must be a number from 0 to 1/);
  });

  it.each([
    [undefined, undefined],
    ['Authorization=AAD', { clientId: undefined }],
    ['Authorization=AAD;ClientId=1234', { clientId: '1234' }],
  ])('ingestion credential from %s', async (text, expected) => {
    const credential = await ingestionCredential(text);
    if (expected === undefined) expect(credential).toBeUndefined();
    else expect(credential?.constructor.name).toBe('ManagedIdentityCredential');
  });

  it('rejects an authentication string that is not AAD', async () => {
    await expect(ingestionCredential('Authorization=Key')).rejects.toThrow(/must be "Authorization=AAD"/);
  });
});

describe('startTelemetry', () => {
  it('is off by default: nothing registered, nothing recorded', async () => {
    handle = await startTelemetry({});
    expect([handle.mode, isTracing(), isMetering()]).toEqual(['off', false, false]);
    expect(startSpan('x', undefined)).toBeUndefined();
    expect(startRunTrace('run-1')).toBeUndefined();
  });

  it('records spans and metrics to the given processors and readers, once per process, and turns off at shutdown', async () => {
    const test = await startTestTelemetry();
    handle = test.handle;
    expect((await startTelemetry({ EVALP_OTEL: 'console' })).mode).toBe('custom'); // the running one is kept
    const traceparent = startRunTrace('run-1', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    recordTasks('evaluate-cases', 3, 1, 'malformed');
    expect(traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    const [run] = test.spans();
    expect([run?.name, run?.attributes, run?.parentSpanContext?.spanId]).toEqual([
      SPANS.run,
      { 'eval.run_id': 'run-1' },
      'b7ad6b7169203331',
    ]);
    expect((await test.points(METRICS.tasksProcessed)).map((p) => [p.attributes, p.value])).toEqual([
      [{ 'eval.queue': 'evaluate-cases' }, 3],
    ]);
    expect((await test.points(METRICS.tasksFailed)).map((p) => [p.attributes, p.value])).toEqual([
      [{ 'eval.queue': 'evaluate-cases', 'eval.reason': 'malformed' }, 1],
    ]);
    await test.shutdown();
    handle = undefined;
    expect([isTracing(), isMetering()]).toEqual([false, false]);
  });

  it('prints spans with EVALP_OTEL=console', async () => {
    const dir = vi.spyOn(console, 'dir').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      handle = await startTelemetry({ EVALP_OTEL: 'console' });
      expect([handle.mode, isTracing(), isMetering()]).toEqual(['console', true, false]);
      startRunTrace('run-console');
      const printed = [...dir.mock.calls, ...log.mock.calls].map((args) => JSON.stringify(args[0]));
      expect(printed.some((text) => text.includes('"name":"eval.run"') && text.includes('run-console'))).toBe(true);
    } finally {
      dir.mockRestore();
      log.mockRestore();
    }
  });

  it('sends spans and metrics to Application Insights when APPLICATIONINSIGHTS_CONNECTION_STRING is set', async () => {
    // a local ingestion endpoint (the exporter only speaks https: the TLS certificate is @zeit/cosmosdb-server's self-signed one)
    const items: Array<{ name: string; data: { baseType: string; baseData: Record<string, unknown> } }> = [];
    const certDir = 'node_modules/@zeit/cosmosdb-server';
    const server = createServer({ cert: readFileSync(`${certDir}/cert.pem`), key: readFileSync(`${certDir}/key.pem`) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = (body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body).toString('utf8');
        if (req.url === '/v2.1/track') items.push(...(JSON.parse(text) as typeof items));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ itemsReceived: 1, itemsAccepted: 1, errors: [] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const saved = { ...process.env };
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    // no SDK self-telemetry to Microsoft's endpoints (unreachable here)
    process.env.APPLICATIONINSIGHTS_STATSBEAT_DISABLED = 'true';
    process.env.APPLICATIONINSIGHTS_SDKSTATS_DISABLED = 'true';
    try {
      const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      handle = await startTelemetry({
        APPLICATIONINSIGHTS_CONNECTION_STRING: `InstrumentationKey=00000000-0000-0000-0000-000000000001;IngestionEndpoint=${origin};LiveEndpoint=${origin}`,
      });
      expect(handle.mode).toBe('azure-monitor');
      startRunTrace('run-ai');
      recordTasks('judge-cases', 7);
      await handle.forceFlush();
      const span = items.find((i) => i.data.baseData.name === SPANS.run);
      const metric = items.find((i) => JSON.stringify(i.data.baseData).includes(METRICS.tasksProcessed));
      expect(span?.data.baseData.properties).toEqual({ 'eval.run_id': 'run-ai' });
      expect(metric?.data.baseData).toMatchObject({
        metrics: [{ name: METRICS.tasksProcessed, value: 7 }],
        properties: { 'eval.queue': 'judge-cases' },
      });
    } finally {
      for (const name of [
        'NODE_TLS_REJECT_UNAUTHORIZED',
        'APPLICATIONINSIGHTS_STATSBEAT_DISABLED',
        'APPLICATIONINSIGHTS_SDKSTATS_DISABLED',
      ]) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
      await handle?.shutdown();
      handle = undefined;
      server.closeAllConnections();
      server.close();
    }
  });
});
