import type { JsonObject } from '../../../../lib/domain/index.js';
import type { CaseSpec } from '../scenarios/types.js';
import { argumentSlots, replaceArgument, schemaTypes, type ArgumentSlot } from './argumentSlots.js';
import { mistakeVerdict, PASS, type Behaviour, type IntendedVerdict, type ToleratedKind } from './behaviour.js';
import type { MistakeContext } from './mistakeContext.js';

function tolerated(
  spec: CaseSpec,
  slot: ArgumentSlot | undefined,
  value: JsonObject[string] | undefined,
  label: ToleratedKind,
  strict: IntendedVerdict,
): Behaviour | undefined {
  if (!slot || value === undefined) return undefined;
  return {
    outcome: 'tolerated',
    label,
    calls: replaceArgument(spec, slot.call, slot.name, value),
    extra: [],
    answer: { kind: 'from_results' },
    intended: PASS,
    intendedStrict: strict,
  };
}

/**
 * Deviations a model makes that the default coercion policy accepts: the case passes (the gate and stage 2 name
 * the coercion), the recorded API answers as it would to the exact value, and the strict policy fails the case.
 */
export const TOLERATED = {
  /** "25.50" for a number; a money field that also takes decimal strings passes stage 1 under any policy */
  numeric_string: (spec, ctx) => {
    const slots = argumentSlots(spec).filter(
      (s) => (typeof s.value === 'number' && schemaTypes(s.schema).includes('number')) || s.name === 'price_range',
    );
    const slot = slots.length ? ctx.rng.pick(slots) : undefined;
    if (!slot) return undefined;
    if (slot.name === 'price_range') {
      const range = slot.value as Record<string, number>;
      const key = 'max' in range ? 'max' : 'min';
      return tolerated(
        spec,
        slot,
        { ...range, [key]: String(range[key]) },
        'numeric_string',
        mistakeVerdict('syntax', 'wrong_argument_type'),
      );
    }
    const text = Number.isInteger(slot.value) ? String(slot.value) : (slot.value as number).toFixed(2);
    const acceptsText = schemaTypes(slot.schema).includes('string');
    return tolerated(
      spec,
      slot,
      text,
      'numeric_string',
      acceptsText ? mistakeVerdict('logic', 'argument_mismatch') : mistakeVerdict('syntax', 'wrong_argument_type'),
    );
  },
  /** `"limit": 3.0` in the argument text (only text arguments keep the literal: OpenAI's JSON strings) */
  float_literal_integer: (spec, ctx) => {
    if (ctx.format !== 'openai') return undefined;
    const slots = argumentSlots(spec).filter((s) => schemaTypes(s.schema).join() === 'integer');
    const slot = slots.length ? ctx.rng.pick(slots) : undefined;
    const behaviour = tolerated(spec, slot, slot?.value, 'float_literal_integer', mistakeVerdict('syntax', 'wrong_argument_type'));
    return behaviour && { ...behaviour, floatLiteral: { call: slot!.call, argument: slot!.name } };
  },
  /** "Delivered" for enum value "delivered" */
  enum_case: (spec, ctx) => {
    const slots = argumentSlots(spec).filter((s) => Array.isArray(s.schema['enum']) && typeof s.value === 'string');
    const slot = slots.length ? ctx.rng.pick(slots) : undefined;
    const v = slot?.value as string | undefined;
    return tolerated(spec, slot, v && v.charAt(0).toUpperCase() + v.slice(1), 'enum_case', mistakeVerdict('syntax', 'enum_violation'));
  },
} satisfies Record<ToleratedKind, (spec: CaseSpec, ctx: MistakeContext) => Behaviour | undefined>;
