/** The retail environment's state: collections keyed by id, so the order records were created in never matters. */
export interface RetailCustomer {
  id: string;
  name: string;
  email: string;
  phone: string;
  tier: 'standard' | 'gold';
}
export interface RetailOrderItem {
  sku: string;
  quantity: number;
  unit_price: number;
}
export interface RetailOrder {
  id: string;
  customer_id: string;
  status: 'placed' | 'shipped' | 'delivered' | 'cancelled';
  placed_on: string;
  items: RetailOrderItem[];
  total: number;
  refunded_total: number;
  cancel_reason?: string;
}
export interface RetailRefund {
  id: string;
  order_id: string;
  amount: number;
  reason: string;
}
export interface RetailStockItem {
  sku: string;
  name: string;
  price: number;
  on_hand: number;
  reserved: number;
}
export interface RetailTicket {
  id: string;
  customer_id: string;
  subject: string;
  status: 'open' | 'closed';
  priority: 'low' | 'normal' | 'high';
  order_id?: string;
}
export interface RetailState {
  customers: Record<string, RetailCustomer>;
  orders: Record<string, RetailOrder>;
  refunds: Record<string, RetailRefund>;
  inventory: Record<string, RetailStockItem>;
  tickets: Record<string, RetailTicket>;
}

const CUSTOMERS: RetailCustomer[] = [
  { id: 'CUS-1001', name: 'Ann Lee', email: 'ann@example.com', phone: '+1-555-0101', tier: 'gold' },
  { id: 'CUS-1002', name: 'Bo Chen', email: 'bo@example.com', phone: '+1-555-0102', tier: 'standard' },
  { id: 'CUS-1003', name: 'Cara Diaz', email: 'cara@example.com', phone: '+1-555-0103', tier: 'standard' },
  { id: 'CUS-1004', name: 'Dev Patel', email: 'dev@example.com', phone: '+1-555-0104', tier: 'gold' },
];

const STOCK: RetailStockItem[] = [
  { sku: 'SKU-MUG', name: 'Stoneware mug', price: 12.5, on_hand: 40, reserved: 2 },
  { sku: 'SKU-KETTLE', name: 'Electric kettle', price: 39.9, on_hand: 8, reserved: 0 },
  { sku: 'SKU-TEA', name: 'Green tea, 100 bags', price: 7.25, on_hand: 120, reserved: 10 },
  { sku: 'SKU-PRESS', name: 'French press', price: 24, on_hand: 3, reserved: 1 },
  { sku: 'SKU-GRINDER', name: 'Burr grinder', price: 89, on_hand: 0, reserved: 0 },
];

function order(
  id: string,
  customer: string,
  status: RetailOrder['status'],
  placedOn: string,
  items: Array<[string, number]>,
  refunded = 0,
): RetailOrder {
  const lines = items.map(([sku, quantity]) => ({ sku, quantity, unit_price: STOCK.find((s) => s.sku === sku)!.price }));
  const total = Math.round(lines.reduce((sum, l) => sum + l.quantity * l.unit_price, 0) * 100) / 100;
  return { id, customer_id: customer, status, placed_on: placedOn, items: lines, total, refunded_total: refunded };
}

const ORDERS: RetailOrder[] = [
  order('ORD-5001', 'CUS-1001', 'delivered', '2026-09-02', [
    ['SKU-MUG', 2],
    ['SKU-TEA', 1],
  ]),
  order('ORD-5002', 'CUS-1001', 'shipped', '2026-10-11', [['SKU-KETTLE', 1]]),
  order('ORD-5003', 'CUS-1001', 'placed', '2026-11-20', [
    ['SKU-PRESS', 1],
    ['SKU-MUG', 1],
  ]),
  order('ORD-5004', 'CUS-1002', 'delivered', '2026-08-15', [['SKU-TEA', 4]], 7.25),
  order('ORD-5005', 'CUS-1002', 'placed', '2026-11-22', [['SKU-KETTLE', 2]]),
  order('ORD-5006', 'CUS-1003', 'cancelled', '2026-10-01', [['SKU-MUG', 6]]),
  order('ORD-5007', 'CUS-1004', 'delivered', '2026-07-30', [
    ['SKU-PRESS', 1],
    ['SKU-TEA', 2],
  ]),
];

function keyed<T extends { id: string } | { sku: string }>(items: readonly T[]): Record<string, T> {
  return Object.fromEntries(items.map((item) => ['id' in item ? item.id : item.sku, structuredClone(item)]));
}

/** `default`: four customers, seven orders in every status, five stock items (one out of stock), two tickets, one refund. */
export function defaultRetailState(): RetailState {
  return {
    customers: keyed(CUSTOMERS),
    orders: keyed(ORDERS),
    refunds: { 'REF-ORD-5004-1': { id: 'REF-ORD-5004-1', order_id: 'ORD-5004', amount: 7.25, reason: 'damaged box' } },
    inventory: keyed(STOCK),
    tickets: {
      'TCK-CUS-1002-1': {
        id: 'TCK-CUS-1002-1',
        customer_id: 'CUS-1002',
        subject: 'Damaged tea box',
        status: 'closed',
        priority: 'normal',
        order_id: 'ORD-5004',
      },
      'TCK-CUS-1003-1': {
        id: 'TCK-CUS-1003-1',
        customer_id: 'CUS-1003',
        subject: 'Why was my order cancelled?',
        status: 'open',
        priority: 'low',
        order_id: 'ORD-5006',
      },
    },
  };
}

/** `low_stock`: the default state with every item nearly sold out (reservations fail with 409). */
export function lowStockRetailState(): RetailState {
  const state = defaultRetailState();
  for (const item of Object.values(state.inventory)) {
    item.on_hand = Math.min(item.on_hand, 1);
    item.reserved = 0;
  }
  return state;
}

/** `empty`: no customers, orders or tickets; the catalog of stock only. */
export function emptyRetailState(): RetailState {
  return { customers: {}, orders: {}, refunds: {}, inventory: keyed(STOCK), tickets: {} };
}
