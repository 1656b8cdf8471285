import { longDate } from '../dates.js';
import type { Order } from '../world/types.js';
import { call, Deck, expectCall, merge, phrase, withArgs } from './helpers.js';
import { sayCustomer, sayOrder, sayOrderComparison, sayOrderItems, sayOrderSearch } from './sayOrders.js';
import { sayTicketList } from './saySupport.js';
import { failureSentence, okData, type CaseSpec, type ScenarioContext } from './types.js';
import type { CustomerView, OrderSearchView } from './views.js';

const STATUS_Q = [
  'Where is my order {id}?',
  "What's the status of order {id}?",
  'Can you check on {id} for me?',
  'Has order {id} shipped yet?',
  'status of {id}',
  'A customer is asking about {id}. What is going on with it?',
  'Look up order {id}.',
  'Any news on order {id}?',
  'Is {id} delivered?',
  'pls check {id}',
];
const ITEMS_Q = [
  'What was in order {id}?',
  'List the items in {id}.',
  'Which products did the customer buy in {id}, and what did it cost?',
  'Show me the line items of order {id}.',
];
const BY_STATUS_Q = [
  "Show {name}'s {status} orders ({cid}).",
  'Which orders of customer {cid} are {status}?',
  'List {status} orders for {cid}.',
  'Does {cid} have any {status} orders?',
];
const RANGE_Q = [
  'List orders over ${min} placed between {from} and {to}, biggest first.',
  'Which orders above ${min} came in from {from} to {to}? Largest first please.',
  'Show me every order of at least ${min} placed {from} through {to}, sorted by total, highest first.',
];
const LATEST_Q = [
  'Show the last {n} orders from {cid}.',
  'What are the {n} most recent orders of customer {cid}?',
  "Pull up {cid}'s latest {n} orders.",
];
const COMPARE_Q = [
  'Compare orders {a} and {b}: which one was bigger?',
  'What are the statuses and totals of {a} and {b}?',
  'Check {a} and {b} for me and tell me which cost more.',
];
const LOOKUP_Q = [
  'Pull up the account for {name} ({cid}, {email}).',
  'Who is {name}? Their id is {cid} and email {email}.',
  'Customer profile for {name} please: {cid} / {email}.',
];
const COUNT_Q = [
  'How many orders has {cid} placed with us?',
  'How many orders does customer {cid} have in total?',
  'Count the orders of {cid}.',
];

