import type { JsonObject, JsonValue } from '../../domain/index.js';
import { byId, cents, onlyKnown, optionalEnum, optionalString, requiredInteger, requiredNumber, requiredString } from '../args.js';
import { EnvironmentApiError, type EnvironmentOperation } from '../environment.js';
import type { RetailOrder, RetailState, RetailTicket } from './retailState.js';

type Op = (state: RetailState, args: JsonObject) => unknown;

const ORDER_STATUSES = ['placed', 'shipped', 'delivered', 'cancelled'] as const;
const TICKET_STATUSES = ['open', 'closed'] as const;
const PRIORITIES = ['low', 'normal', 'high'] as const;

function orderSummary(order: RetailOrder) {
  return { order_id: order.id, status: order.status, placed_on: order.placed_on, total: order.total };
}

function orderView(order: RetailOrder) {
  const { id, ...rest } = order;
  return { order_id: id, ...rest, refundable: cents(order.total - order.refunded_total) };
}

function ticketView(ticket: RetailTicket) {
  const { id, ...rest } = ticket;
  return { ticket_id: id, ...rest };
}

/** The next id under a parent (`REF-ORD-5001-2`): ids depend on the parent only, so work on different parents commutes. */
function nextId(collection: Record<string, unknown>, prefix: string): string {
  let n = 1;
  while (Object.prototype.hasOwnProperty.call(collection, `${prefix}-${n}`)) n++;
  return `${prefix}-${n}`;
}

