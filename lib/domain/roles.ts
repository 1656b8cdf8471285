import { z } from 'zod';

/**
 * API roles (DESIGN §7). `reader` may GET everything; the others may change what they name. `annotator`: a person
 * labelling annotation tasks (takes the next item, submits labels).
 */
export const ROLES = ['reader', 'test-admin', 'suite-admin', 'platform-admin', 'runner', 'annotator'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Who is calling: an API key (embedded) or an Entra ID token (Azure). */
export interface Principal {
  id: string;
  name: string;
  roles: readonly Role[];
  kind: 'api-key' | 'entra-id';
  /** the organization the key or token belongs to (absent: `default`); every route is scoped to it */
  organization?: string;
}

/** Whether a principal may call a route that needs `role` (every role may read). */
export function allows(principal: Principal, role: Role): boolean {
  return role === 'reader' ? principal.roles.length > 0 : principal.roles.includes(role);
}
