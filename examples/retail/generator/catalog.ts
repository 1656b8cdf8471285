import { ToolCatalogSchema, type ToolCatalog } from '../../../lib/domain/index.js';
import {
  CATEGORIES,
  CARRIERS,
  ORDER_STATUSES,
  REFUND_METHODS,
  REFUND_REASONS,
  REFUND_STATUSES,
  REGIONS,
  TICKET_CATEGORIES,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  WAREHOUSES,
} from './world/types.js';

export const CATALOG_NAME = 'retail';
export const TOOL_SCHEMA_VERSION = '2026-10';

const orderId = { type: 'string', pattern: '^ORD-[0-9]{6}$', description: 'Order id, e.g. "ORD-104233".' };
const customerId = { type: 'string', pattern: '^CUS-[0-9]{5}$', description: 'Customer id, e.g. "CUS-10482".' };
const sku = { type: 'string', pattern: '^SKU-[A-Z0-9]{6}$', description: 'Stock-keeping unit, e.g. "SKU-4KX2P9".' };
const date = (what: string) => ({ type: 'string', format: 'date', description: `${what} (ISO 8601 date, YYYY-MM-DD).` });
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** The retail API as a native tool catalog: 14 tools over orders, products, shipping, refunds, support, analytics. */
export const RETAIL_CATALOG: ToolCatalog = ToolCatalogSchema.parse({
  name: CATALOG_NAME,
  tool_schema_version: TOOL_SCHEMA_VERSION,
  description: 'Back-office API of an online retailer (orders, customers, catalog, inventory, shipping, refunds, support, analytics).',
  tools: [
    {
      name: 'get_order',
      description: 'Fetch one order: status, totals, shipping address and tracking. Set include_items to list its line items.',
      parameters: object(
        { order_id: orderId, include_items: { type: 'boolean', default: false, description: 'Also return the line items.' } },
        ['order_id'],
      ),
      http: { method: 'GET', path: '/v2/orders/{order_id}' },
    },
    {
      name: 'search_orders',
      description: 'Search orders by customer, status, date placed and total. Returns order summaries, newest first by default.',
      parameters: object({
        customer_id: customerId,
        status: { type: 'string', enum: [...ORDER_STATUSES] },
        placed_after: date('Orders placed on or after this day'),
        placed_before: date('Orders placed on or before this day'),
        min_total: { type: 'number', minimum: 0, description: 'Minimum order total in USD.' },
        sort: { type: 'string', enum: ['newest', 'oldest', 'total_desc', 'total_asc'], default: 'newest' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      }),
      http: { method: 'GET', path: '/v2/orders' },
    },
    {
      name: 'get_customer',
      description: 'Fetch a customer profile with order count, lifetime value and open tickets.',
      parameters: object({ customer: { type: 'string', minLength: 3, description: 'Customer id ("CUS-10482") or email address.' } }, [
        'customer',
      ]),
      http: { method: 'GET', path: '/v2/customers/{customer}' },
    },
    {
      name: 'search_products',
      description: 'Search the product catalog by text, category, price range and brand.',
      parameters: object({
        query: { type: 'string', minLength: 2, description: 'Free-text search, e.g. "wireless headphones".' },
        category: { type: 'string', enum: [...CATEGORIES] },
        price_range: {
          type: 'object',
          description: 'Price bounds in USD, inclusive.',
          properties: { min: { type: 'number', minimum: 0 }, max: { type: 'number', minimum: 0 } },
          additionalProperties: false,
          minProperties: 1,
        },
        brands: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 5, description: 'Only these brands.' },
        in_stock_only: { type: 'boolean', default: false },
        sort: { type: 'string', enum: ['relevance', 'price_asc', 'price_desc', 'rating', 'newest'], default: 'relevance' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      }),
      http: { method: 'GET', path: '/v2/products' },
    },
    {
      name: 'get_inventory',
      description: 'Current stock of a product per warehouse (on hand, reserved, available) and the next restock date.',
      parameters: object({ sku, warehouse: { type: 'string', enum: [...WAREHOUSES], description: 'Only this warehouse.' } }, ['sku']),
      http: { method: 'GET', path: '/v2/inventory/{sku}' },
    },
    {
      name: 'get_shipment_tracking',
      description: 'Tracking status of a parcel. The carrier is detected from the number when omitted.',
      parameters: object(
        { tracking_number: { type: 'string', minLength: 10, maxLength: 34 }, carrier: { type: 'string', enum: [...CARRIERS] } },
        ['tracking_number'],
      ),
      http: { method: 'GET', path: '/v2/shipments/{tracking_number}' },
    },
    {
      name: 'get_shipping_quote',
      description: 'Price and transit time to ship a parcel from our warehouses to an address.',
      parameters: object(
        {
          destination: object(
            {
              country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code.' },
              postal_code: { type: 'string', minLength: 2, maxLength: 10 },
            },
            ['country', 'postal_code'],
          ),
          weight_kg: { type: 'number', exclusiveMinimum: 0, maximum: 70 },
          service_level: { type: 'string', enum: ['standard', 'express', 'overnight'], default: 'standard' },
          declared_value: { type: 'number', minimum: 0, description: 'Insured value in USD.' },
        },
        ['destination', 'weight_kg'],
      ),
      http: { method: 'POST', path: '/v3/shipping/quotes' },
    },
    {
      name: 'issue_refund',
      description: 'Refund all or part of an order. Amounts may be numbers or decimal strings such as "25.50".',
      parameters: object(
        {
          order_id: orderId,
          amount: {
            type: ['number', 'string'],
            minimum: 0.01,
            pattern: '^[0-9]+(\\.[0-9]{1,2})?$',
            description: 'Amount in the order currency.',
          },
          reason: { type: 'string', enum: [...REFUND_REASONS] },
          refund_method: { type: 'string', enum: [...REFUND_METHODS], default: 'original_payment' },
          notify_customer: { type: 'boolean', default: true, description: 'Email the customer a confirmation.' },
        },
        ['order_id', 'amount', 'reason'],
      ),
      http: { method: 'POST', path: '/v2/orders/{order_id}/refunds' },
    },
    {
      name: 'get_refund_status',
      description: 'Status of one refund.',
      parameters: object({ refund_id: { type: 'string', pattern: '^RF-[0-9]{6}$', description: 'Refund id, e.g. "RF-200341".' } }, [
        'refund_id',
      ]),
      http: { method: 'GET', path: '/v2/refunds/{refund_id}' },
    },
    {
      name: 'list_refunds',
      description: 'List refunds by order, customer, status and creation date, with their total.',
      parameters: object({
        order_id: orderId,
        customer_id: customerId,
        status: { type: 'string', enum: [...REFUND_STATUSES] },
        created_after: date('Refunds created on or after this day'),
        created_before: date('Refunds created on or before this day'),
      }),
      http: { method: 'GET', path: '/v2/refunds' },
    },
    {
      name: 'create_support_ticket',
      description: 'Open a support ticket for a customer.',
      parameters: object(
        {
          customer_id: customerId,
          subject: { type: 'string', minLength: 5, maxLength: 120 },
          category: { type: 'string', enum: [...TICKET_CATEGORIES] },
          priority: { type: 'string', enum: [...TICKET_PRIORITIES], default: 'normal' },
          order_id: orderId,
          description: { type: 'string', maxLength: 2000 },
        },
        ['customer_id', 'subject', 'category'],
      ),
      http: { method: 'POST', path: '/v2/tickets' },
    },
    {
      name: 'list_support_tickets',
      description: 'List support tickets, newest first.',
      parameters: object({
        customer_id: customerId,
        status: { type: 'string', enum: [...TICKET_STATUSES] },
        priority: { type: 'string', enum: [...TICKET_PRIORITIES] },
        category: { type: 'string', enum: [...TICKET_CATEGORIES] },
        created_after: date('Tickets created on or after this day'),
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      }),
      http: { method: 'GET', path: '/v2/tickets' },
    },
    {
      name: 'get_sales_summary',
      description: 'Sales totals for a date range, optionally for one region and broken down by day, week or month.',
      parameters: object(
        {
          start_date: date('First day'),
          end_date: date('Last day, inclusive'),
          region: { type: 'string', enum: [...REGIONS] },
          granularity: { type: 'string', enum: ['total', 'day', 'week', 'month'], default: 'total' },
          metrics: {
            type: 'array',
            items: { type: 'string', enum: ['revenue', 'orders', 'units', 'aov', 'refunds'] },
            uniqueItems: true,
            minItems: 1,
            description: 'Metrics to return (default: all).',
          },
        },
        ['start_date', 'end_date'],
      ),
      http: { method: 'GET', path: '/v3/analytics/sales' },
    },
    {
      name: 'get_top_products',
      description: 'Best-selling products in a date range by revenue or units.',
      parameters: object(
        {
          start_date: date('First day'),
          end_date: date('Last day, inclusive'),
          metric: { type: 'string', enum: ['revenue', 'units'], default: 'revenue' },
          limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
          category: { type: 'string', enum: [...CATEGORIES] },
        },
        ['start_date', 'end_date'],
      ),
      http: { method: 'GET', path: '/v3/analytics/top-products' },
    },
  ],
});

export type ToolName =
  | 'get_order'
  | 'search_orders'
  | 'get_customer'
  | 'search_products'
  | 'get_inventory'
  | 'get_shipment_tracking'
  | 'get_shipping_quote'
  | 'issue_refund'
  | 'get_refund_status'
  | 'list_refunds'
  | 'create_support_ticket'
  | 'list_support_tickets'
  | 'get_sales_summary'
  | 'get_top_products';

/** The JSON Schema of one argument of a tool (undefined when the tool or argument is unknown). */
export function argumentSchema(tool: string, arg: string): Record<string, unknown> | undefined {
  const def = RETAIL_CATALOG.tools.find((t) => t.name === tool);
  const props = def?.parameters['properties'] as Record<string, Record<string, unknown>> | undefined;
  return props?.[arg];
}
