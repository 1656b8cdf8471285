import { z } from 'zod';
import { RoleSchema } from '../../domain/index.js';
import { ApiError } from '../problem.js';
import { defineRoute } from '../route.js';
import { organizationOfPrincipal } from '../../tenancy/index.js';

export const MeSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['api-key', 'entra-id']),
  /** the caller's roles; every role may read, the others may change what they name (docs/api.md) */
  roles: z.array(RoleSchema),
  /** the organization the caller acts in: every route answers within it */
  organization: z.string(),
});

/** Who the caller is and what it may do: the dashboard shows only what these roles allow (the API still enforces it). */
export const meRoute = defineRoute({
  name: 'me',
  method: 'GET',
  path: 'v1/me',
  role: 'reader',
  tag: 'keys',
  summary: 'The calling principal: id, name, credential kind and roles',
  response: MeSchema,
  responses: { 200: 'the caller' },
  handler: async ({ principal }) => {
    if (!principal) throw new ApiError(401, 'Unauthorized', 'no principal');
    return {
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: {
        id: principal.id,
        name: principal.name,
        kind: principal.kind,
        roles: [...principal.roles],
        organization: organizationOfPrincipal(principal),
      },
    };
  },
});
