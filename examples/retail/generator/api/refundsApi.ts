import { RECORDED_AT } from '../dates.js';
import { hashString, Prng, round2 } from '../prng.js';
import type { Order, Refund, World } from '../world/types.js';
import { apiError, num, ok, str, type ApiResult, type NormalizedArgs } from './types.js';
import { volatileField } from './volatile.js';

/** What can still be refunded on an order: its total less every refund not rejected. */
export function refundable(world: World, order: Order): number {
  const refunded = world.refunds.filter((r) => r.order_id === order.order_id && r.status !== 'rejected').reduce((s, r) => s + r.amount, 0);
  return round2(Math.max(0, order.total - refunded));
}

export function issueRefund(world: World, args: NormalizedArgs, key: string): ApiResult {
  const order = world.byOrderId.get(str(args, 'order_id') ?? '');
  if (!order) return apiError(404, 'order_not_found', `No order ${str(args, 'order_id')}.`);
  if (order.status === 'pending' || order.status === 'paid' || order.status === 'cancelled') {
    return apiError(409, 'order_not_refundable', `Order ${order.order_id} is ${order.status}; cancel it instead of refunding.`);
  }
  const amount = num(args, 'amount') ?? 0;
  const available = refundable(world, order);
  if (amount > available + 0.001) {
    return {
      status: 422,
      data: {
        error: {
          code: 'amount_exceeds_refundable',
          message: `At most ${available.toFixed(2)} USD can be refunded on ${order.order_id}.`,
          refundable: available,
        },
      },
      volatile: [],
    };
  }
  const method = str(args, 'refund_method') ?? 'original_payment';
  const id = new Prng(hashString(key));
  return ok(
    {
      refund_id: `RF-${id.int(300_000, 399_999)}`,
      order_id: order.order_id,
      amount: round2(amount),
      currency: 'USD',
      reason: str(args, 'reason') ?? null,
      method,
      notify_customer: args['notify_customer'] !== false,
      status: amount <= 150 ? 'approved' : 'requested',
      remaining_refundable: round2(available - amount),
      estimated_settlement_days: method === 'store_credit' ? 0 : 5,
      created_at: '2026-10-14T07:02:41Z',
    },
    [volatileField('/refund_id', `RF-${id.int(300_000, 399_999)}`), volatileField('/created_at', RECORDED_AT)],
    201,
  );
}

function refundView(r: Refund) {
  return { refund_id: r.refund_id, order_id: r.order_id, amount: r.amount, status: r.status, created_on: r.created_on };
}

export function getRefundStatus(world: World, args: NormalizedArgs): ApiResult {
  const refund = world.byRefundId.get(str(args, 'refund_id') ?? '');
  if (!refund) return apiError(404, 'refund_not_found', `No refund ${str(args, 'refund_id')}.`);
  return ok({ ...refundView(refund), currency: 'USD', reason: refund.reason, method: refund.method, processed_on: refund.processed_on });
}

export function listRefunds(world: World, args: NormalizedArgs): ApiResult {
  const order = str(args, 'order_id');
  const customer = str(args, 'customer_id');
  const status = str(args, 'status');
  const after = str(args, 'created_after');
  const before = str(args, 'created_before');
  const matches = world.refunds
    .filter((r) => (order === undefined || r.order_id === order) && (customer === undefined || r.customer_id === customer))
    .filter((r) => (status === undefined || r.status === status) && (after === undefined || r.created_on >= after))
    .filter((r) => before === undefined || r.created_on <= before)
    .sort((a, b) => (a.created_on < b.created_on ? 1 : a.created_on > b.created_on ? -1 : a.refund_id < b.refund_id ? 1 : -1));
  return ok({
    total_count: matches.length,
    total_amount: round2(matches.reduce((s, r) => s + r.amount, 0)),
    currency: 'USD',
    refunds: matches.slice(0, 50).map(refundView),
  });
}
