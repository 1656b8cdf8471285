import type { JsonObject } from '../../../../lib/domain/index.js';
import type { ToolName } from '../catalog.js';
import { searchTerms } from '../api/productsApi.js';
import { call } from '../scenarios/helpers.js';
import type { Call, CaseSpec } from '../scenarios/types.js';
import type { World } from '../world/types.js';
import { mistakeVerdict, type Behaviour, type MistakeKind } from './behaviour.js';
import type { MistakeContext } from './mistakeContext.js';

type Rewrite = (args: JsonObject, world: World) => Call | undefined;
const s = (v: unknown): string => String(v);

/** The tool a model reaches for instead of the right one, with arguments it could have taken from the question. */
const SUBSTITUTES: Partial<Record<ToolName, Rewrite>> = {
  get_order: (a, w) => {
    const o = w.byOrderId.get(s(a['order_id']));
    return o && call('search_orders', { customer_id: o.customer_id });
  },
  get_refund_status: (a, w) => {
    const r = w.byRefundId.get(s(a['refund_id']));
    return r && call('list_refunds', { order_id: r.order_id });
  },
  get_inventory: (a, w) => {
    const p = w.bySku.get(s(a['sku']));
    return p && call('search_products', { query: p.name });
  },
  get_shipment_tracking: (a, w) => {
    const o = w.byTracking.get(s(a['tracking_number']));
    return o && call('get_order', { order_id: o.order_id });
  },
  list_support_tickets: (a) => (a['customer_id'] ? call('get_customer', { customer: s(a['customer_id']) }) : undefined),
  get_sales_summary: (a) => call('get_top_products', { start_date: s(a['start_date']), end_date: s(a['end_date']) }),
  get_top_products: (a) => call('get_sales_summary', { start_date: s(a['start_date']), end_date: s(a['end_date']) }),
  issue_refund: (a) => call('list_refunds', { order_id: s(a['order_id']) }),
  create_support_ticket: (a) => call('list_support_tickets', { customer_id: s(a['customer_id']) }),
  get_customer: (a) => call('list_support_tickets', { customer_id: s(a['customer']) }),
  search_orders: (a) => (a['customer_id'] ? call('get_customer', { customer: s(a['customer_id']) }) : undefined),
  search_products: (a, w) => {
    const terms = searchTerms(s(a['query'] ?? a['category'] ?? ''));
    const p = w.products.find((x) => terms.every((t) => searchTerms(`${x.name} ${x.kind} ${x.category}`).includes(t)));
    return p && call('get_inventory', { sku: p.sku });
  },
};

/** A call a model adds "to be thorough": something related to the case that nobody asked for. */
const EXTRAS: readonly Rewrite[] = [
  (a) => (a['order_id'] ? call('get_order', { order_id: s(a['order_id']) }) : undefined),
  (a) => (a['customer_id'] ? call('get_customer', { customer: s(a['customer_id']) }) : undefined),
  (a, w) => {
    const o = a['tracking_number'] ? w.byTracking.get(s(a['tracking_number'])) : undefined;
    return o && call('get_order', { order_id: o.order_id });
  },
  (a, w) => {
    const r = a['refund_id'] ? w.byRefundId.get(s(a['refund_id'])) : undefined;
    return r && call('get_order', { order_id: r.order_id });
  },
  (a) =>
    a['start_date'] && a['end_date'] ? call('get_top_products', { start_date: s(a['start_date']), end_date: s(a['end_date']) }) : undefined,
  (a) => (a['sku'] ? call('search_products', { query: 'similar products', in_stock_only: true }) : undefined),
  (a) => (a['query'] ? call('get_top_products', { start_date: '2026-09-01', end_date: '2026-09-30' }) : undefined),
];

const fromCalls = (calls: (Call | undefined)[], extra: Call[], label: MistakeKind, intended: Behaviour['intended']): Behaviour => ({
  outcome: 'mistake',
  label,
  calls,
  extra,
  answer: { kind: 'from_results' },
  intended,
});

export const CALL_SET_MISTAKES = {
  wrong_tool: (spec, ctx) => {
    const options = spec.calls.flatMap((c, i) => {
      const sub = SUBSTITUTES[c.tool_name]?.(c.arguments, ctx.world);
      return sub && !spec.alternatives?.some((alt) => alt.calls.some((x) => x.tool_name === sub.tool_name)) ? [[i, sub] as const] : [];
    });
    if (!options.length) return undefined;
    const [index, sub] = ctx.rng.pick(options);
    return fromCalls(
      spec.calls.map((c, i) => (i === index ? undefined : c)),
      [sub],
      'wrong_tool',
      mistakeVerdict('logic', 'wrong_tool'),
    );
  },
  hallucinated_extra_call: (spec, ctx) => {
    const used = new Set(spec.calls.map((c) => c.tool_name));
    const extras = spec.calls.flatMap((c) =>
      EXTRAS.map((f) => f(c.arguments, ctx.world)).filter((x): x is Call => x !== undefined && !used.has(x.tool_name)),
    );
    if (!extras.length) return undefined;
    return fromCalls([...spec.calls], [ctx.rng.pick(extras)], 'hallucinated_extra_call', mistakeVerdict('logic', 'extra_call'));
  },
  duplicated_call: (spec, ctx) => {
    if (!spec.calls.length) return undefined;
    return fromCalls([...spec.calls], [ctx.rng.pick(spec.calls)], 'duplicated_call', mistakeVerdict('logic', 'extra_call'));
  },
  dropped_parallel_call: (spec, ctx) => {
    if (spec.calls.length < 2) return undefined;
    const drop = ctx.rng.int(0, spec.calls.length - 1);
    return fromCalls(
      spec.calls.map((c, i) => (i === drop ? undefined : c)),
      [],
      'dropped_parallel_call',
      mistakeVerdict('logic', 'missing_call'),
    );
  },
  text_instead_of_call: (spec, ctx) => {
    if (!spec.calls.length) return undefined;
    const text = spec.textOnly ?? ctx.rng.pick(CLARIFY[ctx.format]);
    return {
      outcome: 'mistake',
      label: 'text_instead_of_call',
      calls: spec.calls.map(() => undefined),
      extra: [],
      answer: { kind: 'text', text },
      // a question back where the case had what it needed is the more specific diagnosis (stage 2's clarification rule)
      intended: mistakeVerdict('logic', text.trim() !== '' && text.includes('?') ? 'clarified_instead_of_calling' : 'missing_call'),
    };
  },
  call_on_abstention: (spec) => {
    if (spec.calls.length || !spec.tempting) return undefined;
    return {
      ...fromCalls([], [spec.tempting.call], 'call_on_abstention', mistakeVerdict('logic', 'unexpected_call')),
      answer: { kind: 'text', text: spec.tempting.answer },
    };
  },
} satisfies Partial<Record<MistakeKind, (spec: CaseSpec, ctx: MistakeContext) => Behaviour | undefined>>;

const CLARIFY = {
  openai: ['I can help with that. Could you confirm the details first?', "I'm not able to retrieve that right now."],
  anthropic: [
    'Before I look this up, could you confirm exactly which records you mean? I want to make sure I pull the right data.',
    "I'd be happy to help with that. Could you share a bit more detail so I can run the right query?",
  ],
} as const;
