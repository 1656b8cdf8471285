/**
 * Writes examples/retail-conversations/cases.jsonl: GENERATED gold cases over the stateful retail environment
 * (lib/environments): chained lookups, refund flows, cancellations, reservations, tickets, failing APIs, missing
 * parameters and irrelevant asks. Deterministic (no randomness): `npx tsx examples/retail-conversations/generateCases.ts`.
 * Every case is labelled generated (`metadata.source`, the `generated` tag).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestCaseSchema, type TestCase, type TestCaseInput } from '../../lib/domain/index.js';
import { startEnvironment, type RetailState } from '../../lib/environments/index.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'cases.jsonl');
const state = startEnvironment('retail', 'default').state() as unknown as RetailState;
const customers = Object.values(state.customers);
const orders = Object.values(state.orders);
const from = (call: string, path: string) => ({ $from: { call, path } });
/** free text the agent may phrase its own way: any value passes stage 2, the gold replays this one */
const phrased = (value: string) => ({ $any: true, $value: value });
const env = (extra: Record<string, unknown> = {}) => ({
  name: 'retail',
  initial_state: 'default',
  ignore_paths: ['/refunds/*/reason', '/orders/*/cancel_reason', '/tickets/*/subject'],
  ...extra,
});

type Draft = Omit<TestCaseInput, 'metadata'> & { tags: string[]; category: string; complexity?: number };
const drafts: Draft[] = [];

for (const c of customers) {
  const mine = orders.filter((o) => o.customer_id === c.id).sort((a, b) => a.id.localeCompare(b.id));
  drafts.push({
    id: `chain-orders-${c.id}`,
    nl_query: `How many orders does ${c.email} have?`,
    expected_tool_calls: [
      { tool_name: 'find_customer', arguments: { email: c.email } },
      { tool_name: 'list_orders', arguments: { customer_id: from('find_customer', '/customer_id') } },
    ],
    expected_facts: [`${c.name} has ${mine.length} order${mine.length === 1 ? '' : 's'}`],
    environment: env(),
    tags: ['chained-lookup'],
    category: 'lookup',
    complexity: 2,
  });
  const delivered = mine.filter((o) => o.status === 'delivered');
  drafts.push({
    id: `chain-delivered-${c.id}`,
    nl_query: `Which of ${c.name}'s orders have been delivered?`,
    expected_tool_calls: [
      { tool_name: 'find_customer', arguments: { name: c.name } },
      { tool_name: 'list_orders', arguments: { customer_id: from('find_customer', '/customer_id'), status: 'delivered' } },
    ],
    expected_facts: [delivered.length ? `delivered: ${delivered.map((o) => o.id).join(', ')}` : 'no delivered orders'],
    environment: env(),
    tags: ['chained-lookup'],
    category: 'lookup',
    complexity: 2,
  });
  drafts.push({
    id: `ticket-${c.id}`,
    nl_query: `Open a high-priority support ticket for ${c.email}: the website keeps logging them out.`,
    expected_tool_calls: [
      { tool_name: 'find_customer', arguments: { email: c.email } },
      {
        tool_name: 'create_ticket',
        arguments: {
          customer_id: from('find_customer', '/customer_id'),
          subject: phrased('website keeps logging me out'),
          priority: 'high',
        },
      },
    ],
    environment: env(),
    tags: ['chained-lookup', 'state-change'],
    category: 'tickets',
    complexity: 3,
  });
}

