import type { JsonObject, JsonValue } from '../../../../lib/domain/index.js';
import { daysBetween, eachDay, TODAY, weekStart } from '../dates.js';
import { round2 } from '../prng.js';
import type { Region, World } from '../world/types.js';
import { SETTLING_FROM, productUnits, sumSales, type DaySales } from './salesModel.js';
import { apiError, num, ok, str, type ApiResult, type NormalizedArgs, type Volatile } from './types.js';
import { timeSensitive } from './volatile.js';

const ALL_METRICS = ['revenue', 'orders', 'units', 'aov', 'refunds'] as const;
type Metric = (typeof ALL_METRICS)[number];
/** how far a still-settling figure may move before it is final */
const SETTLING_SPREAD: Record<Metric, number> = { revenue: 0.03, orders: 0.03, units: 0.03, aov: 0.02, refunds: 0.1 };

function checkRange(start: string, end: string): ApiResult | undefined {
  if (start > end) return apiError(400, 'invalid_range', `start_date ${start} is after end_date ${end}.`);
  if (end > TODAY) return apiError(422, 'range_in_future', `end_date ${end} is in the future; data is available through ${TODAY}.`);
  return undefined;
}

function metricValues(s: DaySales, metrics: readonly Metric[]): JsonObject {
  const all: Record<Metric, number> = { ...s, aov: s.orders ? round2(s.revenue / s.orders) : 0 };
  return Object.fromEntries(metrics.map((m) => [m, all[m]]));
}

function periodOf(day: string, granularity: string, start: string): string {
  if (granularity === 'month') return day.slice(0, 7);
  if (granularity === 'week') return weekStart(day) < start ? start : weekStart(day);
  return day;
}

export function getSalesSummary(_world: World, args: NormalizedArgs): ApiResult {
  const start = str(args, 'start_date') ?? '';
  const end = str(args, 'end_date') ?? '';
  const invalid = checkRange(start, end);
  if (invalid) return invalid;
  const region = str(args, 'region') as Region | undefined;
  const granularity = str(args, 'granularity') ?? 'total';
  const requested = Array.isArray(args['metrics']) ? (args['metrics'] as string[]) : [...ALL_METRICS];
  const metrics = ALL_METRICS.filter((m) => requested.includes(m));
  const days = eachDay(start, end);
  const volatile: Volatile[] = [];
  const settle = (path: string, values: JsonObject, lastDay: string): void => {
    if (lastDay < SETTLING_FROM) return;
    for (const m of metrics)
      volatile.push(timeSensitive(`${region ?? 'all'}/${start}/${end}`, `${path}/${m}`, values[m] as number, SETTLING_SPREAD[m]));
  };
  const totals = metricValues(sumSales(days, region), metrics);
  settle('/totals', totals, end);
  const data: JsonObject = { start_date: start, end_date: end, region: region ?? 'all', granularity, currency: 'USD', totals };
  if (granularity !== 'total') {
    const periods = new Map<string, string[]>();
    for (const day of days) {
      const p = periodOf(day, granularity, start);
      periods.set(p, [...(periods.get(p) ?? []), day]);
    }
    data['series'] = [...periods.entries()].map(([period, ds], i): JsonValue => {
      const values = metricValues(sumSales(ds, region), metrics);
      settle(`/series/${i}`, values, ds[ds.length - 1]!);
      return { period, ...values };
    });
  }
  data['generated_at'] = '2026-10-14T06:59:03Z';
  volatile.push({ path: '/generated_at', kind: 'ignored', recorded: '2026-10-14T09:30:00Z' });
  return ok(data, volatile);
}

export function getTopProducts(world: World, args: NormalizedArgs): ApiResult {
  const start = str(args, 'start_date') ?? '';
  const end = str(args, 'end_date') ?? '';
  const invalid = checkRange(start, end);
  if (invalid) return invalid;
  const metric = str(args, 'metric') ?? 'revenue';
  const category = str(args, 'category');
  const days = daysBetween(start, end) + 1;
  const ranked = world.products
    .filter((p) => category === undefined || p.category === category)
    .map((p) => {
      const units = productUnits(p, start, days);
      return { sku: p.sku, name: p.name, category: p.category, units, revenue: round2(units * p.price) };
    })
    .sort((a, b) => (metric === 'units' ? b.units - a.units : b.revenue - a.revenue) || (a.sku < b.sku ? -1 : 1))
    .slice(0, num(args, 'limit') ?? 5)
    .map((p, i) => ({ rank: i + 1, ...p }));
  const volatile: Volatile[] =
    end < SETTLING_FROM
      ? []
      : ranked.flatMap((p, i) => [
          timeSensitive(`${p.sku}/${start}/${end}`, `/products/${i}/units`, p.units, 0.03),
          timeSensitive(`${p.sku}/${start}/${end}`, `/products/${i}/revenue`, p.revenue, 0.03, { integer: false }),
        ]);
  return ok({ start_date: start, end_date: end, metric, category: category ?? 'all', currency: 'USD', products: ranked }, volatile);
}
