import { addDays, toDate, TODAY } from '../dates.js';
import { keyedUnit, round2 } from '../prng.js';
import { REGIONS, type Product, type Region } from '../world/types.js';

/** One region-day of sales. */
export interface DaySales {
  revenue: number;
  orders: number;
  units: number;
  refunds: number;
}

const BASE_REVENUE: Record<Region, number> = { na: 48_000, emea: 31_000, apac: 18_500, latam: 6_800 };
const BASE_AOV: Record<Region, number> = { na: 92, emea: 87, apac: 81, latam: 64 };
/** Monday..Sunday */
const WEEKDAY = [0.92, 0.95, 0.97, 1.0, 1.08, 1.22, 1.12];
/** a gentle summer dip and the autumn ramp towards the holidays */
const SEASON = [0.9, 0.86, 0.93, 0.95, 0.98, 0.94, 0.91, 0.93, 1.0, 1.06, 1.35, 1.6];

/** Days whose numbers are still settling (late payments, returns) when the sample was recorded. */
export const SETTLING_FROM = addDays(TODAY, -6);

export function daySales(region: Region, day: string): DaySales {
  const d = toDate(day);
  const factor = WEEKDAY[(d.getUTCDay() + 6) % 7]! * SEASON[d.getUTCMonth()]! * (1 + 0.24 * (keyedUnit(`rev/${region}/${day}`) - 0.5));
  const revenue = round2(BASE_REVENUE[region] * factor);
  const aov = BASE_AOV[region] * (1 + 0.16 * (keyedUnit(`aov/${region}/${day}`) - 0.5));
  const orders = Math.round(revenue / aov);
  return {
    revenue,
    orders,
    units: Math.round(orders * (1.7 + 0.4 * keyedUnit(`units/${region}/${day}`))),
    refunds: round2(revenue * (0.02 + 0.03 * keyedUnit(`refunds/${region}/${day}`))),
  };
}

/** Sum of days over one region or all. */
export function sumSales(days: readonly string[], region: Region | undefined): DaySales {
  const total: DaySales = { revenue: 0, orders: 0, units: 0, refunds: 0 };
  for (const day of days) {
    for (const r of region ? [region] : REGIONS) {
      const s = daySales(r, day);
      total.revenue += s.revenue;
      total.orders += s.orders;
      total.units += s.units;
      total.refunds += s.refunds;
    }
  }
  return { revenue: round2(total.revenue), orders: total.orders, units: total.units, refunds: round2(total.refunds) };
}

/** Units a product sold over a period (demand falls with price), deterministic per product and period. */
export function productUnits(product: Product, start: string, days: number): number {
  const perDay = (900 / Math.max(15, product.price)) * (0.4 + 1.2 * keyedUnit(`demand/${product.sku}`));
  return Math.round(perDay * days * (0.8 + 0.4 * keyedUnit(`period/${product.sku}/${start}/${days}`)));
}
