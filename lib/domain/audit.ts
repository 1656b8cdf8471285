import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';

/** Who made a change: an API key, an Entra ID principal, or a person on the platform's machine (the CLI, locally). */
export const AUDIT_ACTOR_KINDS = ['api-key', 'entra-id', 'local'] as const;

export const AuditActorSchema = z
  .object({
    /** the key id, the Entra object id (`oid`, else `sub`), or `local:<os user>` */
    id: z.string().min(1),
    name: z.string(),
    kind: z.enum(AUDIT_ACTOR_KINDS),
  })
  .strict();
export type AuditActor = z.infer<typeof AuditActorSchema>;

/**
 * One change to the platform: who, when, what (method, route, action), which entity, the outcome status and the
 * request id. Never a body, a header or a secret.
 */
export const AuditRecordSchema = z
  .object({
    id: z.string().min(1),
    /** the owning organization, stamped by the organization-scoped stores (absent: `default`) */
    organization: OrganizationFieldSchema,
    at: z.iso.datetime({ offset: true }),
    actor: AuditActorSchema,
    /** the HTTP method, or `CLI` for a change the CLI made directly in the local database */
    method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE', 'CLI']),
    /** the route's name in the route table (e.g. `keys-create`, `runs-cancel`) */
    route: z.string().min(1),
    /** e.g. `create`, `update`, `delete`, `revoke`, `cancel`, `retry-failures` */
    action: z.string().min(1),
    /** the resource, as the path names it (`runs`, `keys`, `test-cases`, ...); null when the route names none */
    entity_type: z.string().min(1).nullable(),
    entity_id: z.string().min(1).nullable(),
    /** the HTTP status answered (only successful changes are recorded) */
    status: z.number().int().min(100).max(599),
    /** the caller's `x-request-id` (or `x-ms-client-request-id`), else one the platform generated */
    request_id: z.string().min(1).nullable(),
  })
  .strict();
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
