import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExecutionConfigSchema, type ExecutionConfig } from '../domain/index.js';
import { createApiProvider, type ApiProviderDeps } from './createApiProvider.js';
import { cassetteEntryFor, InMemoryCassette } from '../ports/cassette.js';
import { ExecutionConfigurationError } from '../ports/executionErrors.js';
import { TEST_CATALOG } from '../evaluation/execution/__fixtures__/catalog.js';
import { makeCase } from '../evaluation/execution/__fixtures__/testCase.js';

const config = (input: Partial<ExecutionConfig>): ExecutionConfig => ExecutionConfigSchema.parse({ enabled: true, ...input });
const context = { testCase: makeCase(), expectedIndex: 0 };
const paris = { tool_name: 'get_weather', arguments: { city: 'Paris' } };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'factory-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('createApiProvider', () => {
  it.each<[string, Partial<ExecutionConfig>, ApiProviderDeps, string]>([
    ['http', { provider: 'http', base_url: 'http://127.0.0.1:1' }, { catalog: TEST_CATALOG }, 'http'],
    ['expected', { provider: 'expected' }, {}, 'expected'],
    ['recorded replay with a given cassette', { provider: 'recorded' }, { cassette: new InMemoryCassette() }, 'recorded'],
    [
      'recorded record',
      { provider: 'recorded', mode: 'record', base_url: 'http://127.0.0.1:1' },
      { catalog: TEST_CATALOG, cassette: new InMemoryCassette() },
      'recorded',
    ],
  ])('builds the %s provider', async (_, input, deps, kind) => {
    expect((await createApiProvider(config(input), deps)).kind).toBe(kind);
  });

  it('loads the cassette from cassette_path in replay mode', async () => {
    const path = join(dir, 'c.jsonl');
    writeFileSync(path, `${JSON.stringify(cassetteEntryFor(paris, 200, { temp: 1 }, new Date(0)))}\n`);
    const provider = await createApiProvider(config({ provider: 'recorded', cassette_path: path }));
    expect(await provider.execute(paris, context)).toMatchObject({ ok: true, status: 200, data: { temp: 1 } });
  });

  it.each<[string, Partial<ExecutionConfig>, ApiProviderDeps, string]>([
    ['http without base_url', { provider: 'http' }, { catalog: TEST_CATALOG }, 'execution.base_url is required by the http provider'],
    [
      'http without a catalog',
      { provider: 'http', base_url: 'http://x' },
      {},
      'a tool catalog with http mappings is required by the http provider',
    ],
    ['recorded without a cassette', { provider: 'recorded' }, {}, 'execution.cassette_path is required by the recorded provider'],
    [
      'record mode without base_url',
      { provider: 'recorded', mode: 'record' },
      { catalog: TEST_CATALOG },
      'execution.base_url is required by the recorded provider in record mode',
    ],
  ])('throws a configuration error for %s', async (_, input, deps, message) => {
    const create = createApiProvider(config(input), deps);
    await expect(create).rejects.toThrow(ExecutionConfigurationError);
    await expect(createApiProvider(config(input), deps)).rejects.toThrow(message);
  });

  it('fails on a missing cassette file in replay mode but starts one in record mode', async () => {
    const path = join(dir, 'new', 'c.jsonl');
    await expect(createApiProvider(config({ provider: 'recorded', cassette_path: path }))).rejects.toThrow('does not exist');
    const recorder = await createApiProvider(
      config({ provider: 'recorded', mode: 'record', cassette_path: path, base_url: 'http://127.0.0.1:1' }),
      { catalog: TEST_CATALOG },
    );
    expect(recorder.kind).toBe('recorded');
  });
});
