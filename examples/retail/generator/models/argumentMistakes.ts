import type { JsonValue } from '../../../../lib/domain/index.js';
import { RETAIL_CATALOG } from '../catalog.js';
import { addDays, usDate } from '../dates.js';
import { round2 } from '../prng.js';
import type { CaseSpec } from '../scenarios/types.js';
import { argumentSlots, replaceArgument, type ArgumentSlot } from './argumentSlots.js';
import { mistakeVerdict, type Behaviour, type MistakeKind } from './behaviour.js';
import type { MistakeContext } from './mistakeContext.js';

/** A valid enum value a model confuses with the right one. */
const NEAR: Readonly<Record<string, string>> = {
  shipped: 'delivered',
  delivered: 'shipped',
  cancelled: 'returned',
  returned: 'cancelled',
  paid: 'pending',
  pending: 'paid',
  damaged: 'defective',
  defective: 'damaged',
  wrong_item: 'defective',
  not_received: 'late_delivery',
  late_delivery: 'not_received',
  changed_mind: 'defective',
  week: 'month',
  month: 'week',
  day: 'week',
  high: 'urgent',
  urgent: 'high',
  low: 'normal',
  open: 'pending',
  processed: 'approved',
  approved: 'processed',
  requested: 'approved',
  price_asc: 'price_desc',
  rating: 'relevance',
  total_desc: 'newest',
  express: 'overnight',
  overnight: 'express',
  units: 'revenue',
  revenue: 'units',
  store_credit: 'original_payment',
  na: 'latam',
  emea: 'apac',
  apac: 'emea',
  latam: 'na',
  reno: 'columbus',
  columbus: 'atlanta',
  atlanta: 'reno',
  rotterdam: 'reno',
  billing: 'account',
  shipping: 'product',
  product: 'shipping',
  kitchen: 'home',
  audio: 'electronics',
  outdoor: 'apparel',
  electronics: 'audio',
  home: 'kitchen',
  apparel: 'outdoor',
  toys: 'electronics',
  beauty: 'home',
  ups: 'usps',
  fedex: 'ups',
  usps: 'fedex',
  dhl: 'ups',
};
/** Values outside the enum that models write anyway (synonyms, not case variants: those the default policy accepts). */
const INVALID: Readonly<Record<string, string>> = {
  week: 'weekly',
  month: 'monthly',
  day: 'daily',
  express: 'expedited',
  overnight: 'next_day',
  damaged: 'broken',
  emea: 'europe',
  na: 'north_america',
  apac: 'asia',
  latam: 'south_america',
  urgent: 'critical',
  high: 'p1',
  low: 'minor',
  store_credit: 'gift_card',
  delivered: 'completed',
  shipped: 'in_transit',
  cancelled: 'canceled',
  returned: 'refunded',
  paid: 'confirmed',
  defective: 'faulty',
  wrong_item: 'incorrect_item',
  not_received: 'lost',
  late_delivery: 'delayed',
  price_asc: 'price_low_to_high',
  rating: 'top_rated',
  total_desc: 'largest',
  units: 'quantity',
  open: 'active',
  processed: 'completed',
  approved: 'accepted',
  billing: 'payment',
  shipping: 'delivery',
  product: 'quality',
  kitchen: 'kitchenware',
  audio: 'headphones',
  outdoor: 'camping',
  reno: 'nevada',
  columbus: 'ohio',
  atlanta: 'georgia',
  rotterdam: 'netherlands',
};

const requiredOf = (tool: string): readonly string[] =>
  (RETAIL_CATALOG.tools.find((t) => t.name === tool)?.parameters['required'] ?? []) as string[];

function pickSlot(ctx: MistakeContext, slots: ArgumentSlot[]): ArgumentSlot | undefined {
  return slots.length ? ctx.rng.pick(slots) : undefined;
}

function argumentMistake(
  spec: CaseSpec,
  slot: ArgumentSlot | undefined,
  value: JsonValue | undefined,
  verdict: Behaviour['intended'],
  label: MistakeKind,
): Behaviour | undefined {
  if (!slot) return undefined;
  return {
    outcome: 'mistake',
    label,
    calls: replaceArgument(spec, slot.call, slot.name, value),
    extra: [],
    answer: { kind: 'from_results' },
    intended: verdict,
  };
}

const enumSlots = (spec: CaseSpec): ArgumentSlot[] =>
  argumentSlots(spec).filter((s) => Array.isArray(s.schema['enum']) && typeof s.value === 'string');
