import type { JsonObject } from '../../../../lib/domain/index.js';
import { RECORDED_AT } from '../dates.js';
import { keyedUnit } from '../prng.js';
import { WAREHOUSES, type Product, type World } from '../world/types.js';
import { apiError, num, ok, str, type ApiResult, type NormalizedArgs, type Volatile } from './types.js';
import { timeSensitive, volatileField } from './volatile.js';

/** Search terms as the engine indexes them: lower case, alphanumeric words, plurals folded. */
export function searchTerms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .map(foldPlural);
}

function foldPlural(w: string): string {
  if (w.length > 4 && /(ch|sh|x)es$/.test(w)) return w.slice(0, -2);
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

export function totalStock(p: Product): number {
  return WAREHOUSES.reduce((n, w) => n + p.stock[w], 0);
}

const PRODUCT_SORTS: Record<string, (a: Product, b: Product) => number> = {
  relevance: (a, b) => b.review_count - a.review_count,
  price_asc: (a, b) => a.price - b.price,
  price_desc: (a, b) => b.price - a.price,
  rating: (a, b) => b.rating - a.rating || b.review_count - a.review_count,
  newest: (a, b) => (a.sku < b.sku ? 1 : -1),
};

export function searchProducts(world: World, args: NormalizedArgs): ApiResult {
  const terms = searchTerms(str(args, 'query') ?? '');
  const category = str(args, 'category');
  const range = (args['price_range'] ?? {}) as { min?: number; max?: number };
  const brands = Array.isArray(args['brands']) ? args['brands'].map((b) => String(b).toLowerCase()) : undefined;
  const inStockOnly = args['in_stock_only'] === true;
  const matches = world.products
    .filter((p) => {
      const indexed = new Set(searchTerms(`${p.name} ${p.kind} ${p.brand} ${p.category}`));
      return terms.every((t) => indexed.has(t));
    })
    .filter((p) => (category === undefined || p.category === category) && (brands === undefined || brands.includes(p.brand.toLowerCase())))
    .filter((p) => (range.min === undefined || p.price >= range.min) && (range.max === undefined || p.price <= range.max))
    .filter((p) => !inStockOnly || totalStock(p) > 0)
    .sort(PRODUCT_SORTS[str(args, 'sort') ?? 'relevance']);
  const shown = matches.slice(0, num(args, 'limit') ?? 10);
  const volatile: Volatile[] = shown.map((p, i) =>
    timeSensitive(p.sku, `/products/${i}/review_count`, p.review_count, 0.05, { integer: true }),
  );
  return ok(
    {
      total_count: matches.length,
      products: shown.map((p) => ({
        sku: p.sku,
        name: p.name,
        brand: p.brand,
        category: p.category,
        price: p.price,
        rating: p.rating,
        review_count: p.review_count,
        in_stock: totalStock(p) > 0,
      })),
    },
    volatile,
  );
}

export function getInventory(world: World, args: NormalizedArgs): ApiResult {
  const product = world.bySku.get(str(args, 'sku') ?? '');
  if (!product) return apiError(404, 'sku_not_found', `No product ${str(args, 'sku')}.`);
  const only = str(args, 'warehouse');
  const volatile: Volatile[] = [];
  let total = 0;
  let recordedTotal = 0;
  const warehouses = WAREHOUSES.filter((w) => only === undefined || w === only).map((w, i) => {
    const onHand = product.stock[w];
    const reserved = Math.floor(onHand * 0.15 * keyedUnit(`${product.sku}/${w}/reserved`));
    // out of stock stays out of stock; stocked items move by up to 15% (at least 3 units) between authoring and recording
    const spread = onHand === 0 ? 0 : Math.max(3, Math.round(onHand * 0.15));
    const onHandNow = timeSensitive(product.sku, `/${w}/on_hand`, onHand, spread, { integer: true, absolute: true });
    const recordedAvailable = Math.max(0, (onHandNow.recorded as number) - reserved);
    if (spread > 0) {
      volatile.push(
        { ...onHandNow, path: `/warehouses/${i}/on_hand` },
        { path: `/warehouses/${i}/available`, kind: 'range', spread, absolute: true, integer: true, recorded: recordedAvailable },
      );
    }
    total += onHand - reserved;
    recordedTotal += recordedAvailable;
    return { warehouse: w, on_hand: onHand, reserved, available: onHand - reserved };
  });
  const data: JsonObject = {
    sku: product.sku,
    name: product.name,
    total_available: total,
    warehouses,
    restock_date: product.restock_date,
    updated_at: '2026-10-14T06:58:12Z',
  };
  const totalSpread = Math.max(3, Math.round(total * 0.15)) + warehouses.length * 2;
  const clamped = Math.min(total + totalSpread, Math.max(total - totalSpread, recordedTotal));
  if (total > 0)
    volatile.push({ path: '/total_available', kind: 'range', spread: totalSpread, absolute: true, integer: true, recorded: clamped });
  volatile.push(volatileField('/updated_at', RECORDED_AT));
  return ok(data, volatile);
}
