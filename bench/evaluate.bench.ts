/**
 * npm run bench:evaluate [-- --cases N]
 *
 * Generates N synthetic cases (default 400,000; 1-4 calls, 2-8 arguments, some nested) with recorded
 * OpenAI-format outputs, streamed in chunks so memory stays flat, and measures on the same outputs:
 *  - bare parse: JSON.parse of each output, and JSON.parse of each call's argument text (what any scorer must do)
 *  - outer parse: JSON.parse of each output only
 *  - pipeline: evaluateCase (stage 1 parse + catalog validation, stage 2 optimal comparison, verdict, scorecard)
 * It prints cases/s for each, the pipeline/bare ratio (median over chunks), and RSS as it goes.
 */
import { parseArgs } from 'node:util';
import { resolveEvaluationConfig, type TestCase, type ToolCatalog } from '../lib/domain/index.js';
import { evaluateCase, SummaryAccumulator } from '../lib/evaluation/pipeline/index.js';
import { syntheticCases, syntheticCatalog } from './fixtures/syntheticGoldSet.js';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '400000' }, chunk: { type: 'string', default: '10000' } } });
const total = Number(values.cases);
const chunkSize = Number(values.chunk);
const catalog: ToolCatalog = syntheticCatalog();
const config = resolveEvaluationConfig({ profile: 'ci' });
const deps = { catalogFor: (): ToolCatalog => catalog };
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

function bareParse(outputs: string[]): number {
  let sink = 0;
  for (const text of outputs) {
    const msg = JSON.parse(text) as { tool_calls: Array<{ function: { arguments: string } }> };
    for (const call of msg.tool_calls) sink += Object.keys(JSON.parse(call.function.arguments) as object).length;
  }
  return sink;
}

function outerParse(outputs: string[]): number {
  let sink = 0;
  for (const text of outputs) sink += (JSON.parse(text) as { tool_calls: unknown[] }).tool_calls.length;
  return sink;
}

async function pipeline(cases: TestCase[], outputs: string[], summary: SummaryAccumulator): Promise<void> {
  for (let i = 0; i < cases.length; i++) {
    summary.add(await evaluateCase({ runId: 'bench', testCase: cases[i]!, output: outputs[i] }, config, deps));
  }
}

async function main(): Promise<void> {
  const summary = new SummaryAccumulator();
  const gen = syntheticCases(total, 42, catalog);
  let bareMs = 0;
  let outerMs = 0;
  let pipeMs = 0;
  let done = 0;
  const ratios: number[] = [];
  const rssSamples: string[] = [];
  while (done < total) {
    const cases: TestCase[] = [];
    const outputs: string[] = [];
    for (let i = 0; i < chunkSize && done + i < total; i++) {
      const next = gen.next();
      if (next.done) break;
      cases.push(next.value.testCase);
      outputs.push(next.value.outputText);
    }
    let t = performance.now();
    bareParse(outputs);
    const bare = performance.now() - t;
    t = performance.now();
    outerParse(outputs);
    outerMs += performance.now() - t;
    t = performance.now();
    await pipeline(cases, outputs, summary);
    const pipe = performance.now() - t;
    bareMs += bare;
    pipeMs += pipe;
    ratios.push(bare / pipe);
    done += cases.length;
    if (done % Math.max(chunkSize, Math.floor(total / 4 / chunkSize) * chunkSize) === 0 || done === total) {
      rssSamples.push(`${done}: ${mb(process.memoryUsage().rss)}`);
    }
  }
  ratios.sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)]!;
  const rate = (ms: number): string => `${Math.round((done / ms) * 1000).toLocaleString('en-US')} cases/s`;
  const s = summary.summary();
  console.log(`cases                       ${done.toLocaleString('en-US')} (chunks of ${chunkSize})`);
  console.log(`bare JSON.parse (+args)     ${rate(bareMs)}`);
  console.log(`outer JSON.parse only       ${rate(outerMs)}`);
  console.log(`pipeline stages 1-2         ${rate(pipeMs)}   (${((pipeMs * 1000) / done).toFixed(1)} µs/case)`);
  console.log(
    `ratio pipeline/bare         ${(bareMs / pipeMs).toFixed(3)} overall, ${median.toFixed(3)} median over chunks (target >= 0.5)`,
  );
  console.log(`ratio pipeline/outer parse  ${(outerMs / pipeMs).toFixed(3)}`);
  console.log(`pass rate                   ${((s.pass_rate ?? 0) * 100).toFixed(1)}%  (sanity: the synthetic model is ~70% exact)`);
  console.log(`rss while running           ${rssSamples.join('  ')}`);
  console.log(`peak RSS                    ${mb(process.resourceUsage().maxRSS * 1024)}`);
}

await main();
