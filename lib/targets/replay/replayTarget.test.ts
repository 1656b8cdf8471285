import { mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TargetConfigurationError } from '../errors.js';
import { testCase } from '../testing/testCases.test-helpers.js';
import { loadReplayIndex } from './replayIndex.js';
import { ReplayOutputsCache } from './replayOutputsCache.js';
import { ReplayTarget } from './replayTarget.js';

let dir: string;
let cache: ReplayOutputsCache;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'replay-target-'));
  cache = new ReplayOutputsCache({ reloadCheckIntervalInMs: 0 });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const MESSAGE = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
};

function write(name: string, lines: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

function target(name = 'outputs.jsonl') {
  return new ReplayTarget({ kind: 'replay', outputs_path: name }, { baseDir: dir, targetId: 'gpt-replay', cache });
}

describe('ReplayTarget', () => {
  it('returns the recorded output, latency, tokens, cost and model of a case (hit)', async () => {
    write('outputs.jsonl', [
      {
        test_case_id: 'tc-1',
        output: MESSAGE,
        latency_ms: 812.5,
        input_tokens: 310,
        output_tokens: 42,
        cost_usd: 0.0012,
        model: 'gpt-4o-2024-08-06',
      },
      {
        test_case_id: 'tc-2',
        output: 'It is sunny.',
        client_version: 'v7',
        agent: 'weather',
        routing_reason: 'mentions weather',
        api_calls_made: 2,
      },
    ]);
    const replay = target();
    expect(await replay.invoke(testCase('tc-1'))).toEqual({
      ok: true,
      output: MESSAGE,
      latency_ms: 812.5,
      input_tokens: 310,
      output_tokens: 42,
      cost_usd: 0.0012,
      client_version: 'gpt-4o-2024-08-06',
      api_calls_made: 0,
      attempts: 1,
    });
    expect(await replay.invoke(testCase('tc-2'))).toEqual({
      ok: true,
      output: 'It is sunny.',
      latency_ms: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      client_version: 'v7',
      agent: 'weather',
      routing_reason: 'mentions weather',
      api_calls_made: 2,
      attempts: 1,
    });
  });

  it('a case without a line is target_error naming the case and the file (miss)', async () => {
    const path = write('outputs.jsonl', [{ test_case_id: 'tc-1', output: 'x' }]);
    expect(await target().invoke(testCase('tc-404'))).toEqual({
      ok: false,
      error_code: 'target_error',
      message: `no recorded output for test case tc-404 in ${path}`,
      latency_ms: 0,
      attempts: 1,
    });
  });

  it('reloads the file when it changes', async () => {
    const path = write('outputs.jsonl', [{ test_case_id: 'tc-1', output: 'first' }]);
    const replay = target();
    expect(await replay.invoke(testCase('tc-1'))).toMatchObject({ ok: true, output: 'first' });
    write('outputs.jsonl', [
      { test_case_id: 'tc-1', output: 'second' },
      { test_case_id: 'tc-3', output: 'new' },
    ]);
    const later = new Date(Date.now() + 5000);
    utimesSync(path, later, later);
    expect(await replay.invoke(testCase('tc-1'))).toMatchObject({ ok: true, output: 'second' });
    expect(await replay.invoke(testCase('tc-3'))).toMatchObject({ ok: true, output: 'new' });
  });

  it('does not look at the file again within the reload check interval (a file replaced by rename is served from the open one)', async () => {
    let time = 0;
    const slowCache = new ReplayOutputsCache({ reloadCheckIntervalInMs: 1000, now: () => time });
    const path = write('outputs.jsonl', [{ test_case_id: 'tc-1', output: 'first' }]);
    const replay = new ReplayTarget({ kind: 'replay', outputs_path: path }, { cache: slowCache });
    await replay.invoke(testCase('tc-1'));
    renameSync(write('next.jsonl', [{ test_case_id: 'tc-1', output: 'changed size' }]), path);
    time = 999;
    expect(await replay.invoke(testCase('tc-1'))).toMatchObject({ output: 'first' });
    time = 1000;
    expect(await replay.invoke(testCase('tc-1'))).toMatchObject({ output: 'changed size' });
  });

  it('a file rewritten in place within the interval: never a torn line; a line no longer where the index has it is indexed again', async () => {
    let time = 0;
    const slowCache = new ReplayOutputsCache({ reloadCheckIntervalInMs: 1000, now: () => time });
    // tc-1's line is longer than a read block, so it is read from the file each time; tc-2's comes from the block
    const long = 'l'.repeat(20_000);
    const path = write('outputs.jsonl', [
      { test_case_id: 'tc-1', output: long },
      { test_case_id: 'tc-2', output: 'second' },
    ]);
    const replay = new ReplayTarget({ kind: 'replay', outputs_path: path }, { cache: slowCache });
    expect(await replay.invoke(testCase('tc-2'))).toMatchObject({ ok: true, output: 'second' });
    write('outputs.jsonl', [
      { test_case_id: 'tc-1', output: `${long}, now longer` },
      { test_case_id: 'tc-2', output: 'second, changed' },
    ]);
    time = 10;
    // the block read before the change: the old line, whole
    expect(await replay.invoke(testCase('tc-2'))).toMatchObject({ ok: true, output: 'second' });
    // read from the file: not a whole tc-1 line where the index has it, so the file is indexed again
    expect(await replay.invoke(testCase('tc-1'))).toMatchObject({ ok: true, output: `${long}, now longer` });
    expect(await replay.invoke(testCase('tc-2'))).toMatchObject({ ok: true, output: 'second, changed' });
  });

  it('indexes a file across its read chunks (1 MiB) and a line longer than a chunk, and reads each line back whole', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => ({ test_case_id: `tc-${i}`, output: 'x'.repeat(600) + i }));
    lines.splice(1500, 0, { test_case_id: 'huge', output: 'y'.repeat(1_500_000) });
    const path = write('big.jsonl', lines);
    const index = await loadReplayIndex(path);
    try {
      expect(index.count).toBe(3001);
      for (const i of [0, 1499, 1500, 1501, 2999])
        expect(index.line(`tc-${i}`)).toBe(JSON.stringify(lines.find((l) => l.test_case_id === `tc-${i}`)));
      expect(index.line('huge')).toBe(JSON.stringify(lines[1500]));
      expect(index.line('nope')).toBeUndefined();
    } finally {
      index.close();
    }
  });

  it('loads a file once for every invoker of the process (shared by path), and each call gets its own output object', async () => {
    write('outputs.jsonl', [{ test_case_id: 'tc-1', output: MESSAGE }]);
    const a = target();
    const b = new ReplayTarget({ kind: 'replay', outputs_path: join(dir, 'outputs.jsonl') }, { cache });
    const [first, second] = await Promise.all([a.invoke(testCase('tc-1')), b.invoke(testCase('tc-1'))]);
    expect(cache.lookup(a.path)).toBe(cache.lookup(b.path));
    expect(first).toEqual(second);
    expect(first.ok && second.ok && first.output !== second.output).toBe(true); // no shared mutable state
  });

  it('reads CRLF, blank lines, other key orders and numeric ids; the last line of an id wins', async () => {
    const lines = [
      JSON.stringify({ test_case_id: 'a', output: 'old' }),
      '',
      JSON.stringify({ output: 'key order', test_case_id: 'b' }),
      JSON.stringify({ test_case_id: 17, output: 'numeric id' }),
      JSON.stringify({ test_case_id: 'quote"id', output: 'escaped id' }),
      JSON.stringify({ test_case_id: 'a', output: 'new' }),
    ];
    writeFileSync(join(dir, 'outputs.jsonl'), lines.join('\r\n'));
    const replay = target();
    await expect(replay.load()).resolves.toBe(4);
    const outputs = await Promise.all(
      ['a', 'b', '17', 'quote"id'].map(async (id) => {
        const r = await replay.invoke(testCase(id));
        return r.ok ? r.output : r.message;
      }),
    );
    expect(outputs).toEqual(['new', 'key order', 'numeric id', 'escaped id']);
  });

  it('counts unreadable lines and mentions them on a miss', async () => {
    const path = write('outputs.jsonl', ['not json', '{"output": "no id"}', { test_case_id: 'ok', output: 1 }]);
    expect(await target().invoke(testCase('gone'))).toMatchObject({
      ok: false,
      message: `no recorded output for test case gone in ${path} (2 lines of the file could not be read, the first at line 1)`,
    });
  });

  it.each([
    ['{"test_case_id":"x", "output": ', /test case x in .* is not valid JSON/],
    ['{"test_case_id":"x","latency_ms":"slow"}', /latency_ms must be a non-negative number, got "slow"/],
    ['{"test_case_id":"x","input_tokens":-1}', /input_tokens must be a non-negative integer, got -1/],
    ['{"test_case_id":"x","output_tokens":1.5}', /output_tokens must be a non-negative integer, got 1.5/],
    ['{"test_case_id":"x","cost_usd":"free"}', /cost_usd must be a non-negative number/],
    ['{"test_case_id":"x","model":42}', /model must be a string, got 42/],
    ['{"test_case_id":"x","error":42}', /error must be a string or/],
    ['{"test_case_id":"x","test_case_id":"y"}', /the line's test_case_id is "y"/],
  ])('a bad recorded line is target_error, not a crash: %s', async (line, message) => {
    write('outputs.jsonl', [line]);
    const result = await target().invoke(testCase('x'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it.each([
    [{ error: 'HTTP 503 from upstream' }, 'target_error', 'recorded failure: HTTP 503 from upstream'],
    [
      { error: { code: 'target_timeout', message: 'no answer in 30 s' }, latency_ms: 30000 },
      'target_timeout',
      'recorded failure: no answer in 30 s',
    ],
  ])('replays a recorded failure %j', async (fields, code, message) => {
    write('outputs.jsonl', [{ test_case_id: 'x', ...fields }]);
    expect(await target().invoke(testCase('x'))).toEqual({
      ok: false,
      error_code: code,
      message,
      latency_ms: 'latency_ms' in fields ? fields.latency_ms : 0,
      attempts: 1,
    });
  });

  it('a missing file is a TargetConfigurationError naming settings.outputs_path; it works once the file appears', async () => {
    const replay = target('later.jsonl');
    const error = await replay.invoke(testCase('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetConfigurationError);
    expect(error).toMatchObject({
      setting: 'settings.outputs_path',
      message: `target gpt-replay: replay outputs file ${join(dir, 'later.jsonl')} does not exist`,
    });
    write('later.jsonl', [{ test_case_id: 'x', output: 'here' }]);
    expect(await replay.invoke(testCase('x'))).toMatchObject({ ok: true, output: 'here' });
  });

  it('keeps serving the loaded file when it disappears', async () => {
    const path = write('outputs.jsonl', [{ test_case_id: 'x', output: 'kept' }]);
    const replay = target();
    await replay.load();
    rmSync(path);
    expect(await replay.invoke(testCase('x'))).toMatchObject({ ok: true, output: 'kept' });
  });

  it("rethrows the caller's abort reason", async () => {
    write('outputs.jsonl', [{ test_case_id: 'x', output: 'x' }]);
    const reason = new Error('cancelled');
    await expect(target().invoke(testCase('x'), { abortSignal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});
