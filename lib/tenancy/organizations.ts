import { DEFAULT_ORGANIZATION, type Organization } from '../domain/index.js';
import type { Clock, EntityStore, WithEtag } from '../ports/index.js';

/**
 * The `default` organization's record, created on first need (it owns everything written before organizations
 * existed, so it exists on every platform without anyone creating it). Idempotent; a concurrent creation is fine.
 */
export async function ensureDefaultOrganization(organizations: EntityStore<Organization>, clock: Clock): Promise<WithEtag<Organization>> {
  const existing = await organizations.get(DEFAULT_ORGANIZATION);
  if (existing) return existing;
  try {
    return await organizations.create({ id: DEFAULT_ORGANIZATION, name: 'Default organization', created_at: clock.now().toISOString() });
  } catch (err) {
    const again = await organizations.get(DEFAULT_ORGANIZATION);
    if (again) return again;
    throw err;
  }
}