const OPERATIONS: Record<string, Op> = {
  find_customer(state, args) {
    onlyKnown(args, ['email', 'name', 'phone']);
    const email = optionalString(args, 'email')?.trim().toLowerCase();
    const name = optionalString(args, 'name')?.trim().toLowerCase();
    const phone = optionalString(args, 'phone')?.replace(/[^\d+]/g, '');
    if (email === undefined && name === undefined && phone === undefined) {
      throw new EnvironmentApiError(400, 'missing_argument', 'one of email, name or phone is required');
    }
    const found = Object.values(state.customers).find(
      (c) =>
        (email === undefined || c.email.toLowerCase() === email) &&
        (name === undefined || c.name.toLowerCase() === name) &&
        (phone === undefined || c.phone.replace(/[^\d+]/g, '') === phone),
    );
    if (!found) throw new EnvironmentApiError(404, 'not_found', 'no customer matches');
    return { customer_id: found.id, name: found.name, email: found.email, tier: found.tier };
  },
  get_customer(state, args) {
    onlyKnown(args, ['customer_id']);
    const { id, ...rest } = byId(state.customers, requiredString(args, 'customer_id'), 'customer');
    return { customer_id: id, ...rest };
  },
  list_orders(state, args) {
    onlyKnown(args, ['customer_id', 'status']);
    const customer = byId(state.customers, requiredString(args, 'customer_id'), 'customer');
    const status = optionalEnum(args, 'status', ORDER_STATUSES);
    const orders = Object.values(state.orders)
      .filter((o) => o.customer_id === customer.id && (status === undefined || o.status === status))
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(orderSummary);
    return { customer_id: customer.id, orders };
  },
  get_order(state, args) {
    onlyKnown(args, ['order_id']);
    return orderView(byId(state.orders, requiredString(args, 'order_id'), 'order'));
  },
  cancel_order(state, args) {
    onlyKnown(args, ['order_id', 'reason']);
    const order = byId(state.orders, requiredString(args, 'order_id'), 'order');
    const reason = optionalString(args, 'reason');
    if (order.status !== 'placed') {
      throw new EnvironmentApiError(409, 'conflict', `order ${order.id} is ${order.status}; only a placed order can be cancelled`);
    }
    order.status = 'cancelled';
    if (reason !== undefined) order.cancel_reason = reason;
    for (const item of order.items) {
      const stock = state.inventory[item.sku];
      if (stock) stock.on_hand += item.quantity;
    }
    return orderView(order);
  },
  issue_refund(state, args) {
    onlyKnown(args, ['order_id', 'amount', 'reason']);
    const order = byId(state.orders, requiredString(args, 'order_id'), 'order');
    const amount = requiredNumber(args, 'amount');
    const reason = requiredString(args, 'reason');
    if (amount <= 0) throw new EnvironmentApiError(422, 'validation_error', 'amount must be positive');
    if (order.status === 'placed' || order.status === 'cancelled') {
      throw new EnvironmentApiError(
        409,
        'conflict',
        `order ${order.id} is ${order.status}; only a shipped or delivered order can be refunded`,
      );
    }
    const refundable = cents(order.total - order.refunded_total);
    if (cents(amount) > refundable) {
      throw new EnvironmentApiError(422, 'validation_error', `amount ${amount} exceeds the refundable ${refundable} of order ${order.id}`);
    }
    const id = nextId(state.refunds, `REF-${order.id}`);
    state.refunds[id] = { id, order_id: order.id, amount: cents(amount), reason };
    order.refunded_total = cents(order.refunded_total + amount);
    return { refund_id: id, order_id: order.id, amount: cents(amount), refundable: cents(order.total - order.refunded_total) };
  },
  list_refunds(state, args) {
    onlyKnown(args, ['order_id']);
    const order = byId(state.orders, requiredString(args, 'order_id'), 'order');
    const refunds = Object.values(state.refunds)
      .filter((r) => r.order_id === order.id)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(({ id, ...rest }) => ({ refund_id: id, ...rest }));
    return { order_id: order.id, refunds };
  },
  check_inventory(state, args) {
    onlyKnown(args, ['sku']);
    const item = byId(state.inventory, requiredString(args, 'sku'), 'item');
    return { ...item, available: item.on_hand - item.reserved };
  },
  reserve_stock(state, args) {
    onlyKnown(args, ['sku', 'quantity']);
    const item = byId(state.inventory, requiredString(args, 'sku'), 'item');
    const quantity = requiredInteger(args, 'quantity');
    if (quantity <= 0) throw new EnvironmentApiError(422, 'validation_error', 'quantity must be a positive integer');
    const available = item.on_hand - item.reserved;
    if (quantity > available) {
      throw new EnvironmentApiError(409, 'insufficient_stock', `only ${available} of ${item.sku} available, ${quantity} asked`);
    }
    item.reserved += quantity;
    return { sku: item.sku, reserved: quantity, available: available - quantity };
  },
  create_ticket(state, args) {
    onlyKnown(args, ['customer_id', 'subject', 'order_id', 'priority']);
    const customer = byId(state.customers, requiredString(args, 'customer_id'), 'customer');
    const subject = requiredString(args, 'subject');
    const orderId = optionalString(args, 'order_id');
    const priority = optionalEnum(args, 'priority', PRIORITIES) ?? 'normal';
    if (orderId !== undefined && byId(state.orders, orderId, 'order').customer_id !== customer.id) {
      throw new EnvironmentApiError(422, 'validation_error', `order ${orderId} does not belong to customer ${customer.id}`);
    }
    const id = nextId(state.tickets, `TCK-${customer.id}`);
    const ticket: RetailTicket = {
      id,
      customer_id: customer.id,
      subject,
      status: 'open',
      priority,
      ...(orderId ? { order_id: orderId } : {}),
    };
    state.tickets[id] = ticket;
    return ticketView(ticket);
  },
  update_ticket(state, args) {
    onlyKnown(args, ['ticket_id', 'status', 'priority']);
    const ticket = byId(state.tickets, requiredString(args, 'ticket_id'), 'ticket');
    const status = optionalEnum(args, 'status', TICKET_STATUSES);
    const priority = optionalEnum(args, 'priority', PRIORITIES);
    if (status === undefined && priority === undefined)
      throw new EnvironmentApiError(400, 'missing_argument', 'status or priority is required');
    if (status !== undefined) ticket.status = status;
    if (priority !== undefined) ticket.priority = priority;
    return ticketView(ticket);
  },
  list_tickets(state, args) {
    onlyKnown(args, ['customer_id', 'status']);
    const customer = byId(state.customers, requiredString(args, 'customer_id'), 'customer');
    const status = optionalEnum(args, 'status', TICKET_STATUSES);
    const tickets = Object.values(state.tickets)
      .filter((t) => t.customer_id === customer.id && (status === undefined || t.status === status))
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(ticketView);
    return { customer_id: customer.id, tickets };
  },
};

/** The operations over the JSON state (the state is a RetailState; results are JSON). */
export const RETAIL_OPERATIONS: Readonly<Record<string, EnvironmentOperation>> = Object.fromEntries(
  Object.entries(OPERATIONS).map(([name, op]) => [
    name,
    (state: JsonObject, args: JsonObject) => op(state as unknown as RetailState, args) as JsonValue,
  ]),
);
