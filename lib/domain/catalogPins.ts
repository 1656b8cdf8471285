import { z } from 'zod';

/**
 * Tool-catalog versions pinned by catalog name (`{"retail-api": "1"}`). A suite pins the versions its cases were
 * written against, so it keeps running on them after a catalog gets a new version, until it is migrated; a run
 * copies its suite's pins (or takes its own). A pin replaces the version a target or case names for that catalog:
 * the model is offered the pinned tools and stage 1 validates against them.
 */
export const CatalogPinsSchema = z.record(z.string().min(1, 'a catalog name'), z.string().min(1, 'a tool_schema_version of that catalog'));
export type CatalogPins = z.infer<typeof CatalogPinsSchema>;

/** The catalog reference after pins: the pinned version of the same catalog name, or the reference as it is. */
export function pinnedCatalogRef<R extends { name: string; version: string }>(
  ref: R | undefined,
  pins: CatalogPins | undefined,
): { name: string; version: string } | undefined {
  if (!ref) return undefined;
  const pinned = pins?.[ref.name];
  return pinned !== undefined ? { name: ref.name, version: pinned } : { name: ref.name, version: ref.version };
}
