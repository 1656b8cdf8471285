import { addDays, longDate, monthEnd, monthStart, MONTHS, TODAY } from '../dates.js';
import { call, Deck, expectCall, merge, phrase } from './helpers.js';
import { sayChange, saySales, sayTopProducts } from './sayAnalytics.js';
import type { CaseSpec, ScenarioContext } from './types.js';

const REGION_NAMES = { na: 'North America', emea: 'EMEA', apac: 'APAC', latam: 'Latin America' } as const;
type RegionKey = keyof typeof REGION_NAMES;
const MONTH_Q = [
  'What was total revenue in {month}?',
  'How much did we sell in {month}?',
  'Sales total for {month}?',
  'Give me the {month} numbers.',
];
const WEEKLY_Q = [
  'Weekly revenue in {region} for {month}.',
  'How did {region} do week by week in {month}?',
  'Break down {month} sales in {region} by week.',
];
const TOP_Q = [
  'Top {n} products by {metric} in {month}.',
  'What were our {n} best sellers by {metric} in {month}?',
  'Best-selling products ({metric}) in {month}, top {n}.',
];
const QUARTERS = [
  ['Q1 2026', '2026-01-01', '2026-03-31'],
  ['Q2 2026', '2026-04-01', '2026-06-30'],
  ['Q3 2026', '2026-07-01', '2026-09-30'],
] as const;

/** [label, start, end] of a full month of 2026 before October */
function month(m: number): [string, string, string] {
  return [`${MONTHS[m - 1]} 2026`, monthStart(2026, m), monthEnd(2026, m)];
}