for (const o of orders.filter((x) => x.status === 'delivered' || x.status === 'shipped')) {
  const refundable = Math.round((o.total - o.refunded_total) * 100) / 100;
  const part = Math.round(refundable * 40) / 100;
  drafts.push({
    id: `refund-partial-${o.id}`,
    nl_query: `Please refund ${part.toFixed(2)} on order ${o.id}, one item arrived damaged.`,
    expected_tool_calls: [
      { tool_name: 'issue_refund', arguments: { order_id: o.id, amount: part, reason: phrased('item arrived damaged') } },
    ],
    environment: env(),
    tags: ['refund', 'state-change'],
    category: 'refunds',
  });
  drafts.push({
    id: `refund-rest-${o.id}`,
    nl_query: `Refund whatever is still refundable on order ${o.id}; the customer is returning everything.`,
    expected_tool_calls: [
      { tool_name: 'get_order', arguments: { order_id: o.id } },
      {
        tool_name: 'issue_refund',
        arguments: { order_id: o.id, amount: from('get_order', '/refundable'), reason: phrased('returning everything') },
      },
    ],
    expected_facts: [`${refundable.toFixed(2)} refunded on ${o.id}`],
    environment: env(),
    tags: ['refund', 'chained-lookup', 'state-change'],
    category: 'refunds',
    complexity: 3,
  });
  drafts.push({
    id: `refund-flaky-${o.id}`,
    nl_query: `Refund ${part.toFixed(2)} on order ${o.id} (damaged item).`,
    expected_tool_calls: [
      { tool_name: 'issue_refund', arguments: { order_id: o.id, amount: part, reason: phrased('damaged item') } },
      { tool_name: 'issue_refund', arguments: { order_id: o.id, amount: part, reason: phrased('damaged item') } },
    ],
    environment: env({ faults: [{ tool: 'issue_refund', occurrence: 1, kind: 'error', status: 503, expect_recovery: 'retry' }] }),
    tags: ['refund', 'failing-api', 'state-change'],
    category: 'recovery',
    complexity: 3,
  });
}

for (const o of orders.filter((x) => x.status === 'placed')) {
  drafts.push({
    id: `cancel-${o.id}`,
    nl_query: `Cancel order ${o.id}, the customer changed their mind.`,
    expected_tool_calls: [
      { tool_name: 'cancel_order', arguments: { order_id: o.id, reason: { $optional: true, $any: true, $value: 'changed their mind' } } },
    ],
    environment: env(),
    tags: ['cancel', 'state-change'],
    category: 'orders',
  });
  drafts.push({
    id: `status-timeout-${o.id}`,
    nl_query: `What is the status of order ${o.id}?`,
    expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: o.id } }],
    environment: env({ faults: [{ tool: 'get_order', occurrence: 1, kind: 'timeout', expect_recovery: 'tell_user' }] }),
    tags: ['failing-api'],
    category: 'recovery',
  });
}

for (const item of Object.values(state.inventory).filter((i) => i.on_hand - i.reserved >= 2)) {
  drafts.push({
    id: `reserve-${item.sku}`,
    nl_query: `Reserve 2 units of ${item.name} (${item.sku}) for a store pickup.`,
    expected_tool_calls: [{ tool_name: 'reserve_stock', arguments: { sku: item.sku, quantity: 2 } }],
    environment: env(),
    tags: ['inventory', 'state-change'],
    category: 'inventory',
  });
}

const missing: Array<[string, string, string[]]> = [
  ['missing-refund-order', 'Refund my order, it arrived broken.', ['order id', 'order number']],
  ['missing-refund-amount', 'Refund part of order ORD-5001 please.', ['amount', 'how much']],
  ['missing-cancel-order', 'Cancel my order.', ['order id', 'order number', 'which order']],
  ['missing-reserve-quantity', 'Reserve some stoneware mugs for me.', ['how many', 'quantity']],
  ['missing-customer', 'Show me the orders of my customer.', ['email', 'name', 'which customer']],
  ['missing-ticket-customer', 'Open a support ticket about a late delivery.', ['email', 'customer', 'name']],
];
for (const [id, nl_query, asks_for] of missing) {
  drafts.push({
    id,
    nl_query,
    expected_tool_calls: [],
    abstention: { reason: 'missing_parameter', asks_for },
    // an agent that calls anyway calls the environment (and is scored for it), not a missing recording
    environment: env(),
    tags: ['missing-parameter'],
    category: 'abstention',
  });
}
const irrelevant: Array<[string, string]> = [
  ['irrelevant-haiku', 'Write a haiku about green tea.'],
  ['irrelevant-weather', 'What will the weather be in Paris tomorrow?'],
  ['irrelevant-math', 'What is 17 times 23?'],
  ['irrelevant-capital', 'What is the capital of Australia?'],
];
for (const [id, nl_query] of irrelevant) {
  drafts.push({
    id,
    nl_query,
    expected_tool_calls: [],
    abstention: { reason: 'irrelevant' },
    environment: env(),
    tags: ['irrelevant'],
    category: 'abstention',
  });
}

