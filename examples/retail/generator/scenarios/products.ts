import type { Product, ProductCategory } from '../world/types.js';
import { call, Deck, expectCall, phrase, withArgs } from './helpers.js';
import { sayProducts } from './sayProducts.js';
import { okData, type Call, type CaseSpec, type ScenarioContext } from './types.js';
import type { ProductSearchView } from './views.js';

const plural = (kind: string): string => (kind.endsWith('s') ? kind : kind.endsWith('h') ? `${kind}es` : `${kind}s`);
const SEARCH_Q = ['Search for {kinds}.', 'Do you sell {kinds}?', 'Find me some {kinds}.', 'what {kinds} do we have', 'Show me {kinds}.'];
const CATEGORY_Q = [
  'Find {kinds} in the {category} category.',
  'Show me {category} {kinds}.',
  'Which {kinds} do we carry under {category}?',
];
const PRICE_Q = [
  'Show me {kinds} between ${min} and ${max}, cheapest first.',
  'I need {kinds} priced ${min} to ${max}; sort by price, low to high.',
  'Any {kinds} from ${min} up to ${max}? Cheapest first.',
];
const BRAND_Q = [
  'Any {a} or {b} {kinds} in stock?',
  'Which {kinds} from {a} or {b} are in stock right now?',
  'Show in-stock {kinds} by {a} and {b}.',
];
const RATED_Q = [
  'Top {n} rated {category} products under ${max}?',
  'What are the {n} best-rated {category} items below ${max}?',
  'Best reviewed {category} products under ${max}, top {n}.',
];
const COMPARE_Q = [
  'Compare {k1} and {k2} under ${max}.',
  'I am choosing between {k1} and {k2}, budget ${max}. What do we have?',
  'Show {k1} and also {k2}, both under ${max}.',
];

