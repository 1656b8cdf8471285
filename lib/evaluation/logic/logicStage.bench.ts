/**
 * Stage 2 cost against a bare JSON.parse of the same outputs (the budget in DESIGN.md section 9), on the synthetic
 * gold set that `npm run bench:evaluate` uses. Run: npx tsx lib/evaluation/logic/logicStage.bench.ts [cases]
 * Not a test: it prints µs/case (CPU time, best of interleaved rounds) and the median per-round ratio, which
 * holds up on a shared machine better than either time alone.
 */
import { pathToFileURL } from 'node:url';
import { COERCION_POLICIES } from '../../domain/coercionPolicy.js';
import type { TestCase } from '../../domain/testCase.js';
import type { ToolCall } from '../../domain/toolCall.js';
import { syntheticCases, syntheticCatalog } from '../../../bench/fixtures/syntheticGoldSet.js';
import { runLogicStage } from './runLogicStage.js';

interface ChatMessage {
  tool_calls: Array<{ id: string; function: { name: string; arguments: string } }>;
}

function parseCalls(output: string): ToolCall[] {
  const message = JSON.parse(output) as ChatMessage;
  return message.tool_calls.map((c) => ({
    tool_name: c.function.name,
    arguments: JSON.parse(c.function.arguments) as ToolCall['arguments'],
    call_id: c.id,
  }));
}

export function benchLogicStage(count: number, rounds = 30): void {
  const catalog = syntheticCatalog();
  const cases: TestCase[] = [];
  const outputs: string[] = [];
  for (const c of syntheticCases(count, 42, catalog)) {
    cases.push(c.testCase);
    outputs.push(c.outputText);
  }
  const calls = outputs.map(parseCalls);
  const options = { policy: COERCION_POLICIES.default, catalog };
  let sink = 0;
  const runs: Array<[string, () => void]> = [
    ['bare JSON.parse (output + each arguments text)', () => outputs.forEach((o) => (sink += parseCalls(o).length))],
    ['runLogicStage', () => cases.forEach((tc, i) => (sink += runLogicStage(calls[i]!, tc, options).result.score ?? 0))],
  ];
  const best = runs.map(() => Infinity);
  const ratios: number[] = [];
  for (let round = 0; round < rounds + 3; round++) {
    const used = runs.map(([, run]) => {
      const start = process.cpuUsage();
      run();
      const spent = process.cpuUsage(start);
      return spent.user + spent.system;
    });
    if (round < 3) continue; // warm-up
    used.forEach((t, i) => (best[i] = Math.min(best[i]!, t)));
    ratios.push(used[1]! / used[0]!);
  }
  ratios.sort((a, b) => a - b);
  runs.forEach(([label], i) => console.log(`${label.padEnd(48)} ${(best[i]! / count).toFixed(2)} µs/case (best)`));
  console.log(`stage 2 / bare parse: ${ratios[ratios.length >> 1]!.toFixed(2)} median per round  (${count} cases, checksum ${sink})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) benchLogicStage(Number(process.argv[2] ?? 10_000));
