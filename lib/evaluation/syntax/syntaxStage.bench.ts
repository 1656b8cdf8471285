/**
 * Stage 1 throughput against a bare JSON.parse of the same outputs (the budget in DESIGN.md section 9).
 * Run: npx tsx lib/evaluation/syntax/syntaxStage.bench.ts [cases]
 * Not a test: it prints rates and ratios; nothing runs at import.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { ToolCatalog } from '../../domain/toolCatalog.js';
import { parseToolCalls } from './parseToolCalls.js';
import { runSyntaxStage } from './runSyntaxStage.js';

const TOOLS = ['get_orders', 'get_weather', 'search_products', 'create_ticket'];
const WORDS = ['waterproof', 'trail', 'running', 'shoes', 'for', 'women', 'size', '38', 'under', '120', 'euros'];
const KEYS = ['customer_id', 'limit', 'status', 'city', 'query', 'max_price', 'in_stock', 'tags', 'since', 'priority'];

/** Deterministic outputs shaped like the production mix: ~500 characters, 1-4 calls, 2-8 arguments. */
export function makeOutputs(count: number, seed = 42): string[] {
  let state = seed >>> 0;
  const rand = (n: number): number => {
    // mulberry32: small, fast, and its low bits are not periodic like an LCG's
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0;
  };
  const value = (key: string): unknown => {
    switch (key) {
      case 'limit':
        return 1 + rand(100);
      case 'max_price':
        return rand(10000) / 100;
      case 'in_stock':
        return rand(2) === 0;
      case 'tags':
        return ['new', 'sale', 'eu'].slice(0, 1 + rand(3));
      case 'query':
        return WORDS.slice(rand(3), 5 + rand(7)).join(' ');
      default:
        return `${key.slice(0, 4)}-${rand(1e9).toString(36)}-${rand(1e9).toString(36)}`;
    }
  };
  const outputs: string[] = [];
  for (let i = 0; i < count; i++) {
    const calls = [1, 1, 1, 2, 2, 3, 4][rand(7)] as number;
    const perCall = 2 + rand(calls > 2 ? 3 : 7);
    const toolCalls = [];
    for (let c = 0; c < calls; c++) {
      const args: Record<string, unknown> = {};
      const first = rand(KEYS.length);
      for (let a = 0; a < perCall; a++) {
        const key = KEYS[(first + a) % KEYS.length] as string;
        args[key] = value(key);
      }
      toolCalls.push({
        id: `call_${rand(1e9).toString(36)}${rand(1e9).toString(36)}`,
        type: 'function',
        function: { name: TOOLS[rand(TOOLS.length)], arguments: JSON.stringify(args) },
      });
    }
    outputs.push(JSON.stringify({ role: 'assistant', content: null, tool_calls: toolCalls }));
  }
  return outputs;
}

const catalog: ToolCatalog = {
  name: 'bench',
  tool_schema_version: '1',
  tools: TOOLS.map((name) => ({
    name,
    description: '',
    parameters: {
      type: 'object',
      properties: {
        customer_id: { type: 'string' },
        limit: { type: 'integer', minimum: 1 },
        status: { type: 'string' },
        city: { type: 'string' },
        query: { type: 'string' },
        max_price: { type: 'number' },
        in_stock: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        since: { type: 'string' },
        priority: { type: 'string' },
      },
      additionalProperties: false,
    },
  })),
};

/** Best-of-rounds time (ms) of each runner over every output; rounds interleave runners so load hits all alike. */
function bestTimes(
  outputs: readonly string[],
  runners: Record<string, (output: string) => unknown>,
  rounds: number,
): Record<string, number> {
  const best: Record<string, number> = {};
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(runners)) {
      const started = performance.now();
      for (const output of outputs) if (fn(output) !== undefined) sink++;
      best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, performance.now() - started);
    }
  }
  if (sink < 0) console.log(sink);
  return best;
}

/** Parse the output and every argument string: the least any parser of this format must do. */
function parseOutputAndArguments(output: string): unknown {
  const message = JSON.parse(output) as { tool_calls: { function: { arguments: string } }[] };
  for (const call of message.tool_calls) JSON.parse(call.function.arguments);
  return message;
}

export type BenchReport = Record<string, { us_per_case: number; ratio_to_json_parse: number; ratio_to_parse_with_arguments: number }>;

export function benchmarkSyntaxStage(count: number, rounds = 9): BenchReport {
  const outputs = makeOutputs(count);
  const meanChars = outputs.reduce((n, o) => n + o.length, 0) / outputs.length;
  console.log(`${count} outputs, mean ${meanChars.toFixed(0)} characters, best of ${rounds} interleaved rounds`);
  const runners: Record<string, (output: string) => unknown> = {
    'JSON.parse (bare)': (o) => JSON.parse(o),
    'JSON.parse output + arguments': parseOutputAndArguments,
    parseToolCalls: (o) => parseToolCalls(o),
    'runSyntaxStage, no catalog': (o) => runSyntaxStage(o),
    'runSyntaxStage, catalog': (o) => runSyntaxStage(o, { catalog }),
  };
  bestTimes(outputs.slice(0, 5000), runners, 3); // warm up the JIT
  const best = bestTimes(outputs, runners, rounds);
  const bare = best['JSON.parse (bare)'] as number;
  const withArguments = best['JSON.parse output + arguments'] as number;
  const report: BenchReport = {};
  for (const [name, ms] of Object.entries(best)) {
    report[name] = {
      us_per_case: Number(((ms * 1000) / count).toFixed(2)),
      ratio_to_json_parse: Number((bare / ms).toFixed(2)),
      ratio_to_parse_with_arguments: Number((withArguments / ms).toFixed(2)),
    };
  }
  return report;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(benchmarkSyntaxStage(Number(process.argv[2] ?? 50_000)));
}