export function productScenarios(ctx: ScenarioContext): CaseSpec[] {
  const { world, rng, probe } = ctx;
  const count = (c: Call): number => okData<ProductSearchView>(probe(c))?.total_count ?? 0;
  const kinds = new Deck(rng, [...new Set(world.products.map((p) => p.kind))]);
  const byKind = (kind: string): Product[] => world.products.filter((p) => p.kind === kind);
  const out: CaseSpec[] = [];
  const push = (spec: Omit<CaseSpec, 'category'>): void => void out.push({ ...spec, category: 'products' });

  for (let i = 0; i < 6; i++) {
    const kind = kinds.draw();
    const c = call('search_products', { query: plural(kind) });
    push({
      kind: 'products.search',
      complexity: 1,
      tags: ['products', 'search'],
      question: phrase(rng, SEARCH_Q, { kinds: plural(kind) }),
      calls: [c],
      expected: [expectCall(c, { query: { $one_of: [plural(kind), kind] } })],
      variants: [{ label: 'one_of_value', calls: [call('search_products', { query: kind })] }],
      answer: ([r]) => sayProducts(r, plural(kind)),
    });
  }
  for (let i = 0; i < 8; i++) {
    const kind = kinds.draw();
    const category = byKind(kind)[0]!.category;
    const c = call('search_products', { query: plural(kind), category });
    push({
      kind: 'products.category_query',
      complexity: 2,
      tags: ['products', 'search', 'filters'],
      question: phrase(rng, CATEGORY_Q, { kinds: plural(kind), category }),
      calls: [c],
      expected: [expectCall(c, { query: { $one_of: [plural(kind), kind] } })],
      variants: [{ label: 'explicit_default', calls: [withArgs(c, { sort: 'relevance' })] }],
      answer: ([r]) => sayProducts(r, `${category} ${plural(kind)}`),
    });
  }
  for (let made = 0, tries = 0; made < 8 && tries < 400; tries++) {
    const kind = kinds.draw();
    const prices = byKind(kind).map((p) => p.price);
    const min = Math.max(0, Math.floor((Math.min(...prices) - 15) / 10) * 10);
    const max = Math.ceil((Math.max(...prices) + 10) / 10) * 10;
    const c = call('search_products', { query: plural(kind), price_range: { min, max }, sort: 'price_asc' });
    if (count(c) < 1) continue;
    made++;
    push({
      kind: 'products.price_range',
      complexity: 3,
      tags: ['products', 'filters', 'nested-args'],
      question: phrase(rng, PRICE_Q, { kinds: plural(kind), min, max }),
      calls: [c],
      expected: [expectCall(c, { query: { $one_of: [plural(kind), kind] } })],
      answer: ([r]) => sayProducts(r, `${plural(kind)} from $${min} to $${max}`),
    });
  }
  const multiBrand = [...new Set(world.products.map((p) => p.kind))].filter((k) => new Set(byKind(k).map((p) => p.brand)).size >= 2);
  const brandKinds = new Deck(rng, multiBrand);
  for (let i = 0; i < 6; i++) {
    const kind = brandKinds.draw();
    const [a, b] = rng.sample([...new Set(byKind(kind).map((p) => p.brand))], 2) as [string, string];
    const c = call('search_products', { query: plural(kind), brands: [a, b], in_stock_only: true });
    push({
      kind: 'products.brands',
      complexity: 3,
      tags: ['products', 'filters', 'arrays'],
      question: phrase(rng, BRAND_Q, { kinds: plural(kind), a, b }),
      calls: [c],
      expected: [expectCall(c, { query: { $one_of: [plural(kind), kind] } })],
      variants: [{ label: 'array_reordered', calls: [withArgs(c, { brands: [b, a] })] }],
      answer: ([r]) => sayProducts(r, `in-stock ${a} or ${b} ${plural(kind)}`),
    });
  }
  const categories = new Deck(rng, [...new Set(world.products.map((p) => p.category))] as ProductCategory[]);
  for (let i = 0; i < 5; i++) {
    const category = categories.draw();
    const n = rng.pick([3, 3, 5]);
    const max = rng.pick([100, 150, 200, 300]);
    const c = call('search_products', { category, price_range: { max }, sort: 'rating', limit: n });
    push({
      kind: 'products.top_rated',
      complexity: 3,
      tags: ['products', 'filters', 'nested-args'],
      question: phrase(rng, RATED_Q, { n, category, max }),
      calls: [c],
      answer: ([r]) => sayProducts(r, `the best-rated ${category} products under $${max}`),
    });
  }
  for (let i = 0; i < 4; i++) {
    const [k1, k2] = [kinds.draw(), kinds.draw()];
    const max = rng.pick([150, 200, 300, 500]);
    const calls = [k1, k2].map((k) => call('search_products', { query: plural(k), price_range: { max } }));
    push({
      kind: 'products.compare_kinds',
      complexity: 4,
      tags: ['products', 'parallel', 'nested-args'],
      question: phrase(rng, COMPARE_Q, { k1: plural(k1), k2: plural(k2), max }),
      calls,
      expected: calls.map((c, j) => expectCall(c, { query: { $one_of: [plural([k1, k2][j]!), [k1, k2][j]!] } })),
      answer: ([r1, r2]) => {
        const a = sayProducts(r1, `${plural(k1)} under $${max}`);
        const b = sayProducts(r2, `${plural(k2)} under $${max}`);
        return { sentences: [...a.sentences, ...b.sentences], facts: [...a.facts, ...b.facts] };
      },
    });
  }
  for (let made = 0, tries = 0; made < 4 && tries < 400; tries++) {
    const kind = brandKinds.draw();
    const brand = rng.pick(byKind(kind)).brand;
    const c = call('search_products', {
      query: plural(kind),
      brands: [brand],
      price_range: { min: 20, max: 400 },
      in_stock_only: true,
      sort: 'rating',
      limit: 5,
    });
    if (count(c) < 1) continue;
    made++;
    push({
      kind: 'products.full_filter',
      complexity: 4,
      tags: ['products', 'filters', 'nested-args', 'arrays'],
      question: `In-stock ${brand} ${plural(kind)} between $20 and $400, best rated first, top 5.`,
      calls: [c],
      expected: [expectCall(c, { query: { $one_of: [plural(kind), kind] } })],
      answer: ([r]) => sayProducts(r, `in-stock ${brand} ${plural(kind)} from $20 to $400`),
    });
  }
  return out;
}
