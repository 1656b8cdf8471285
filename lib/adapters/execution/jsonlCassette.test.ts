import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlCassette } from './jsonlCassette.js';
import { cassetteEntryFor, type CassetteEntry } from '../../ports/cassette.js';
import { ExecutionConfigurationError } from '../../ports/executionErrors.js';

const AT = new Date('2024-05-01T12:00:00.000Z');
const paris = cassetteEntryFor({ tool_name: 'get_weather', arguments: { units: 'c', city: 'Paris' } }, 200, { temp: 21 }, AT);
const rome = cassetteEntryFor({ tool_name: 'get_weather', arguments: { city: 'Rome' } }, 200, [1, { a: null }], AT);
const line = (entry: unknown) => JSON.stringify(entry);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cassette-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('JsonlCassette', () => {
  it('round-trips appended entries through the file', async () => {
    const path = join(dir, 'nested', 'c.jsonl');
    const cassette = await JsonlCassette.load(path, { createIfMissing: true });
    cassette.append(paris);
    cassette.append(rome);
    expect(readFileSync(path, 'utf8')).toBe(`${line(paris)}\n${line(rome)}\n`);
    const reloaded = await JsonlCassette.load(path);
    expect({ size: reloaded.size, paris: reloaded.get(paris.key), rome: reloaded.get(rome.key) }).toEqual({ size: 2, paris, rome });
    expect(paris.key).toBe('get_weather{"city":"Paris","units":"c"}');
  });

  it('gives each lookup its own entry: a caller that changes one never changes what the next one gets', async () => {
    const path = join(dir, 'c.jsonl');
    writeFileSync(path, `${line(rome)}\n`);
    const cassette = await JsonlCassette.load(path);
    const first = cassette.get(rome.key)!;
    (first.data as unknown[]).push('changed');
    expect(cassette.get(rome.key)).toEqual(rome);
    expect(cassette.get(rome.key)).not.toBe(cassette.get(rome.key));
  });

  it('skips blank lines, accepts CRLF, and lets the last line for a key win', async () => {
    const path = join(dir, 'c.jsonl');
    const newer: CassetteEntry = { ...paris, data: { temp: 25 }, recorded_at: '2024-06-01T00:00:00Z' };
    writeFileSync(path, `${line(paris)}\r\n\r\n${line(rome)}\n   \n${line(newer)}`);
    const cassette = await JsonlCassette.load(path);
    expect({ size: cassette.size, paris: cassette.get(paris.key) }).toEqual({ size: 2, paris: newer });
  });

  it.each([
    ['not JSON', '{"key":', 'line 2: not valid JSON'],
    ['not an entry', line({ ...paris, status: 'ok' }), 'line 2: not a cassette entry: status'],
    ['without data', line({ ...paris, data: undefined }), 'line 2: not a cassette entry: data is required'],
    ['with an unknown field', line({ ...paris, extra: 1 }), 'line 2: not a cassette entry: (line) Unrecognized key: "extra"'],
    [
      'with a key that does not match its call',
      line({ ...paris, key: 'get_weather{"city":"Rome"}' }),
      'line 2: key "get_weather{\\"city\\":\\"Rome\\"}" is not the canonical key of its tool_name and arguments',
    ],
  ])('rejects a line %s, naming the file and line number', async (_, bad, message) => {
    const path = join(dir, 'c.jsonl');
    writeFileSync(path, `${line(rome)}\n${bad}\n${line(paris)}\n`);
    const load = JsonlCassette.load(path);
    await expect(load).rejects.toThrow(ExecutionConfigurationError);
    await expect(JsonlCassette.load(path)).rejects.toThrow(`cassette ${path} ${message}`);
  });

  it('refuses a missing file unless asked to create it', async () => {
    const path = join(dir, 'missing.jsonl');
    await expect(JsonlCassette.load(path)).rejects.toThrow(`cassette ${path} does not exist; record one first (execution.mode "record")`);
    expect((await JsonlCassette.load(path, { createIfMissing: true })).size).toBe(0);
  });
});
