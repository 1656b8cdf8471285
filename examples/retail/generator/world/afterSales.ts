import { addDays, daysBetween, instant, TODAY } from '../dates.js';
import { Prng, round2 } from '../prng.js';
import type { Customer, Order, Refund, RefundReason, RefundStatus, Ticket, TicketCategory, TicketPriority, TicketStatus } from './types.js';

const REFUND_SHARE = 0.16;
const TICKET_COUNT = 96;

/** Refunds on delivered and returned orders: returned ones are refunded in full, others in part. */
export function buildRefunds(rng: Prng, orders: Order[]): Refund[] {
  const out: Refund[] = [];
  for (const order of orders) {
    const returned = order.status === 'returned';
    if (!returned && !(order.status === 'delivered' && rng.chance(REFUND_SHARE))) continue;
    const createdOn = addDays(order.shipment?.delivered_on ?? order.placed_on, rng.int(1, 9));
    if (createdOn > TODAY) continue;
    const age = daysBetween(createdOn, TODAY);
    const reason: RefundReason = returned
      ? rng.pick(['changed_mind', 'defective', 'wrong_item'] as const)
      : rng.pick(['damaged', 'defective', 'late_delivery', 'not_received', 'wrong_item'] as const);
    const status: RefundStatus =
      age > 6
        ? rng.weighted([
            ['processed', 9],
            ['rejected', 1],
          ] as const)
        : age > 2
          ? 'approved'
          : 'requested';
    const cheapest = Math.min(...order.items.map((it) => it.unit_price));
    out.push({
      refund_id: `RF-${200_100 + out.length * 7 + rng.int(0, 6)}`,
      order_id: order.order_id,
      customer_id: order.customer_id,
      amount: returned
        ? order.total
        : round2(Math.min(order.total, rng.chance(0.5) ? cheapest : cheapest * rng.pick([0.2, 0.25, 0.3, 0.5]))),
      reason,
      method: rng.chance(0.75) ? 'original_payment' : 'store_credit',
      status,
      created_on: createdOn,
      processed_on: status === 'processed' ? addDays(createdOn, rng.int(2, 5)) : null,
    });
  }
  return out;
}

const SUBJECTS: Readonly<Record<TicketCategory, readonly string[]>> = {
  billing: [
    'Charged twice for my order',
    'Invoice shows the wrong VAT number',
    'Promo code was not applied',
    'Refund has not arrived on my card',
  ],
  shipping: ['Package stuck in transit', 'Delivery left at the wrong address', 'Tracking has not updated for days', 'Box arrived crushed'],
  product: ['Item stopped working after a week', 'Missing parts in the box', 'Screen has dead pixels', 'Lid does not seal properly'],
  account: ['Cannot reset my password', 'Please update my email address', 'Two-factor codes never arrive', 'Merge my two accounts'],
  other: ['Question about gift wrapping', 'Request for a bulk quote', 'Feedback on the new checkout', 'Store hours over the holidays'],
};

/** Support tickets over the last 60 days; recent ones are still open. */
export function buildTickets(rng: Prng, customers: Customer[], orders: Order[]): Ticket[] {
  const out: Ticket[] = [];
  for (let i = 0; i < TICKET_COUNT; i++) {
    const createdOn = addDays(TODAY, -rng.int(0, 60));
    const age = daysBetween(createdOn, TODAY);
    const category = rng.weighted([
      ['shipping', 4],
      ['product', 3],
      ['billing', 3],
      ['account', 2],
      ['other', 1],
    ] as const);
    const customer = rng.pick(customers);
    const theirOrders = orders.filter((o) => o.customer_id === customer.customer_id && o.placed_on <= createdOn);
    const order = category === 'shipping' || category === 'product' || category === 'billing' ? theirOrders.at(-1) : undefined;
    const status: TicketStatus =
      age <= 3
        ? rng.weighted([
            ['open', 4],
            ['pending', 1],
          ] as const)
        : age <= 14
          ? rng.weighted([
              ['open', 2],
              ['pending', 2],
              ['solved', 3],
            ] as const)
          : rng.weighted([
              ['solved', 3],
              ['closed', 5],
              ['pending', 0.5],
            ] as const);
    const priority: TicketPriority = rng.weighted([
      ['low', 2],
      ['normal', 5],
      ['high', 2],
      ['urgent', 0.8],
    ] as const);
    out.push({
      ticket_id: `TCK-${30_000 + i * 11 + rng.int(0, 9)}`,
      customer_id: customer.customer_id,
      order_id: order?.order_id ?? null,
      subject: rng.pick(SUBJECTS[category]),
      category,
      priority,
      status,
      created_at: createdOn === TODAY ? instant(createdOn, rng.int(6 * 60, 9 * 60)) : instant(createdOn, rng.int(7 * 60, 22 * 60)),
    });
  }
  return out;
}
