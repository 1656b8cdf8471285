import { capitalize } from './helpers.js';
import { words } from './sayOrders.js';
import { failureSentence, money, okData, type Answer, type ResultView } from './types.js';
import type { QuoteView, TrackingView } from './views.js';

/** Tracking; a parcel still moving has a last scan the gold cannot know. */
export function sayTracking(r: ResultView | undefined, reference: boolean): Answer {
  const d = okData<TrackingView>(r);
  if (!d) return { sentences: [failureSentence(r, 'the tracking')], facts: [] };
  const head = `Parcel ${d.tracking_number} (${d.carrier.toUpperCase()}, order ${d.order_id}) is ${words(d.status)}`;
  if (d.delivered_on) {
    return {
      sentences: [`${head}: it was delivered on ${d.delivered_on} in ${d.destination}.`],
      facts: [`${d.tracking_number} delivered`, `delivered on ${d.delivered_on}`],
    };
  }
  const scan = reference ? '' : ` Last scan: ${d.last_event.description} in ${d.last_event.location}.`;
  return {
    sentences: [`${head}; estimated delivery ${d.estimated_delivery} to ${d.destination}.${scan}`],
    facts: [`${d.tracking_number} ${words(d.status)}`, `estimated delivery ${d.estimated_delivery}`],
  };
}

export function sayQuote(r: ResultView | undefined, destination: string, reference: boolean): Answer {
  const d = okData<QuoteView>(r);
  if (!d) return { sentences: [failureSentence(r, `a quote to ${destination}`)], facts: [] };
  const days =
    d.transit_days.min === d.transit_days.max
      ? `${d.transit_days.min} business day`
      : `${d.transit_days.min} to ${d.transit_days.max} business days`;
  const insurance = d.insurance > 0 ? ` That includes ${money(d.insurance)} of insurance.` : '';
  const quote = reference ? '' : ` (quote ${d.quote_id})`;
  return {
    sentences: [
      `${capitalize(d.service_level)} shipping to ${destination} costs ${money(d.price)} with ${d.carrier.toUpperCase()} and takes ${days}${quote}.${insurance}`,
    ],
    facts: [`${d.service_level} ${money(d.price)}`, days],
  };
}
