import { z } from 'zod';
import type { Services } from '../../ports/index.js';
import { type StoredToolCatalog, type ToolCatalog, ToolCatalogSchema } from '../../domain/index.js';
import { CatalogValidator, ToolSchemaError } from '../../evaluation/index.js';
import { ApiError } from '../problem.js';
import type { RouteDefinition } from '../route.js';
import { referrersIn } from './entityReferences.js';
import { entityRoutes } from './entityRoutes.js';
import { CATALOG_IMPACT_ROUTES } from './catalogImpact.js';

/** The name and the version are path segments (`/tool-catalogs/{name}/versions/{version}`). */
const KeyPart = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/,
    '1-100 characters: letters, digits and . _ - (it appears in URLs), starting with a letter or digit',
  );
const CatalogFields = z.strictObject(ToolCatalogSchema.shape);
export const CreateToolCatalogRequestSchema = CatalogFields.extend({ name: KeyPart, tool_schema_version: KeyPart });
/** The path names the catalog; `name` and `tool_schema_version` may be repeated in the body but must match it. */
export const ReplaceToolCatalogRequestSchema = CatalogFields.partial({ name: true, tool_schema_version: true });

/** The store id of a catalog (the StoredToolCatalog port: `${name}@${tool_schema_version}`). */
export const catalogId = (name: string, version: string): string => `${name}@${version}`;

/** Validates a catalog: domain rules (duplicate tool names) and every tool's parameters compile as JSON Schema (400). */
function validCatalog(input: unknown): StoredToolCatalog {
  const catalog: ToolCatalog = ToolCatalogSchema.parse(input);
  const validator = new CatalogValidator(catalog);
  catalog.tools.forEach((tool, i) => {
    try {
      validator.forTool(tool.name);
    } catch (err) {
      if (!(err instanceof ToolSchemaError)) throw err;
      throw new ApiError(400, 'Bad Request', err.message, [
        { path: `body.tools.${i}.parameters`, message: 'is not a JSON Schema that compiles' },
      ]);
    }
  });
  return { ...catalog, id: catalogId(catalog.name, catalog.tool_schema_version) };
}

const Params = z.object({ name: z.string().min(1), version: z.string().min(1) });

const crud = entityRoutes({
  name: 'tool-catalogs',
  tag: 'tool-catalogs',
  noun: 'tool catalog',
  collection: 'v1/tool-catalogs',
  item: '{name}/versions/{version}',
  params: Params,
  idOf: (p) => catalogId(p.name, p.version),
  pathOf: (c) => `v1/tool-catalogs/${encodeURIComponent(c.name)}/versions/${encodeURIComponent(c.tool_schema_version)}`,
  role: 'test-admin',
  store: (services: Services) => services.stores.catalogs,
  schema: ToolCatalogSchema.safeExtend({ id: z.string() }),
  createBody: CreateToolCatalogRequestSchema,
  replaceBody: ReplaceToolCatalogRequestSchema,
  toCreate: async (body) => validCatalog(body),
  toReplace: async (body, current) => {
    const errors = [
      ...(body.name !== undefined && body.name !== current.name
        ? [{ path: 'body.name', message: `must be "${current.name}" (the name in the path)` }]
        : []),
      ...(body.tool_schema_version !== undefined && body.tool_schema_version !== current.tool_schema_version
        ? [
            {
              path: 'body.tool_schema_version',
              message: `must be "${current.tool_schema_version}" (the version in the path); a new version is a new catalog: POST it`,
            },
          ]
        : []),
    ];
    if (errors.length > 0) throw new ApiError(400, 'Bad Request', errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
    return validCatalog({ ...body, name: current.name, tool_schema_version: current.tool_schema_version });
  },
  referrersOf: (catalog, services) =>
    referrersIn(
      services.stores.targets,
      'target',
      (t) => t.tool_catalog?.name === catalog.name && t.tool_catalog.version === catalog.tool_schema_version,
    ),
  summaries: {
    list: 'List tool catalogs (every name and tool_schema_version)',
    get: 'One version of a tool catalog',
    create: 'Create a tool catalog version (stored as name@tool_schema_version; parameters must compile as JSON Schema)',
    replace: 'Replace a tool catalog version (If-Match for optimistic concurrency)',
    delete: 'Delete a tool catalog version (409 while a target system uses it)',
  },
});

/** Tool-catalog routes, keyed by name and tool_schema_version. Role test-admin for changes. */
export const TOOL_CATALOG_ROUTES: readonly RouteDefinition[] = [
  crud.list,
  crud.create,
  crud.get,
  crud.replace,
  crud.remove,
  ...CATALOG_IMPACT_ROUTES,
];
