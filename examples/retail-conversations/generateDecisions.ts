/**
 * Writes examples/retail-conversations/decisions.jsonl: the GENERATED behaviour of two SIMULATED models
 * (`simulated-model-a`, `simulated-model-b`; no real model) on the cases of cases.jsonl, served by the scripted model
 * server of examples/retail-mcp (scriptedModelServer.ts). Deterministic (no randomness):
 * `npx tsx examples/retail-conversations/generateDecisions.ts`.
 *
 * Both models start from each case's gold (one call per model turn; a `$from` argument is filled in by the server from
 * what the environment actually returned) and then make the mistakes of MISTAKES, each on a fixed set of cases.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExpectedToolCall, JsonValue, TestCase } from '../../lib/domain/index.js';
import { startEnvironment, type RetailState } from '../../lib/environments/index.js';
import type { Decision, ScriptedCall, ScriptedReply } from '../retail-mcp/decisions.js';
import { generatedCases } from './generateCases.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'decisions.jsonl');
const state = startEnvironment('retail', 'default').state() as unknown as RetailState;
const customerIds = Object.keys(state.customers).sort();

export const MODELS = ['simulated-model-a', 'simulated-model-b'] as const;
export type SimulatedModel = (typeof MODELS)[number];

/** The mistake catalogue: which simulated model makes which mistake on which cases, and the check meant to catch it. */
export const MISTAKES = {
  stale_id: {
    model: 'simulated-model-b',
    what: 'passes a stale id (the previous customer in the list; for "refund what is left" the order total) instead of the value the earlier call returned',
    check: 'data_flow_mismatch',
    cases: [
      'chain-orders-CUS-1002',
      'chain-orders-CUS-1004',
      'chain-delivered-CUS-1002',
      'chain-delivered-CUS-1004',
      'ticket-CUS-1002',
      'ticket-CUS-1004',
      'conv-refund-item-ORD-5004',
      'refund-rest-ORD-5004',
    ],
  },
  skips_clarification: {
    model: 'simulated-model-b',
    what: 'guesses and calls when a parameter is missing (a missing-parameter case, or the first turn of a clarify-then-act conversation)',
    check: 'called_instead_of_clarifying',
    cases: [
      'missing-refund-order',
      'missing-reserve-quantity',
      'missing-ticket-customer',
      'conv-clarify-refund-ORD-5001',
      'conv-clarify-refund-ORD-5004',
      'conv-clarify-reserve-SKU-MUG',
    ],
  },
  no_retry: {
    model: 'simulated-model-b',
    what: 'does not retry the refund after the scripted 503 and says it is done',
    check: 'missing_recovery',
    cases: ['refund-flaky-ORD-5001', 'refund-flaky-ORD-5004', 'conv-refund-flaky-ORD-5004'],
  },
  stale_refundable: {
    model: 'simulated-model-b',
    what: 'answers from stale state: asked in turn 2 to refund what is still refundable, it looks the order up but refunds what was refundable BEFORE its own turn-1 refund',
    // only a session that carries turn 1's refund shows it: turn 2's lookup returns the lower figure the model ignored
    check: 'data_flow_mismatch',
    cases: ['conv-refund-then-rest-ORD-5001', 'conv-refund-then-rest-ORD-5007'],
  },
  repeats_mutation: {
    model: 'simulated-model-b',
    what: 'repeats the mutation: asked in turn 2 to make its turn-1 reservation of 2 units "3 in total", it reserves 3 more',
    // stage 2 accepts 1 to 3 units; the state after turns 1-2 (5 reserved, not 3) does not
    check: 'state_mismatch',
    cases: ['conv-reserve-more-SKU-MUG', 'conv-reserve-more-SKU-TEA'],
  },
  whole_order_refund: {
    model: 'simulated-model-b',
    what: 'refunds the whole order when asked to refund one item of a two-item order (the amount is within the range stage 2 accepts)',
    check: 'state_mismatch',
    cases: ['conv-refund-item-ORD-5001', 'conv-refund-item-ORD-5007'],
  },
  redundant_call: {
    model: 'simulated-model-b',
    what: 'looks the order up twice with the same arguments (same result)',
    // not a correctness failure: stage 2 compares the calls without the repeat; efficiency counts it (redundant_calls)
    check: 'redundant_calls',
    cases: [
      'conv-lookup-cancel-ORD-5003',
      'conv-lookup-cancel-ORD-5005',
      'conv-refund-rest-ORD-5001',
      'conv-refund-rest-ORD-5002',
      'conv-refund-rest-ORD-5004',
      'conv-refund-rest-ORD-5007',
    ],
  },
  no_tell_after_timeout: {
    model: 'simulated-model-a',
    what: 'answers as if the order lookup had worked after the scripted timeout',
    check: 'missing_recovery',
    cases: ['status-timeout-ORD-5005'],
  },
  asks_instead_of_calling: {
    model: 'simulated-model-a',
    what: 'asks for the ticket priority although the user gave it (turn 2 of a ticket conversation)',
    check: 'clarified_instead_of_calling',
    cases: ['conv-ticket-CUS-1003'],
  },
} as const satisfies Record<string, { model: SimulatedModel; what: string; check: string; cases: readonly string[] }>;
export type MistakeName = keyof typeof MISTAKES;

