/**
 * Micro-benchmark of the local reference heuristic (not a test). Run: `npx tsx lib/judges/localReference/localReferenceJudge.bench.ts`
 */
import { scoreAgainstReference } from '../../metrics/index.js';
import type { JudgeInput } from '../../ports/judge.js';

const long: JudgeInput = {
  question: 'What were the open orders and revenue for ACME in Q3 2024?',
  expected_answer:
    'ACME had 42 open orders at the end of Q3 2024, worth $1,234,567.89 in total. Revenue grew 12.5% to $3.4 million, and 3 orders are overdue by more than 30 days.',
  expected_facts: ['42 open orders', 'worth $1,234,567.89 in total', 'revenue grew 12.5%', '3 orders overdue'],
  actual_answer:
    'At the end of the third quarter of 2024, ACME has 42 open orders with a total value of 1234567.89 dollars. Revenue increased by 12.5 percent to 3.4 million USD. Three orders are overdue (more than 30 days).',
};

const short: JudgeInput = {
  question: 'How many open orders does ACME have?',
  expected_answer: 'ACME has 42 open orders worth $1,234.50 in total.',
  expected_facts: ['42 open orders'],
  actual_answer: 'There are 42 open orders for ACME, totalling 1234.5 dollars.',
};

function bench(name: string, input: JudgeInput, iterations = 200_000): void {
  for (let i = 0; i < 20_000; i++) scoreAgainstReference(input); // warm-up
  const started = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < iterations; i++) sink += scoreAgainstReference(input)!.score;
  const elapsedNs = Number(process.hrtime.bigint() - started);
  console.log(
    `${name}: ${(elapsedNs / iterations / 1000).toFixed(2)} µs/op over ${iterations} ops (score ${(sink / iterations).toFixed(4)})`,
  );
}

bench('one sentence, 1 fact', short);
bench('three sentences, 4 facts', long);
