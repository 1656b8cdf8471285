import { addDays, daysBetween, instant, TODAY } from '../dates.js';
import { BASE62, Prng, round2 } from '../prng.js';
import { FIRST_NAMES, LAST_NAMES, PLACES, PRODUCT_LIST } from './productList.js';
import { buildRefunds, buildTickets } from './afterSales.js';
import { WAREHOUSES, type Carrier, type Customer, type Order, type OrderStatus, type Product, type Shipment, type World } from './types.js';

const CUSTOMER_COUNT = 60;
const ORDER_COUNT = 420;
const FIRST_ORDER_DAY = '2026-05-01';
const SKU_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Builds the whole store from one seed. Entities only; API responses are derived from them in ../api. */
export function buildWorld(rng: Prng): World {
  const customers = buildCustomers(rng.fork('customers'));
  const products = buildProducts(rng.fork('products'));
  const orders = buildOrders(rng.fork('orders'), customers, products);
  const refunds = buildRefunds(rng.fork('refunds'), orders);
  const tickets = buildTickets(rng.fork('tickets'), customers, orders);
  return {
    customers,
    products,
    orders,
    refunds,
    tickets,
    byCustomerId: new Map(customers.map((c) => [c.customer_id, c])),
    byEmail: new Map(customers.map((c) => [c.email, c])),
    bySku: new Map(products.map((p) => [p.sku, p])),
    byOrderId: new Map(orders.map((o) => [o.order_id, o])),
    byTracking: new Map(orders.filter((o) => o.shipment).map((o) => [o.shipment!.tracking_number, o])),
    byRefundId: new Map(refunds.map((r) => [r.refund_id, r])),
  };
}

