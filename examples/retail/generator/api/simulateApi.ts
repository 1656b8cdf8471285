import { canonicalCallKey } from '../../../../lib/domain/index.js';
import type { ToolName } from '../catalog.js';
import type { World } from '../world/types.js';
import { getSalesSummary, getTopProducts } from './analyticsApi.js';
import { normalizeRequest } from './normalize.js';
import { getCustomer, getOrder, searchOrders } from './ordersApi.js';
import { getInventory, searchProducts } from './productsApi.js';
import { getRefundStatus, issueRefund, listRefunds } from './refundsApi.js';
import { getShipmentTracking, getShippingQuote } from './shippingApi.js';
import { createSupportTicket, listSupportTickets } from './supportApi.js';
import { apiError, type ApiCall, type ApiResult, type ToolHandler } from './types.js';

const HANDLERS = {
  get_order: getOrder,
  search_orders: searchOrders,
  get_customer: getCustomer,
  search_products: searchProducts,
  get_inventory: getInventory,
  get_shipment_tracking: getShipmentTracking,
  get_shipping_quote: getShippingQuote,
  issue_refund: issueRefund,
  get_refund_status: getRefundStatus,
  list_refunds: listRefunds,
  create_support_ticket: createSupportTicket,
  list_support_tickets: listSupportTickets,
  get_sales_summary: getSalesSummary,
  get_top_products: getTopProducts,
} satisfies Record<ToolName, ToolHandler>;

function isToolName(name: string): name is ToolName {
  return Object.hasOwn(HANDLERS, name);
}

/**
 * The retail API, simulated over the world: what a live server would answer to this exact call (400 for a request
 * its schema rejects, 404 for unknown ids, 409/422 for business rules), at authoring time, with its volatile parts.
 */
export function simulateApi(world: World, call: ApiCall): ApiResult {
  if (!isToolName(call.tool_name)) return apiError(404, 'unknown_endpoint', `No endpoint for tool ${call.tool_name}.`);
  const request = normalizeRequest(call);
  if (!request.ok) return apiError(400, 'invalid_request', request.message);
  const handler: ToolHandler = HANDLERS[call.tool_name];
  return handler(world, request.args, canonicalCallKey(call));
}
