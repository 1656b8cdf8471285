import { z } from 'zod';
import { OrganizationFieldSchema } from './organization.js';
import { ToolCatalogSchema, type ToolCatalog } from './toolCatalog.js';

/** The id a tool catalog is stored under: `${name}@${tool_schema_version}`. */
export function toolCatalogId(name: string, toolSchemaVersion: string): string {
  return `${name}@${toolSchemaVersion}`;
}

/** A tool catalog as stored: the catalog and its id. */
export type StoredToolCatalog = ToolCatalog & { id: string; organization?: string | undefined };

/** A ToolCatalog plus its store id, which must be `${name}@${tool_schema_version}`. */
export const StoredToolCatalogSchema: z.ZodType<StoredToolCatalog> = ToolCatalogSchema.safeExtend({
  id: z.string().min(1),
  organization: OrganizationFieldSchema,
}).superRefine((catalog, ctx) => {
  const expected = toolCatalogId(catalog.name, catalog.tool_schema_version);
  if (catalog.id !== expected) {
    ctx.addIssue({
      code: 'custom',
      path: ['id'],
      message: `a tool catalog is stored under "<name>@<tool_schema_version>", here "${expected}"`,
    });
  }
});
