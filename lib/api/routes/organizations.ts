import { z } from 'zod';
import { OrganizationBudgetSchema, OrganizationIdSchema, OrganizationSchema, type Principal } from '../../domain/index.js';
import { NotFoundError, type Services } from '../../ports/index.js';
import {
  BudgetLedger,
  ensureDefaultOrganization,
  isPlatformOperator,
  organizationOfPrincipal,
  unscopedServicesOf,
} from '../../tenancy/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { pageSchemaOf } from '../schemas.js';
import { PagingQuery } from './entityRoutes.js';

const OrgParams = z.object({ id: OrganizationIdSchema }).strict();

export const CreateOrganizationRequestSchema = z
  .object({
    id: OrganizationIdSchema,
    name: z.string().trim().min(1).max(200),
    budget: OrganizationBudgetSchema.optional(),
    retention_days: OrganizationSchema.shape.retention_days,
  })
  .strict();

/** 403 unless the caller is the platform operator (a platform-admin of `default`). */
function requireOperator(principal: Principal | undefined, what: string): void {
  if (!isPlatformOperator(principal)) {
    throw new ApiError(403, 'Forbidden', `${what} needs a platform-admin of the "default" organization (the platform operator)`);
  }
}

/**
 * The organizations store a caller may read: every organization for the platform operator, else its own only
 * (the scoped store). `default` is created on first need.
 */
async function organizationsFor(services: Services, principal: Principal | undefined): Promise<Services['stores']['organizations']> {
  const all = unscopedServicesOf(services);
  await ensureDefaultOrganization(all.stores.organizations, all.clock);
  return isPlatformOperator(principal) ? all.stores.organizations : services.stores.organizations;
}

export const createOrganizationRoute = defineRoute({
  name: 'organizations-create',
  method: 'POST',
  path: 'v1/organizations',
  role: 'platform-admin',
  tag: 'organizations',
  summary: 'Create an organization (platform operator only); then `POST /v1/keys` with `organization` gives it keys',
  body: CreateOrganizationRequestSchema,
  responses: { 201: 'created', 400: 'invalid body', 403: 'not the platform operator', 409: 'the id exists' },
  response: OrganizationSchema,
  handler: async ({ services, principal, body, url }) => {
    requireOperator(principal, 'creating an organization');
    const { clock, stores } = unscopedServicesOf(services);
    const { _etag, ...created } = await stores.organizations.create({ ...body, created_at: clock.now().toISOString() });
    return { status: 201, headers: { location: `${url.origin}/api/v1/organizations/${created.id}`, etag: _etag }, body: created };
  },
});

export const listOrganizationsRoute = defineRoute({
  name: 'organizations-list',
  method: 'GET',
  path: 'v1/organizations',
  role: 'reader',
  tag: 'organizations',
  summary: "List organizations: every one for the platform operator, the caller's own otherwise",
  query: PagingQuery,
  responses: { 200: 'a page of organizations' },
  response: pageSchemaOf(OrganizationSchema),
  handler: async ({ services, principal, query }) => {
    const page = await (await organizationsFor(services, principal)).list(query);
    return { status: 200, body: { ...page, items: page.items.map(({ _etag, ...o }) => o) } };
  },
});

export const getOrganizationRoute = defineRoute({
  name: 'organizations-get',
  method: 'GET',
  path: 'v1/organizations/{id}',
  role: 'reader',
  tag: 'organizations',
  summary: "An organization (the caller's own; any for the platform operator)",
  params: OrgParams,
  responses: { 200: 'the organization', 404: 'unknown (or another organization)' },
  response: OrganizationSchema,
  handler: async ({ services, principal, params }) => {
    const found = await (await organizationsFor(services, principal)).get(params.id);
    if (!found) throw new NotFoundError('organization', params.id);
    const { _etag, ...org } = found;
    return { status: 200, headers: { etag: _etag }, body: org };
  },
});

