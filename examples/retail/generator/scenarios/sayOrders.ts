import { COUNTRY_NAMES } from '../world/productList.js';
import { capitalize } from './helpers.js';
import { failureSentence, list, money, okData, count, type Answer, type ResultView } from './types.js';
import type { CustomerView, OrderSearchView, OrderView } from './views.js';

export const words = (s: string): string => s.replaceAll('_', ' ');

export function sayOrder(r: ResultView | undefined): Answer {
  const d = okData<OrderView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the order')], facts: [] };
  const sentences = [`Order ${d.order_id} is ${words(d.status)} and its total was ${money(d.total)}.`];
  if (d.tracking) {
    const parcel = d.tracking.status === d.status ? '' : `; the parcel is ${words(d.tracking.status)}`;
    sentences.push(`It shipped with ${d.tracking.carrier.toUpperCase()} (tracking ${d.tracking.tracking_number})${parcel}.`);
  }
  return { sentences, facts: [`Order ${d.order_id} is ${words(d.status)}`, `total ${money(d.total)}`] };
}

export function sayOrderItems(r: ResultView | undefined): Answer {
  const d = okData<OrderView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the line items')], facts: [] };
  if (!d.items) return sayOrder(r);
  const items = d.items.map((it) => `${it.quantity} x ${it.name} (${money(it.unit_price)} each)`);
  return {
    sentences: [`Order ${d.order_id} contains ${list(items)}.`, `The order total was ${money(d.total)}.`],
    facts: [...d.items.map((it) => it.name), `total ${money(d.total)}`],
  };
}

export function sayOrderSearch(r: ResultView | undefined, label: string): Answer {
  const d = okData<OrderSearchView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the orders')], facts: [] };
  if (d.total_count === 0 || d.orders.length === 0) return { sentences: [`I found no ${label}.`], facts: [`no ${label}`] };
  const shown = d.orders.slice(0, 5).map((o) => `${o.order_id} (${words(o.status)}, placed ${o.placed_on}, ${money(o.total)})`);
  const sentences = [`${capitalize(label)}: ${list(shown)}.`];
  sentences.push(
    d.total_count > shown.length ? `${count(d.total_count, 'order')} match in total.` : `That is ${count(d.total_count, 'order')}.`,
  );
  return { sentences, facts: [count(d.total_count, 'order'), `${d.orders[0]!.order_id} ${money(d.orders[0]!.total)}`] };
}

export function sayCustomer(r: ResultView | undefined, reference: boolean): Answer {
  const d = okData<CustomerView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the customer')], facts: [] };
  const sentences = [
    `${d.name} (${d.customer_id}, ${d.email}) is a ${d.tier} customer in ${COUNTRY_NAMES[d.country] ?? d.country} with ${count(d.order_count, 'order')} and a lifetime value of ${money(d.lifetime_value)}.`,
  ];
  if (!reference) sentences.push(`They currently have ${count(d.open_tickets, 'open support ticket')}.`);
  return { sentences, facts: [`${d.name} ${d.tier} customer`, count(d.order_count, 'order'), `lifetime value ${money(d.lifetime_value)}`] };
}

/** Two orders side by side, and which was bigger. */
export function sayOrderComparison(a: ResultView | undefined, b: ResultView | undefined): Answer {
  const x = sayOrder(a);
  const y = sayOrder(b);
  const da = okData<OrderView>(a);
  const db = okData<OrderView>(b);
  const sentences = [...x.sentences, ...y.sentences];
  const facts = [...x.facts, ...y.facts];
  if (da && db && da.total !== db.total) {
    const [big, small] = da.total > db.total ? [da, db] : [db, da];
    sentences.push(`${big.order_id} was the bigger order, by ${money(big.total - small.total)}.`);
    facts.push(`${big.order_id} bigger`);
  }
  return { sentences, facts };
}