function buildCustomers(rng: Prng): Customer[] {
  const names = new Set<string>();
  const out: Customer[] = [];
  while (out.length < CUSTOMER_COUNT) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    if (names.has(`${first} ${last}`)) continue;
    names.add(`${first} ${last}`);
    const [city, country] = rng.pick(PLACES);
    const domain = rng.pick(['example.com', 'mail.example.org', 'example.net']);
    out.push({
      customer_id: `CUS-${10_000 + rng.int(1, 899) * 10 + (out.length % 10)}`,
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}.${last.toLowerCase()}@${domain}`,
      tier: rng.weighted([
        ['standard', 6],
        ['plus', 3],
        ['vip', 1],
      ] as const),
      country,
      city,
      member_since: addDays('2019-01-01', rng.int(0, 2500)),
    });
  }
  return dedupeIds(out);
}

/** customer ids must be unique: bump collisions */
function dedupeIds(customers: Customer[]): Customer[] {
  const seen = new Set<string>();
  for (const c of customers) {
    let n = Number(c.customer_id.slice(4));
    while (seen.has(`CUS-${n}`)) n += 7;
    c.customer_id = `CUS-${n}`;
    seen.add(c.customer_id);
  }
  return customers;
}

function buildProducts(rng: Prng): Product[] {
  const skus = new Set<string>();
  return PRODUCT_LIST.map(([category, kind, name, brand, price, weight]) => {
    let sku: string;
    do sku = `SKU-${rng.chars(SKU_CHARS, 6)}`;
    while (skus.has(sku));
    skus.add(sku);
    const outOfStock = rng.chance(0.12);
    const stock = Object.fromEntries(
      WAREHOUSES.map((w) => [
        w,
        outOfStock ? 0 : w === 'rotterdam' ? rng.int(0, 60) : rng.int(0, 4) === 0 ? rng.int(0, 8) : rng.int(12, 240),
      ]),
    ) as Product['stock'];
    return {
      sku,
      name,
      kind,
      brand,
      category,
      price,
      rating: Math.round((3.4 + rng.next() * 1.5) * 10) / 10,
      review_count: rng.int(8, 2400),
      weight_kg: weight,
      stock,
      restock_date: outOfStock ? addDays(TODAY, rng.int(5, 30)) : null,
    };
  });
}

function buildOrders(rng: Prng, customers: Customer[], products: Product[]): Order[] {
  const span = daysBetween(FIRST_ORDER_DAY, addDays(TODAY, -1));
  const days = Array.from({ length: ORDER_COUNT }, () => addDays(FIRST_ORDER_DAY, rng.int(0, span))).sort();
  return days.map((placedOn, i) => {
    const customer = rng.weighted(customers.map((c) => [c, c.tier === 'vip' ? 4 : c.tier === 'plus' ? 2 : 1] as const));
    const items = rng
      .sample(
        products,
        rng.weighted([
          [1, 5],
          [2, 3],
          [3, 2],
          [4, 1],
        ] as const),
      )
      .map((p) => ({
        sku: p.sku,
        name: p.name,
        quantity: p.price < 60 ? rng.int(1, 3) : 1,
        unit_price: p.price,
      }));
    const subtotal = round2(items.reduce((s, it) => s + it.quantity * it.unit_price, 0));
    const shipping = subtotal >= 75 ? 0 : 6.99;
    const tax = round2(subtotal * (customer.country === 'US' ? 0.0825 : 0));
    const status = statusFor(rng, daysBetween(placedOn, TODAY));
    const order: Order = {
      order_id: `ORD-${104_000 + i * 3 + rng.int(0, 2)}`,
      customer_id: customer.customer_id,
      status,
      placed_at: instant(placedOn, rng.int(6 * 60, 23 * 60)),
      placed_on: placedOn,
      items,
      subtotal,
      shipping,
      tax,
      total: round2(subtotal + shipping + tax),
      city: customer.city,
      country: customer.country,
      shipment: null,
    };
    order.shipment = shipmentFor(rng, order);
    return order;
  });
}

function statusFor(rng: Prng, age: number): OrderStatus {
  if (age <= 1)
    return rng.weighted([
      ['pending', 1],
      ['paid', 3],
    ] as const);
  if (age <= 6)
    return rng.weighted([
      ['paid', 1],
      ['shipped', 6],
      ['cancelled', 0.4],
    ] as const);
  if (age <= 12)
    return rng.weighted([
      ['shipped', 3],
      ['delivered', 6],
      ['cancelled', 0.5],
    ] as const);
  return rng.weighted([
    ['delivered', 85],
    ['cancelled', 7],
    ['returned', 6],
  ] as const);
}

function shipmentFor(rng: Prng, order: Order): Shipment | null {
  if (order.status === 'pending' || order.status === 'paid' || order.status === 'cancelled') return null;
  const international = order.country !== 'US';
  const carrier: Carrier = international ? 'dhl' : rng.pick(['ups', 'fedex', 'usps'] as const);
  const shippedOn = addDays(order.placed_on, rng.int(1, 2));
  const transit = international ? rng.int(4, 7) : rng.int(2, 5);
  const eta = addDays(shippedOn, transit);
  const delivered = order.status !== 'shipped';
  const inFlight = !delivered && eta <= addDays(TODAY, 0) ? 'out_for_delivery' : 'in_transit';
  return {
    tracking_number: trackingNumber(rng, carrier),
    carrier,
    status: delivered ? 'delivered' : inFlight,
    shipped_on: shippedOn,
    estimated_delivery: eta,
    delivered_on: delivered ? addDays(eta, rng.int(-1, 1)) : null,
    origin: international ? 'Rotterdam, NL' : rng.pick(['Reno, NV', 'Columbus, OH', 'Atlanta, GA']),
    last_location: delivered ? order.city : rng.pick(['Memphis, TN', 'Louisville, KY', 'Indianapolis, IN', 'Leipzig, DE', order.city]),
  };
}

function trackingNumber(rng: Prng, carrier: Carrier): string {
  switch (carrier) {
    case 'ups':
      return `1Z${rng.chars('0123456789ABCDEFGHJKLMNPRSTVWXY', 6)}${rng.chars('0123456789', 10)}`;
    case 'fedex':
      return rng.chars('0123456789', 12);
    case 'usps':
      return `9400${rng.chars('0123456789', 18)}`;
    case 'dhl':
      return `JD${rng.chars('0123456789', 16)}`;
  }
}

/** an opaque id with a prefix, e.g. `req_8fK2...` */
export function opaqueId(rng: Prng, prefix: string, length = 16): string {
  return `${prefix}${rng.chars(BASE62, length)}`;
}
