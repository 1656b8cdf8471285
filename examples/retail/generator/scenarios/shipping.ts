import { COUNTRY_NAMES, PLACES } from '../world/productList.js';
import { call, Deck, expectCall, merge, phrase, withArgs } from './helpers.js';
import { sayQuote, sayTracking } from './sayShipping.js';
import type { Call, CaseSpec, ScenarioContext } from './types.js';

const TRACK_Q = [
  'Track {number}.',
  "Where's package {number}?",
  'Can you track parcel {number} for me?',
  'What is the tracking status of {number}?',
  'Has {number} been delivered?',
];
const TRACK_CARRIER_Q = [
  'Track {CARRIER} package {number}.',
  'Where is the {CARRIER} shipment {number}?',
  'Status of {CARRIER} tracking number {number}?',
];
const QUOTE_Q = [
  'How much to ship a {w} kg parcel to {postal} {city}, {country} {level}?',
  'Quote {level} shipping for {w} kg to {city} ({postal}, {country}).',
  'What would it cost to send {w} kg to postal code {postal} in {city}, {country}, {level}?',
];
const LEVEL_WORDS: Record<string, string> = { standard: 'with standard shipping', express: 'by express', overnight: 'overnight' };

type Place = readonly [string, string, string];
const destinationOf = ([, country, postal]: Place) => ({ country, postal_code: postal });
const labelOf = ([city, country]: Place): string => `${city}, ${country}`;

export function shippingScenarios(ctx: ScenarioContext): CaseSpec[] {
  const { world, rng } = ctx;
  const shipped = new Deck(
    rng,
    world.orders.filter((o) => o.shipment),
  );
  const places = new Deck(rng, PLACES);
  const out: CaseSpec[] = [];
  const push = (spec: Omit<CaseSpec, 'category'>): void => void out.push({ ...spec, category: 'shipping' });
  const weight = (): number => rng.pick([0.5, 1, 1.2, 2, 2.5, 3.4, 5, 7.5, 12]);

  for (let i = 0; i < 12; i++) {
    const s = shipped.draw().shipment!;
    const named = rng.chance(0.4);
    const c = call('get_shipment_tracking', { tracking_number: s.tracking_number });
    push({
      kind: 'shipping.track',
      complexity: 1,
      tags: ['shipping', 'lookup'],
      question: named
        ? phrase(rng, TRACK_CARRIER_Q, { number: s.tracking_number, CARRIER: s.carrier.toUpperCase() })
        : phrase(rng, TRACK_Q, { number: s.tracking_number }),
      calls: [c],
      expected: [expectCall(c, { carrier: { $optional: true, $value: s.carrier } })],
      variants: named ? [{ label: 'optional_included', calls: [withArgs(c, { carrier: s.carrier })] }] : [],
      answer: ([r], ref) => sayTracking(r, ref),
      textOnly: `You can follow ${s.tracking_number} on the ${s.carrier.toUpperCase()} website; I can't query carriers directly.`,
    });
  }
  const quote = (place: Place, w: number, level: string, extra: Record<string, number> = {}): Call =>
    call('get_shipping_quote', {
      destination: destinationOf(place),
      weight_kg: w,
      ...(level === 'standard' ? {} : { service_level: level }),
      ...extra,
    });
  for (let i = 0; i < 12; i++) {
    const place = places.draw();
    const w = weight();
    const level = place[1] === 'US' ? rng.pick(['standard', 'express', 'overnight']) : rng.pick(['standard', 'express']);
    const c = quote(place, w, level);
    push({
      kind: 'shipping.quote',
      complexity: 3,
      tags: ['shipping', 'nested-args'],
      question: phrase(rng, QUOTE_Q, {
        w,
        postal: place[2],
        city: place[0],
        country: COUNTRY_NAMES[place[1]] ?? place[1],
        level: LEVEL_WORDS[level]!,
      }),
      calls: [c],
      variants: level === 'standard' ? [{ label: 'explicit_default', calls: [withArgs(c, { service_level: 'standard' })] }] : [],
      answer: ([r], ref) => sayQuote(r, labelOf(place), ref),
    });
  }
  for (let i = 0; i < 3; i++) {
    const place = places.draw();
    const w = weight();
    const value = rng.pick([250, 400, 800, 1200]);
    push({
      kind: 'shipping.quote_insured',
      complexity: 4,
      tags: ['shipping', 'nested-args'],
      question: `Express quote for a ${w} kg package to ${place[2]} ${place[0]}, ${COUNTRY_NAMES[place[1]]}, insured for $${value}.`,
      calls: [quote(place, w, 'express', { declared_value: value })],
      answer: ([r], ref) => sayQuote(r, labelOf(place), ref),
    });
  }
  for (let i = 0; i < 4; i++) {
    const place = places.draw();
    const w = weight();
    push({
      kind: 'shipping.compare_levels',
      complexity: 4,
      tags: ['shipping', 'parallel', 'nested-args'],
      question: `Compare standard and express shipping for a ${w} kg box to ${place[2]} ${place[0]}, ${COUNTRY_NAMES[place[1]]}.`,
      calls: [quote(place, w, 'standard'), quote(place, w, 'express')],
      answer: ([a, b], ref) => merge(sayQuote(a, labelOf(place), ref), sayQuote(b, labelOf(place), ref)),
    });
  }
  for (let i = 0; i < 3; i++) {
    const [a, b] = [shipped.draw().shipment!, shipped.draw().shipment!];
    const calls = [a, b].map((s) => call('get_shipment_tracking', { tracking_number: s.tracking_number }));
    push({
      kind: 'shipping.track_two',
      complexity: 4,
      tags: ['shipping', 'parallel'],
      question: `Track ${a.tracking_number} and ${b.tracking_number}.`,
      calls,
      expected: calls.map((c, j) => expectCall(c, { carrier: { $optional: true, $value: [a, b][j]!.carrier } })),
      answer: ([ra, rb], ref) => merge(sayTracking(ra, ref), sayTracking(rb, ref)),
    });
  }
  for (let i = 0; i < 3; i++) {
    const ps = [places.draw(), places.draw(), places.draw()];
    const w = weight();
    push({
      kind: 'shipping.multi_destination',
      complexity: 5,
      tags: ['shipping', 'parallel', 'nested-args'],
      question: `Quote express shipping of a ${w} kg parcel to ${ps.map((p) => `${p[0]} ${p[2]} (${p[1]})`).join(', ')}.`,
      calls: ps.map((p) => quote(p, w, 'express')),
      answer: (rs, ref) => merge(...rs.map((r, j) => sayQuote(r, labelOf(ps[j]!), ref))),
    });
  }
  return out;
}
