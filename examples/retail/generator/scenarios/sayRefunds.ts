import { words } from './sayOrders.js';
import { count, failureSentence, list, money, okData, type Answer, type ResultView } from './types.js';
import type { RefundIssuedView, RefundListView, RefundView } from './views.js';

export function sayRefundIssued(r: ResultView | undefined, reference: boolean): Answer {
  const d = okData<RefundIssuedView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the refund issued')], facts: [] };
  const id = reference ? '' : ` (${d.refund_id})`;
  const settle =
    d.estimated_settlement_days > 0
      ? ` It should settle in ${d.estimated_settlement_days} business days.`
      : ' The credit is available right away.';
  return {
    sentences: [
      `The refund${id} of ${money(d.amount)} on order ${d.order_id} is ${d.status}, paid as ${words(d.method)}.${settle}`,
      `${money(d.remaining_refundable)} remains refundable on that order.`,
    ],
    facts: [`refund ${money(d.amount)} order ${d.order_id}`, `${words(d.method)}`, `${money(d.remaining_refundable)} remains refundable`],
  };
}

export function sayRefund(r: ResultView | undefined): Answer {
  const d = okData<RefundView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the refund')], facts: [] };
  const processed = d.processed_on ? `; it was processed on ${d.processed_on}` : '';
  return {
    sentences: [`Refund ${d.refund_id} of ${money(d.amount)} on order ${d.order_id} is ${d.status}${processed}.`],
    facts: [`${d.refund_id} ${d.status}`, money(d.amount)],
  };
}

export function sayRefundList(r: ResultView | undefined, label: string): Answer {
  const d = okData<RefundListView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the refunds')], facts: [] };
  if (d.total_count === 0 || d.refunds.length === 0)
    return { sentences: [`There are no refunds ${label}.`], facts: [`no refunds ${label}`] };
  const shown = d.refunds.slice(0, 6).map((x) => `${x.refund_id} (${money(x.amount)}, ${x.status}, ${x.created_on})`);
  return {
    sentences: [
      `There ${d.total_count === 1 ? 'is' : 'are'} ${count(d.total_count, 'refund')} ${label}, totalling ${money(d.total_amount)}: ${list(shown)}.`,
    ],
    facts: [count(d.total_count, 'refund'), `totalling ${money(d.total_amount)}`],
  };
}
