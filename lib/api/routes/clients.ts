import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Services } from '../../ports/index.js';
import { ClientSchema, RunStatusSchema, type Client } from '../../domain/index.js';
import { scheduleProblem } from '../../runs/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { requireAllowedOutboundUrls } from '../outboundUrls.js';
import { requireReferences } from './entityReferences.js';
import { EntityIdSchema, PagingQuery, entityRoutes, withoutEtag } from './entityRoutes.js';

/** A client as a caller sends it: the domain fields without the server's id and timestamps; the schedule checked. */
const ClientFields = ClientSchema.omit({ id: true, created_at: true, updated_at: true });
function withValidSchedule<S extends z.ZodType<{ schedule_cron?: string | undefined; schedules?: Array<{ cron: string }> | undefined }>>(
  schema: S,
): S {
  return schema.superRefine((client, ctx) => {
    const problem = client.schedule_cron === undefined ? undefined : scheduleProblem(client.schedule_cron);
    if (problem) ctx.addIssue({ code: 'custom', path: ['schedule_cron'], message: problem });
    (client.schedules ?? []).forEach((entry, i) => {
      const why = scheduleProblem(entry.cron);
      if (why) ctx.addIssue({ code: 'custom', path: ['schedules', i, 'cron'], message: why });
    });
  }) as S;
}
export const CreateClientRequestSchema = withValidSchedule(ClientFields.extend({ id: EntityIdSchema.optional() }));
export const ReplaceClientRequestSchema = withValidSchedule(ClientFields);

/** Validates a client (400) and that its suites and target exist (422 naming `body.suite_ids.N` / `body.target_id`). */
async function validClient(fields: z.infer<typeof ClientFields>, id: string, createdAt: string, services: Services): Promise<Client> {
  const client = ClientSchema.parse({
    ...fields,
    id,
    suite_ids: [...new Set(fields.suite_ids)],
    created_at: createdAt,
    updated_at: services.clock.now().toISOString(),
  });
  await requireAllowedOutboundUrls(services, [
    ...client.notify.map((n, i) => ({ path: `body.notify.${i}.url`, url: n.kind === 'webhook' ? n.url : undefined })),
    { path: 'body.config_overrides.execution.base_url', url: client.config_overrides?.execution?.base_url },
  ]);
  const { suites, targets } = services.stores;
  await requireReferences(
    'test suite',
    fields.suite_ids.map((sid, i) => ({ path: `suite_ids.${i}`, id: sid })),
    async (sid) => (await suites.get(sid)) !== undefined,
  );
  await requireReferences(
    'target system',
    [{ path: 'target_id', id: fields.target_id }],
    async (tid) => (await targets.get(tid)) !== undefined,
  );
  return client;
}

const crud = entityRoutes({
  name: 'clients',
  tag: 'clients',
  noun: 'client',
  collection: 'v1/clients',
  item: '{id}',
  params: z.object({ id: z.string().min(1) }),
  idOf: (p) => p.id,
  pathOf: (c) => `v1/clients/${encodeURIComponent(c.id)}`,
  role: 'platform-admin',
  store: (services: Services) => services.stores.clients,
  schema: ClientSchema,
  createBody: CreateClientRequestSchema,
  replaceBody: ReplaceClientRequestSchema,
  toCreate: async ({ id, ...fields }, { services }) =>
    validClient(fields, id ?? randomUUID(), services.clock.now().toISOString(), services),
  toReplace: async (fields, current, _params, { services }) => validClient(fields, current.id, current.created_at, services),
  summaries: {
    list: 'List clients (teams/tenants)',
    get: 'A client: its suites, target, schedule, notify list, config overrides and thresholds',
    create: 'Create a client (schedule_cron is six-field NCRONTAB in UTC; unknown suites or target: 422)',
    replace: 'Replace a client (If-Match for optimistic concurrency)',
    delete: 'Delete a client (its runs stay; list them with GET /api/v1/runs?client_id=)',
  },
});

export const listClientRunsRoute = defineRoute({
  name: 'clients-runs',
  method: 'GET',
  path: 'v1/clients/{id}/runs',
  role: 'reader',
  tag: 'clients',
  summary: "A client's runs, newest first, paged (optionally by status)",
  params: z.object({ id: z.string().min(1) }),
  query: PagingQuery.extend({ status: RunStatusSchema.optional() }),
  responses: { 200: 'a page of runs', 404: 'no such client' },
  handler: async ({ services, params, query }) => {
    if (!(await services.stores.clients.get(params.id))) throw new ApiError(404, 'Not Found', `client "${params.id}" does not exist`);
    const { limit, offset, status } = query;
    const page = await services.stores.runs.listRuns({ client_id: params.id, ...(status ? { status } : {}) }, { limit, offset });
    return { status: 200, body: { ...page, items: page.items.map((r) => withoutEtag(r)) } };
  },
});

/** Client routes: CRUD and the client's runs. Role platform-admin for changes. */
export const CLIENT_ROUTES: readonly RouteDefinition[] = [crud.list, crud.create, crud.get, crud.replace, crud.remove, listClientRunsRoute];