export function orderScenarios(ctx: ScenarioContext): CaseSpec[] {
  const { world, rng, probe } = ctx;
  const orders = new Deck(rng, world.orders);
  const customers = new Deck(
    rng,
    world.customers.filter((c) => world.orders.filter((o) => o.customer_id === c.customer_id).length >= 4),
  );
  const out: CaseSpec[] = [];
  const hits = (c: ReturnType<typeof call>): number => okData<OrderSearchView>(probe(c))?.total_count ?? 0;

  for (let i = 0; i < 10; i++) {
    const o = orders.draw();
    const c = call('get_order', { order_id: o.order_id });
    out.push({
      kind: 'orders.status',
      category: 'orders',
      complexity: 1,
      tags: ['orders', 'lookup'],
      question: phrase(rng, STATUS_Q, { id: o.order_id }),
      calls: [c],
      variants: [{ label: 'explicit_default', calls: [withArgs(c, { include_items: false })] }],
      answer: ([r]) => sayOrder(r),
      textOnly: `I can't see live order data, but you can check ${o.order_id} under "My orders" in your account.`,
    });
  }
  const multiItem = new Deck(
    rng,
    world.orders.filter((o) => o.items.length >= 2),
  );
  for (let i = 0; i < 6; i++) {
    const o = multiItem.draw();
    out.push({
      kind: 'orders.items',
      category: 'orders',
      complexity: 2,
      tags: ['orders', 'lookup'],
      question: phrase(rng, ITEMS_Q, { id: o.order_id }),
      calls: [call('get_order', { order_id: o.order_id, include_items: true })],
      answer: ([r]) => sayOrderItems(r),
    });
  }
  for (let made = 0, tries = 0; made < 8 && tries < 500; tries++) {
    const cust = customers.draw();
    const status = rng.pick(['delivered', 'shipped', 'cancelled', 'returned', 'paid'] as const);
    const c = call('search_orders', { customer_id: cust.customer_id, status });
    const n = hits(c);
    if (n < 1 || n > 4) continue;
    made++;
    out.push({
      kind: 'orders.by_status',
      category: 'orders',
      complexity: 2,
      tags: ['orders', 'filters'],
      question: phrase(rng, BY_STATUS_Q, { name: cust.name, cid: cust.customer_id, status }),
      calls: [c],
      variants: [{ label: 'explicit_default', calls: [withArgs(c, { sort: 'newest' })] }],
      answer: ([r]) => sayOrderSearch(r, `${status} orders of ${cust.customer_id}`),
    });
  }
  for (let made = 0, tries = 0; made < 6 && tries < 500; tries++) {
    const from = rng.pick(world.orders).placed_on;
    const to = rng.pick(world.orders.filter((o) => o.placed_on > from)).placed_on;
    const min = rng.pick([150, 200, 250, 300, 400, 500]);
    const c = call('search_orders', { placed_after: from, placed_before: to, min_total: min, sort: 'total_desc' });
    const n = hits(c);
    if (n < 2 || n > 8) continue;
    made++;
    out.push({
      kind: 'orders.date_range',
      category: 'orders',
      complexity: 3,
      tags: ['orders', 'filters', 'dates'],
      question: phrase(rng, RANGE_Q, { min, from: rng.chance(0.5) ? longDate(from) : from, to: rng.chance(0.5) ? longDate(to) : to }),
      calls: [c],
      answer: ([r]) => sayOrderSearch(r, `orders of at least $${min} placed ${from} to ${to}`),
    });
  }
  for (let i = 0; i < 5; i++) {
    const cust = customers.draw();
    const n = rng.pick([2, 3, 3, 5]);
    const c = call('search_orders', { customer_id: cust.customer_id, limit: n });
    out.push({
      kind: 'orders.latest_n',
      category: 'orders',
      complexity: 3,
      tags: ['orders', 'filters'],
      question: phrase(rng, LATEST_Q, { n, cid: cust.customer_id }),
      calls: [c],
      variants: [{ label: 'explicit_default', calls: [withArgs(c, { sort: 'newest' })] }],
      answer: ([r]) => sayOrderSearch(r, `the latest ${n} orders of ${cust.customer_id}`),
    });
  }
  for (let i = 0; i < 4; i++) {
    let a: Order;
    let b: Order;
    do [a, b] = [orders.draw(), orders.draw()];
    while (a.total === b.total);
    out.push({
      kind: 'orders.compare',
      category: 'orders',
      complexity: 4,
      tags: ['orders', 'parallel'],
      question: phrase(rng, COMPARE_Q, { a: a.order_id, b: b.order_id }),
      calls: [call('get_order', { order_id: a.order_id }), call('get_order', { order_id: b.order_id })],
      answer: ([ra, rb]) => sayOrderComparison(ra, rb),
    });
  }
  for (let i = 0; i < 4; i++) {
    const cust = customers.draw();
    const c = call('get_customer', { customer: cust.customer_id });
    out.push({
      kind: 'orders.customer_lookup',
      category: 'orders',
      complexity: 1,
      tags: ['customers', 'lookup'],
      question: phrase(rng, LOOKUP_Q, { name: cust.name, cid: cust.customer_id, email: cust.email }),
      calls: [c],
      expected: [expectCall(c, { customer: { $one_of: [cust.customer_id, cust.email] } })],
      variants: [{ label: 'one_of_value', calls: [call('get_customer', { customer: cust.email })] }],
      answer: ([r], ref) => sayCustomer(r, ref),
    });
  }
  for (let i = 0; i < 3; i++) {
    const cust = customers.draw();
    const since = rng.pick(['2026-06-01', '2026-07-01', '2026-08-01']);
    out.push({
      kind: 'orders.customer_overview',
      category: 'orders',
      complexity: 5,
      tags: ['customers', 'orders', 'support', 'parallel', 'multi-tool', 'dates'],
      question: `For ${cust.customer_id}: show me their profile, their delivered orders since ${longDate(since)}, and any open support tickets.`,
      calls: [
        call('get_customer', { customer: cust.customer_id }),
        call('search_orders', { customer_id: cust.customer_id, status: 'delivered', placed_after: since }),
        call('list_support_tickets', { customer_id: cust.customer_id, status: 'open' }),
      ],
      answer: ([rc, ro, rt], ref) =>
        merge(
          sayCustomer(rc, ref),
          sayOrderSearch(ro, `delivered orders since ${since}`),
          sayTicketList(rt, `open tickets for ${cust.customer_id}`),
        ),
    });
  }
  for (let i = 0; i < 3; i++) {
    const cust = customers.draw();
    const main = call('get_customer', { customer: cust.customer_id });
    const alt = call('search_orders', { customer_id: cust.customer_id });
    out.push({
      kind: 'orders.order_count',
      category: 'orders',
      complexity: 2,
      tags: ['customers', 'orders', 'alternatives'],
      question: phrase(rng, COUNT_Q, { cid: cust.customer_id }),
      calls: [main],
      alternatives: [{ expected: [expectCall(alt)], calls: [alt] }],
      variants: [{ label: 'alternative_call_set', calls: [alt] }],
      answer: ([r]) => {
        const d = r && r.status < 300 ? (r.data as Partial<CustomerView & OrderSearchView>) : undefined;
        const n = d?.order_count ?? d?.total_count;
        if (n === undefined) return { sentences: [failureSentence(r, 'the order count')], facts: [] };
        return { sentences: [`${cust.customer_id} has placed ${n} orders with us.`], facts: [`${n} orders`] };
      },
    });
  }
  for (let made = 0, tries = 0; made < 4 && tries < 500; tries++) {
    const cust = customers.draw();
    const from = rng.pick(['2026-05-01', '2026-06-01', '2026-07-01']);
    const to = rng.pick(['2026-09-30', '2026-10-13']);
    const min = rng.pick([50, 100, 150]);
    const c = call('search_orders', {
      customer_id: cust.customer_id,
      status: 'delivered',
      placed_after: from,
      placed_before: to,
      min_total: min,
      sort: 'total_desc',
    });
    if (hits(c) < 2) continue;
    made++;
    out.push({
      kind: 'orders.complex_search',
      category: 'orders',
      complexity: 4,
      tags: ['orders', 'filters', 'dates'],
      question: `Which delivered orders over $${min} did ${cust.customer_id} place between ${longDate(from)} and ${longDate(to)}? Largest first.`,
      calls: [c],
      answer: ([r]) => sayOrderSearch(r, `delivered orders over $${min} of ${cust.customer_id}`),
    });
  }
  return out;
}
