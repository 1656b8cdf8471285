import { ToolCatalogSchema, type ToolCatalog } from '../../domain/index.js';

const str = (description: string) => ({ type: 'string', description });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** The retail environment's tools, as a model sees them (catalog `retail-env`, version 1). */
export const RETAIL_CATALOG: ToolCatalog = ToolCatalogSchema.parse({
  name: 'retail-env',
  tool_schema_version: '1',
  description: 'The retail environment (lib/environments): customers, orders, refunds, inventory, support tickets.',
  tools: [
    {
      name: 'find_customer',
      description: 'Find a customer by email, full name or phone (at least one). Returns the customer id.',
      parameters: obj({ email: str('email address'), name: str('full name'), phone: str('phone number') }),
    },
    { name: 'get_customer', description: 'A customer by id.', parameters: obj({ customer_id: str('e.g. CUS-1001') }, ['customer_id']) },
    {
      name: 'list_orders',
      description: "A customer's orders (id, status, date, total), optionally of one status.",
      parameters: obj(
        { customer_id: str('e.g. CUS-1001'), status: { type: 'string', enum: ['placed', 'shipped', 'delivered', 'cancelled'] } },
        ['customer_id'],
      ),
    },
    {
      name: 'get_order',
      description: 'An order with its items, total, refunded total and refundable amount.',
      parameters: obj({ order_id: str('e.g. ORD-5001') }, ['order_id']),
    },
    {
      name: 'cancel_order',
      description: 'Cancel a placed order (not shipped yet); its items go back to stock.',
      parameters: obj({ order_id: str('e.g. ORD-5003'), reason: str('why') }, ['order_id']),
    },
    {
      name: 'issue_refund',
      description: 'Refund part or all of a shipped or delivered order; at most its refundable amount.',
      parameters: obj({ order_id: str('e.g. ORD-5001'), amount: { type: 'number', exclusiveMinimum: 0 }, reason: str('why') }, [
        'order_id',
        'amount',
        'reason',
      ]),
    },
    { name: 'list_refunds', description: 'The refunds of an order.', parameters: obj({ order_id: str('e.g. ORD-5004') }, ['order_id']) },
    {
      name: 'check_inventory',
      description: 'Stock of an item: on hand, reserved, available.',
      parameters: obj({ sku: str('e.g. SKU-MUG') }, ['sku']),
    },
    {
      name: 'reserve_stock',
      description: 'Reserve units of an item; fails when fewer are available.',
      parameters: obj({ sku: str('e.g. SKU-MUG'), quantity: { type: 'integer', minimum: 1 } }, ['sku', 'quantity']),
    },
    {
      name: 'create_ticket',
      description: 'Open a support ticket for a customer, optionally about one of their orders.',
      parameters: obj(
        {
          customer_id: str('e.g. CUS-1001'),
          subject: str('what it is about'),
          order_id: str('e.g. ORD-5001'),
          priority: { type: 'string', enum: ['low', 'normal', 'high'] },
        },
        ['customer_id', 'subject'],
      ),
    },
    {
      name: 'update_ticket',
      description: "Change a ticket's status or priority.",
      parameters: obj(
        {
          ticket_id: str('e.g. TCK-CUS-1003-1'),
          status: { type: 'string', enum: ['open', 'closed'] },
          priority: { type: 'string', enum: ['low', 'normal', 'high'] },
        },
        ['ticket_id'],
      ),
    },
    {
      name: 'list_tickets',
      description: "A customer's support tickets, optionally of one status.",
      parameters: obj({ customer_id: str('e.g. CUS-1001'), status: { type: 'string', enum: ['open', 'closed'] } }, ['customer_id']),
    },
  ],
});
