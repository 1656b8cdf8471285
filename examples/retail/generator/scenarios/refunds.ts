import { longDate } from '../dates.js';
import { round2 } from '../prng.js';
import { refundable } from '../api/refundsApi.js';
import type { RefundReason } from '../world/types.js';
import { call, Deck, expectCall, merge, phrase } from './helpers.js';
import { sayRefund, sayRefundIssued, sayRefundList } from './sayRefunds.js';
import { sayTicketCreated } from './saySupport.js';
import type { CaseSpec, ScenarioContext } from './types.js';

export const REASON_PHRASES: Record<RefundReason, readonly string[]> = {
  damaged: ['it arrived damaged', 'the box was crushed and the item is broken', 'it came smashed'],
  defective: ['it stopped working after two days', 'the unit is faulty', 'it does not turn on'],
  wrong_item: ['we shipped the wrong item', 'they received a different product', 'the wrong colour was sent'],
  not_received: ['the customer never received it', 'the parcel never arrived', 'it was lost in transit'],
  late_delivery: ['it arrived two weeks late', 'delivery was very late', 'it came well after the promised date'],
  changed_mind: ['the customer changed their mind', 'they no longer want it', 'it was an unwanted gift'],
};
const STATUS_Q = [
  "What's the status of refund {id}?",
  'Has refund {id} gone through?',
  'Check refund {id}.',
  'Where are we with {id}?',
  'status {id}',
];
const ISSUE_Q = [
  'Refund ${amount} on order {order}, {why}.',
  'Please issue a ${amount} refund for {order} because {why}.',
  '{order}: {why}. Refund ${amount}.',
  'Give back ${amount} on {order} - {why}.',
];
const CREDIT_Q = [
  'Give the customer ${amount} store credit for order {order} ({why}) and do not send them an email.',
  'Refund ${amount} on {order} as store credit, no notification; {why}.',
];
const LIST_ORDER_Q = ['Any refunds on order {order}?', 'Were there refunds for {order}?', 'List the refunds of {order}.'];

export function refundScenarios(ctx: ScenarioContext): CaseSpec[] {
  const { world, rng } = ctx;
  const out: CaseSpec[] = [];
  const push = (spec: Omit<CaseSpec, 'category'>): void => void out.push({ ...spec, category: 'refunds' });
  const refunds = new Deck(rng, world.refunds);
  const eligible = new Deck(
    rng,
    world.orders.filter((o) => o.status === 'delivered' && refundable(world, o) >= 20),
  );
  const amountFor = (max: number): number => round2(Math.min(max, rng.pick([12.5, 19.99, 25.5, 30, 45, 49.99, 60, 75.25, 89])));
  const why = (reason: RefundReason): string => rng.pick(REASON_PHRASES[reason]);

  for (let i = 0; i < 10; i++) {
    const r = refunds.draw();
    push({
      kind: 'refunds.status',
      complexity: 1,
      tags: ['refunds', 'lookup'],
      question: phrase(rng, STATUS_Q, { id: r.refund_id }),
      calls: [call('get_refund_status', { refund_id: r.refund_id })],
      answer: ([x]) => sayRefund(x),
      textOnly: `Refunds usually take 5 to 10 business days; I can't see the status of ${r.refund_id} from here.`,
    });
  }
  for (let i = 0; i < 12; i++) {
    const o = eligible.draw();
    const amount = amountFor(refundable(world, o));
    const reason = rng.pick(['damaged', 'defective', 'wrong_item', 'not_received', 'late_delivery'] as const);
    const c = call('issue_refund', { order_id: o.order_id, amount, reason });
    push({
      kind: 'refunds.issue',
      complexity: 3,
      tags: ['refunds', 'write', 'money'],
      question: phrase(rng, ISSUE_Q, { amount: amount.toFixed(2), order: o.order_id, why: why(reason) }),
      calls: [c],
      answer: ([x], ref) => sayRefundIssued(x, ref),
    });
  }
  for (let i = 0; i < 6; i++) {
    const o = eligible.draw();
    const amount = amountFor(refundable(world, o));
    const reason = rng.pick(['late_delivery', 'changed_mind', 'damaged'] as const);
    push({
      kind: 'refunds.store_credit',
      complexity: 3,
      tags: ['refunds', 'write', 'money'],
      question: phrase(rng, CREDIT_Q, { amount: amount.toFixed(2), order: o.order_id, why: why(reason) }),
      calls: [call('issue_refund', { order_id: o.order_id, amount, reason, refund_method: 'store_credit', notify_customer: false })],
      answer: ([x], ref) => sayRefundIssued(x, ref),
    });
  }
  const withRefunds = new Deck(rng, [...new Set(world.refunds.map((r) => r.order_id))]);
  for (let i = 0; i < 6; i++) {
    const order = i % 3 === 2 ? eligible.draw().order_id : withRefunds.draw();
    push({
      kind: 'refunds.list_order',
      complexity: 2,
      tags: ['refunds', 'filters'],
      question: phrase(rng, LIST_ORDER_Q, { order }),
      calls: [call('list_refunds', { order_id: order })],
      answer: ([x]) => sayRefundList(x, `on order ${order}`),
    });
  }
  const refundCustomers = new Deck(rng, [...new Set(world.refunds.map((r) => r.customer_id))]);
  for (let i = 0; i < 6; i++) {
    const customer = refundCustomers.draw();
    const status = rng.pick(['processed', 'approved', 'processed'] as const);
    const since = rng.pick(['2026-06-01', '2026-07-01', '2026-08-15']);
    push({
      kind: 'refunds.list_customer',
      complexity: 3,
      tags: ['refunds', 'filters', 'dates'],
      question: `List ${status} refunds for ${customer} since ${longDate(since)}.`,
      calls: [call('list_refunds', { customer_id: customer, status, created_after: since })],
      answer: ([x]) => sayRefundList(x, `${status} for ${customer} since ${since}`),
    });
  }
  for (let i = 0; i < 3; i++) {
    const [a, b] = [refunds.draw(), refunds.draw()];
    push({
      kind: 'refunds.two_status',
      complexity: 4,
      tags: ['refunds', 'parallel'],
      question: `Check refunds ${a.refund_id} and ${b.refund_id}.`,
      calls: [call('get_refund_status', { refund_id: a.refund_id }), call('get_refund_status', { refund_id: b.refund_id })],
      answer: ([x, y]) => merge(sayRefund(x), sayRefund(y)),
    });
  }
  for (let i = 0; i < 4; i++) {
    const o = eligible.draw();
    const amount = amountFor(refundable(world, o));
    const reason = rng.pick(['damaged', 'wrong_item', 'not_received'] as const);
    const category = reason === 'not_received' ? 'shipping' : 'product';
    const refund = call('issue_refund', { order_id: o.order_id, amount, reason });
    const ticket = call('create_support_ticket', {
      customer_id: o.customer_id,
      subject: `Refund issued on ${o.order_id}: ${why(reason)}`,
      category,
      priority: 'high',
      order_id: o.order_id,
    });
    push({
      kind: 'refunds.refund_and_ticket',
      complexity: 5,
      tags: ['refunds', 'support', 'write', 'parallel', 'multi-tool', 'money'],
      question: `Refund $${amount.toFixed(2)} on ${o.order_id} because ${why(reason)}, and open a high-priority ${category} ticket for ${o.customer_id} about it.`,
      calls: [refund, ticket],
      expected: [expectCall(refund), expectCall(ticket, { subject: { $any: true } })],
      answer: ([x, y], ref) => merge(sayRefundIssued(x, ref), sayTicketCreated(y, ref)),
    });
  }
  return out;
}
