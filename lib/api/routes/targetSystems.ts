import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Services } from '../../ports/index.js';
import { TargetSystemSchema, type TargetSystem } from '../../domain/index.js';
import type { RouteDefinition } from '../route.js';
import { referrersIn, requireReferences } from './entityReferences.js';
import { EntityIdSchema, entityRoutes } from './entityRoutes.js';
import { requireAllowedOutboundUrls } from '../outboundUrls.js';
import { literalSecretIssues, refusingLiteralSecrets } from './targetSecrets.js';
import { targetProbeRoute } from './targetProbe.js';
import { catalogId } from './toolCatalogs.js';

/** Refuses literal secrets with 400 naming the field, whatever else is wrong with the body. */
const noLiteralSecrets = <S extends z.ZodType>(schema: S): S => refusingLiteralSecrets(schema, literalSecretIssues);

/** A target as a client sends it: the domain fields without the server's id and timestamps; secrets only as references. */
const TargetFields = TargetSystemSchema.omit({ id: true, created_at: true, updated_at: true });
export const CreateTargetRequestSchema = noLiteralSecrets(TargetFields.extend({ id: EntityIdSchema.optional() }));
export const ReplaceTargetRequestSchema = noLiteralSecrets(TargetFields);

/** Validates a target (400) and that its tool catalog exists (422 naming `body.tool_catalog`). */
async function validTarget(fields: z.infer<typeof TargetFields>, id: string, createdAt: string, services: Services): Promise<TargetSystem> {
  const target = TargetSystemSchema.parse({ ...fields, id, created_at: createdAt, updated_at: services.clock.now().toISOString() });
  const { settings } = target;
  if (settings.kind === 'http') await requireAllowedOutboundUrls(services, [{ path: 'body.settings.url', url: settings.url }]);
  if (settings.kind === 'openai') await requireAllowedOutboundUrls(services, [{ path: 'body.settings.base_url', url: settings.base_url }]);
  if (target.tool_catalog) {
    const ref = catalogId(target.tool_catalog.name, target.tool_catalog.version);
    await requireReferences(
      'tool catalog',
      [{ path: 'tool_catalog', id: ref }],
      async (key) => (await services.stores.catalogs.get(key)) !== undefined,
    );
  }
  return target;
}

const crud = entityRoutes({
  name: 'target-systems',
  tag: 'target-systems',
  noun: 'target system',
  collection: 'v1/target-systems',
  item: '{id}',
  params: z.object({ id: z.string().min(1) }),
  idOf: (p) => p.id,
  pathOf: (t) => `v1/target-systems/${encodeURIComponent(t.id)}`,
  role: 'platform-admin',
  ownable: true,
  store: (services: Services) => services.stores.targets,
  schema: TargetSystemSchema,
  createBody: CreateTargetRequestSchema,
  replaceBody: ReplaceTargetRequestSchema,
  toCreate: async ({ id, ...fields }, { services }) =>
    validTarget(fields, id ?? randomUUID(), services.clock.now().toISOString(), services),
  toReplace: async (fields, current, _params, { services }) => validTarget(fields, current.id, current.created_at, services),
  referrersOf: (target, services) => referrersIn(services.stores.clients, 'client', (c) => c.target_id === target.id),
  summaries: {
    list: 'List target systems',
    get: 'A target system (secrets appear only as references)',
    create: 'Register a target system (literal secrets are refused: use {"env": "NAME"} or {"keyvault": "name"})',
    replace: 'Replace a target system (If-Match for optimistic concurrency)',
    delete: 'Delete a target system (409 while a client uses it)',
  },
});

/** Target-system routes: CRUD and the one-request probe. Role platform-admin for changes and probes. */
export const TARGET_SYSTEM_ROUTES: readonly RouteDefinition[] = [
  crud.list,
  crud.create,
  crud.get,
  crud.replace,
  crud.remove,
  targetProbeRoute,
];