/** The mistakes a model makes on a case. */
export function mistakesOf(model: SimulatedModel, caseId: string): MistakeName[] {
  return (Object.keys(MISTAKES) as MistakeName[]).filter(
    (name) => MISTAKES[name].model === model && (MISTAKES[name].cases as readonly string[]).includes(caseId),
  );
}

type Value = JsonValue | { $from: { call: number; path: string } };

/** A gold argument as the model sends it: a matcher's representative value, a `$from` as the server's call index. */
function argument(value: unknown, earlier: ExpectedToolCall[]): Value {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value as JsonValue;
  const v = value as Record<string, unknown>;
  if (v.$from && typeof v.$from === 'object') {
    const ref = v.$from as { call: string; path: string };
    const index = earlier.map((c) => c.tool_name).lastIndexOf(ref.call);
    return { $from: { call: index, path: ref.path.replace(/^\//, '').replace(/\//g, '.') } };
  }
  if ('$value' in v) return v.$value as JsonValue;
  return value as JsonValue;
}

function scripted(calls: ExpectedToolCall[]): ScriptedCall[][] {
  return calls.map((call, i) => {
    const args: Record<string, Value> = {};
    for (const [key, value] of Object.entries(call.arguments)) args[key] = argument(value, calls.slice(0, i));
    return [{ name: call.tool_name, arguments: args as JsonValue, index: i }];
  });
}

const factsAnswer = (facts: string[]) => (facts.length ? `${facts.join('. ')}.` : 'Done.');
const IRRELEVANT = 'I can only help with orders, refunds, stock and support tickets.';
const CLARIFY = 'Which order number or quantity do you mean?';

/** The correct reply to one single-question case or turn (the gold, then an answer of the kind it expects). */
function goldReply(tc: TestCase, turn?: NonNullable<TestCase['turns']>[number]): ScriptedReply {
  if (turn) {
    if (turn.expect_clarification) return { turns: [], answer: CLARIFY };
    if (turn.expected_tool_calls.length === 0) return { turns: [], answer: IRRELEVANT };
    return { turns: scripted(turn.expected_tool_calls), answer: factsAnswer(turn.expected_facts) };
  }
  if (tc.abstention?.reason === 'missing_parameter') return { turns: [], answer: `Could you tell me the ${tc.abstention.asks_for?.[0]}?` };
  if (tc.abstention?.reason === 'irrelevant') return { turns: [], answer: IRRELEVANT };
  const timeout = tc.environment?.faults.some((f) => f.expect_recovery === 'tell_user');
  if (timeout) return { turns: scripted(tc.expected_tool_calls), answer: 'Sorry, the order service timed out; please try again later.' };
  return { turns: scripted(tc.expected_tool_calls), answer: factsAnswer(tc.expected_facts) };
}

/** The guess a model that skips the clarification makes. */
const GUESSES: Record<string, ScriptedCall> = {
  'missing-refund-order': { name: 'get_order', arguments: { order_id: 'ORD-5001' } },
  'missing-reserve-quantity': { name: 'reserve_stock', arguments: { sku: 'SKU-MUG', quantity: 1 } },
  'missing-ticket-customer': { name: 'find_customer', arguments: { email: 'customer@example.com' } },
  'conv-clarify-refund-ORD-5001': { name: 'list_orders', arguments: { customer_id: 'CUS-1001' } },
  'conv-clarify-refund-ORD-5004': { name: 'list_orders', arguments: { customer_id: 'CUS-1002' } },
  'conv-clarify-reserve-SKU-MUG': { name: 'reserve_stock', arguments: { sku: 'SKU-MUG', quantity: 1 } },
};

/** Replaces the first `$from` on `customer_id` (or `amount`) of a reply with a stale literal. */
function stale(reply: ScriptedReply, tc: TestCase): ScriptedReply {
  const turns = reply.turns.map((batch) =>
    batch.map((call) => {
      const args = { ...(call.arguments as Record<string, Value>) };
      if (typeof args.customer_id === 'object' && args.customer_id !== null) {
        const current = /CUS-\d+/.exec(tc.id)?.[0] ?? /CUS-\d+/.exec(JSON.stringify(tc))?.[0] ?? customerIds[1]!;
        args.customer_id = customerIds[Math.max(0, customerIds.indexOf(current) - 1)]!;
      }
      if (typeof args.amount === 'object' && args.amount !== null) {
        const order = state.orders[String(args.order_id)];
        if (order) args.amount = order.total;
      }
      return { ...call, arguments: args as JsonValue };
    }),
  );
  return { ...reply, turns };
}

function customerOfConversation(tc: TestCase): string | undefined {
  const order = /ORD-\d+/.exec(tc.id)?.[0];
  return order ? state.orders[order]?.customer_id : undefined;
}

function reply(model: SimulatedModel, tc: TestCase, turnIndex: number | undefined): ScriptedReply {
  const turn = turnIndex === undefined ? undefined : tc.turns![turnIndex];
  let out = goldReply(tc, turn);
  const first = turnIndex === undefined || turnIndex === 0;
  for (const mistake of mistakesOf(model, tc.id)) {
    if (mistake === 'stale_id' && first) {
      const withCustomer = customerOfConversation(tc);
      out = stale(out, withCustomer ? { ...tc, id: `${tc.id}-${withCustomer}` } : tc);
    }
    if (mistake === 'skips_clarification' && first) out = { turns: [[GUESSES[tc.id]!]], answer: 'I went ahead with what I found.' };
    if (mistake === 'no_retry') out = { turns: out.turns.slice(0, 1), answer: 'The refund is done.' };
    if (mistake === 'whole_order_refund' && turnIndex === 1) {
      const order = state.orders[/ORD-\d+/.exec(tc.id)![0]]!;
      const [call] = out.turns[0]!;
      out = {
        ...out,
        turns: [
          [{ ...call!, arguments: { ...(call!.arguments as Record<string, JsonValue>), amount: order.total - order.refunded_total } }],
        ],
      };
    }
    if (mistake === 'stale_refundable' && turnIndex === 1) {
      const order = state.orders[/ORD-\d+/.exec(tc.id)![0]]!;
      const before = Math.round((order.total - order.refunded_total) * 100) / 100; // what was refundable before turn 1
      out = {
        ...out,
        turns: out.turns.map((batch) => batch.map((call) => (call.name === 'issue_refund' ? withArgs(call, { amount: before }) : call))),
      };
    }
    if (mistake === 'repeats_mutation' && turnIndex === 1)
      out = { ...out, turns: out.turns.map((batch) => batch.map((call) => withArgs(call, { quantity: 3 }))) };
    if (mistake === 'redundant_call' && first) out = { ...out, turns: [out.turns[0]!, out.turns[0]!, ...out.turns.slice(1)] };
    if (mistake === 'no_tell_after_timeout') out = { ...out, answer: `Order ${/ORD-\d+/.exec(tc.id)![0]} is placed and on its way.` };
    if (mistake === 'asks_instead_of_calling' && turnIndex === 1) out = { turns: [], answer: 'Which priority should the ticket have?' };
  }
  return out;
}

function withArgs(call: ScriptedCall, args: Record<string, JsonValue>): ScriptedCall {
  return { ...call, arguments: { ...(call.arguments as Record<string, JsonValue>), ...args } };
}

/** The decisions of both simulated models on the given cases (what decisions.jsonl holds). */
export function generatedDecisions(cases: TestCase[]): Decision[] {
  const out: Decision[] = [];
  for (const model of MODELS) {
    for (const tc of cases) {
      const conversation = tc.turns?.length ? tc.turns.map((_, i) => reply(model, tc, i)) : undefined;
      const single = conversation ? { turns: [], answer: '' } : reply(model, tc, undefined);
      out.push({
        generated: true,
        model,
        label: model === 'simulated-model-a' ? 'simulated model A' : 'simulated model B',
        test_case_id: tc.id,
        nl_query: tc.turns?.[0]?.user ?? tc.nl_query,
        trials: [{ ...single, ...(conversation ? { conversation } : {}), continue_after_error: true }],
        no_tools_answer: "I can't look that up: I have no access to the store's systems from here.",
      });
    }
  }
  return out;
}

export function decisionsJsonl(): string {
  return (
    generatedDecisions(generatedCases())
      .map((d) => JSON.stringify(d))
      .join('\n') + '\n'
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OUT, decisionsJsonl());
  process.stdout.write(`wrote GENERATED decisions of ${MODELS.join(' and ')} (simulated) to ${OUT}\n`);
}