export function analyticsScenarios(ctx: ScenarioContext): CaseSpec[] {
  const { rng } = ctx;
  const out: CaseSpec[] = [];
  const push = (spec: Omit<CaseSpec, 'category'>): void => void out.push({ ...spec, category: 'analytics' });
  const months = new Deck(rng, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const regions = new Deck(rng, Object.keys(REGION_NAMES) as RegionKey[]);
  const sales = (args: Record<string, string | string[]>) => call('get_sales_summary', args);

  for (let i = 0; i < 8; i++) {
    const [label, start, end] = month(months.draw());
    // a monthly breakdown of one month carries the same totals
    const monthly = sales({ start_date: start, end_date: end, granularity: 'month' });
    push({
      kind: 'analytics.month_total',
      complexity: 2,
      tags: ['analytics', 'dates', 'alternatives'],
      question: phrase(rng, MONTH_Q, { month: label }),
      calls: [sales({ start_date: start, end_date: end })],
      alternatives: [{ expected: [expectCall(monthly)], calls: [monthly] }],
      variants: [{ label: 'alternative_call_set', calls: [monthly] }],
      answer: ([r], reference) => saySales(r, label, { reference }),
      textOnly: `I don't have the ${label} figures at hand; the finance dashboard has the monthly totals.`,
    });
  }
  for (let i = 0; i < 8; i++) {
    const [label, start, end] = month(months.draw());
    const region = regions.draw();
    push({
      kind: 'analytics.region_weekly',
      complexity: 3,
      tags: ['analytics', 'dates', 'filters'],
      question: phrase(rng, WEEKLY_Q, { region: REGION_NAMES[region], month: label }),
      calls: [sales({ start_date: start, end_date: end, region, granularity: 'week' })],
      answer: ([r], reference) => saySales(r, `${REGION_NAMES[region]} in ${label}`, { reference }),
    });
  }
  for (let i = 0; i < 6; i++) {
    const monday = addDays('2026-06-01', 7 * rng.int(0, 14));
    const region = regions.draw();
    push({
      kind: 'analytics.daily_week',
      complexity: 3,
      tags: ['analytics', 'dates', 'filters'],
      question: `Daily sales for the week of ${longDate(monday)} (Monday to Sunday) in ${REGION_NAMES[region]}.`,
      calls: [sales({ start_date: monday, end_date: addDays(monday, 6), region, granularity: 'day' })],
      answer: ([r], reference) => saySales(r, `${REGION_NAMES[region]}, week of ${monday}`, { reference }),
    });
  }
  for (let i = 0; i < 6; i++) {
    const [label, start, end] = rng.pick(QUARTERS);
    const metrics = rng.chance(0.5) ? ['revenue', 'orders'] : ['orders', 'revenue'];
    push({
      kind: 'analytics.quarter_monthly',
      complexity: 3,
      tags: ['analytics', 'dates', 'arrays'],
      question: `${label} revenue and order count by month, just those two metrics.`,
      calls: [sales({ start_date: start, end_date: end, granularity: 'month', metrics })],
      answer: ([r], reference) => saySales(r, label, { reference }),
    });
  }
  for (let i = 0; i < 8; i++) {
    const [label, start, end] = month(months.draw());
    const n = rng.pick([3, 5, 5, 10]);
    const metric = rng.pick(['units', 'revenue'] as const);
    const category = i % 3 === 0 ? rng.pick(['kitchen', 'audio', 'outdoor', 'electronics'] as const) : undefined;
    const args = {
      start_date: start,
      end_date: end,
      ...(metric === 'units' ? { metric } : {}),
      ...(n === 5 ? {} : { limit: n }),
      ...(category ? { category } : {}),
    };
    push({
      kind: 'analytics.top_products',
      complexity: 3,
      tags: ['analytics', 'dates', 'ranking'],
      question: category ? `Top ${n} ${category} products by ${metric} in ${label}?` : phrase(rng, TOP_Q, { n, metric, month: label }),
      calls: [call('get_top_products', args)],
      answer: ([r], reference) => sayTopProducts(r, label, reference),
    });
  }
  for (let i = 0; i < 4; i++) {
    const m = rng.int(2, 9);
    const [a, b] = [month(m - 1), month(m)];
    push({
      kind: 'analytics.compare_months',
      complexity: 4,
      tags: ['analytics', 'dates', 'parallel'],
      question: `Compare revenue in ${a[0].replace(' 2026', '')} vs ${b[0]}.`,
      calls: [sales({ start_date: a[1], end_date: a[2] }), sales({ start_date: b[1], end_date: b[2] })],
      answer: ([ra, rb], reference) =>
        merge(saySales(ra, a[0], { reference }), saySales(rb, b[0], { reference }), sayChange(ra, rb, [a[0], b[0]], reference)),
    });
  }
  for (let i = 0; i < 4; i++) {
    const [label, start, end] = rng.pick(QUARTERS);
    const rs: RegionKey[] = ['na', 'emea', 'apac'];
    push({
      kind: 'analytics.regions',
      complexity: 5,
      tags: ['analytics', 'dates', 'parallel', 'filters'],
      question: `Compare ${label} revenue across North America, EMEA and APAC.`,
      calls: rs.map((region) => sales({ start_date: start, end_date: end, region })),
      answer: (results, reference) => merge(...results.map((r, j) => saySales(r, `${REGION_NAMES[rs[j]!]} in ${label}`, { reference }))),
    });
  }
  for (let i = 0; i < 3; i++) {
    const region = i === 0 ? undefined : regions.draw();
    const where = region ? ` in ${REGION_NAMES[region]}` : '';
    const extra: Record<string, string> = region ? { region } : {};
    const day = Number(TODAY.slice(8, 10));
    const [now, before] = [`October 1-${day}, 2026`, `September 1-${day}, 2026`];
    push({
      kind: 'analytics.month_to_date',
      complexity: 4,
      tags: ['analytics', 'dates', 'parallel', 'time-sensitive'],
      question: `How are October sales so far (October 1 to ${day}, 2026)${where} compared with the same days of September?`,
      calls: [
        sales({ start_date: '2026-10-01', end_date: TODAY, ...extra }),
        sales({ start_date: '2026-09-01', end_date: `2026-09-${day}`, ...extra }),
      ],
      answer: ([ra, rb], reference) =>
        merge(
          saySales(ra, now, { reference, settling: true }),
          saySales(rb, before, { reference }),
          sayChange(rb, ra, [before, now], reference),
        ),
    });
  }
  for (let i = 0; i < 4; i++) {
    const region = regions.draw();
    push({
      kind: 'analytics.region_metrics',
      complexity: 4,
      tags: ['analytics', 'dates', 'filters', 'arrays'],
      question: `Revenue and average order value in ${REGION_NAMES[region]} by month for the first half of 2026.`,
      calls: [sales({ start_date: '2026-01-01', end_date: '2026-06-30', region, granularity: 'month', metrics: ['revenue', 'aov'] })],
      answer: ([r], reference) => saySales(r, `${REGION_NAMES[region]}, H1 2026`, { reference }),
    });
  }
  return out;
}
