import { AlertThresholdsSchema, type AlertThresholds, type Client } from '../domain/index.js';

/** A client's thresholds with the defaults filled in (no client, or no thresholds: the product defaults). */
export function resolveThresholds(client?: Pick<Client, 'thresholds'> | null): AlertThresholds {
  return AlertThresholdsSchema.parse(client?.thresholds ?? {});
}
