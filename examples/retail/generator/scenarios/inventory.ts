import { WAREHOUSES, type Product } from '../world/types.js';
import { call, capitalize, Deck, expectCall, merge, phrase } from './helpers.js';
import { sayInventory, sayProducts } from './sayProducts.js';
import type { CaseSpec, ScenarioContext } from './types.js';

const SKU_Q = [
  'How many units of {sku} do we have?',
  'Is {sku} ({name}) in stock?',
  'Stock check on {sku} please.',
  'Do we still have the {name} ({sku})?',
  'inventory for {sku}?',
];
const WH_Q = [
  'How much {sku} stock is in {wh}?',
  'Stock of {sku} ({name}) at the {wh} warehouse?',
  'Does {wh} have any {sku} left?',
  'Check {wh} inventory for {sku}.',
];
const MULTI_Q = ['Check stock for {a} and {b}.', 'Are {a} and {b} in stock?', 'Inventory levels for {a} and {b}, please.'];

export function inventoryScenarios(ctx: ScenarioContext): CaseSpec[] {
  const { world, rng } = ctx;
  const products = new Deck(rng, world.products);
  const out: CaseSpec[] = [];
  const push = (spec: Omit<CaseSpec, 'category'>): void => void out.push({ ...spec, category: 'inventory' });
  const inv = (p: Product, warehouse?: string) => call('get_inventory', warehouse ? { sku: p.sku, warehouse } : { sku: p.sku });

  for (let i = 0; i < 11; i++) {
    const p = products.draw();
    push({
      kind: 'inventory.sku',
      complexity: 1,
      tags: ['inventory', 'lookup', 'time-sensitive'],
      question: phrase(rng, SKU_Q, { sku: p.sku, name: p.name }),
      calls: [inv(p)],
      answer: ([r], ref) => sayInventory(r, ref),
      textOnly: `I don't have live stock data, but ${p.name} usually ships within a few days.`,
    });
  }
  for (let i = 0; i < 11; i++) {
    const p = products.draw();
    const wh = rng.pick(WAREHOUSES);
    // asking for every warehouse and reading the one asked about is as good as asking for that one
    const all = inv(p);
    push({
      kind: 'inventory.warehouse',
      complexity: 2,
      tags: ['inventory', 'filters', 'time-sensitive', 'alternatives'],
      question: phrase(rng, WH_Q, { sku: p.sku, name: p.name, wh: capitalize(wh) }),
      calls: [inv(p, wh)],
      alternatives: [{ expected: [expectCall(all)], calls: [all] }],
      variants: [{ label: 'alternative_call_set', calls: [all] }],
      answer: ([r], ref) => sayInventory(r, ref, wh),
    });
  }
  for (let i = 0; i < 4; i++) {
    const [a, b] = [products.draw(), products.draw()];
    push({
      kind: 'inventory.multi',
      complexity: 4,
      tags: ['inventory', 'parallel', 'time-sensitive'],
      question: phrase(rng, MULTI_Q, { a: a.sku, b: b.sku }),
      calls: [inv(a), inv(b)],
      answer: ([ra, rb], ref) => merge(sayInventory(ra, ref), sayInventory(rb, ref)),
    });
  }
  for (let i = 0; i < 4; i++) {
    const ps = [products.draw(), products.draw(), products.draw()];
    const wh = rng.pick(WAREHOUSES);
    push({
      kind: 'inventory.multi_warehouse',
      complexity: 5,
      tags: ['inventory', 'parallel', 'filters', 'time-sensitive'],
      question: `Check the ${capitalize(wh)} stock of ${ps[0]!.sku}, ${ps[1]!.sku} and ${ps[2]!.sku}.`,
      calls: ps.map((p) => inv(p, wh)),
      answer: (rs, ref) => merge(...rs.map((r) => sayInventory(r, ref))),
    });
  }
  const lights = new Deck(rng, ['headlamps', 'lanterns', 'speakers', 'chargers', 'blenders', 'tents', 'running shoes']);
  for (let i = 0; i < 3; i++) {
    const kinds = lights.draw();
    const p = products.draw();
    const wh = rng.pick(WAREHOUSES);
    const search = call('search_products', { query: kinds, in_stock_only: true });
    push({
      kind: 'inventory.search_then_stock',
      complexity: 4,
      tags: ['inventory', 'products', 'parallel', 'multi-tool', 'time-sensitive'],
      question: `Find in-stock ${kinds}, and also check ${capitalize(wh)} stock of ${p.sku}.`,
      calls: [search, inv(p, wh)],
      expected: [expectCall(search, { query: { $one_of: [kinds, kinds.replace(/s$/, '')] } }), expectCall(inv(p, wh))],
      answer: ([rs, ri], ref) => merge(sayProducts(rs, `in-stock ${kinds}`), sayInventory(ri, ref)),
    });
  }
  return out;
}
