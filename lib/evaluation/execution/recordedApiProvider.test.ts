import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../domain/index.js';
import { RecordedApiProvider } from './recordedApiProvider.js';
import { HttpApiProvider } from '../../adapters/execution/httpApiProvider.js';
import { JsonlCassette } from '../../adapters/execution/jsonlCassette.js';
import { InMemoryCassette } from '../../ports/cassette.js';
import { ExecutionConfigurationError } from '../../ports/executionErrors.js';
import { sendJson, startJsonApiServer, type JsonApiServer } from '../../adapters/execution/__fixtures__/jsonApiServer.js';
import { TEST_CATALOG } from './__fixtures__/catalog.js';
import { makeCase } from './__fixtures__/testCase.js';

const context = { testCase: makeCase(), expectedIndex: 0 };
const duration = expect.any(Number) as number;
const now = () => new Date('2024-05-01T12:00:00.000Z');
const weather = (args: ToolCall['arguments']): ToolCall => ({ tool_name: 'get_weather', arguments: args });

let server: JsonApiServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

describe('RecordedApiProvider', () => {
  it('records live responses to a JSONL cassette, then replays them with the server gone', async () => {
    server = await startJsonApiServer((req, res) =>
      req.path === '/weather/Oslo' ? sendJson(res, 503, { error: 'busy' }) : sendJson(res, 200, { city: req.path.slice(9), temp: 21 }),
    );
    dir = mkdtempSync(join(tmpdir(), 'recorded-'));
    const path = join(dir, 'weather.jsonl');
    const live = new HttpApiProvider({ baseUrl: server.baseUrl, catalog: TEST_CATALOG });
    const recorder = new RecordedApiProvider({
      cassette: await JsonlCassette.load(path, { createIfMissing: true }),
      mode: 'record',
      live,
      now,
    });

    expect(await recorder.execute(weather({ city: 'Paris', units: 'c' }), context)).toEqual({
      ok: true,
      status: 200,
      data: { city: 'Paris', temp: 21 },
      durationMs: duration,
    });
    expect(await recorder.execute(weather({ city: 'Oslo' }), context)).toMatchObject({
      ok: false,
      errorCode: 'execution_failed',
      status: 503,
    });
    expect(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      {
        key: 'get_weather{"city":"Paris","units":"c"}',
        tool_name: 'get_weather',
        arguments: { city: 'Paris', units: 'c' },
        status: 200,
        data: { city: 'Paris', temp: 21 },
        recorded_at: '2024-05-01T12:00:00.000Z',
      },
    ]);
    await server.close();

    const player = new RecordedApiProvider({ cassette: await JsonlCassette.load(path), mode: 'replay' });
    // argument order does not matter: the key is canonical
    expect(await player.execute(weather({ units: 'c', city: 'Paris' }), context)).toEqual({
      ok: true,
      status: 200,
      data: { city: 'Paris', temp: 21 },
      durationMs: duration,
    });
    expect(await player.execute(weather({ city: 'Oslo' }), context)).toEqual({
      ok: false,
      errorCode: 'no_recording',
      message: 'no recorded response for get_weather{"city":"Oslo"}; record it (execution.mode "record") or check the call\'s arguments',
      durationMs: duration,
    });
  });

  it('treats different argument values as different recordings', async () => {
    const cassette = new InMemoryCassette();
    const live = { kind: 'expected' as const, execute: async () => ({ ok: true as const, status: 200, data: 1, durationMs: 0 }) };
    await new RecordedApiProvider({ cassette, mode: 'record', live, now }).execute(weather({ city: 'Paris', days: 1 }), context);
    const player = new RecordedApiProvider({ cassette, mode: 'replay' });
    expect((await player.execute(weather({ city: 'Paris', days: 1 }), context)).ok).toBe(true);
    expect((await player.execute(weather({ city: 'Paris', days: 1.5 }), context)).ok).toBe(false);
    expect((await player.execute(weather({ city: 'paris', days: 1 }), context)).ok).toBe(false);
  });

  it('truncates a very long key in the no_recording message', async () => {
    const player = new RecordedApiProvider({ cassette: new InMemoryCassette(), mode: 'replay' });
    const response = await player.execute(weather({ city: 'x'.repeat(1000) }), context);
    expect(response.ok ? '' : response.message).toBe(
      `no recorded response for get_weather{"city":"${'x'.repeat(300 - 20)}…; record it (execution.mode "record") or check the call's arguments`,
    );
  });

  it('requires a live provider in record mode', () => {
    expect(() => new RecordedApiProvider({ cassette: new InMemoryCassette(), mode: 'record' })).toThrow(ExecutionConfigurationError);
  });

  it('rethrows an abort before looking anything up', async () => {
    const player = new RecordedApiProvider({ cassette: new InMemoryCassette(), mode: 'replay' });
    await expect(player.execute(weather({ city: 'Paris' }), { ...context, abortSignal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