const dateSlots = (spec: CaseSpec): ArgumentSlot[] => argumentSlots(spec).filter((s) => s.schema['format'] === 'date');

export const ARGUMENT_MISTAKES = {
  wrong_enum_value: (spec, ctx) => {
    const slot = pickSlot(
      ctx,
      enumSlots(spec).filter((s) => NEAR[s.value as string] !== undefined),
    );
    return argumentMistake(
      spec,
      slot,
      slot && NEAR[slot.value as string],
      mistakeVerdict('logic', 'argument_mismatch'),
      'wrong_enum_value',
    );
  },
  invalid_enum_value: (spec, ctx) => {
    const slot = pickSlot(
      ctx,
      enumSlots(spec).filter((s) => INVALID[s.value as string] !== undefined),
    );
    return argumentMistake(
      spec,
      slot,
      slot && INVALID[slot.value as string],
      mistakeVerdict('syntax', 'enum_violation'),
      'invalid_enum_value',
    );
  },
  missing_optional_filter: (spec, ctx) => {
    const slots = argumentSlots(spec).filter((s) => {
      const c = spec.calls[s.call]!;
      return (
        !requiredOf(c.tool_name).includes(s.name) && !('default' in s.schema && s.schema['default'] === s.value) && s.name !== 'order_id'
      );
    });
    return argumentMistake(spec, pickSlot(ctx, slots), undefined, mistakeVerdict('logic', 'missing_argument'), 'missing_optional_filter');
  },
  missing_required_argument: (spec, ctx) => {
    const slots = argumentSlots(spec).filter(
      (s) => requiredOf(spec.calls[s.call]!.tool_name).includes(s.name) && Object.keys(spec.calls[s.call]!.arguments).length > 1,
    );
    return argumentMistake(
      spec,
      pickSlot(ctx, slots),
      undefined,
      mistakeVerdict('syntax', 'missing_required_argument'),
      'missing_required_argument',
    );
  },
  wrong_date_format: (spec, ctx) => {
    const slot = pickSlot(ctx, dateSlots(spec));
    return argumentMistake(
      spec,
      slot,
      slot && usDate(slot.value as string),
      mistakeVerdict('syntax', 'schema_violation'),
      'wrong_date_format',
    );
  },
  off_by_one_date: (spec, ctx) => {
    const slot = pickSlot(ctx, dateSlots(spec));
    // an inclusive end read as exclusive (Sep 30 -> Oct 1), or a start one day late
    return argumentMistake(
      spec,
      slot,
      slot && addDays(slot.value as string, 1),
      mistakeVerdict('logic', 'argument_mismatch'),
      'off_by_one_date',
    );
  },
  wrong_id: (spec, ctx) => {
    const slot = pickSlot(
      ctx,
      argumentSlots(spec).filter((s) => /^(order_id|refund_id|sku|customer_id|tracking_number)$/.test(s.name)),
    );
    return argumentMistake(spec, slot, slot && typo(slot.value as string), mistakeVerdict('logic', 'argument_mismatch'), 'wrong_id');
  },
  wrong_refund_amount: (spec, ctx) => {
    const slot = pickSlot(
      ctx,
      argumentSlots(spec).filter((s) => s.name === 'amount'),
    );
    if (!slot) return undefined;
    const order = ctx.world.byOrderId.get(spec.calls[slot.call]!.arguments['order_id'] as string);
    const amount = slot.value as number;
    // refunds the whole order instead of the amount asked for, or slips a decimal place
    const wrong = order && order.total !== amount && ctx.rng.chance(0.7) ? order.total : round2(amount * 10);
    return argumentMistake(spec, slot, wrong, mistakeVerdict('logic', 'argument_mismatch'), 'wrong_refund_amount');
  },
} satisfies Partial<Record<MistakeKind, (spec: CaseSpec, ctx: MistakeContext) => Behaviour | undefined>>;

/** Two neighbouring characters of the id's digits swapped (a different, well-formed id). */
function typo(id: string): string {
  const chars = [...id];
  for (let i = chars.length - 2; i > 3; i--) {
    if (chars[i] !== chars[i + 1] && /[0-9A-Z]/.test(chars[i]!) && /[0-9A-Z]/.test(chars[i + 1]!)) {
      [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
      return chars.join('');
    }
  }
  return `${id.slice(0, -1)}${id.endsWith('1') ? '2' : '1'}`;
}
