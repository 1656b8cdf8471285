import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ApiKeyRecord, ApiKeyStore, Clock } from '../ports/index.js';
import { OrganizationIdSchema, RoleSchema, organizationOf, type Principal, type Role } from '../domain/index.js';

const PREFIX = 'evalp';

/** Creates a key and returns its secret (shown once: only its hash is stored). Format `evalp_<id>_<secret>`. */
export async function createApiKey(
  store: ApiKeyStore,
  input: { name: string; roles: Role[]; organization?: string | undefined },
  clock: Clock,
): Promise<{ key: string; record: ApiKeyRecord }> {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(24).toString('base64url');
  const record: ApiKeyRecord = {
    id,
    name: input.name,
    roles: [...new Set(input.roles)],
    secret_hash: hash(secret),
    created_at: clock.now().toISOString(),
    revoked_at: null,
    last_used_at: null,
    ...(input.organization ? { organization: input.organization } : {}),
  };
  await store.createApiKey(record);
  return { key: `${PREFIX}_${id}_${secret}`, record };
}

/** The principal of a presented key, or undefined when it is malformed, unknown, revoked or wrong. */
export async function authenticateApiKey(store: ApiKeyStore, presented: string | undefined): Promise<Principal | undefined> {
  if (!presented) return undefined;
  const match = /^evalp_([0-9a-f]{12})_([A-Za-z0-9_-]{32})$/.exec(presented.trim());
  if (!match) return undefined;
  const record = await store.getApiKey(match[1]!);
  if (!record || record.revoked_at) return undefined;
  const expected = Buffer.from(record.secret_hash, 'hex');
  const actual = Buffer.from(hash(match[2]!), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
  return { id: record.id, name: record.name, roles: record.roles, kind: 'api-key', organization: organizationOf(record) };
}

/** The key a request presents: `Authorization: Bearer <key>` or `x-api-key: <key>`. */
export function presentedKey(headers: { get(name: string): string | null }): string | undefined {
  const auth = headers.get('authorization');
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '');
  return headers.get('x-api-key') ?? undefined;
}

function hash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A key as the API and the CLI show it: never its secret or hash. */
export const ApiKeyViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    roles: z.array(RoleSchema),
    status: z.enum(['active', 'revoked']),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
    /** the organization the key acts in */
    organization: z.string(),
  })
  .strict();
export type ApiKeyView = z.infer<typeof ApiKeyViewSchema>;

export function apiKeyView(record: ApiKeyRecord): ApiKeyView {
  return {
    id: record.id,
    name: record.name,
    roles: record.roles,
    status: record.revoked_at ? 'revoked' : 'active',
    created_at: record.created_at,
    revoked_at: record.revoked_at,
    last_used_at: record.last_used_at,
    organization: organizationOf(record),
  };
}

/** What creating a key takes (API body and CLI flags): a name and at least one role. */
export const CreateApiKeyRequestSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      // eslint-disable-next-line no-control-regex -- the rule is exactly: no control characters in a key name
      .regex(/^[^\u0000-\u001f]*$/, 'no control characters'),
    roles: z.array(RoleSchema).min(1, 'give at least one role'),
    /** the organization the key acts in (default: the caller's); only the platform operator may name another */
    organization: OrganizationIdSchema.optional(),
  })
  .strict();