export const setBudgetRoute = defineRoute({
  name: 'organizations-set-budget',
  method: 'PUT',
  path: 'v1/organizations/{id}/budget',
  role: 'platform-admin',
  tag: 'organizations',
  summary: 'Set (or with `monthly_usd: null` remove) the monthly budget for judge and target spending',
  params: OrgParams,
  body: z.object({ monthly_usd: z.number().positive().nullable() }).strict(),
  responses: { 200: 'the organization with its budget', 400: 'invalid body', 404: 'unknown (or another organization)' },
  response: OrganizationSchema,
  handler: async ({ services, principal, params, body }) => {
    const organizations = await organizationsFor(services, principal);
    const found = await organizations.get(params.id);
    if (!found) throw new NotFoundError('organization', params.id);
    const { _etag, budget: _old, ...rest } = found;
    const next = body.monthly_usd === null ? rest : { ...rest, budget: { monthly_usd: body.monthly_usd } };
    const { _etag: etag, ...saved } = await organizations.replace(next, { ifMatch: _etag });
    return { status: 200, headers: { etag }, body: saved };
  },
});

export const setRetentionRoute = defineRoute({
  name: 'organizations-set-retention',
  method: 'PUT',
  path: 'v1/organizations/{id}/retention',
  role: 'platform-admin',
  tag: 'organizations',
  summary:
    "Set (or with `days: null` remove) the organization's retention period: days after a run finishes when its scorecards are deleted (statistics kept); absent, the platform's EVALP_RETENTION_DAYS applies",
  params: OrgParams,
  body: z.object({ days: z.number().int().positive().max(36_500).nullable() }).strict(),
  responses: { 200: 'the organization with its retention', 400: 'invalid body', 404: 'unknown (or another organization)' },
  response: OrganizationSchema,
  handler: async ({ services, principal, params, body }) => {
    const organizations = await organizationsFor(services, principal);
    const found = await organizations.get(params.id);
    if (!found) throw new NotFoundError('organization', params.id);
    const { _etag, retention_days: _old, ...rest } = found;
    const next = body.days === null ? rest : { ...rest, retention_days: body.days };
    const { _etag: etag, ...saved } = await organizations.replace(next, { ifMatch: _etag });
    return { status: 200, headers: { etag }, body: saved };
  },
});

const BudgetStatusSchema = z.object({
  organization: z.string(),
  month: z.string(),
  spent_usd: z.number(),
  budget_usd: z.number().nullable(),
  share: z.number().nullable(),
  exhausted: z.boolean(),
});

export const getBudgetRoute = defineRoute({
  name: 'organizations-budget',
  method: 'GET',
  path: 'v1/organizations/{id}/budget',
  role: 'reader',
  tag: 'organizations',
  summary: "The organization's spending this month (UTC) against its monthly budget; `exhausted`: stage 4 no longer calls the judge",
  params: OrgParams,
  responses: { 200: 'the budget status', 404: 'unknown (or another organization)' },
  response: BudgetStatusSchema,
  handler: async ({ services, principal, params }) => {
    if (!(await (await organizationsFor(services, principal)).get(params.id))) throw new NotFoundError('organization', params.id);
    const all = unscopedServicesOf(services);
    return {
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: await new BudgetLedger(all.stores, all.clock, { cacheMs: 0 }).status(params.id),
    };
  },
});

/** The organization a key is made for: the caller's, or (platform operator only) an existing other one. */
export async function keyOrganization(
  services: Services,
  principal: Principal | undefined,
  requested: string | undefined,
): Promise<string> {
  const own = organizationOfPrincipal(principal);
  if (requested === undefined || requested === own) return own;
  requireOperator(principal, 'creating a key for another organization');
  const all = unscopedServicesOf(services);
  await ensureDefaultOrganization(all.stores.organizations, all.clock);
  if (!(await all.stores.organizations.get(requested))) {
    throw new ApiError(422, 'Unprocessable Content', `organization "${requested}" does not exist`, [
      { path: 'body.organization', message: 'does not exist' },
    ]);
  }
  return requested;
}

/** Organization routes. */
export const ORGANIZATION_ROUTES: readonly RouteDefinition[] = [
  createOrganizationRoute,
  listOrganizationsRoute,
  getOrganizationRoute,
  setBudgetRoute,
  getBudgetRoute,
  setRetentionRoute,
];
