/**
 * `npx tsx lib/targets/replay/replayTarget.bench.ts [cases]` (default 400,000): writes a replay outputs file of
 * OpenAI assistant messages (~500 characters each), then measures the load, the memory it holds, and µs per
 * invoke (sequential awaits, and batches of 256 concurrent invokes as a worker would issue them).
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestCaseSchema, type TestCase } from '../../domain/index.js';
import { ReplayOutputsCache } from './replayOutputsCache.js';
import { ReplayTarget } from './replayTarget.js';

const cases = Number(process.argv[2] ?? 400_000);
const dir = mkdtempSync(join(tmpdir(), 'replay-bench-'));
const path = join(dir, 'outputs.jsonl');

function line(i: number): string {
  const args = JSON.stringify({ customer_id: `CUST-${i % 9973}`, status: 'open', limit: 25, since: '2025-01-01', region: 'emea' });
  const output = {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: `call_${i}_a`, type: 'function', function: { name: 'orders.search', arguments: args } },
      {
        id: `call_${i}_b`,
        type: 'function',
        function: { name: 'customers.get', arguments: JSON.stringify({ customer_id: `CUST-${i % 9973}` }) },
      },
    ],
  };
  return JSON.stringify({
    test_case_id: `case-${i}`,
    output,
    latency_ms: 400 + (i % 900),
    input_tokens: 300 + (i % 50),
    output_tokens: 40,
    cost_usd: 0.0011,
    model: 'gpt-4o-2024-08-06',
  });
}

const chunks: string[] = [];
for (let i = 0; i < cases; i++) chunks.push(line(i));
writeFileSync(path, chunks.join('\n') + '\n');
chunks.length = 0;
const bytes = statSync(path).size;

const testCases: TestCase[] = [];
for (let i = 0; i < cases; i++) testCases.push(TestCaseSchema.parse({ id: `case-${i}`, nl_query: 'q', expected_tool_calls: [] }));

global.gc?.();
const before = process.memoryUsage();
const cache = new ReplayOutputsCache();
const target = new ReplayTarget({ kind: 'replay', outputs_path: path }, { cache });
let t = performance.now();
await target.load();
const loadMs = performance.now() - t;
global.gc?.();
const after = process.memoryUsage();

let ok = 0;
t = performance.now();
for (const tc of testCases) if ((await target.invoke(tc)).ok) ok++;
const sequentialUs = ((performance.now() - t) * 1000) / cases;

t = performance.now();
for (let i = 0; i < cases; i += 256) {
  const batch = await Promise.all(testCases.slice(i, i + 256).map((tc) => target.invoke(tc)));
  for (const r of batch) if (r.ok) ok++;
}
const batchedUs = ((performance.now() - t) * 1000) / cases;

const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
console.log(
  JSON.stringify(
    {
      cases,
      file: mb(bytes),
      mean_line_chars: Math.round(bytes / cases),
      load_ms: Math.round(loadMs),
      load_us_per_line: +((loadMs * 1000) / cases).toFixed(2),
      held_heap: mb(after.heapUsed - before.heapUsed),
      held_rss: mb(after.rss - before.rss),
      invoke_us_sequential: +sequentialUs.toFixed(2),
      invoke_us_batched_256: +batchedUs.toFixed(2),
      ok: ok / 2,
    },
    null,
    1,
  ),
);
rmSync(dir, { recursive: true, force: true });
