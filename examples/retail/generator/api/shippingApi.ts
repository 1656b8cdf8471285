import type { JsonObject } from '../../../../lib/domain/index.js';
import { RECORDED_AT } from '../dates.js';
import { BASE62, hashString, Prng, round2 } from '../prng.js';
import type { World } from '../world/types.js';
import { apiError, num, ok, str, type ApiResult, type NormalizedArgs, type Volatile } from './types.js';
import { volatileField } from './volatile.js';

export function getShipmentTracking(world: World, args: NormalizedArgs): ApiResult {
  const number = (str(args, 'tracking_number') ?? '').replaceAll(' ', '').toUpperCase();
  const order = world.byTracking.get(number);
  const carrier = str(args, 'carrier');
  if (!order?.shipment || (carrier !== undefined && carrier !== order.shipment.carrier)) {
    return apiError(404, 'shipment_not_found', `No ${carrier ? `${carrier.toUpperCase()} ` : ''}shipment with tracking number ${number}.`);
  }
  const s = order.shipment;
  const delivered = s.status === 'delivered';
  const data: JsonObject = {
    tracking_number: s.tracking_number,
    carrier: s.carrier,
    status: s.status,
    order_id: order.order_id,
    origin: s.origin,
    destination: `${order.city}, ${order.country}`,
    shipped_on: s.shipped_on,
    estimated_delivery: s.estimated_delivery,
    delivered_on: s.delivered_on,
    last_event: delivered
      ? { description: 'Delivered', location: `${order.city}, ${order.country}`, at: `${s.delivered_on}T14:12:00Z` }
      : {
          description: s.status === 'out_for_delivery' ? 'Out for delivery' : 'Departed carrier facility',
          location: s.last_location,
          at: '2026-10-14T05:10:00Z',
        },
  };
  // a parcel on the move reports a new scan between authoring and recording
  const volatile: Volatile[] = delivered
    ? []
    : [
        volatileField('/last_event', {
          description: s.status === 'out_for_delivery' ? 'Out for delivery' : 'Arrived at carrier facility',
          location: s.last_location,
          at: '2026-10-14T08:05:00Z',
        }),
      ];
  return ok(data, volatile);
}

const ZONES: Record<string, { base: number; perKg: number; transit: [number, number] }> = {
  domestic: { base: 7.5, perKg: 1.9, transit: [3, 5] },
  north_america: { base: 14, perKg: 3.2, transit: [5, 8] },
  europe: { base: 24, perKg: 5.5, transit: [6, 10] },
  rest_of_world: { base: 32, perKg: 7.8, transit: [8, 14] },
};
const EUROPE = new Set(['DE', 'FR', 'ES', 'NL', 'GB', 'IE', 'IT', 'BE', 'AT', 'SE', 'DK', 'PL', 'PT']);
const SERVICE = {
  standard: { factor: 1, days: null },
  express: { factor: 1.8, days: [2, 3] },
  overnight: { factor: 3.1, days: [1, 1] },
} as const;

export function zoneOf(country: string): keyof typeof ZONES {
  if (country === 'US') return 'domestic';
  if (country === 'CA' || country === 'MX') return 'north_america';
  return EUROPE.has(country) ? 'europe' : 'rest_of_world';
}

export function getShippingQuote(_world: World, args: NormalizedArgs, key: string): ApiResult {
  const destination = (args['destination'] ?? {}) as { country?: string; postal_code?: string };
  const weight = num(args, 'weight_kg') ?? 0;
  const level = (str(args, 'service_level') ?? 'standard') as keyof typeof SERVICE;
  const zone = zoneOf(destination.country ?? '');
  if (level === 'overnight' && zone !== 'domestic') {
    return apiError(422, 'service_unavailable', `Overnight shipping is only available within the US, not to ${destination.country}.`);
  }
  const z = ZONES[zone]!;
  const insurance = round2((num(args, 'declared_value') ?? 0) * 0.01);
  const price = round2((z.base + (z.perKg * Math.ceil(weight * 2)) / 2) * SERVICE[level].factor + insurance);
  const days = SERVICE[level].days ?? z.transit;
  const carrier = zone === 'domestic' ? (level === 'standard' ? 'usps' : 'ups') : 'dhl';
  const id = new Prng(hashString(key));
  const data: JsonObject = {
    service_level: level,
    carrier,
    destination: { country: destination.country ?? null, postal_code: destination.postal_code ?? null },
    billable_weight_kg: Math.ceil(weight * 2) / 2,
    price,
    currency: 'USD',
    insurance,
    transit_days: { min: days[0], max: days[1] },
    quote_id: `Q-${id.chars(BASE62, 10)}`,
    expires_at: '2026-10-15T07:00:00Z',
  };
  return ok(data, [volatileField('/quote_id', `Q-${id.chars(BASE62, 10)}`), volatileField('/expires_at', addHours(RECORDED_AT, 24))]);
}

function addHours(iso: string, hours: number): string {
  return new Date(new Date(iso).getTime() + hours * 3_600_000).toISOString().replace('.000Z', 'Z');
}
