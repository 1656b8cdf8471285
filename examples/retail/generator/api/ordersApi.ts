import type { JsonObject } from '../../../../lib/domain/index.js';
import { RECORDED_AT } from '../dates.js';
import { round2 } from '../prng.js';
import type { Customer, Order, World } from '../world/types.js';
import { apiError, num, ok, str, type ApiResult, type NormalizedArgs } from './types.js';
import { timeSensitive, volatileField } from './volatile.js';

export function getOrder(world: World, args: NormalizedArgs): ApiResult {
  const order = world.byOrderId.get(str(args, 'order_id') ?? '');
  if (!order) return apiError(404, 'order_not_found', `No order ${str(args, 'order_id')}.`);
  const data: JsonObject = {
    order_id: order.order_id,
    customer_id: order.customer_id,
    status: order.status,
    placed_at: order.placed_at,
    currency: 'USD',
    item_count: order.items.reduce((n, it) => n + it.quantity, 0),
    subtotal: order.subtotal,
    shipping: order.shipping,
    tax: order.tax,
    total: order.total,
    ship_to: { city: order.city, country: order.country },
    tracking: order.shipment
      ? { carrier: order.shipment.carrier, tracking_number: order.shipment.tracking_number, status: order.shipment.status }
      : null,
    updated_at: order.placed_at,
  };
  if (args['include_items'] === true) data['items'] = order.items.map((it) => ({ ...it }));
  return ok(data, [volatileField('/updated_at', RECORDED_AT)]);
}

const ORDER_SORTS: Record<string, (a: Order, b: Order) => number> = {
  newest: (a, b) => (a.placed_at < b.placed_at ? 1 : -1),
  oldest: (a, b) => (a.placed_at < b.placed_at ? -1 : 1),
  total_desc: (a, b) => b.total - a.total,
  total_asc: (a, b) => a.total - b.total,
};

export function searchOrders(world: World, args: NormalizedArgs): ApiResult {
  const customer = str(args, 'customer_id');
  const status = str(args, 'status');
  const after = str(args, 'placed_after');
  const before = str(args, 'placed_before');
  const minTotal = num(args, 'min_total');
  const matches = world.orders
    .filter((o) => (customer === undefined || o.customer_id === customer) && (status === undefined || o.status === status))
    .filter((o) => (after === undefined || o.placed_on >= after) && (before === undefined || o.placed_on <= before))
    .filter((o) => minTotal === undefined || o.total >= minTotal)
    .sort(ORDER_SORTS[str(args, 'sort') ?? 'newest']);
  const limit = num(args, 'limit') ?? 20;
  return ok({
    total_count: matches.length,
    orders: matches.slice(0, limit).map((o) => ({ order_id: o.order_id, status: o.status, placed_on: o.placed_on, total: o.total })),
  });
}

export function findCustomer(world: World, ref: string): Customer | undefined {
  return world.byCustomerId.get(ref.toUpperCase()) ?? world.byEmail.get(ref.trim().toLowerCase());
}

export function getCustomer(world: World, args: NormalizedArgs): ApiResult {
  const ref = str(args, 'customer') ?? '';
  const customer = findCustomer(world, ref);
  if (!customer) return apiError(404, 'customer_not_found', `No customer with id or email ${ref}.`);
  const orders = world.orders.filter((o) => o.customer_id === customer.customer_id);
  const open = world.tickets.filter((t) => t.customer_id === customer.customer_id && (t.status === 'open' || t.status === 'pending'));
  return ok(
    {
      customer_id: customer.customer_id,
      name: customer.name,
      email: customer.email,
      tier: customer.tier,
      country: customer.country,
      member_since: customer.member_since,
      order_count: orders.length,
      lifetime_value: round2(orders.filter((o) => o.status !== 'cancelled').reduce((s, o) => s + o.total, 0)),
      open_tickets: open.length,
    },
    [timeSensitive(customer.customer_id, '/open_tickets', open.length, 2, { integer: true, absolute: true })],
  );
}