// ---- conversations (turns): one environment session per conversation, so a turn's gold replays on the state the earlier
// turns' gold left (stage 3 compares the cumulative state per turn, see docs/stateful-cases.md).
const money = (x: number) => Math.round(x * 100) / 100;
const ordinal = ['first', 'second', 'third'];
for (const o of orders.filter((x) => x.status === 'delivered' || x.status === 'shipped')) {
  const c = customers.find((x) => x.id === o.customer_id)!;
  const refundable = money(o.total - o.refunded_total);
  const itemIndex = o.items.length - 1;
  const item = o.items[itemIndex]!;
  const itemAmount = Math.min(money(item.quantity * item.unit_price), refundable);
  const mine = orders.filter((x) => x.customer_id === c.id);
  drafts.push({
    id: `conv-refund-item-${o.id}`,
    turns: [
      {
        user: `Show me the orders of ${c.email}, I need to sort out ${o.id}.`,
        expected_tool_calls: [
          { tool_name: 'find_customer', arguments: { email: c.email } },
          { tool_name: 'list_orders', arguments: { customer_id: from('find_customer', '/customer_id') } },
        ],
        expected_facts: [`${c.name} has ${mine.length} order${mine.length === 1 ? '' : 's'}`],
      },
      {
        user: `Refund the ${ordinal[itemIndex]} item of ${o.id} (${item.sku}), it arrived damaged.`,
        expected_tool_calls: [
          // any amount up to the refundable passes stage 2; the final state (stage 3) tells whether it was the item's
          {
            tool_name: 'issue_refund',
            arguments: {
              order_id: o.id,
              amount: { $range: { min: 0.01, max: refundable }, $value: itemAmount },
              reason: phrased('item arrived damaged'),
            },
          },
        ],
      },
    ],
    environment: env(),
    tags: ['conversation', 'refund', 'chained-lookup', 'state-change'],
    category: 'conversations',
    complexity: 4,
  });
  drafts.push({
    id: `conv-clarify-refund-${o.id}`,
    turns: [
      {
        user: `I want a refund for ${c.name}, the ${state.inventory[item.sku]?.name ?? item.sku} arrived broken.`,
        expect_clarification: true,
      },
      {
        user: `It is order ${o.id}; refund ${money(refundable * 0.2).toFixed(2)}.`,
        expected_tool_calls: [
          { tool_name: 'issue_refund', arguments: { order_id: o.id, amount: money(refundable * 0.2), reason: phrased('arrived broken') } },
        ],
      },
    ],
    environment: env(),
    tags: ['conversation', 'missing-parameter', 'refund', 'state-change'],
    category: 'conversations',
    complexity: 3,
  });
  drafts.push({
    id: `conv-refund-rest-${o.id}`,
    turns: [
      {
        user: `How much can still be refunded on order ${o.id}?`,
        expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: o.id } }],
        expected_facts: [`${refundable.toFixed(2)} is refundable on ${o.id}`],
      },
      {
        user: `Refund all of it on ${o.id}, the customer returned everything.`,
        expected_tool_calls: [
          { tool_name: 'issue_refund', arguments: { order_id: o.id, amount: refundable, reason: phrased('returned everything') } },
        ],
      },
    ],
    environment: env(),
    tags: ['conversation', 'refund', 'state-change'],
    category: 'conversations',
    complexity: 3,
  });
}
for (const o of orders.filter((x) => x.status === 'placed')) {
  drafts.push({
    id: `conv-lookup-cancel-${o.id}`,
    turns: [
      {
        user: `What's the status of my order ${o.id}, please?`,
        expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: o.id } }],
      },
      {
        user: `Then cancel ${o.id}, I ordered it by mistake.`,
        expected_tool_calls: [
          {
            tool_name: 'cancel_order',
            arguments: { order_id: o.id, reason: { $optional: true, $any: true, $value: 'ordered by mistake' } },
          },
        ],
      },
    ],
    environment: env(),
    tags: ['conversation', 'cancel', 'state-change'],
    category: 'conversations',
    complexity: 3,
  });
}
for (const item of Object.values(state.inventory).filter((i) => i.on_hand - i.reserved >= 3)) {
  drafts.push({
    id: `conv-clarify-reserve-${item.sku}`,
    turns: [
      { user: `Can you put aside some ${item.name} units for me?`, expect_clarification: true },
      {
        user: `3 units of ${item.sku}, please.`,
        expected_tool_calls: [{ tool_name: 'reserve_stock', arguments: { sku: item.sku, quantity: 3 } }],
      },
    ],
    environment: env(),
    tags: ['conversation', 'missing-parameter', 'inventory', 'state-change'],
    category: 'conversations',
    complexity: 2,
  });
}
for (const c of customers) {
  drafts.push({
    id: `conv-ticket-${c.id}`,
    turns: [
      { user: `Find the customer ${c.email}.`, expected_tool_calls: [{ tool_name: 'find_customer', arguments: { email: c.email } }] },
      {
        user: `Open a normal-priority ticket for ${c.name}: the delivery was late.`,
        expected_tool_calls: [
          { tool_name: 'create_ticket', arguments: { customer_id: c.id, subject: phrased('late delivery'), priority: 'normal' } },
        ],
      },
      { user: 'Thanks! Also, what will the weather be in Paris tomorrow?', expected_tool_calls: [] },
    ],
    environment: env(),
    tags: ['conversation', 'state-change', 'irrelevant'],
    category: 'conversations',
    complexity: 3,
  });
}

