/** The shapes of the API's response bodies, as the answer builders read them. */

export interface OrderView {
  order_id: string;
  customer_id: string;
  status: string;
  placed_at: string;
  item_count: number;
  total: number;
  tracking: { carrier: string; tracking_number: string; status: string } | null;
  items?: { sku: string; name: string; quantity: number; unit_price: number }[];
}

export interface OrderSearchView {
  total_count: number;
  orders: { order_id: string; status: string; placed_on: string; total: number }[];
}

export interface CustomerView {
  customer_id: string;
  name: string;
  email: string;
  tier: string;
  country: string;
  order_count: number;
  lifetime_value: number;
  open_tickets: number;
}

export interface ProductSearchView {
  total_count: number;
  products: { sku: string; name: string; brand: string; price: number; rating: number; in_stock: boolean }[];
}

export interface InventoryView {
  sku: string;
  name: string;
  total_available: number;
  warehouses: { warehouse: string; on_hand: number; reserved: number; available: number }[];
  restock_date: string | null;
}

export interface TrackingView {
  tracking_number: string;
  carrier: string;
  status: string;
  order_id: string;
  destination: string;
  estimated_delivery: string;
  delivered_on: string | null;
  last_event: { description: string; location: string };
}

export interface QuoteView {
  service_level: string;
  carrier: string;
  price: number;
  insurance: number;
  transit_days: { min: number; max: number };
  quote_id: string;
}

export interface RefundIssuedView {
  refund_id: string;
  order_id: string;
  amount: number;
  method: string;
  status: string;
  remaining_refundable: number;
  estimated_settlement_days: number;
}

export interface RefundView {
  refund_id: string;
  order_id: string;
  amount: number;
  status: string;
  created_on: string;
  processed_on?: string | null;
  reason?: string;
  method?: string;
}

export interface RefundListView {
  total_count: number;
  total_amount: number;
  refunds: RefundView[];
}

export interface TicketCreatedView {
  ticket_id: string;
  category: string;
  priority: string;
  assigned_team: string;
}

export interface TicketListView {
  total_count: number;
  tickets: { ticket_id: string; subject: string; status: string; priority: string; category: string; customer_id: string }[];
}

export interface SalesView {
  start_date: string;
  end_date: string;
  region: string;
  totals: Partial<Record<'revenue' | 'orders' | 'units' | 'aov' | 'refunds', number>>;
  series?: ({ period: string } & Partial<Record<'revenue' | 'orders' | 'units' | 'aov' | 'refunds', number>>)[];
}

export interface TopProductsView {
  metric: string;
  products: { rank: number; sku: string; name: string; units: number; revenue: number }[];
}
