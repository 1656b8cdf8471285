import { capitalize } from './helpers.js';
import { count, failureSentence, list, money, okData, type Answer, type ResultView } from './types.js';
import type { InventoryView, ProductSearchView } from './views.js';

export function sayProducts(r: ResultView | undefined, label: string): Answer {
  const d = okData<ProductSearchView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the products')], facts: [] };
  if (d.total_count === 0 || d.products.length === 0) return { sentences: [`I found no ${label}.`], facts: [`no ${label}`] };
  const shown = d.products
    .slice(0, 5)
    .map((p) => `${p.name} (${money(p.price)}, rated ${p.rating.toFixed(1)}${p.in_stock ? '' : ', sold out'})`);
  const more = d.total_count > shown.length ? `, and ${d.total_count - shown.length} more` : '';
  const top = d.products[0]!;
  return {
    sentences: [`I found ${count(d.total_count, 'match', 'matches')} for ${label}: ${list(shown)}${more}.`],
    facts: [count(d.total_count, 'match', 'matches'), `${top.name} ${money(top.price)}`],
  };
}

/**
 * Stock of one product; the gold's version leaves out unit counts, which change by the hour. With `focus`, only
 * that warehouse is described (whether the API was asked for it alone or for all of them).
 */
export function sayInventory(r: ResultView | undefined, reference: boolean, focus?: string): Answer {
  const d = okData<InventoryView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the stock level')], facts: [] };
  const focused = focus ? d.warehouses.find((x) => x.warehouse === focus) : d.warehouses.length === 1 ? d.warehouses[0] : undefined;
  if (focused) {
    const w = focused;
    const where = capitalize(w.warehouse);
    if (w.available === 0) {
      const restock = d.restock_date ? ` The next restock is expected on ${d.restock_date}.` : '';
      return { sentences: [`${d.sku} (${d.name}) is sold out at ${where}.${restock}`], facts: [`${d.sku} sold out at ${where}`] };
    }
    const units = reference ? '' : `: ${w.available} units available (${w.on_hand} on hand, ${w.reserved} reserved)`;
    return { sentences: [`${d.sku} (${d.name}) is available at ${where}${units}.`], facts: [`${d.sku} available at ${where}`] };
  }
  if (d.total_available === 0) {
    const restock = d.restock_date ? ` The next restock is expected on ${d.restock_date}.` : '';
    return {
      sentences: [`${d.sku} (${d.name}) is sold out in every warehouse.${restock}`],
      facts: [`${d.sku} sold out`, ...(d.restock_date ? [`restock ${d.restock_date}`] : [])],
    };
  }
  const stocked = d.warehouses.filter((w) => w.available > 0);
  const detail = reference
    ? ` (stock at ${list(stocked.map((w) => capitalize(w.warehouse)))})`
    : `: ${d.total_available} units available (${list(stocked.map((w) => `${capitalize(w.warehouse)} ${w.available}`))})`;
  return { sentences: [`${d.sku} (${d.name}) is available${detail}.`], facts: [`${d.sku} available`] };
}
