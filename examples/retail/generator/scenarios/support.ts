import { longDate } from '../dates.js';
import type { TicketCategory, TicketPriority } from '../world/types.js';
import { call, Deck, expectCall, merge, phrase } from './helpers.js';
import { sayTicketCreated, sayTicketList } from './saySupport.js';
import { sayTracking } from './sayShipping.js';
import type { CaseSpec, ScenarioContext } from './types.js';

const OPEN_Q = ['Show open tickets for {cid}.', 'Does {cid} have any open support tickets?', 'List the open tickets of customer {cid}.'];
const PROBLEMS: readonly (readonly [TicketCategory, string, string])[] = [
  ['product', 'the blender from order {order} is leaking', 'Blender leaking ({order})'],
  ['product', 'the headphones from {order} have a broken hinge', 'Broken hinge on headphones ({order})'],
  ['shipping', 'order {order} was delivered to a neighbour and never handed over', 'Parcel delivered to neighbour ({order})'],
  ['shipping', 'the box for {order} arrived crushed', 'Crushed box on {order}'],
  ['billing', 'they were charged twice for order {order}', 'Double charge on {order}'],
  ['billing', 'the invoice for {order} shows the wrong billing address', 'Wrong billing address on invoice for {order}'],
];
const PRIORITY_WORDS: Record<TicketPriority, string> = {
  low: 'Low priority.',
  normal: '',
  high: 'Make it high priority.',
  urgent: 'This is urgent.',
};

export function supportScenarios(ctx: ScenarioContext): CaseSpec[] {
  const { world, rng } = ctx;
  const out: CaseSpec[] = [];
  const push = (spec: Omit<CaseSpec, 'category'>): void => void out.push({ ...spec, category: 'support' });
  const withTickets = new Deck(rng, [...new Set(world.tickets.map((t) => t.customer_id))]);
  const customersWithOrders = new Deck(
    rng,
    world.customers.filter((c) => world.orders.some((o) => o.customer_id === c.customer_id)),
  );
  const latestOrder = (cid: string) => world.orders.filter((o) => o.customer_id === cid).at(-1)!;

  for (let i = 0; i < 8; i++) {
    const cid = withTickets.draw();
    push({
      kind: 'support.open_for_customer',
      complexity: 2,
      tags: ['support', 'filters'],
      question: phrase(rng, OPEN_Q, { cid }),
      calls: [call('list_support_tickets', { customer_id: cid, status: 'open' })],
      answer: ([r]) => sayTicketList(r, `open tickets for ${cid}`),
    });
  }
  for (let i = 0; i < 10; i++) {
    const customer = customersWithOrders.draw();
    const order = latestOrder(customer.customer_id).order_id;
    const [category, problem, subject] = rng.pick(PROBLEMS);
    const priority = rng.pick(['normal', 'normal', 'high', 'urgent', 'low'] as const);
    const args = { customer_id: customer.customer_id, subject: subject.replace('{order}', order), category, order_id: order };
    const c = call('create_support_ticket', priority === 'normal' ? args : { ...args, priority });
    push({
      kind: 'support.create',
      complexity: 3,
      tags: ['support', 'write'],
      question: `Open a ticket for ${customer.customer_id}: ${problem.replace('{order}', order)}. ${PRIORITY_WORDS[priority]}`.trim(),
      calls: [c],
      expected: [expectCall(c, { subject: { $any: true }, description: { $optional: true, $any: true } })],
      answer: ([r], ref) => sayTicketCreated(r, ref),
    });
  }
  for (let i = 0; i < 8; i++) {
    const priority = rng.pick(['urgent', 'high'] as const);
    const category = rng.pick(['billing', 'shipping', 'product'] as const);
    const since = rng.pick(['2026-09-01', '2026-09-15', '2026-10-01']);
    const open = rng.chance(0.5);
    const args = { priority, category, created_after: since, ...(open ? { status: 'open' } : {}) };
    push({
      kind: 'support.filtered',
      complexity: 3,
      tags: ['support', 'filters', 'dates'],
      question: `List ${open ? 'open ' : ''}${priority} ${category} tickets created since ${longDate(since)}.`,
      calls: [call('list_support_tickets', args)],
      answer: ([r]) => sayTicketList(r, `${open ? 'open ' : ''}${priority} ${category} tickets created since ${since}`),
    });
  }
  for (let i = 0; i < 4; i++) {
    const n = rng.pick([3, 5, 10]);
    push({
      kind: 'support.recent',
      complexity: 1,
      tags: ['support', 'lookup'],
      question: rng.pick([
        `Show the ${n} most recent support tickets.`,
        `Latest ${n} tickets?`,
        `What are the last ${n} tickets that came in?`,
      ]),
      calls: [call('list_support_tickets', { limit: n })],
      answer: ([r]) => sayTicketList(r, `the ${n} most recent tickets`),
    });
  }
  for (let i = 0; i < 3; i++) {
    const [a, b] = [withTickets.draw(), withTickets.draw()];
    push({
      kind: 'support.two_customers',
      complexity: 4,
      tags: ['support', 'parallel', 'filters'],
      question: `Do ${a} or ${b} have open tickets?`,
      calls: [
        call('list_support_tickets', { customer_id: a, status: 'open' }),
        call('list_support_tickets', { customer_id: b, status: 'open' }),
      ],
      answer: ([ra, rb]) => merge(sayTicketList(ra, `open tickets for ${a}`), sayTicketList(rb, `open tickets for ${b}`)),
    });
  }
  const inTransit = new Deck(
    rng,
    world.orders.filter((o) => o.shipment),
  );
  for (let i = 0; i < 4; i++) {
    const o = inTransit.draw();
    const ticket = call('create_support_ticket', {
      customer_id: o.customer_id,
      subject: `Order ${o.order_id} not received`,
      category: 'shipping',
      priority: 'urgent',
      order_id: o.order_id,
    });
    const calls = [
      call('get_shipment_tracking', { tracking_number: o.shipment!.tracking_number }),
      call('list_support_tickets', { customer_id: o.customer_id, status: 'open' }),
      ticket,
    ];
    push({
      kind: 'support.escalation',
      complexity: 5,
      tags: ['support', 'shipping', 'write', 'parallel', 'multi-tool'],
      question: `Customer ${o.customer_id} says order ${o.order_id} never arrived. Check tracking ${o.shipment!.tracking_number}, look at their open tickets, and open an urgent shipping ticket.`,
      calls,
      expected: [
        expectCall(calls[0]!, { carrier: { $optional: true, $value: o.shipment!.carrier } }),
        expectCall(calls[1]!),
        expectCall(ticket, { subject: { $any: true }, description: { $optional: true, $any: true } }),
      ],
      answer: ([rt, rl, rc], ref) =>
        merge(sayTracking(rt, ref), sayTicketList(rl, `open tickets for ${o.customer_id}`), sayTicketCreated(rc, ref)),
    });
  }
  return out;
}
