/** The fictional retailer behind the sample API: customers, products, orders, refunds, tickets. */

export const CATEGORIES = ['electronics', 'audio', 'home', 'kitchen', 'outdoor', 'apparel', 'toys', 'beauty'] as const;
export type ProductCategory = (typeof CATEGORIES)[number];

export const WAREHOUSES = ['reno', 'columbus', 'atlanta', 'rotterdam'] as const;
export type Warehouse = (typeof WAREHOUSES)[number];

export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'returned'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CARRIERS = ['ups', 'fedex', 'usps', 'dhl'] as const;
export type Carrier = (typeof CARRIERS)[number];

export const REFUND_REASONS = ['damaged', 'defective', 'wrong_item', 'not_received', 'late_delivery', 'changed_mind'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
export const REFUND_METHODS = ['original_payment', 'store_credit'] as const;
export const REFUND_STATUSES = ['requested', 'approved', 'processed', 'rejected'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const TICKET_CATEGORIES = ['billing', 'shipping', 'product', 'account', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const TICKET_STATUSES = ['open', 'pending', 'solved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const REGIONS = ['na', 'emea', 'apac', 'latam'] as const;
export type Region = (typeof REGIONS)[number];

export interface Customer {
  customer_id: string;
  name: string;
  email: string;
  tier: 'standard' | 'plus' | 'vip';
  country: string;
  city: string;
  member_since: string;
}

export interface Product {
  sku: string;
  name: string;
  /** the noun people search for: "headphones", "tent" */
  kind: string;
  brand: string;
  category: ProductCategory;
  price: number;
  rating: number;
  review_count: number;
  weight_kg: number;
  /** units on hand per warehouse at authoring time */
  stock: Record<Warehouse, number>;
  restock_date: string | null;
}

export interface OrderItem {
  sku: string;
  name: string;
  quantity: number;
  unit_price: number;
}

export interface Order {
  order_id: string;
  customer_id: string;
  status: OrderStatus;
  placed_at: string;
  placed_on: string;
  items: OrderItem[];
  subtotal: number;
  shipping: number;
  tax: number;
  total: number;
  city: string;
  country: string;
  shipment: Shipment | null;
}

export interface Shipment {
  tracking_number: string;
  carrier: Carrier;
  status: 'label_created' | 'in_transit' | 'out_for_delivery' | 'delivered';
  shipped_on: string;
  estimated_delivery: string;
  delivered_on: string | null;
  origin: string;
  last_location: string;
}

export interface Refund {
  refund_id: string;
  order_id: string;
  customer_id: string;
  amount: number;
  reason: RefundReason;
  method: (typeof REFUND_METHODS)[number];
  status: RefundStatus;
  created_on: string;
  processed_on: string | null;
}

export interface Ticket {
  ticket_id: string;
  customer_id: string;
  order_id: string | null;
  subject: string;
  category: TicketCategory;
  priority: TicketPriority;
  status: TicketStatus;
  created_at: string;
}

export interface World {
  customers: Customer[];
  products: Product[];
  orders: Order[];
  refunds: Refund[];
  tickets: Ticket[];
  byCustomerId: Map<string, Customer>;
  byEmail: Map<string, Customer>;
  bySku: Map<string, Product>;
  byOrderId: Map<string, Order>;
  byTracking: Map<string, Order>;
  byRefundId: Map<string, Refund>;
}