// ---- conversations whose later turns depend on the state earlier turns left (the session carries across turns)
for (const o of orders.filter((x) => x.status === 'placed')) {
  drafts.push({
    id: `conv-cancel-status-${o.id}`,
    turns: [
      {
        user: `Please cancel ${o.id}, we no longer need it.`,
        expected_tool_calls: [
          { tool_name: 'cancel_order', arguments: { order_id: o.id, reason: { $optional: true, $any: true, $value: 'no longer needed' } } },
        ],
      },
      {
        user: `What is the status of ${o.id} now?`,
        // the gold's get_order runs after the gold's cancellation: stage 3 expects "cancelled"
        expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: o.id } }],
        expected_facts: [`${o.id} is cancelled`],
      },
    ],
    environment: env(),
    tags: ['conversation', 'carried-state', 'cancel', 'state-change'],
    category: 'conversations',
    complexity: 3,
  });
}
for (const o of orders.filter((x) => x.status === 'delivered' || x.status === 'shipped')) {
  const refundable = money(o.total - o.refunded_total);
  const first = money(refundable * 0.25);
  const rest = money(refundable - first);
  drafts.push({
    id: `conv-refund-then-rest-${o.id}`,
    turns: [
      {
        user: `Refund ${first.toFixed(2)} on ${o.id} first, one item arrived damaged.`,
        expected_tool_calls: [
          { tool_name: 'issue_refund', arguments: { order_id: o.id, amount: first, reason: phrased('item arrived damaged') } },
        ],
      },
      {
        user: `They are sending everything else back: refund whatever is still refundable on ${o.id}.`,
        // what is refundable now is what turn 1 left: the amount must be what this turn's lookup returned
        expected_tool_calls: [
          { tool_name: 'get_order', arguments: { order_id: o.id } },
          {
            tool_name: 'issue_refund',
            arguments: { order_id: o.id, amount: from('get_order', '/refundable'), reason: phrased('returning everything') },
          },
        ],
        expected_facts: [`${rest.toFixed(2)} refunded on ${o.id}`],
      },
      {
        user: `How much has been refunded on ${o.id} in total now?`,
        expected_tool_calls: [{ tool_name: 'get_order', arguments: { order_id: o.id } }],
        expected_facts: [`${money(o.total).toFixed(2)} refunded on ${o.id} in total`],
      },
    ],
    environment: env(),
    tags: ['conversation', 'carried-state', 'refund', 'chained-lookup', 'state-change'],
    category: 'conversations',
    complexity: 4,
  });
}
for (const item of Object.values(state.inventory).filter((i) => i.on_hand - i.reserved >= 3)) {
  drafts.push({
    id: `conv-reserve-more-${item.sku}`,
    turns: [
      {
        user: `Please hold 2 units of ${item.name} (${item.sku}) for my pickup on Friday.`,
        expected_tool_calls: [{ tool_name: 'reserve_stock', arguments: { sku: item.sku, quantity: 2 } }],
      },
      {
        user: 'Make that 3 units in total, please.',
        // one more unit on top of turn 1's two; stage 2 takes 1 to 3, the state after both turns decides
        expected_tool_calls: [
          { tool_name: 'reserve_stock', arguments: { sku: item.sku, quantity: { $range: { min: 1, max: 3 }, $value: 1 } } },
        ],
      },
      {
        user: `How many ${item.sku} are still available now?`,
        expected_tool_calls: [{ tool_name: 'check_inventory', arguments: { sku: item.sku } }],
        expected_facts: [`${item.on_hand - item.reserved - 3} ${item.sku} available`],
      },
    ],
    environment: env(),
    tags: ['conversation', 'carried-state', 'inventory', 'state-change'],
    category: 'conversations',
    complexity: 3,
  });
}
for (const o of orders.filter((x) => x.id === 'ORD-5001' || x.id === 'ORD-5004')) {
  const part = money((o.total - o.refunded_total) * 0.2);
  const refund = { tool_name: 'issue_refund', arguments: { order_id: o.id, amount: part, reason: phrased('damaged part') } };
  drafts.push({
    id: `conv-refund-flaky-${o.id}`,
    turns: [
      { user: `Refund ${part.toFixed(2)} on ${o.id} for the broken part, please.`, expected_tool_calls: [refund] },
      // the fault names the 2nd issue_refund of the CONVERSATION: the first one of this turn fails, a retry is expected
      { user: `And refund another ${part.toFixed(2)} on ${o.id} for the late delivery.`, expected_tool_calls: [refund, refund] },
    ],
    environment: env({ faults: [{ tool: 'issue_refund', occurrence: 2, kind: 'error', status: 503, expect_recovery: 'retry' }] }),
    tags: ['conversation', 'carried-state', 'refund', 'failing-api', 'state-change'],
    category: 'conversations',
    complexity: 3,
  });
}

const cases: TestCase[] = drafts.map(({ tags, category, complexity, ...c }) =>
  TestCaseSchema.parse({
    ...c,
    tool_catalog: { name: 'retail-env', version: '1' },
    metadata: { category, tags: ['generated', ...tags], complexity_level: complexity ?? 1, source: 'generated:retail-conversations' },
  }),
);

/** The generated cases (what cases.jsonl holds, parsed). */
export function generatedCases(): TestCase[] {
  return cases;
}

/** The cases as JSONL text (what cases.jsonl holds). */
export function casesJsonl(): string {
  return cases.map((c) => JSON.stringify(c)).join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OUT, casesJsonl());
  process.stdout.write(`wrote ${cases.length} GENERATED cases to ${OUT}\n`);
}
