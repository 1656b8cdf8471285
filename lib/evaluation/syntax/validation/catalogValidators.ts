import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ToolCatalog, ToolDefinition } from '../../../domain/index.js';

/** A tool's parameters schema does not compile: broken configuration, so it throws (once per tool and catalog). */
export class ToolSchemaError extends Error {
  readonly code = 'invalid_tool_schema';
  constructor(
    readonly catalog: string,
    readonly tool: string,
    cause: unknown,
  ) {
    super(
      `Tool catalog ${catalog}: the parameters schema of tool "${tool}" does not compile: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'ToolSchemaError';
  }
}

const DEFAULT_PARAMETERS = { type: 'object', properties: {} };

/** The validators of one catalog: each tool's schema is compiled once, on first use, by one Ajv per catalog. */
export class CatalogValidator {
  private ajv: Ajv2020 | undefined;
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly catalog: ToolCatalog) {
    for (const tool of catalog.tools) if (!this.tools.has(tool.name)) this.tools.set(tool.name, tool);
  }

  /** The compiled validator of a tool's parameters, or undefined when the catalog has no such tool. */
  forTool(toolName: string): ValidateFunction | undefined {
    return this.compiled.get(toolName) ?? this.compile(toolName);
  }

  /** The catalog's tool names (for "did you mean" messages). */
  toolNames(): string[] {
    return [...this.tools.keys()];
  }

  private compile(toolName: string): ValidateFunction | undefined {
    const tool = this.tools.get(toolName);
    if (tool === undefined) return undefined;
    this.ajv ??= newAjv();
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile(tool.parameters ?? DEFAULT_PARAMETERS);
    } catch (error) {
      throw new ToolSchemaError(`${this.catalog.name}@${this.catalog.tool_schema_version}`, toolName, error);
    }
    this.compiled.set(toolName, validate);
    return validate;
  }
}

/** One CatalogValidator per catalog object (a WeakMap: it goes when the catalog goes). */
const cache = new WeakMap<ToolCatalog, CatalogValidator>();

export function catalogValidator(catalog: ToolCatalog): CatalogValidator {
  let validator = cache.get(catalog);
  if (validator === undefined) {
    validator = new CatalogValidator(catalog);
    cache.set(catalog, validator);
  }
  return validator;
}

/** strict: false ignores vendor keywords (`strict`, `x-…`); validateSchema: false accepts any `$schema` (draft-07 too). */
function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false });
  addFormatsModule.default(ajv);
  return ajv;
}
