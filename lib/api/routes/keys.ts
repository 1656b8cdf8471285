import { z } from 'zod';
import { AuditRecordSchema } from '../../domain/index.js';
import { NotFoundError } from '../../ports/index.js';
import { ApiKeyViewSchema, CreateApiKeyRequestSchema, apiKeyView, createApiKey } from '../apiKeys.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { pageSchemaOf } from '../schemas.js';
import { PagingQuery } from './entityRoutes.js';
import { keyOrganization } from './organizations.js';
import { organizationOfPrincipal, unscopedServicesOf } from '../../tenancy/index.js';

const KeyParams = z.object({ id: z.string().min(1) }).strict();

export const createKeyRoute = defineRoute({
  name: 'keys-create',
  method: 'POST',
  path: 'v1/keys',
  role: 'platform-admin',
  tag: 'keys',
  summary: 'Create an API key; its secret (`key`) is in this answer only: only its SHA-256 is stored',
  body: CreateApiKeyRequestSchema,
  responses: {
    201: 'the key, with its secret (shown once)',
    400: 'invalid body',
    403: 'another organization named by a caller other than the platform operator',
    422: 'unknown organization',
  },
  response: ApiKeyViewSchema.extend({ key: z.string() }),
  handler: async ({ services, principal, body, url }) => {
    const organization = await keyOrganization(services, principal, body.organization);
    // another organization's key is written unscoped (the operator's, checked by keyOrganization)
    const store = organization === organizationOfPrincipal(principal) ? services.apiKeys : unscopedServicesOf(services).apiKeys;
    const { key, record } = await createApiKey(store, { ...body, organization }, services.clock);
    return {
      status: 201,
      headers: { location: `${url.origin}/api/v1/keys/${record.id}`, 'cache-control': 'no-store' },
      body: { ...apiKeyView(record), key },
    };
  },
});

export const listKeysRoute = defineRoute({
  name: 'keys-list',
  method: 'GET',
  path: 'v1/keys',
  role: 'platform-admin',
  tag: 'keys',
  summary: 'List API keys, oldest first (never their secrets or hashes)',
  query: PagingQuery.extend({ status: z.enum(['active', 'revoked']).optional() }).strict(),
  responses: { 200: 'a page of keys' },
  response: pageSchemaOf(ApiKeyViewSchema),
  handler: async ({ services, query }) => {
    const all = (await services.apiKeys.listApiKeys()).map(apiKeyView).filter((k) => !query.status || k.status === query.status);
    const items = all.slice(query.offset, query.offset + query.limit);
    return {
      status: 200,
      body: { items, total: all.length, has_more: query.offset + items.length < all.length, limit: query.limit, offset: query.offset },
    };
  },
});

export const revokeKeyRoute = defineRoute({
  name: 'keys-revoke',
  method: 'DELETE',
  path: 'v1/keys/{id}',
  role: 'platform-admin',
  tag: 'keys',
  summary: 'Revoke an API key: calls with it get 401 from now on (idempotent)',
  params: KeyParams,
  responses: { 200: 'the revoked key', 404: 'no such key' },
  response: ApiKeyViewSchema,
  handler: async ({ services, params }) => {
    if (!(await services.apiKeys.getApiKey(params.id))) throw new NotFoundError('api key', params.id);
    await services.apiKeys.revokeApiKey(params.id, services.clock.now().toISOString());
    return { status: 200, body: apiKeyView((await services.apiKeys.getApiKey(params.id))!) };
  },
});

export const listAuditRoute = defineRoute({
  name: 'audit-list',
  method: 'GET',
  path: 'v1/audit',
  role: 'platform-admin',
  tag: 'keys',
  summary:
    'The audit trail of changes, newest first; filter by actor (id or name), entity and time window (since inclusive, until exclusive)',
  query: PagingQuery.extend({
    actor: z.string().min(1).optional(),
    entity_type: z.string().min(1).optional(),
    entity_id: z.string().min(1).optional(),
    since: z.iso.datetime({ offset: true }).optional(),
    until: z.iso.datetime({ offset: true }).optional(),
  }).strict(),
  responses: { 200: 'a page of audit records' },
  response: pageSchemaOf(AuditRecordSchema),
  handler: async ({ services, query }) => {
    const { limit, offset, ...filter } = query;
    return { status: 200, body: await services.stores.audit.listAuditRecords(filter, { limit, offset }) };
  },
});

/** API key and audit routes (role platform-admin). */
export const KEY_ROUTES: readonly RouteDefinition[] = [createKeyRoute, listKeysRoute, revokeKeyRoute, listAuditRoute];
